import { describe, expect, it } from 'vitest';
import { sanitize } from '../../../src/base/sanitize.js';
import { formatCount, formatRate } from '../../../src/render/numbers.js';
import { progressText } from '../../../src/render/progress.js';

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(52907)).toBe('52,907');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-1234567)).toBe('-1,234,567');
    expect(formatCount(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254,740,991');
  });

  it('rounds a fraction to a whole count', () => {
    expect(formatCount(1234.5)).toBe('1,235');
    expect(formatCount(999.4)).toBe('999');
  });

  it('is what the progress line shows', () => {
    expect(progressText(52907, 1234567, 'themes')).toBe('fetched 52,907 of 1,234,567 themes');
  });
});

describe('formatRate', () => {
  it('shows two decimals, so a few spam reports in many sends are not 0%', () => {
    expect(formatRate(4, 52907)).toBe('0.01%');
    expect(formatRate(52518, 52907)).toBe('99.26%');
    expect(formatRate(231 + 158, 52907)).toBe('0.74%');
    expect(formatRate(0, 52907)).toBe('0.00%');
    expect(formatRate(52907, 52907)).toBe('100.00%');
  });

  it('never rounds a rate to exactly none or all when it is not', () => {
    expect(formatRate(1, 1_000_000)).toBe('<0.01%');
    expect(formatRate(999_999, 1_000_000)).toBe('>99.99%');
  });

  it('is "-" when there is nothing to divide by', () => {
    expect(formatRate(0, 0)).toBe('-');
    expect(formatRate(3, 0)).toBe('-');
  });
});

describe('sanitize', () => {
  it('escapes bidi embeddings, overrides and isolates', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    expect(sanitize(`invoice${bidi}fdp.exe`)).toBe('invoice\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069fdp.exe');
  });

  it('escapes zero-width characters and the line and paragraph separators', () => {
    expect(sanitize('a\u200bb\u200cc\u200dd\u200ee\u200ff\u2060g\ufeffh')).toBe('a\\u200bb\\u200cc\\u200dd\\u200ee\\u200ff\\u2060g\\ufeffh');
    expect(sanitize('one\u2028two\u2029three')).toBe('one\\u2028two\\u2029three');
  });

  it('still escapes C0 and C1 controls, and leaves other text alone', () => {
    expect(sanitize('\u001b[2J\u009b\t\n')).toBe('\\x1b[2J\\x9b\\t\\n');
    expect(sanitize('注文確認 🧾 café – “quotes”')).toBe('注文確認 🧾 café – “quotes”');
  });
});
