import { describe, expect, it } from 'vitest';
import { operatorFitsType } from '../../../../src/platform/segments/filter.js';

describe('operatorFitsType', () => {
  it('keeps the date operators to dates, true and false to booleans, comparisons to numbers and dates, text searches to strings', () => {
    expect(operatorFitsType('before', 'date')).toBe(true);
    expect(operatorFitsType('before', 'string')).toBe(false);
    expect(operatorFitsType('dateEmpty', 'number')).toBe(false);
    expect(operatorFitsType('isTrue', 'boolean')).toBe(true);
    expect(operatorFitsType('isFalse', 'string')).toBe(false);
    expect(operatorFitsType('greaterThan', 'number')).toBe(true);
    expect(operatorFitsType('greaterThan', 'date')).toBe(true);
    expect(operatorFitsType('lessThan', 'boolean')).toBe(false);
    expect(operatorFitsType('contains', 'string')).toBe(true);
    expect(operatorFitsType('notContains', 'number')).toBe(false);
  });

  it('takes equality, emptiness and any on every type, and every operator on a type it does not know', () => {
    for (const type of ['string', 'number', 'boolean', 'date'])
      for (const operator of ['equals', 'notEquals', 'empty', 'notEmpty', 'any']) expect(operatorFitsType(operator, type)).toBe(true);
    expect(operatorFitsType('contains', 'currency')).toBe(true);
  });
});
