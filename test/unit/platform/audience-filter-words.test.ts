import { describe, expect, it } from 'vitest';
import { describeCondition, describeFilter } from '../../../src/platform/audience-filter-words.js';

const condition = (operator: string, value?: unknown, key = 'plan') => ({ type: 'property', key, operator, value });

describe('segment filters in words', () => {
  it.each([
    [condition('equal', 'pro'), 'plan equal pro'],
    [condition('not_equal', 'free'), 'plan not equal free'],
    [condition('contains', 'Jane Doe', 'name'), 'name contains "Jane Doe"'],
    [condition('not_contains', 'test', 'email'), 'email does not contain test'],
    [condition('greater_than', 10, 'seats'), 'seats greater than 10'],
    [condition('numeric_equal', 3, 'seats'), 'seats equal 3'],
    [condition('less_than', 2, 'seats'), 'seats less than 2'],
    [condition('empty', ''), 'plan is empty'],
    [condition('not_empty'), 'plan is not empty'],
    [condition('true', true, 'subscribed'), 'subscribed is true'],
    [condition('false', false, 'subscribed'), 'subscribed is false'],
    [condition('date_not_empty', '', 'trialEndsAt'), 'trialEndsAt has a date'],
    [condition('after', '2024-01-01', 'createdAt'), 'createdAt after 2024-01-01'],
    [condition('between', ['2024-01-01', '2024-06-30'], 'createdAt'), 'createdAt between 2024-01-01 and 2024-06-30'],
    [condition('between', { from: 1, to: 5 }, 'seats'), 'seats between 1 and 5'],
    [condition('between', '10,20', 'seats'), 'seats between 10 and 20'],
    [condition('between', 'sometime', 'seats'), 'seats between sometime'],
    [condition('pending_opt_in', undefined, 'mailingList'), 'mailingList opt-in pending'],
    [condition('equal', ''), 'plan equal ""'],
    [condition('custom_thing', 'x'), 'plan custom thing x'],
    [{ type: 'mailingList', operator: 'not_opt_in' }, 'mailingList not opted in'],
  ])('%j reads %j', (input, words) => {
    expect(describeCondition(input)).toBe(words);
  });

  it('joins conditions by the filter match', () => {
    const conditions = [condition('equal', 'pro'), condition('equal', 'FR', 'country')];
    expect(describeFilter({ conditions })).toBe('plan equal pro and country equal FR');
    expect(describeFilter({ match: 'all', conditions })).toBe('plan equal pro and country equal FR');
    expect(describeFilter({ match: 'any', conditions })).toBe('plan equal pro or country equal FR');
  });

  it('calls an empty filter everyone', () => {
    expect(describeFilter(null)).toBe('everyone');
    expect(describeFilter({ conditions: [] })).toBe('everyone');
  });
});
