/** The period arithmetic of `metrics history`, and the naming of an email among those kept. */
import { describe, expect, it } from 'vitest';
import { findEmail } from '../../../../src/areas/metrics/history.js';
import { historyOf, periodStart } from '../../../../src/areas/metrics/periods.js';
import type { KeptEmail } from '../../../../src/areas/metrics/store.js';
import { historyFrom } from './snapshots.js';

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

describe('periods', () => {
  it('start at midnight UTC, and a week on its Monday', () => {
    expect(periodStart(at('2026-11-26T17:30:00Z'), 'day')).toBe(at('2026-11-26T00:00:00Z'));
    // 2026-11-26 is a Thursday; its week began on Monday the 23rd, and a Monday starts its own.
    expect(periodStart(at('2026-11-26T17:30:00Z'), 'week')).toBe(at('2026-11-23T00:00:00Z'));
    expect(periodStart(at('2026-11-23T00:00:00Z'), 'week')).toBe(at('2026-11-23T00:00:00Z'));
    expect(periodStart(at('2026-11-29T23:59:59Z'), 'week')).toBe(at('2026-11-23T00:00:00Z'));
  });
});

describe('history from snapshots', () => {
  it('subtracts the last snapshot before a period from the last one in it, and leaves a gap a gap', () => {
    const made = historyFrom([
      ['2026-11-01T02:00:00Z', 100, 40],
      ['2026-11-02T02:00:00Z', 130, 52],
      ['2026-11-02T20:00:00Z', 150, 60],
      ['2026-11-04T02:00:00Z', 170, 61],
    ]);
    expect(made.startsAt).toBe(at('2026-11-01T02:00:00Z'));
    expect(made.rows.map((row) => [new Date(row.start).toISOString().slice(0, 10), row.status, row.counts?.sends, row.counts?.opens])).toEqual([
      ['2026-11-01', 'start', undefined, undefined],
      ['2026-11-02', 'counted', 50, 20],
      ['2026-11-03', 'gap', undefined, undefined],
      // From the snapshot before the gap: the counts say since when.
      ['2026-11-04', 'counted', 20, 1],
    ]);
    expect(made.rows[3]).toMatchObject({ from: at('2026-11-02T20:00:00Z'), to: at('2026-11-04T02:00:00Z') });
    expect(made.rows[1]!.rates).toMatchObject({ opens: 0.4, deliveries: null });
  });

  it('counts from the first snapshot inside the first period, and never before it', () => {
    const made = historyFrom(
      [
        ['2026-11-01T02:00:00Z', 10],
        ['2026-11-01T22:00:00Z', 16],
      ],
      { since: at('2026-10-01T00:00:00Z') },
    );
    expect(made.rows).toHaveLength(1);
    expect(made.rows[0]).toMatchObject({ status: 'counted', counts: { sends: 6 } });
  });

  it('starts at --since, when it is after the first snapshot', () => {
    const made = historyFrom(
      [
        ['2026-11-01T02:00:00Z', 10],
        ['2026-11-02T02:00:00Z', 16],
        ['2026-11-03T02:00:00Z', 20],
      ],
      { since: at('2026-11-03T00:00:00Z') },
    );
    expect(made.rows.map((row) => [row.status, row.counts?.sends])).toEqual([['counted', 4]]);
  });

  it('refuses a period in which the clock went back between snapshots, and subtracts nothing from that snapshot', () => {
    const made = historyFrom([
      ['2026-11-01T02:00:00Z', 10],
      ['2026-11-03T02:00:00Z', 30],
      ['2026-11-02T02:00:00Z', 20],
      ['2026-11-04T02:00:00Z', 45],
    ]);
    expect(made.rows.map((row) => row.status)).toEqual(['start', 'refused', 'counted', 'counted']);
    expect(made.rows[1]!.reason).toBe(
      "the account's clock went back: a snapshot dated 2026-11-02T02:00:00.000Z was taken after one dated 2026-11-03T02:00:00.000Z",
    );
    expect(made.rows[2]!.counts!.sends).toBe(20);
    expect(made.rows[3]!.counts!.sends).toBe(15);
  });

  it('makes weeks of days, and a rate of no sends null', () => {
    const made = historyFrom(
      [
        ['2026-11-02T02:00:00Z', 10],
        ['2026-11-08T02:00:00Z', 10],
        ['2026-11-15T02:00:00Z', 24],
      ],
      { by: 'week' },
    );
    expect(made.rows.map((row) => [new Date(row.start).toISOString().slice(0, 10), row.status, row.counts?.sends])).toEqual([
      ['2026-11-02', 'counted', 0],
      ['2026-11-09', 'counted', 14],
    ]);
    expect(made.rows[0]!.rates!.opens).toBeNull();
    expect(made.rows[1]!.end - made.rows[1]!.start).toBe(7 * DAY);
  });

  it('has no history without a snapshot', () => {
    expect(historyOf([], 'day')).toBeUndefined();
  });
});

describe('naming an email', () => {
  const email = (key: string, name: string, nodeId: string | null = null): KeptEmail => ({
    key,
    kind: key.split('/')[0] as KeptEmail['kind'],
    recordId: key.split('/')[1]!,
    nodeId,
    name,
    workflowName: nodeId === null ? null : 'Onboarding',
  });
  const emails = [email('transactional/t1', 'Welcome'), email('campaign/c1', 'welcome'), email('workflow/w1/n1', 'Day one', 'n1')];

  it('finds one by key, id, node id, workflow/node or a name no other has', () => {
    expect(findEmail(emails, 't1').key).toBe('transactional/t1');
    expect(findEmail(emails, 'campaign/c1').key).toBe('campaign/c1');
    expect(findEmail(emails, 'n1').key).toBe('workflow/w1/n1');
    expect(findEmail(emails, 'w1/n1').key).toBe('workflow/w1/n1');
    expect(findEmail(emails, 'day ONE').key).toBe('workflow/w1/n1');
  });

  it('lists the emails a name matches twice, and says when none has a snapshot, each a usage error', () => {
    expect(() => findEmail(emails, 'WELCOME')).toThrow('"WELCOME" names 2 emails: transactional/t1 "Welcome"; campaign/c1 "welcome"');
    expect(() => findEmail(emails, 'Goodbye')).toThrow('no email named "Goodbye" has a snapshot in the metrics store');
    const thrown = (() => {
      try {
        findEmail(emails, 'welcome');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ exitCode: 2, message: '"welcome" names 2 emails: transactional/t1 "Welcome"; campaign/c1 "welcome"' });
  });
});
