/**
 * Gmail clips an email whose HTML passes 102 KB. A newsletter of 13 KB of LMX renders past it:
 * `content check` warns (a warning: exit 0, 1 with --strict), `content render` says so on stderr
 * with the size, and an email under it gets neither.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const offline = { LOOPS_API_KEY: undefined };

function lmxFile(name: string, content: string): string {
  const path = join(tempDir('loopsctl-clip-'), name);
  writeFileSync(path, content);
  return path;
}

const LONG = Array.from({ length: 400 }, (_, index) => `<Paragraph>Item ${index}</Paragraph>`).join('\n');

describe("Gmail's clip", () => {
  it('content check warns of an email whose HTML passes 102 KB, with its size and what to cut', async () => {
    const file = lmxFile('long.lmx', LONG);
    expect(LONG.length).toBeLessThan(13_000);
    const result = await run(['content', 'check', file, '--kind', 'campaign', '--json'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    const [record] = result.json<{ errors: unknown[]; warnings: { rule: string; message: string; fix: string }[] }[]>();
    expect(record!.errors).toEqual([]);
    expect(record!.warnings).toEqual([
      expect.objectContaining({ rule: 'gmail-clip', message: expect.stringMatching(/^the rendered HTML is 1\d\d\.\d KB: Gmail clips/) }),
    ]);
    const strict = await run(['content', 'check', file, '--kind', 'campaign', '--strict'], { env: offline });
    expect([strict.code, strict.stderr]).toEqual([1, 'Checked 1 file: 0 errors, 1 warning in 1 file.\n']);
    expect(strict.stdout).toMatch(/gmail-clip the rendered HTML is 1\d\d\.\d KB/);
  });

  it('content render prints the HTML and says on stderr that Gmail clips it', async () => {
    const file = lmxFile('long.lmx', LONG);
    const result = await run(['content', 'render', file], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    expect(Buffer.byteLength(result.stdout)).toBeGreaterThan(102 * 1024);
    expect(result.stderr).toMatch(/The rendered HTML is 1\d\d\.\d KB: Gmail clips an email over 102\.0 KB/);
  });

  it('says nothing of an email under it', async () => {
    const file = lmxFile('short.lmx', '<Paragraph>Short</Paragraph>');
    const checked = await run(['content', 'check', file, '--kind', 'campaign', '--json'], { env: offline });
    expect(checked.json<{ warnings: unknown[] }[]>()[0]!.warnings).toEqual([]);
    const rendered = await run(['content', 'render', file], { env: offline });
    expect(rendered.stderr).toBe('');
  });
});
