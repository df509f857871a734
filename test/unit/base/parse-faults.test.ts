/** Where text that does not parse breaks, said without any of the text. */

import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { jsonFault, jsonFaultAt, jsonFaultOffset, positionAt, yamlFault, yamlValue } from '../../../src/base/parse-faults.js';

const VALID = [
  '{}',
  '[]',
  ' {"a": [1, -2.5e+3, true, false, null, "x\\"\\u00e9\\n"]} ',
  '"text"',
  '0',
  '-0.5E-2',
  '[[[[]]]]',
  '{"a": {"b": {"c": []}}, "d": ""}',
  '\n\t[1,\r\n2]\n',
];
const INVALID: [string, number][] = [
  ['', 0],
  ['{', 1],
  ['{"a": 1,}', 8],
  ['[1, 2', 5],
  ['{"a" 1}', 5],
  ["{'a': 1}", 1],
  ['[01]', 2],
  ['[1.]', 3],
  ['[tru]', 4],
  ['"a\tb"', 2],
  ['"\\x"', 2],
  ['["\\u12"]', 6],
  ['[1] x', 4],
  ['{"a": 1} {}', 9],
  ['[,1]', 1],
  ['{"a": 1 "b": 2}', 8],
  ['[}', 1],
  ['{]', 1],
  ['[1,]', 3],
  ['NaN', 0],
];

/** A deterministic stream of numbers in [0, 1): the same cases on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe('jsonFaultOffset', () => {
  it('finds no fault in JSON, and the first offset the grammar refuses in what is not', () => {
    for (const text of VALID) expect(jsonFaultOffset(text), text).toBeUndefined();
    for (const [text, offset] of INVALID) expect(jsonFaultOffset(text), text).toBe(offset);
  });

  it('agrees with JSON.parse on every mutation of a JSON text, and with the offset it names when it names one', () => {
    const random = seeded(61);
    const source = '{"name": "Ada", "seats": [1, 2.5, -3e2], "ok": true, "none": null, "nested": {"a": ["\\u00e9", "\\""]}}';
    const pieces = ['{', '}', '[', ']', ',', ':', '"', '\\', '1', '-', 'e', '.', ' ', 't', 'n', '\u0001'];
    for (let round = 0; round < 3000; round++) {
      const chars = [...source];
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * chars.length);
        const kind = random();
        if (kind < 0.33) chars.splice(at, 1);
        else if (kind < 0.66) chars.splice(at, 0, pieces[Math.floor(random() * pieces.length)]!);
        else chars[at] = pieces[Math.floor(random() * pieces.length)]!;
      }
      const text = chars.join('');
      const offset = jsonFaultOffset(text);
      expect(offset === undefined, text).toBe(parses(text));
      if (offset === undefined) continue;
      try {
        JSON.parse(text);
      } catch (error) {
        const named = /at position (\d+)/.exec((error as Error).message);
        if (named !== null) expect(offset, text).toBe(Number(named[1]));
      }
    }
  });

  it('takes nesting far deeper than the call stack would', () => {
    expect(jsonFaultOffset(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).toBeUndefined();
    expect(jsonFaultOffset(`${'['.repeat(200_000)}x`)).toBe(200_000);
  });
});

describe('what is said of a fault', () => {
  const secret = 'AKIA0000FAKE0000TEST';

  it('says a line and column for JSON, and none of the text', () => {
    const text = `{\n  "key": "${secret}" oops\n}`;
    expect(jsonFault(text)).toBe('not valid JSON at line 2, column 33');
    expect(jsonFaultAt(text)).toEqual({ line: 2, column: 33, early: false });
    expect(jsonFault(`{"key": "${secret}"`)).toBe('not valid JSON (it ends too early) at line 1, column 31');
    expect(jsonFault('  \n')).toBe('not valid JSON (it is empty)');
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it("says YAML's fault by its code and place, never by the parser's message, which quotes the line", () => {
    const text = `token: ${secret}\nsecret: "${secret}\\q"\n`;
    const document = parseDocument(text);
    expect(document.errors[0]!.message).toContain(secret);
    expect(yamlFault(document.errors[0], text)).toBe('not valid YAML (bad dq escape) at line 2, column 30');
    expect(yamlFault(document.errors[0])).toBe('not valid YAML (bad dq escape)');
  });

  it('turns the alias bound of the yaml package into a fault of the text, and lets any other error through', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefg'[index]}`).join(', ')}]`),
    ];
    expect(yamlValue(parseDocument(bomb.join('\n')))).toEqual({ fault: expect.stringContaining('aliases expand past') });
    expect(yamlValue(parseDocument('a: [1, 2]'))).toEqual({ value: { a: [1, 2] } });
    expect(() =>
      yamlValue({
        toJS: () => {
          throw new TypeError('something else');
        },
      }),
    ).toThrow('something else');
  });
});
