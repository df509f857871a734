import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from '../../../src/render/output.js';
import { renderTable } from '../../../src/render/table.js';

/** Terminal columns a string takes: 2 for East Asian wide characters and emoji, else 1. */
function columns(text: string): number {
  const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u;
  let width = 0;
  for (const char of text) width += wide.test(char) ? 2 : 1;
  return width;
}

function terminalOutput(): Output {
  const stdout = Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), { isTTY: true });
  return new Output({ json: false, color: false, stdout, env: {}, columns: 120 });
}

describe('TTY tables', () => {
  it('keep their columns aligned with CJK text and emoji in the cells', () => {
    const out = terminalOutput();
    expect(out.tty).toBe(true);
    const table = renderTable(
      out,
      [{ header: 'ID' }, { header: 'NAME' }, { header: 'NOTE' }],
      [
        ['g1', '注文確認メール', 'ascii'],
        ['g2', 'Receipt 🧾', '配送 🚚 완료'],
        ['g3', 'plain', '\u001b[31mred\u009b'],
      ],
    );
    const lines = table.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    // Each column starts at the same terminal column on every line: where the header's does.
    const starts = (line: string) => {
      const chars = [...line];
      return chars.flatMap((char, index) =>
        char !== ' ' && index >= 2 && chars[index - 1] === ' ' && chars[index - 2] === ' ' ? [columns(chars.slice(0, index).join(''))] : [],
      );
    };
    const expected = starts(lines[0]!);
    expect(expected).toEqual([4, 20]);
    for (const line of lines) expect(starts(line)).toEqual(expected);
    expect(table).toContain('\\x1b[31mred\\x9b');
  });
});
