import { describe, expect, it } from 'vitest';
import { hasUnsafeIntegers, jsonNestingExceeds, MAX_JSON_DEPTH } from '../../../src/api/json-scan.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('jsonNestingExceeds', () => {
  it('allows 512 levels and refuses 513, arrays and objects alike', () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    expect(jsonNestingExceeds(nested(512))).toBe(false);
    expect(jsonNestingExceeds(nested(513))).toBe(true);
    expect(jsonNestingExceeds(`${'{"a":'.repeat(513)}1${'}'.repeat(513)}`)).toBe(true);
    expect(jsonNestingExceeds(nested(3), 2)).toBe(true);
  });

  it('counts siblings once, not their sum', () => {
    expect(jsonNestingExceeds(`[${Array.from({ length: 1000 }, () => '[[1]]').join(',')}]`, 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ note: `${'['.repeat(600)}\\"[[[`, other: '"{{{{' });
    expect(jsonNestingExceeds(text, 2)).toBe(false);
  });

  it('tells a quote after escaped backslashes, which ends a string, from an escaped quote', () => {
    // Strings that end in escaped backslashes, and one that holds an escaped quote: only a quote after an even run of backslashes ends a string.
    const endsInBackslashes = JSON.stringify(['a\\', '\\\\', '\\"[', '']);
    expect(jsonNestingExceeds(`[[${endsInBackslashes}]]`, 3)).toBe(false);
    expect(jsonNestingExceeds(`[[${endsInBackslashes.replace('""', '[]')}]]`, 3)).toBe(true);
    expect(hasUnsafeIntegers(`["\\\\", 12345678901234567890]`)).toBe(true);
    expect(hasUnsafeIntegers(`["\\"12345678901234567890"]`)).toBe(false);
  });
});

describe('hasUnsafeIntegers', () => {
  it('finds integers past ±2^53 - 1 anywhere, and only those', () => {
    expect(hasUnsafeIntegers('{"id": 9007199254740991, "n": -9007199254740991}')).toBe(false);
    expect(hasUnsafeIntegers('{"id": 9007199254740993}')).toBe(true);
    expect(hasUnsafeIntegers('[1, {"a": [-12345678901234567890]}]')).toBe(true);
    expect(hasUnsafeIntegers('{"n": 0000000000000000001}')).toBe(false);
  });

  it('ignores digits inside strings, and numbers with a fraction or an exponent', () => {
    expect(hasUnsafeIntegers('{"id": "12345678901234567890", "k\\"12345678901234567890": 1}')).toBe(false);
    expect(hasUnsafeIntegers('{"x": 12345678901234567890.5, "y": 1e300}')).toBe(false);
  });

  it('is what tells that the parsed value differs from the text', () => {
    const text = '{"big":12345678901234567891}';
    expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
    expect(hasUnsafeIntegers(text)).toBe(true);
  });
});

describe('integers beyond 2^53', () => {
  it('come out of --json with the digits the API sent, in nested places too, and nothing else changes', async () => {
    const { parseJsonKeepingIntegers } = await import('../../../src/api/json-scan.js');
    const { formatJson } = await import('../../../src/render/output.js');
    const text = '{"id":12345678901234567890,"safe":9007199254740991,"list":[-98765432109876543210,1.5],"s":"12345678901234567890"}';
    const parsed = parseJsonKeepingIntegers(text);
    expect(formatJson(parsed, 0)).toBe(text);
    expect(formatJson(JSON.parse(text), 0)).not.toBe(text);
  });
});
