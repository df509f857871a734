import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { InternalError } from '../../../src/base/errors.js';
import { Output } from '../../../src/render/output.js';
import { styleFor } from '../../../src/render/style.js';

const sink = (isTTY: boolean) => Object.assign(new Writable({ write: (_chunk, _encoding, done) => done() }), { isTTY });
const output = (color: boolean) => new Output({ json: false, color, stdout: sink(true), stderr: sink(false), env: {} });

describe('the palette', () => {
  it('with colour off, is what chalk gives at level 0, without loading chalk', () => {
    const plain = styleFor(output(false));
    const chalk = new Chalk({ level: 0 });
    expect(plain.bold('a')).toBe(chalk.bold('a'));
    expect(plain.red.bold.underline('a', 'b')).toBe(chalk.red.bold.underline('a', 'b'));
    expect(plain.hex('#ff0000').bgAnsi256(12)('x')).toBe(chalk.hex('#ff0000').bgAnsi256(12)('x'));
    expect(plain.dim()).toBe(chalk.dim());
    expect(plain.green(42 as unknown as string)).toBe('42');
  });

  it('with colour on, is chalk once loaded, and refuses to paint before', async () => {
    const out = output(true);
    expect(() => styleFor(out)).toThrow(InternalError);
    await out.loadPalette();
    expect(styleFor(out).red('a')).toBe('\x1b[31ma\x1b[39m');
  });
});
