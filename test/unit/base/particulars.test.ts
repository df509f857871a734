/**
 * Words followed by their particulars (src/base/particulars.ts): a refusal naming many records
 * shows them a line each, and the same words stay one line where a list of units is a line each.
 */
import { describe, expect, it } from 'vitest';
import { hasParticulars, inOneLine, saidBeforeParticulars, withParticulars } from '../../../src/base/particulars.js';

describe('words with their particulars', () => {
  it('says one particular after a colon, in one line, and many a line each', () => {
    expect(withParticulars('that a live email uses', ['the email of campaign "N"'])).toBe('that a live email uses: the email of campaign "N"');
    const many = withParticulars('that 2 live emails use', ['a', 'b']);
    expect(many).toBe('that 2 live emails use\n  - a\n  - b');
    expect(hasParticulars(many)).toBe(true);
    expect(hasParticulars('that a live email uses: a')).toBe(false);
  });

  it('says a clause after the head, before the particulars, and the whole in one line where wanted', () => {
    const many = withParticulars('edits a theme that 2 live emails use', ['a', 'b']);
    expect(saidBeforeParticulars(many, ', which needs a yes')).toBe('edits a theme that 2 live emails use, which needs a yes:\n  - a\n  - b');
    expect(saidBeforeParticulars('edits a workflow that is Sending', ', which needs a yes')).toBe('edits a workflow that is Sending, which needs a yes');
    expect(inOneLine(many)).toBe('edits a theme that 2 live emails use: a; b');
    expect(inOneLine('edits a workflow')).toBe('edits a workflow');
  });

  it('makes no line of its own from a line break in a name', () => {
    const forged = withParticulars('that 2 live emails use', ['workflow "x\n  - y"', 'workflow "z\r\n"']);
    expect(forged.split('\n')).toEqual(['that 2 live emails use', '  - workflow "x\\n  - y"', '  - workflow "z\\n"']);
  });
});
