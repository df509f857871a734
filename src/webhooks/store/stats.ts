/**
 * `deliveries stats`' counts: a send is a `*.email.sent` event (platform/webhooks), the rest each
 * the events of one name. Whole days come from the daily counts the store keeps as it records
 * deliveries (sql.ts), the rest from a scan of the deliveries.
 */
import { isSendEvent, SEND_EVENT_SUFFIX } from '../../platform/webhooks/event-names.js';
import { conditions, type DeliveryFilter } from './filter.js';
import { ALL_TIME_DAY, DAY_MS, type SqlDatabase } from './sql.js';
import { countsOf, journalOf } from './statements.js';

/** The filters stats takes: a filter's, but a target, a limit and an order. */
export type StatsFilter = Omit<DeliveryFilter, 'limit' | 'order' | 'target'>;

export type StatsBy = 'email' | 'event' | 'day';

/** Counts over the journal's events, a send being a `*.email.sent` event. */
export interface DeliveryStats {
  /** The recipient, event name or day (YYYY-MM-DD, UTC) counted; null for all together. */
  readonly key: string | null;
  readonly events: number;
  readonly sends: number;
  readonly deliveries: number;
  /** Hard bounces: the email will not be delivered. */
  readonly bounces: number;
  readonly softBounces: number;
  readonly complaints: number;
  readonly opens: number;
  readonly clicks: number;
  readonly unsubscribes: number;
}

/** The counts of stats() besides sends, each the events of one name. */
const COUNTED_EVENTS = {
  deliveries: 'email.delivered',
  bounces: 'email.hardBounced',
  softBounces: 'email.softBounced',
  complaints: 'email.spamReported',
  opens: 'email.opened',
  clicks: 'email.clicked',
  unsubscribes: 'email.unsubscribed',
} as const;

type Counts = Omit<DeliveryStats, 'key'>;

/** What an event of this name adds to: a send, one of COUNTED_EVENTS, or only the events. */
function countedAs(eventName: string | null): keyof Counts | undefined {
  if (eventName === null) return undefined;
  if (isSendEvent(eventName)) return 'sends';
  return (Object.keys(COUNTED_EVENTS) as (keyof typeof COUNTED_EVENTS)[]).find((name) => COUNTED_EVENTS[name] === eventName);
}

/** The counts as SQL over event_name, a send matched case-sensitively in both dialects as isSendEvent does. */
function countsSql(dialect: SqlDatabase['dialect']): string {
  const send = dialect === 'postgres' ? `event_name LIKE '%${SEND_EVENT_SUFFIX}'` : `event_name GLOB '*${SEND_EVENT_SUFFIX}'`;
  return [['sends', send], ...Object.entries(COUNTED_EVENTS).map(([name, event]) => [name, `event_name = '${event}'`])]
    .map(([name, condition]) => `SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END) AS ${name!.toLowerCase()}`)
    .join(', ');
}

const NO_COUNTS: Counts = { events: 0, sends: 0, deliveries: 0, bounces: 0, softBounces: 0, complaints: 0, opens: 0, clicks: 0, unsubscribes: 0 };

/**
 * The counts of the selected events, in all (`by` not given) or by recipient, event name or UTC
 * day, keys in order. Without --to, --email-id or `by` email, the whole days of the span are read
 * from the daily counts (as many rows at any size of journal) and only the part days at its ends
 * from the deliveries; otherwise the deliveries are scanned.
 */
export async function deliveryStats(db: SqlDatabase, filter: StatsFilter, by: StatsBy | undefined): Promise<DeliveryStats[]> {
  const days = by === 'email' || filter.to !== undefined || filter.emailId !== undefined ? undefined : wholeDays(filter);
  if (days === undefined) return statsRows([await scanned(db, filter, by)], by);
  const parts = [await counted(db, filter.event, days, by)];
  if (days.from !== undefined && filter.since!.getTime() < days.from * DAY_MS)
    parts.push(await scanned(db, { ...filter, until: new Date(days.from * DAY_MS) }, by));
  if (days.to !== undefined && days.to * DAY_MS < filter.until!.getTime()) parts.push(await scanned(db, { ...filter, since: new Date(days.to * DAY_MS) }, by));
  return statsRows(parts, by);
}

/** The counts of the deliveries as selected, read from each one. */
async function scanned(db: SqlDatabase, filter: StatsFilter, by: StatsBy | undefined): Promise<DeliveryStats[]> {
  const { where, params } = conditions(filter);
  const key = by === undefined ? 'NULL' : by === 'email' ? 'd.recipient' : by === 'event' ? 'd.event_name' : `d.event_at / ${DAY_MS}`;
  const group = by === undefined ? '' : ' GROUP BY 1';
  const rows = await db.all(`SELECT ${key} AS k, COUNT(*) AS events, ${countsSql(db.dialect)} FROM ${journalOf(db.dialect)} d${where}${group}`, params);
  return rows.map((row) => ({
    key: keyOf(row.k, by),
    ...(Object.fromEntries(Object.keys(NO_COUNTS).map((name) => [name, Number(row[name.toLowerCase()] ?? 0)])) as Counts),
  }));
}

/** The counts of the whole days from..to (either open), from the daily counts; of all time, from the all-time counts. */
async function counted(
  db: SqlDatabase,
  event: DeliveryFilter['event'],
  days: { from?: number; to?: number },
  by: StatsBy | undefined,
): Promise<DeliveryStats[]> {
  const clauses: string[] = [];
  const params: unknown[] = [];
  // No day named: the all-time counts, as many rows however many days the journal spans.
  if (by !== 'day' && days.from === undefined && days.to === undefined) clauses.push(`day = ${ALL_TIME_DAY}`);
  else if (days.to === undefined) clauses.push(`day < ${ALL_TIME_DAY}`);
  if (days.from !== undefined) {
    clauses.push('day >= ?');
    params.push(days.from);
  }
  if (days.to !== undefined) {
    clauses.push('day < ?');
    params.push(days.to);
  }
  if (event !== undefined) {
    const names = typeof event === 'string' ? [event] : [...event];
    clauses.push(names.length === 0 ? '1 = 0' : `named = 1 AND event_name IN (${names.map(() => '?').join(', ')})`);
    params.push(...names);
  }
  const where = clauses.length === 0 ? '' : ` WHERE ${clauses.join(' AND ')}`;
  const day = by === 'day' ? 'day, ' : '';
  const rows = await db.all(`SELECT ${day}named, event_name, SUM(n) AS n FROM ${countsOf(db.dialect)} c${where} GROUP BY ${day}named, event_name`, params);
  return rows.map((row) => {
    const eventName = Number(row.named) === 1 ? String(row.event_name) : null;
    const n = Number(row.n);
    const as = countedAs(eventName);
    return {
      key: by === 'day' ? keyOf(row.day, by) : by === 'event' ? eventName : null,
      ...NO_COUNTS,
      events: n,
      ...(as === undefined ? {} : { [as]: n }),
    };
  });
}

/**
 * The whole UTC days a filter's span covers (from inclusive, to exclusive; either open), or
 * undefined when it covers none, or reaches before the second day of 1970 (where the day of a
 * time before the epoch, rounded toward zero, is no whole day).
 */
function wholeDays(filter: StatsFilter): { from?: number; to?: number } | undefined {
  const since = filter.since?.getTime();
  const until = filter.until?.getTime();
  if ((since !== undefined && since < DAY_MS) || (until !== undefined && until < DAY_MS)) return undefined;
  const from = since === undefined ? undefined : Math.ceil(since / DAY_MS);
  const to = until === undefined ? undefined : Math.floor(until / DAY_MS);
  if (from !== undefined && to !== undefined && from >= to) return undefined;
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

function keyOf(value: unknown, by: StatsBy | undefined): string | null {
  if (value === null || value === undefined || by === undefined) return null;
  return by === 'day' ? new Date(Number(value) * DAY_MS).toISOString().slice(0, 10) : String(value);
}

/** Rows of counts added up by key, keys in order (none first); one row of all, zeros when none, without `by`. */
function statsRows(parts: readonly DeliveryStats[][], by: StatsBy | undefined): DeliveryStats[] {
  const rows = new Map<string | null, DeliveryStats>(by === undefined ? [[null, { key: null, ...NO_COUNTS }]] : []);
  for (const row of parts.flat()) {
    const kept = rows.get(row.key) ?? { key: row.key, ...NO_COUNTS };
    rows.set(
      row.key,
      Object.fromEntries(
        Object.entries(kept).map(([name, value]) => [name, name === 'key' ? value : (value as number) + (row[name as keyof Counts] ?? 0)]),
      ) as DeliveryStats,
    );
  }
  return [...rows.values()].sort((a, b) => (a.key === b.key ? 0 : a.key === null ? -1 : b.key === null ? 1 : a.key < b.key ? -1 : 1));
}
