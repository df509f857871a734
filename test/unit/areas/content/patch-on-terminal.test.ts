import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { patchOnTerminal } from '../../../../src/areas/content/shared/render.js';
import { Output } from '../../../../src/render/output.js';

const output = (tty: boolean, columns = 80) => {
  const stdout = Object.assign(new PassThrough(), { isTTY: tty, columns });
  return new Output({ json: false, color: false, stdout, stderr: new PassThrough(), env: {}, columns });
};

const BUTTON =
  '+<Button href="https://example.com/track" bgColor="#414141" textColor="#ffffff" borderRadius="3" fontSize="13" innerYPadding="10" innerXPadding="25" align="center">Track it</Button>';
const patch = ['--- a/draft.lmx', '+++ b/draft.lmx', '@@ -1,1 +1,2 @@', ' <Paragraph>Hi</Paragraph>', BUTTON].join('\n');

describe('a patch shown on a terminal', () => {
  it('folds a line wider than the window at its spaces, each piece under its + marked ↳', () => {
    const shown = patchOnTerminal(output(true, 80), patch).split('\n');
    for (const line of shown) expect([...line].length).toBeLessThanOrEqual(80);
    const folded = shown.slice(4);
    expect(folded.length).toBeGreaterThan(1);
    expect(folded[0]!.startsWith('+<Button ')).toBe(true);
    for (const line of folded.slice(1)) expect(line.startsWith('+↳ ')).toBe(true);
    // Nothing of the line is lost: its pieces joined again are the line.
    expect(folded.map((line, index) => (index === 0 ? line.slice(1) : line.slice(3))).join(' ')).toBe(BUTTON.slice(1));
    expect(shown.slice(0, 4)).toEqual(patch.split('\n').slice(0, 4));
  });

  it('cuts a word longer than the window, so even an address fits', () => {
    const long = `+<Image src="https://example.com/${'a'.repeat(200)}.png" />`;
    for (const line of patchOnTerminal(output(true, 60), long).split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
  });

  it('is left as made on a pipe, for git apply and grep', () => {
    expect(patchOnTerminal(output(false), patch)).toBe(patch);
  });
});
