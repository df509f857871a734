import { describe, expect, it } from 'vitest';
import { type Counts, historyOf, type Point } from '../../../../src/areas/metrics/periods.js';
import { DEFAULT_RULE, sustainedChanges } from '../../../../src/areas/metrics/sustained.js';

const DAY = 86_400_000;
const START = Date.UTC(2027, 0, 4, 9);

/** Snapshots a day apart, each day `sends` sends with the day's hard bounces. */
function rows(bounces: readonly number[], sends = 100) {
  const counts = (sent: number, bounced: number): Counts => ({
    sends: sent,
    deliveries: sent - bounced,
    opens: null,
    clicks: null,
    unsubscribes: null,
    spamReports: 0,
    hardBounces: bounced,
    softBounces: 0,
  });
  const points: Point[] = [{ takenAt: START, counts: counts(0, 0) }];
  let sent = 0;
  let bounced = 0;
  bounces.forEach((count, index) => {
    sent += sends;
    bounced += count;
    points.push({ takenAt: START + (index + 1) * DAY, counts: counts(sent, bounced) });
  });
  const made = historyOf(points, 'day')!;
  return { rows: made.rows, last: made.rows.at(-1)!.start };
}

const fields = (found: ReturnType<typeof sustainedChanges>) => found.map((each) => each.field).sort();

describe('the rule of metrics alerts', () => {
  it('fires when two of the last three days are past the baseline, and names the day the move began', () => {
    const { rows: days, last } = rows([...Array(14).fill(1), 1, 9, 9]);
    const found = sustainedChanges(days, last, DEFAULT_RULE);
    // 99% delivered to 91% is not a fall by half again: the delivery rate does not fire.
    expect(fields(found)).toEqual(['hardBounces']);
    const bounces = found.find((each) => each.field === 'hardBounces')!;
    expect(bounces.baseline.rate).toBeCloseTo(0.01);
    expect(bounces.days.map((each) => each.past)).toEqual([false, true, true]);
    expect(bounces.onset).toBe(last - DAY);
  });

  it('does not fire on a one-day spike, nor on a move under the floor', () => {
    const spike = rows([...Array(14).fill(1), 9, 1, 1]);
    expect(sustainedChanges(spike.rows, spike.last, DEFAULT_RULE)).toEqual([]);
    // Twice the baseline, but one point from it: under the floor of two.
    const small = rows([...Array(14).fill(1), 2, 2, 2]);
    expect(sustainedChanges(small.rows, small.last, DEFAULT_RULE)).toEqual([]);
  });

  it('keeps a regression younger than a week out of its own baseline', () => {
    // Six days worse: the baseline still ends before them, so the move still fires.
    const { rows: days, last } = rows([...Array(14).fill(1), ...Array(6).fill(9)]);
    const bounces = sustainedChanges(days, last, DEFAULT_RULE).find((each) => each.field === 'hardBounces')!;
    expect(bounces.baseline.rate).toBeCloseTo(0.01);
    expect(bounces.onset).toBe(last - 5 * DAY);
  });

  it('judges no day of fewer sends than the rule asks, and nothing without three days of baseline', () => {
    const few = rows([...Array(14).fill(0), 5, 5, 5], 10);
    expect(sustainedChanges(few.rows, few.last, DEFAULT_RULE)).toEqual([]);
    expect(fields(sustainedChanges(few.rows, few.last, { ...DEFAULT_RULE, minSends: 10 }))).toEqual(['deliveries', 'hardBounces']);
    const short = rows([1, 1, 9, 9, 9]);
    expect(sustainedChanges(short.rows, short.last, DEFAULT_RULE)).toEqual([]);
  });
});
