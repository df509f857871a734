import { describe, expect, it } from 'vitest';
import { plainPath, stringsAlong } from '../../../src/render/jq-path.js';

describe('plainPath', () => {
  it('reads fields, indexes and iteration after a first dot', () => {
    expect(plainPath('.')).toEqual([]);
    expect(plainPath(' .name ')).toEqual([{ field: 'name' }]);
    expect(plainPath('.[]')).toEqual(['each']);
    expect(plainPath('.data[].email')).toEqual([{ field: 'data' }, 'each', { field: 'email' }]);
    expect(plainPath('.[0].id')).toEqual([{ index: 0 }, { field: 'id' }]);
    expect(plainPath('.a.b_2[12]')).toEqual([{ field: 'a' }, { field: 'b_2' }, { index: 12 }]);
  });

  it('leaves every other expression to jq', () => {
    for (const expression of [
      '',
      'name',
      '..',
      '..a',
      '.a.',
      '. a',
      '.a | .b',
      '.a,.b',
      '.[-1]',
      '.["a"]',
      '."a"',
      '.a?',
      '.[1:2]',
      '.a[ ]',
      '.end',
      '.if',
      '$x',
      '.a.not',
    ])
      expect(plainPath(expression), expression).toBeUndefined();
  });
});

describe('stringsAlong', () => {
  const strings = (expression: string, value: unknown) => stringsAlong(plainPath(expression)!, value);

  it('finds the strings along the path, in order', () => {
    expect(strings('.[].name', [{ name: 'a' }, { name: 'b' }])).toEqual(['a', 'b']);
    expect(strings('.data[1].email', { data: [{ email: 'x' }, { email: 'y' }] })).toEqual(['y']);
    expect(strings('.', 'text')).toEqual(['text']);
    expect(strings('.[]', [])).toEqual([]);
  });

  it('leaves to jq whatever is not a string, or what jq refuses or orders its own way', () => {
    // A missing field or index is null, which jq prints; so are numbers, whose text jq keeps.
    expect(strings('.[].name', [{ name: 'a' }, {}])).toBeUndefined();
    expect(strings('.[5]', ['a'])).toBeUndefined();
    expect(strings('.n', { n: 1 })).toBeUndefined();
    // An object's values: jq keeps the order keys were written in, JavaScript puts "2" first.
    expect(strings('.[]', { b: 'x', 2: 'y' })).toBeUndefined();
    // Errors: indexing a string or an array by name, iterating null.
    expect(strings('.a.b', { a: 'text' })).toBeUndefined();
    expect(strings('.a', ['x'])).toBeUndefined();
    expect(strings('.[0]', { 0: 'x' })).toBeUndefined();
    expect(strings('.a[]', { a: null })).toBeUndefined();
    // An own field only: "constructor" is data, not Object's.
    expect(strings('.constructor', {})).toBeUndefined();
    expect(strings('.constructor', { constructor: 'c' })).toEqual(['c']);
  });
});
