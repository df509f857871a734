import { describe, expect, it } from 'vitest';
import { pageOf, recordCheckedInPlace, z } from '../../../src/base/shapes.js';
import { strictFormOf } from '../../../src/emulator/strict.js';

describe('recordCheckedInPlace', () => {
  const nodes = recordCheckedInPlace(z.looseObject({ typeName: z.string() }));

  it('passes the answer’s own object through, checked, with every field it carries', () => {
    const input = { a: { typeName: 'TimerAction', extra: 1 }, constructor: { typeName: 'X' } };
    const result = nodes.safeParse(input);
    expect(result.success && result.data).toBe(input);
  });

  it('names each value that fails by its key, and refuses what is not a record', () => {
    const result = nodes.safeParse({ good: { typeName: 'A' }, bad: { typeName: 2 } });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path)).toEqual([['bad', 'typeName']]);
    for (const [input, said] of [
      [[], 'array'],
      [null, 'null'],
      ['x', 'string'],
    ] as const) {
      expect(nodes.safeParse(input).error!.issues[0]!.message).toBe(`Invalid input: expected record, received ${said}`);
    }
  });

  it('is a strict record in the sandbox: a value may carry only the fields it names', () => {
    const strict = strictFormOf(nodes);
    expect(strict.safeParse({ a: { typeName: 'A' } }).success).toBe(true);
    expect(strict.safeParse({ a: { typeName: 'A', extra: 1 } }).success).toBe(false);
    expect(strict.safeParse([]).success).toBe(false);
  });
});

describe('pageOf', () => {
  it('is one schema for an item schema, so its set-up and its strict form are made once, not at every listing', () => {
    const item = z.looseObject({ id: z.string() });
    expect(pageOf(item)).toBe(pageOf(item));
    expect(strictFormOf(pageOf(item))).toBe(strictFormOf(pageOf(item)));
    expect(pageOf(z.looseObject({ id: z.string() }))).not.toBe(pageOf(item));
  });

  it('is strict in the sandbox, its items included', () => {
    const strict = strictFormOf(pageOf(z.looseObject({ id: z.string() })));
    const pagination = { totalResults: 1, returnedResults: 1, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null };
    expect(strict.safeParse({ pagination, data: [{ id: 'a' }] }).success).toBe(true);
    expect(strict.safeParse({ pagination, data: [{ id: 'a', extra: 1 }] }).success).toBe(false);
  });
});
