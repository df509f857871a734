/** `segments list` fits its table to the terminal's width, as other lists do: its free text is not cut at 80 columns on a wider one. */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const unpainted = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('segments list on a terminal', () => {
  it("uses the terminal's width for its descriptions and filters", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const listed = async (columns: number) => unpainted((await run(['--sandbox', 'segments', 'list'], { env, tty: { columns } })).stdout).split('\n');
    const narrow = await listed(80);
    const wide = await listed(220);
    expect(Math.max(...narrow.map((line) => line.length))).toBeLessThanOrEqual(80);
    // On a wide terminal a row is wider than 80 columns, and a description cut at 80 is whole.
    expect(Math.max(...wide.map((line) => line.length))).toBeGreaterThan(150);
    expect(wide.join('\n')).toContain('Opted in, signed up last autumn, and opened the newsletter');
    expect(narrow.join('\n')).not.toContain('Opted in, signed up last autumn, and opened the newsletter');
  });
});
