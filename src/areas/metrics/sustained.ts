/**
 * The rule of `metrics alerts`: a rate that moved for good, not for a day. Over an email's days
 * (metrics history by day), a day is judged past its baseline when its rate is worse than the
 * baseline's by `factor` (up for bounces, spam reports and unsubscribes; down for deliveries,
 * opens and clicks) and by at least `floor` (an absolute difference of the rates); an alert fires
 * when two of the last three days are past it. The baseline is the rate pooled over the 14 days
 * that end a week before the last day: a regression younger than a week is never part of what it
 * is judged against. A day of fewer than `minSends` sends is not judged.
 */
import { type PeriodRow, RATED_FIELDS, type RatedField } from './periods.js';

const DAY_MS = 86_400_000;

export interface SustainedRule {
  factor: number;
  floor: number;
  minSends: number;
}

export const DEFAULT_RULE: SustainedRule = { factor: 1.5, floor: 0.02, minSends: 20 };

/** The days judged; the baseline's days, and how far they end before the last one. */
export const RECENT_DAYS = 3;
export const PAST_NEEDED = 2;
export const BASELINE_DAYS = 14;
export const BASELINE_OFFSET_DAYS = 7;
/** Baseline days with sends, at least, for there to be a baseline. */
const BASELINE_MIN_DAYS = 3;

/** The rates whose fall is the harm; the others harm by rising. */
const WORSE_DOWN: ReadonlySet<RatedField> = new Set(['deliveries', 'opens', 'clicks']);

export interface Sustained {
  field: RatedField;
  direction: 'up' | 'down';
  /** The baseline's rate, its days (the first's start, the last's end) and its sends. */
  baseline: { rate: number; from: number; to: number; sends: number };
  /** The last three days, each with its rate (null when not judged) and whether it was past the baseline. */
  days: { start: number; sends: number | null; rate: number | null; past: boolean }[];
  /** The first day of the run of days past the baseline that reaches the window: when the change began. */
  onset: number;
}

/** Whether `rate` is past `base` the harmful way. */
function pastBaseline(rule: SustainedRule, field: RatedField, rate: number, base: number): boolean {
  if (WORSE_DOWN.has(field)) return rate <= base / rule.factor && base - rate >= rule.floor;
  return rate >= base * rule.factor && rate - base >= rule.floor;
}

/** A counted day's rate of `field`, when it had the sends to be judged. */
function rateOf(row: PeriodRow, field: RatedField, rule: SustainedRule): number | null {
  if (row.status !== 'counted' || row.counts === undefined) return null;
  const sends = row.counts.sends;
  const rate = row.rates?.[field] ?? null;
  return sends === null || sends < rule.minSends ? null : rate;
}

/**
 * The rates of one email that moved for good by the day `last` (a day's start): one each, judged
 * over `rows`, a row a UTC day as historyOf makes them.
 */
export function sustainedChanges(rows: readonly PeriodRow[], last: number, rule: SustainedRule): Sustained[] {
  const byDay = new Map(rows.map((row) => [row.start, row]));
  const baselineTo = last - BASELINE_OFFSET_DAYS * DAY_MS;
  const baselineFrom = baselineTo - (BASELINE_DAYS - 1) * DAY_MS;
  const found: Sustained[] = [];
  for (const field of RATED_FIELDS) {
    let count = 0;
    let sends = 0;
    let days = 0;
    for (let day = baselineFrom; day <= baselineTo; day += DAY_MS) {
      const row = byDay.get(day);
      const daySends = row?.counts?.sends ?? null;
      const dayCount = row?.counts?.[field] ?? null;
      if (row?.status !== 'counted' || daySends === null || dayCount === null || daySends <= 0) continue;
      count += dayCount;
      sends += daySends;
      days += 1;
    }
    if (days < BASELINE_MIN_DAYS) continue;
    const base = count / sends;
    const judged = (day: number) => {
      const row = byDay.get(day);
      const rate = row === undefined ? null : rateOf(row, field, rule);
      return { start: day, sends: row?.counts?.sends ?? null, rate, past: rate !== null && pastBaseline(rule, field, rate, base) };
    };
    const recent = Array.from({ length: RECENT_DAYS }, (_unused, index) => judged(last - (RECENT_DAYS - 1 - index) * DAY_MS));
    if (recent.filter((day) => day.past).length < PAST_NEEDED) continue;
    // Back from the first day past in the window, while the days before it are past too (never into the baseline).
    let onset = recent.find((day) => day.past)!.start;
    while (onset - DAY_MS > baselineTo && judged(onset - DAY_MS).past) onset -= DAY_MS;
    found.push({
      field,
      direction: WORSE_DOWN.has(field) ? 'down' : 'up',
      baseline: { rate: base, from: baselineFrom, to: baselineTo + DAY_MS, sends },
      days: recent,
      onset,
    });
  }
  return found;
}
