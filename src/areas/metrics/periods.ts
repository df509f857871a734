/**
 * The period arithmetic of `metrics history`: an email's all-time counters, kept at times by
 * `metrics snapshot`, made into a row a day or a week, each the difference of two snapshots. A
 * period holds what the counters gained from the last snapshot before it to the last one in it;
 * one without a snapshot is a gap, never a number made up; history starts with the first
 * snapshot; and a period in which the account's clock went back between two snapshots is refused.
 */

/** The counters a snapshot keeps; one the API does not report for the email's kind is null. */
export const COUNTER_FIELDS = ['sends', 'deliveries', 'opens', 'clicks', 'unsubscribes', 'spamReports', 'hardBounces', 'softBounces'] as const;
export type CounterField = (typeof COUNTER_FIELDS)[number];
export type Counts = Record<CounterField, number | null>;

/** The counters whose rate among sends a row gives. */
export const RATED_FIELDS = COUNTER_FIELDS.filter((field) => field !== 'sends');
export type RatedField = (typeof RATED_FIELDS)[number];

/** Each rate as a person names it, in history's lines, the alerts and the experiments' verdicts. */
export const RATE_NAMES: Record<RatedField, string> = {
  deliveries: 'delivery rate',
  opens: 'open rate',
  clicks: 'click rate',
  unsubscribes: 'unsubscribe rate',
  spamReports: 'spam rate',
  hardBounces: 'hard bounce rate',
  softBounces: 'soft bounce rate',
};

export type PeriodLength = 'day' | 'week';

const DAY_MS = 86_400_000;

/** A snapshot of one email, as the period arithmetic reads it. */
export interface Point {
  /** The account's time, in milliseconds. */
  takenAt: number;
  counts: Counts;
}

/** A row of history. */
export interface PeriodRow {
  /** The period's first instant and the next period's, in milliseconds (UTC days, weeks from Monday). */
  start: number;
  end: number;
  /**
   * counted: the difference of two snapshots; gap: no snapshot in the period; start: the first
   * snapshot, which history starts from; refused: the account's clock went back in it; journal:
   * before the first snapshot, the email's events the delivery journal kept (journal.ts).
   */
  status: 'counted' | 'gap' | 'start' | 'refused' | 'journal';
  /** For a counted period, the snapshots subtracted: from (before the period, or the first in it) and to. */
  from?: number;
  to?: number;
  counts?: Counts;
  /** Each count among the sends; null without sends or without the count. */
  rates?: Record<RatedField, number | null>;
  /** Why a period is refused, or why the journal could not fill a gap before the first snapshot. */
  reason?: string;
}

export interface History {
  /** The first snapshot's time: there is no history before it. */
  startsAt: number;
  rows: PeriodRow[];
}

/** The start of the period holding `time`: its UTC day, or its week from Monday (UTC). */
export function periodStart(time: number, by: PeriodLength): number {
  const day = Math.floor(time / DAY_MS) * DAY_MS;
  if (by === 'day') return day;
  // 1970-01-01 was a Thursday: days since the epoch, plus 3, counted from a Monday.
  const weekday = (Math.floor(time / DAY_MS) + 3) % 7;
  return day - (weekday < 0 ? weekday + 7 : weekday) * DAY_MS;
}

function periodEnd(start: number, by: PeriodLength): number {
  return start + (by === 'day' ? DAY_MS : 7 * DAY_MS);
}

/**
 * The history of `points`, given in the order they were taken: a row a period from the first
 * snapshot's (or `since`'s, when later) to the last snapshot's. A snapshot dated before one taken
 * earlier means the account's clock went back: its period is refused, and it is subtracted from
 * nothing. Undefined when there is no snapshot.
 */
export function historyOf(points: readonly Point[], by: PeriodLength, since?: number): History | undefined {
  const backwards: { point: Point; after: number }[] = [];
  const good: Point[] = [];
  let latest = -Infinity;
  for (const point of points) {
    if (point.takenAt < latest) backwards.push({ point, after: latest });
    else good.push(point);
    latest = Math.max(latest, point.takenAt);
  }
  if (good.length === 0) return undefined;
  good.sort((a, b) => a.takenAt - b.takenAt);
  const startsAt = good[0]!.takenAt;
  const last = Math.max(latest, good.at(-1)!.takenAt);
  const rows: PeriodRow[] = [];
  let before = 0;
  for (let start = periodStart(Math.max(startsAt, since ?? startsAt), by); start <= last; start = periodEnd(start, by)) {
    const end = periodEnd(start, by);
    const wentBack = backwards.find(({ point }) => point.takenAt >= start && point.takenAt < end);
    if (wentBack !== undefined) {
      rows.push({
        start,
        end,
        status: 'refused',
        reason: `the account's clock went back: a snapshot dated ${iso(wentBack.point.takenAt)} was taken after one dated ${iso(wentBack.after)}`,
      });
      continue;
    }
    while (before < good.length && good[before]!.takenAt < start) before += 1;
    let inside = before;
    while (inside < good.length && good[inside]!.takenAt < end) inside += 1;
    if (inside === before) {
      rows.push({ start, end, status: 'gap' });
      continue;
    }
    const from = before > 0 ? good[before - 1]! : good[before]!;
    const to = good[inside - 1]!;
    if (from === to) {
      rows.push({ start, end, status: 'start', from: from.takenAt, to: to.takenAt });
      continue;
    }
    const counts = difference(to.counts, from.counts);
    rows.push({ start, end, status: 'counted', from: from.takenAt, to: to.takenAt, counts, rates: ratesOf(counts) });
  }
  return { startsAt, rows };
}

/** Each counter's gain; null where either snapshot lacks it. */
export function difference(to: Counts, from: Counts): Counts {
  return Object.fromEntries(
    COUNTER_FIELDS.map((field) => {
      const [a, b] = [to[field], from[field]];
      return [field, a === null || b === null ? null : a - b];
    }),
  ) as Counts;
}

/** Each count among the sends. */
export function ratesOf(counts: Counts): Record<RatedField, number | null> {
  const sends = counts.sends;
  return Object.fromEntries(
    RATED_FIELDS.map((field) => {
      const count = counts[field];
      return [field, count === null || sends === null || sends <= 0 ? null : count / sends];
    }),
  ) as Record<RatedField, number | null>;
}

function iso(time: number): string {
  return new Date(time).toISOString();
}
