/**
 * The delivery store: the journal of every delivery an app or `webhooks listen` received (headers,
 * raw body, when, whether verified, the handler's outcome), the claims that make a delivery
 * handled once across processes and restarts, and the queue of deliveries to forward to each
 * target. One set of queries over either database (sql.ts); `openDeliveryStore` picks it by URL.
 */

import { redactUrl } from '../../base/redact-url.js';
import type { ClaimState, DeliveryJournal, DeliveryOutcome, ReceivedDelivery } from '../delivery-store.js';
import { conditions, type DeliveryFilter } from './filter.js';
import { grouped } from './grouped.js';
import { DEFAULT_MAX_CONNECTIONS, openPostgres } from './postgres.js';
import { type ForwardState, forwardState, insertValues, type StoredDelivery, storedDelivery } from './rows.js';
import { DAY_MS, DeliveryStoreError, migrate, type SqlDatabase } from './sql.js';
import { openSqlite } from './sqlite.js';
import {
  claimedRows,
  claimRecent,
  claimStatements,
  deliveryTables,
  handledAtOf,
  journalOf,
  pruneStatements,
  recordStatement,
  type Settled,
  settleAndClaimStatement,
  settleStatements,
} from './statements.js';
import { type DeliveryStats, deliveryStats, type StatsBy, type StatsFilter } from './stats.js';

export type { DeliveryFilter } from './filter.js';
export type { ForwardState, StoredDelivery } from './rows.js';
export { DeliveryStoreError } from './sql.js';
export type { DeliveryStats, StatsBy } from './stats.js';

export interface DeliveryStoreOptions {
  /**
   * How long a claim holds without being settled, in milliseconds (default 5 minutes): the longest
   * a handler may run before another may take the delivery. A process that stopped mid-handling
   * leaves a claim that the platform's first retry after the lease takes (until then, 409).
   */
  claimLeaseMs?: number;
  /**
   * Keep the deliveries of this many days (by the event's time) and prune older ones, at most once
   * an hour, in the background of the deliveries recorded: the daily counts of stats stay.
   */
  keepDays?: number;
  /**
   * A postgres:// store's pool: at most this many connections (default 8), each delivery's claim
   * and outcome taking one for its statement; the claims and outcomes that come together while
   * others are under way go in one statement. Within the server's max_connections, shared by every
   * instance of the app. A sqlite: store has one.
   */
  maxConnections?: number;
  /** The clock, for tests. */
  now?: () => Date;
}

export interface ForwardAttempt {
  readonly at: Date;
  /** The target's status, or null when it did not answer. */
  readonly status: number | null;
  readonly error?: string | null;
  /** When to try again; null when done (2xx) or given up. */
  readonly nextAt: Date | null;
}

const DEFAULT_LEASE_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;
/** How many deliveries one transaction of a prune removes: a short one, which holds up no delivery long. */
export const PRUNE_BATCH = 500;
/**
 * The most claims and outcomes in one statement on PostgreSQL. The claims are arrays, one plan at
 * any number; each outcome is a part of its statement (statements.ts), whose plan the server keeps
 * for each connection, some 40 KB a part, so outcomes are fewer. At 32 deliveries at once a group
 * holds three or four.
 */
const GROUP_MOST = 64;
const OUTCOMES_MOST = 16;
/** How many outcomes SQLite's recent claims gather before a claim's commit moves them into the journal's table. */
export const MOVE_AFTER = 128;

/** A delivery to claim, or an outcome to keep: what the store's queue runs. */
type Work = { readonly claim: ReceivedDelivery } | { readonly settle: Settled };

export class DeliveryStore implements DeliveryJournal {
  private readonly leaseMs: number;
  /** The clock in milliseconds: Date.now unless a test gives one (no Date made a claim or outcome). */
  private readonly nowMs: () => number;
  private readonly keepDays: number | undefined;
  /** When the background prune of keepDays last started, and the run under way or last done. */
  private prunedAt = Number.NEGATIVE_INFINITY;
  private pruning: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Claims and outcomes: on PostgreSQL in groups (grouped.ts), one queue, as they share the pool; on SQLite each at once. */
  private readonly queued: (work: Work) => Promise<ClaimState | undefined>;
  /**
   * Outcomes kept since this process last moved SQLite's recent claims; MOVE_AFTER at first, so
   * that the first claim moves what a process before this one left.
   */
  private settledSinceMove = MOVE_AFTER;

  constructor(
    private readonly db: SqlDatabase,
    /** The store as it may be shown (a PostgreSQL URL without its password). */
    readonly location: string,
    options: DeliveryStoreOptions = {},
  ) {
    this.leaseMs = options.claimLeaseMs ?? DEFAULT_LEASE_MS;
    const { now } = options;
    this.nowMs = now === undefined ? Date.now : () => now().getTime();
    this.keepDays = options.keepDays;
    // PostgreSQL: the claims and outcomes that come in one turn of the event loop, or while every connection is
    // busy, go a group a statement. SQLite runs a statement at once, in this thread: each call runs alone, at once.
    this.queued =
      db.dialect === 'postgres'
        ? grouped(options.maxConnections ?? DEFAULT_MAX_CONNECTIONS, groupSize, (work) => this.runWork(work))
        : (work) => this.runWork([work]).then((states) => states[0]);
  }

  /** Starts a prune of what keepDays lets go, unless one started within the hour; the delivery does not wait for it. */
  private keepWithinDays(now: number): void {
    if (this.keepDays === undefined || now - this.prunedAt < HOUR_MS) return;
    this.prunedAt = now;
    // A prune that fails is tried again an hour later: the delivery that started it was kept.
    this.pruning = this.pruning.then(() => this.prune(new Date(now - this.keepDays! * DAY_MS))).catch(() => {});
  }

  /**
   * Removes the deliveries whose event is older than `before` (their claims with them) and their forwards, in
   * transactions of PRUNE_BATCH each, table by table; the daily counts stay. How many were removed.
   */
  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (const table of deliveryTables(this.db.dialect))
      while (!this.closed) {
        const ids = (await this.db.all(`SELECT webhook_id FROM ${table} WHERE event_at < ? ORDER BY event_at LIMIT ${PRUNE_BATCH}`, [before.getTime()])).map(
          (row) => String(row.webhook_id),
        );
        if (ids.length === 0) break;
        // Always PRUNE_BATCH parameters (the last id repeated): one statement of each to prepare.
        const padded = [...ids, ...Array<string>(PRUNE_BATCH - ids.length).fill(ids.at(-1)!)];
        const list = padded.map(() => '?').join(', ');
        const results = await this.db.batch(pruneStatements(table, list).map((sql) => [sql, padded]));
        removed += results.at(-1)!.changes;
        if (ids.length < PRUNE_BATCH) break;
      }
    return removed;
  }

  claim(delivery: ReceivedDelivery): Promise<ClaimState> {
    return this.queued({ claim: delivery }) as Promise<ClaimState>;
  }

  /** A run's claims and outcomes; each claim's state, in order (an outcome's is undefined). */
  private async runWork(work: readonly Work[]): Promise<(ClaimState | undefined)[]> {
    if (work.length === 1) {
      const [item] = work as [Work];
      if ('claim' in item) return this.claimAll([item.claim]);
      await this.settleAll([item.settle]);
      return [undefined];
    }
    const outcomes = work.flatMap((item) => ('settle' in item ? [item.settle] : []));
    const deliveries = work.flatMap((item) => ('claim' in item ? [item.claim] : []));
    const settledIds = new Set(outcomes.map((outcome) => outcome.webhookId));
    let states: ClaimState[] = [];
    if (deliveries.length === 0) await this.settleAll(outcomes);
    else if (outcomes.length === 0 || deliveries.some((delivery) => settledIds.has(delivery.webhookId))) {
      // A redelivery whose delivery's outcome waited with it: the outcome first, then the claim finds it settled.
      if (outcomes.length > 0) await this.settleAll(outcomes);
      states = await this.claimAll(deliveries);
    } else states = await this.claimAll(deliveries, outcomes);
    let claimed = 0;
    return work.map((item) => ('claim' in item ? states[claimed++] : undefined));
  }

  /**
   * Claims deliveries in one commit; of two of one id, the second finds the first's claim held.
   * With `outcomes` (PostgreSQL, none of them of these deliveries), those are kept in the same commit.
   */
  private async claimAll(deliveries: readonly ReceivedDelivery[], outcomes: readonly Settled[] = []): Promise<ClaimState[]> {
    const now = this.nowMs();
    const first = deliveries.length === 1 ? deliveries : firstOfEachId(deliveries);
    const move = this.settledSinceMove >= MOVE_AFTER;
    const values = first.map((delivery) => insertValues(delivery, now));
    // On SQLite a new delivery is claimed by one statement; a move, or a claim that took nothing, runs the whole transaction.
    if (this.db.dialect === 'sqlite' && !move && (await this.db.run(...claimRecent(values[0]!, now - this.leaseMs))) === 1) {
      this.keepWithinDays(now);
      return ['claimed'];
    }
    const results = await this.db.batch(
      outcomes.length === 0
        ? claimStatements(this.db.dialect, values, now - this.leaseMs, move)
        : [settleAndClaimStatement(latestOutcomes(outcomes), now, values, now - this.leaseMs)],
    );
    if (move) this.settledSinceMove = 0;
    this.keepWithinDays(now);
    const ids = first.map((delivery) => delivery.webhookId);
    const rows = claimedRows(this.db.dialect, results, ids);
    // PostgreSQL's claims say only which they took: where the others stand is read after them.
    const unread = ids.filter((_, index) => !('handled_at' in rows[index]!) && Number(rows[index]!.claimed) === 0);
    if (unread.length > 0) {
      const handledAt = new Map((await this.db.all(handledAtOf(unread.length), unread)).map((row) => [row.webhook_id, row.handled_at]));
      for (const [index, row] of rows.entries()) if (!('handled_at' in row)) row.handled_at = handledAt.get(ids[index]) ?? null;
    }
    return deliveries.map((delivery) => {
      const row = rows[first.indexOf(delivery)];
      if (row === undefined) return 'held';
      if (Number(row.claimed) === 1) return 'claimed';
      return row.handled_at === null || row.handled_at === undefined ? 'held' : 'handled';
    });
  }

  /** Keeps a delivery in the journal; false when that id was kept already (a redelivery). */
  async record(delivery: ReceivedDelivery): Promise<boolean> {
    const kept = (await this.db.run(...recordStatement(this.db.dialect, insertValues(delivery, null)))) === 1;
    this.keepWithinDays(this.nowMs());
    return kept;
  }

  settle(webhookId: string, outcome: DeliveryOutcome): Promise<void> {
    // An outcome's run answers undefined: no promise more to say so.
    return this.queued({ settle: { webhookId, state: outcome.state, error: outcome.state === 'failed' ? outcome.error : null } }) as Promise<undefined>;
  }

  /** Keeps outcomes in one commit (of two of one id, the later). */
  private async settleAll(settled: readonly Settled[]): Promise<void> {
    const latest = latestOutcomes(settled);
    for (const statement of settleStatements(this.db.dialect, latest, this.nowMs())) if ((await this.db.run(...statement)) > 0) break;
    this.settledSinceMove += latest.length;
  }

  /** The deliveries the filter selects, newest first unless asked otherwise. */
  async find(filter: DeliveryFilter = {}): Promise<StoredDelivery[]> {
    const { where, params } = conditions(filter);
    const forward = filter.target === undefined ? '' : ', f.*';
    const join = filter.target === undefined ? '' : ' JOIN loopsctl_webhook_forwards f ON f.webhook_id = d.webhook_id AND f.target = ?';
    const direction = filter.order === 'oldest' ? 'ASC' : 'DESC';
    const limit = filter.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(filter.limit))}`;
    const rows = await this.db.all(
      `SELECT d.*${forward} FROM ${journalOf(this.db.dialect)} d${join}${where} ORDER BY d.event_at ${direction}, d.webhook_id ${direction}${limit}`,
      filter.target === undefined ? params : [filter.target, ...params],
    );
    return rows.map((row) => storedDelivery(row, filter.target !== undefined));
  }

  /** How many deliveries the filter selects (its limit aside): what a replay of them sends. */
  async count(filter: DeliveryFilter = {}): Promise<number> {
    const { where, params } = conditions(filter);
    const join = filter.target === undefined ? '' : ' JOIN loopsctl_webhook_forwards f ON f.webhook_id = d.webhook_id AND f.target = ?';
    const [row] = await this.db.all(
      `SELECT COUNT(*) AS n FROM ${journalOf(this.db.dialect)} d${join}${where}`,
      filter.target === undefined ? params : [filter.target, ...params],
    );
    const total = Number(row!.n);
    return filter.limit === undefined ? total : Math.min(total, Math.max(0, Math.floor(filter.limit)));
  }

  async get(webhookId: string): Promise<StoredDelivery | undefined> {
    const [row] = await this.db.all(`SELECT d.* FROM ${journalOf(this.db.dialect)} d WHERE d.webhook_id = ?`, [webhookId]);
    return row === undefined ? undefined : storedDelivery(row, false);
  }

  /**
   * The counts of the selected events, in all (`by` not given) or by recipient, event name or UTC
   * day, keys in order (stats.ts says which it reads from the daily counts).
   */
  stats(filter: StatsFilter = {}, by?: StatsBy): Promise<DeliveryStats[]> {
    return deliveryStats(this.db, filter, by);
  }

  /** Queues a delivery for a target, due at `at` (now by default); false when it was queued already. */
  async enqueueForward(target: string, webhookId: string, at: Date = new Date(this.nowMs())): Promise<boolean> {
    const changed = await this.db.run(
      'INSERT INTO loopsctl_webhook_forwards (target, webhook_id, enqueued_at, next_at) VALUES (?, ?, ?, ?) ON CONFLICT (target, webhook_id) DO NOTHING',
      [target, webhookId, this.nowMs(), at.getTime()],
    );
    return changed === 1;
  }

  /** The deliveries due for a target at `at`, earliest due first, with where each stands. */
  async dueForwards(target: string, at: Date, limit = 100): Promise<(StoredDelivery & { forward: ForwardState })[]> {
    const rows = await this.db.all(
      `SELECT d.*, f.* FROM loopsctl_webhook_forwards f JOIN ${journalOf(this.db.dialect)} d ON d.webhook_id = f.webhook_id
       WHERE f.target = ? AND f.next_at IS NOT NULL AND f.next_at <= ? ORDER BY f.next_at, f.webhook_id LIMIT ${Math.max(0, Math.floor(limit))}`,
      [target, at.getTime()],
    );
    return rows.map((row) => storedDelivery(row, true) as StoredDelivery & { forward: ForwardState });
  }

  /** When the next delivery for a target is due, or undefined when none waits. */
  async nextForwardAt(target: string): Promise<Date | undefined> {
    const [row] = await this.db.all('SELECT MIN(next_at) AS next FROM loopsctl_webhook_forwards WHERE target = ? AND next_at IS NOT NULL', [target]);
    return row?.next === null || row?.next === undefined ? undefined : new Date(Number(row.next));
  }

  /** Keeps what a target answered; a 2xx marks it done, else it is due again at `nextAt` (null: given up). */
  async recordForwardAttempt(target: string, webhookId: string, attempt: ForwardAttempt): Promise<void> {
    const accepted = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
    await this.db.run(
      `UPDATE loopsctl_webhook_forwards SET attempts = attempts + 1, last_at = ?, last_status = ?, last_error = ?, next_at = ?, done_at = ?
       WHERE target = ? AND webhook_id = ?`,
      [
        attempt.at.getTime(),
        attempt.status,
        attempt.error ?? null,
        accepted || attempt.nextAt === null ? null : attempt.nextAt.getTime(),
        accepted ? attempt.at.getTime() : null,
        target,
        webhookId,
      ],
    );
  }

  /** Where a delivery stands with each target it was queued for. */
  async forwards(webhookId: string): Promise<ForwardState[]> {
    const rows = await this.db.all('SELECT * FROM loopsctl_webhook_forwards WHERE webhook_id = ? ORDER BY target', [webhookId]);
    return rows.map(forwardState);
  }

  /** Closes the store once a prune under way has finished its batch. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pruning;
    await this.db.close();
  }
}

/**
 * Opens (and on first use creates) a delivery store: `sqlite:<file>` (or a plain file path) with
 * node:sqlite, for one process or one machine; `postgres://…` (or `postgresql://…`) with the pg
 * client, for an app that runs several instances.
 */
export async function openDeliveryStore(url: string, options: DeliveryStoreOptions = {}): Promise<DeliveryStore> {
  // The app's mistakes, said before anything is opened.
  for (const name of ['keepDays', 'maxConnections'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) throw new TypeError(`${name} must be a whole number, 1 or more (got ${value})`);
  }
  const { db, location } = await openStoreDatabase(url, migrate, options.maxConnections);
  return new DeliveryStore(db, location, options);
}

/**
 * The database a store URL names (sqlite:<file>, a path, or postgres://…), its tables made or
 * upgraded by `migrate`, and where it is as it may be shown (a password hidden). The delivery
 * store and the metrics store (`loopsctl metrics`) take the same URLs by this one rule.
 */
export async function openStoreDatabase(
  url: string,
  migrate: (db: SqlDatabase, location: string) => Promise<void>,
  maxConnections?: number,
): Promise<{ db: SqlDatabase; location: string }> {
  const isPostgres = /^postgres(ql)?:\/\//i.test(url);
  if (!isPostgres && /^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('sqlite:'))
    throw new DeliveryStoreError(`the store ${redactUrl(url)} is neither sqlite:<file> nor postgres://…`);
  const location = isPostgres ? redactUrl(url) : url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url;
  if (location === '') throw new DeliveryStoreError('the store sqlite: names no file: give sqlite:<file>');
  const db = isPostgres ? await openPostgres(url, maxConnections) : openSqlite(location);
  try {
    await migrate(db, location);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return { db, location };
}

/** How many of the claims and outcomes waiting, from the first, one statement takes: GROUP_MOST, of which OUTCOMES_MOST outcomes. */
function groupSize(waiting: readonly Work[]): number {
  let outcomes = 0;
  for (const [index, work] of waiting.entries()) if (index === GROUP_MOST || ('settle' in work && ++outcomes > OUTCOMES_MOST)) return index;
  return waiting.length;
}

/** Outcomes of distinct ids: of two of one id, the later. */
function latestOutcomes(settled: readonly Settled[]): readonly Settled[] {
  return settled.length === 1 ? settled : [...new Map(settled.map((outcome) => [outcome.webhookId, outcome])).values()];
}

/** The first delivery of each id, in order. */
function firstOfEachId(deliveries: readonly ReceivedDelivery[]): ReceivedDelivery[] {
  const ids = new Set<string>();
  return deliveries.filter(({ webhookId }) => !ids.has(webhookId) && ids.add(webhookId));
}
