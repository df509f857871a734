/**
 * The delivery journal as the counters' other witness: the events an app's `webhookHandler` (or
 * `webhooks listen`) kept, each naming its email, read a day at a time. `deliveries reconcile` sets
 * them against the account's counters; `metrics history` counts them a day for the days before an
 * email's first snapshot, where the store has nothing.
 */
import { setImmediate } from 'node:timers/promises';
import { UsageError } from '../../base/errors.js';
import type { Uses } from '../../core/capabilities.js';
import type { DeliveryStore, StoredDelivery } from '../../webhooks/store/index.js';
import { DELIVERY_STORE_ENV } from '../../webhooks/store/store-env.js';
import { COUNTER_FIELDS, type Counts, type PeriodLength, type PeriodRow, periodStart, ratesOf } from './periods.js';
import type { KeptEmail } from './store.js';

export const DAY_MS = 86_400_000;

/** The counters an event of the journal stands for exactly, each with its event. */
export const COMPARED = {
  sends: '*.email.sent',
  deliveries: 'email.delivered',
  hardBounces: 'email.hardBounced',
  softBounces: 'email.softBounced',
  spamReports: 'email.spamReported',
} as const;
export type Compared = keyof typeof COMPARED;

/** The counter each event of the journal adds one to. */
export const EVENT_FIELD: Record<string, Compared> = {
  'transactional.email.sent': 'sends',
  'campaign.email.sent': 'sends',
  'loop.email.sent': 'sends',
  'email.delivered': 'deliveries',
  'email.hardBounced': 'hardBounces',
  'email.softBounced': 'softBounces',
  'email.spamReported': 'spamReports',
};

/** The key of the email an event is about, as the journal's payload names it; undefined for another event. */
export function eventKey(payload: Record<string, unknown>): string | undefined {
  const email = payload.email as { emailMessageId?: unknown } | undefined;
  if (typeof payload.transactionalId === 'string') return `transactional/${payload.transactionalId}`;
  if (typeof payload.campaignId === 'string') return `campaign/${payload.campaignId}`;
  if (typeof payload.loopId === 'string' && typeof email?.emailMessageId === 'string') return `loop/${payload.loopId}/${email.emailMessageId}`;
  return undefined;
}

/**
 * The key an email's events carry, as eventKey reads it: a transactional email's or campaign's own,
 * a workflow email's by its workflow and its message; undefined for a workflow email whose message
 * is not known.
 */
export function eventsKeyOf(email: Pick<KeptEmail, 'key' | 'kind' | 'recordId'>, emailMessageId: string | undefined): string | undefined {
  if (email.kind !== 'workflow') return email.key;
  return emailMessageId === undefined ? undefined : `loop/${email.recordId}/${emailMessageId}`;
}

/** A delivery's email key and counter, when it is a verified event of EVENT_FIELD that names an email. */
export function countedEvent(delivery: StoredDelivery): { key: string; field: Compared } | undefined {
  if (!delivery.verified || delivery.eventName === null) return undefined;
  const field = EVENT_FIELD[delivery.eventName];
  if (field === undefined) return undefined;
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(delivery.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const key = eventKey(payload);
  return key === undefined ? undefined : { key, field };
}

/**
 * The journal's deliveries of these events from `from` (else its first) to before `until` (else
 * its last), `step` milliseconds of them at a time: a journal of millions is never held whole, and
 * between steps the event loop turns, so that requests made meanwhile (reconcile reads the
 * counters at the API's pace) go out on time: a SQLite store answers at once.
 */
export async function* stepByStep(journal: DeliveryStore, names: string[], step: number, from?: number, until?: number): AsyncGenerator<StoredDelivery[]> {
  const span = { ...(from === undefined ? {} : { since: new Date(from) }), ...(until === undefined ? {} : { until: new Date(until) }) };
  const edge = async (order: 'oldest' | 'newest') => (await journal.find({ event: names, order, limit: 1, ...span }))[0]?.eventAt.getTime();
  const first = await edge('oldest');
  const last = await edge('newest');
  if (first === undefined || last === undefined) return;
  for (let start = first; start <= last; start += step) {
    const end = until === undefined ? start + step : Math.min(start + step, until);
    yield await journal.find({ event: names, order: 'oldest', since: new Date(start), until: new Date(end) });
    await setImmediate();
  }
}

/** A UTC day before an email's first snapshot, as the journal has it. */
export interface JournalDay {
  start: number;
  /** The email's counts that day, or why the journal cannot give them. */
  counts?: Counts;
  missing?: string;
}

/** The counters the journal counts for an email: those COMPARED names that the email's snapshots report. */
function journalCounts(reported: Counts): Counts {
  return Object.fromEntries(COUNTER_FIELDS.map((field) => [field, field in COMPARED && reported[field] !== null ? 0 : null])) as Counts;
}

/**
 * The email's counts a UTC day, from its first event in the journal (at or after `from`, a day's
 * start) to the day before `until` (the first snapshot's period's start). A day the journal kept no event of at all (the app
 * down, or nothing sent) or kept fewer deliveries of than its daily counts say it received (the
 * rest pruned) gives no counts, and says why: never a zero the journal did not see. The email is
 * named by the key its events carry (eventsKeyOf).
 */
export async function journalDays(journal: DeliveryStore, eventsKey: string, reported: Counts, from: number | undefined, until: number): Promise<JournalDay[]> {
  const names = Object.keys(EVENT_FIELD);
  const start = from;
  if (start !== undefined && start >= until) return [];
  // How many deliveries of these events the journal received each day, kept or since pruned.
  const received = new Map(
    (await journal.stats({ event: names, ...(start === undefined ? {} : { since: new Date(start) }), until: new Date(until) }, 'day')).map((row) => [
      Date.parse(row.key!),
      row.events,
    ]),
  );
  const days = new Map<number, { counts: Counts; kept: number }>();
  let firstOfEmail: number | undefined;
  for await (const deliveries of stepByStep(journal, names, DAY_MS, start, until)) {
    for (const delivery of deliveries) {
      const day = Math.floor(delivery.eventAt.getTime() / DAY_MS) * DAY_MS;
      const counted = days.get(day) ?? { counts: journalCounts(reported), kept: 0 };
      counted.kept += 1;
      days.set(day, counted);
      const event = countedEvent(delivery);
      if (event === undefined || event.key !== eventsKey || counted.counts[event.field] === null) continue;
      counted.counts[event.field]! += 1;
      firstOfEmail ??= day;
    }
  }
  if (firstOfEmail === undefined) return [];
  const made: JournalDay[] = [];
  for (let day = firstOfEmail; day < until; day += DAY_MS) {
    const counted = days.get(day);
    const got = received.get(day) ?? 0;
    const kept = counted?.kept ?? 0;
    if (got === 0) made.push({ start: day, missing: 'the journal kept no event that day' });
    else if (kept < got) made.push({ start: day, missing: `the journal kept ${kept} of the ${got} events it received that day (the rest pruned)` });
    else made.push({ start: day, counts: counted!.counts });
  }
  return made;
}

/**
 * The rows of history the journal's days make, a day or a week: a week sums its days, and is a
 * gap (saying why) when the journal could not give one of them.
 */
export function journalRows(days: readonly JournalDay[], by: PeriodLength): PeriodRow[] {
  const periods = new Map<number, JournalDay[]>();
  for (const day of days) {
    const start = periodStart(day.start, by);
    periods.set(start, [...(periods.get(start) ?? []), day]);
  }
  return [...periods].map(([start, inside]): PeriodRow => {
    const end = start + (by === 'day' ? DAY_MS : 7 * DAY_MS);
    const missing = inside.find((day) => day.missing !== undefined);
    if (missing !== undefined)
      return {
        start,
        end,
        status: 'gap',
        reason: by === 'day' ? missing.missing! : `${missing.missing!} (${new Date(missing.start).toISOString().slice(0, 10)})`,
      };
    const counts = Object.fromEntries(
      COUNTER_FIELDS.map((field) => [field, inside[0]!.counts![field] === null ? null : inside.reduce((sum, day) => sum + day.counts![field]!, 0)]),
    ) as Counts;
    return { start, end, status: 'journal', counts, rates: ratesOf(counts) };
  });
}

/** The journal --delivery-store (else LOOPS_DELIVERY_STORE) names, or none; one that cannot be opened is a usage error that names it. */
export async function openJournal(context: Uses<'env'>, options: { deliveryStore?: string }): Promise<DeliveryStore | undefined> {
  const url = options.deliveryStore ?? context.env[DELIVERY_STORE_ENV];
  if (url === undefined || url === '') return undefined;
  const { openDeliveryStore, DeliveryStoreError } = await import('../../webhooks/store/index.js');
  try {
    return await openDeliveryStore(url);
  } catch (error) {
    if (error instanceof DeliveryStoreError) throw new UsageError(error.message, { hint: `check --delivery-store (or ${DELIVERY_STORE_ENV})` });
    throw error;
  }
}
