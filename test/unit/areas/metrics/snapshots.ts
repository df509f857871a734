/** Snapshots for the tests of `metrics history`: counts of sends and opens, and the history they make. */
import { COUNTER_FIELDS, type Counts, type History, historyOf, type PeriodLength } from '../../../../src/areas/metrics/periods.js';

/** Counts with these sends and opens, every other counter 0, and deliveries the API does not report. */
export const counts = (sends: number, opens: number | null = null): Counts => ({
  ...(Object.fromEntries(COUNTER_FIELDS.map((field) => [field, 0])) as Counts),
  sends,
  opens,
  deliveries: null,
});

/** A snapshot: when it was taken, and its sends and opens so far. */
export type Snapshot = [takenAt: string, sends: number, opens?: number | null];

/** The history the snapshots make, a period a day unless `by` says, from `since` when given. */
export function historyFrom(snapshots: Snapshot[], { by = 'day', since }: { by?: PeriodLength; since?: number } = {}): History {
  const made = historyOf(
    snapshots.map(([takenAt, sends, opens]) => ({ takenAt: Date.parse(takenAt), counts: counts(sends, opens) })),
    by,
    since,
  );
  if (made === undefined) throw new Error('no history without a snapshot');
  return made;
}
