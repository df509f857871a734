/**
 * What a newcomer meets in `content check` and `content render`: an email's escape sequences
 * never reach a terminal raw, and the habits of other template languages get a fix that works.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const offline = { LOOPS_API_KEY: undefined };

function lmxFile(content: string): string {
  const path = join(tempDir('loopsctl-newcomer-'), 'email.lmx');
  writeFileSync(path, content);
  return path;
}

/** What a terminal acts on: ESC, BEL, CSI and the other C0 and C1 controls but tab and line ends. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Sets the terminal's title, writes its clipboard, clears its screen. */
const HOSTILE = 'Hi\u001b]0;owned\u0007 \u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31m there';

describe('control characters in an email', () => {
  it('reach a terminal escaped from content render, and a pipe or file as they are', async () => {
    const file = lmxFile(`<Paragraph>${HOSTILE}</Paragraph>\n`);
    const onTerminal = await run(['content', 'render', file], { env: offline, tty: { columns: 100 } });
    expect(onTerminal.code, onTerminal.stderr).toBe(0);
    expect(onTerminal.stdout).not.toMatch(CONTROL);
    expect(onTerminal.stdout).toContain('Hi\\x1b]0;owned\\x07 \\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J\\x9b31m there');
    // Lines stay lines.
    expect(onTerminal.stdout.split('\n').length).toBeGreaterThan(10);
    const piped = await run(['content', 'render', file], { env: offline });
    expect(piped.stdout).toContain(HOSTILE);
  });

  it('are a warning of content check, at their line and column', async () => {
    const file = lmxFile(`<H1>Welcome</H1>\n<Paragraph>${HOSTILE}</Paragraph>\n`);
    const result = await run(['content', 'check', file, '--json'], { env: offline });
    expect(result.code, result.stderr).toBe(0);
    const [check] = result.json<{ errors: unknown[]; warnings: { rule: string; line: number; column: number; message: string }[] }[]>();
    expect(check!.errors).toEqual([]);
    expect(check!.warnings.map(({ rule, line, column }) => [rule, line, column])).toEqual([
      ['control-character', 2, 14],
      ['control-character', 2, 23],
      ['control-character', 2, 25],
      ['control-character', 2, 44],
      ['control-character', 2, 49],
    ]);
    expect(check!.warnings[0]!.message).toContain('U+001B');
    const text = await run(['content', 'check', file], { env: { ...offline, NO_COLOR: '1' }, tty: { columns: 200 } });
    expect(text.stdout).not.toMatch(CONTROL);
    expect(text.stdout).toContain('control-character');
  });
});

describe('habits of other template languages', () => {
  it('warns of {{data.firstName}}, which renders Hi {Ada}, with the fix', async () => {
    const file = lmxFile('<Paragraph>Hi {{data.firstName}}</Paragraph>\n');
    const checked = await run(['content', 'check', file, '--kind', 'transactional', '--json'], { env: offline });
    expect(checked.code, checked.stderr).toBe(0);
    const [check] = checked.json<{ warnings: { rule: string; line: number; column: number; message: string; fix: string }[] }[]>();
    expect(check!.warnings).toEqual([
      expect.objectContaining({ rule: 'variable-syntax', line: 1, column: 15, fix: 'write {data.firstName}, with one pair of braces' }),
    ]);
    expect(check!.warnings[0]!.message).toMatch(/^\{\{data\.firstName\}\} is Handlebars syntax/);
    const values = join(tempDir(), 'values.json');
    writeFileSync(values, '{"firstName":"Ada"}');
    const rendered = await run(['content', 'render', file, '--kind', 'transactional', '--data', values], { env: offline });
    expect(rendered.stdout).toContain('Hi {Ada}');
  });

  it('advises <Br /> for <br>, which then passes', async () => {
    for (const written of ['<br>', '<BR>', '<Br>', '<br/>']) {
      const result = await run(['content', 'check', lmxFile(`<Paragraph>one${written}two</Paragraph>\n`), '--json'], { env: offline });
      const [check] = result.json<{ errors: { rule: string; fix: string }[] }[]>();
      expect(
        check!.errors.map((problem) => problem.fix),
        written,
      ).toEqual([expect.stringMatching(/^write <Br \/>/)]);
    }
    const fixed = await run(['content', 'check', lmxFile('<Paragraph>one<Br />two</Paragraph>\n')], { env: offline });
    expect(fixed.code, fixed.stdout).toBe(0);
  });
});
