/**
 * The statements of a delivery's claim, outcome, record, prune and reads, over the tables
 * migrations() makes (sql.ts), in either dialect.
 */
import { ALL_TIME_DAY, DAY_MS, type Row, type SqlDatabase, type Statement, type StatementResult } from './sql.js';

/** A delivery's columns as the store writes them, and the PostgreSQL type of each (for arrays of them). */
const DELIVERY_COLUMNS = [
  ['webhook_id', 'text'],
  ['received_at', 'bigint'],
  ['event_at', 'bigint'],
  ['event_name', 'text'],
  ['recipient', 'text'],
  ['email_id', 'text'],
  ['contact_id', 'text'],
  ['headers', 'text'],
  ['body', 'text'],
  ['verified', 'int'],
  ['claimed_at', 'bigint'],
] as const;

const columns = DELIVERY_COLUMNS.map(([name]) => name).join(', ');
const placeholders = DELIVERY_COLUMNS.map(() => '?').join(', ');

const DELIVERIES = 'loopsctl_webhook_deliveries';
/**
 * SQLite's claims (version 5): a delivery claimed by webhookHandler is written here, a narrow
 * table with its key's index alone, and moved into the journal's table, with its four indexes and
 * its counts, a group at a time once settled (moveStatements). A commit of a claim or an outcome
 * then writes two or three pages of the write-ahead log, not eight or nine. Not on PostgreSQL: there
 * a redelivery's claim that waited on a row being moved would insert it anew once the move
 * committed (READ COMMITTED), and the delivery would be handled twice.
 */
const RECENT = 'loopsctl_webhook_recent';

/** The tables a delivery may be kept in: on SQLite, the recent claims' (where most claims are settled) and the journal's. */
export function deliveryTables(dialect: SqlDatabase['dialect']): readonly string[] {
  return dialect === 'sqlite' ? [RECENT, DELIVERIES] : [DELIVERIES];
}

/** Every column a kept delivery has, in both of SQLite's tables. */
const KEPT_COLUMNS = `${columns}, outcome, error, settled_at, handled_at`;

/** The deliveries as one table, for a query's FROM: on SQLite both tables, each read by its own indexes. */
export function journalOf(dialect: SqlDatabase['dialect']): string {
  return dialect === 'sqlite' ? `(SELECT ${KEPT_COLUMNS} FROM ${DELIVERIES} UNION ALL SELECT ${KEPT_COLUMNS} FROM ${RECENT})` : DELIVERIES;
}

/**
 * The daily and all-time counts as one table, for a query's FROM: on SQLite with the recent
 * claims', not yet counted (read in the same statement, so that a move between two reads cannot
 * count a delivery twice or miss it).
 */
export function countsOf(dialect: SqlDatabase['dialect']): string {
  return dialect === 'postgres' ? 'loopsctl_webhook_counts' : `(SELECT named, event_name, day, n FROM loopsctl_webhook_counts UNION ALL ${recentCounts('')})`;
}

/** What SQLite's recent claims (those `where` selects) add to the counts: a row of n = 1 for each one's day and for all time. */
function recentCounts(where: string): string {
  return `SELECT CASE WHEN event_name IS NULL THEN 0 ELSE 1 END AS named, COALESCE(event_name, '') AS event_name,
    CASE WHEN counted.all_time = 1 THEN ${ALL_TIME_DAY} ELSE event_at / ${DAY_MS} END AS day, 1 AS n
    FROM ${RECENT} CROSS JOIN (SELECT 0 AS all_time UNION ALL SELECT 1) AS counted${where}`;
}

/**
 * A prune's statements of a table, over the ids `list` names (its parameters given once for
 * each statement): the deliveries' forwards and the deliveries removed; recent claims, never
 * counted, first added to the counts, which a prune keeps.
 */
export function pruneStatements(table: string, list: string): string[] {
  const ids = ` WHERE webhook_id IN (${list})`;
  // WHERE true: SQLite reads an upsert's INSERT … SELECT only when its SELECT has a WHERE.
  const counted = `INSERT INTO loopsctl_webhook_counts (named, event_name, shard, day, n)
    SELECT named, event_name, 0, day, SUM(n) FROM (${recentCounts(ids)}) WHERE true GROUP BY named, event_name, day
    ON CONFLICT (named, event_name, shard, day) DO UPDATE SET n = loopsctl_webhook_counts.n + excluded.n`;
  return [`DELETE FROM loopsctl_webhook_forwards${ids}`, ...(table === RECENT ? [counted] : []), `DELETE FROM ${table}${ids}`];
}

/** A delivery's INSERT, its values in the order of DELIVERY_COLUMNS (its conflict clause left to the caller). */
const INSERT_DELIVERY = `INSERT INTO ${DELIVERIES} (${columns}) VALUES (${placeholders})`;

/** A delivery recorded without a claim (webhooks listen), its values in the order of DELIVERY_COLUMNS; on SQLite, not when among the recent claims. */
export function recordStatement(dialect: SqlDatabase['dialect'], row: readonly unknown[]): Statement {
  if (dialect === 'postgres') return [`${INSERT_DELIVERY} ON CONFLICT (webhook_id) DO NOTHING`, row];
  return [
    `INSERT INTO ${DELIVERIES} (${columns}) SELECT ${placeholders}
     WHERE NOT EXISTS (SELECT 1 FROM ${RECENT} WHERE webhook_id = ?) ON CONFLICT (webhook_id) DO NOTHING`,
    [...row, row[0]],
  ];
}

/** A claim that may be taken: never settled as handled, and not claimed, or claimed before the parameter (its lease over). */
const free = (table: string) => `${table}.handled_at IS NULL AND (${table}.claimed_at IS NULL OR ${table}.claimed_at < ?)`;

/** Taken as a claim when new, or when free. */
const taken = (table: string) => `ON CONFLICT (webhook_id) DO UPDATE SET claimed_at = excluded.claimed_at WHERE ${free(table)}`;

/**
 * SQLite's recent claims, once settled, moved into the journal's table in one transaction (its
 * trigger counts them there). A delivery the journal holds already (recorded by an older
 * loopsctl's `webhooks listen` meanwhile) keeps one row, with the claim's outcome.
 */
const moveStatements: Statement[] = [
  [
    `INSERT INTO ${DELIVERIES} (${KEPT_COLUMNS}) SELECT ${KEPT_COLUMNS} FROM ${RECENT} WHERE settled_at IS NOT NULL
     ON CONFLICT (webhook_id) DO UPDATE SET outcome = excluded.outcome, error = excluded.error, settled_at = excluded.settled_at,
       claimed_at = excluded.claimed_at, handled_at = excluded.handled_at`,
    [],
  ],
  [`DELETE FROM ${RECENT} WHERE settled_at IS NOT NULL`, []],
];

/**
 * The claim of one delivery on PostgreSQL: INSERT_DELIVERY's values, the lease's cutoff. It reads
 * no row back (pg's reading of a row cost the node process more than the statement's own round
 * trip): the row it changed says the claim was taken, and a claim that took none (a redelivery)
 * reads where the delivery stands after, with handledAtOf.
 */
const CLAIM_ONE = `${INSERT_DELIVERY} ${taken(DELIVERIES)}`;

/**
 * Several claims on PostgreSQL, each column an array: their rows inserted and taken, the ids of
 * those taken returned. It reads no other row: the server keeps a prepared statement's plan once it
 * has run it five times, and a join with the table planned while the table was small (a scan of
 * it whole) would stay as it grew. An insert's plan is the same at any size.
 */
const CLAIM_MANY = `INSERT INTO ${DELIVERIES} (${columns}) SELECT * FROM unnest(${DELIVERY_COLUMNS.map(([, type]) => `?::${type}[]`).join(', ')})
  ${taken(DELIVERIES)} RETURNING webhook_id`;

function claimManyParams(rows: readonly (readonly unknown[])[], leaseCutoff: number): unknown[] {
  return [...DELIVERY_COLUMNS.map((_, column) => rows.map((row) => row[column])), leaseCutoff];
}

/** When each of `count` deliveries was handled (null if not), by id: read after claims that took none of them. */
export function handledAtOf(count: number): string {
  return `SELECT webhook_id, handled_at FROM ${DELIVERIES} WHERE webhook_id IN (${Array(count).fill('?').join(', ')})`;
}

/** The claim of one delivery on SQLite, in the journal's table or among the recent claims; then what the delivery's row says. */
const CLAIM_IN_JOURNAL = `UPDATE ${DELIVERIES} SET claimed_at = ? WHERE webhook_id = ? AND ${free(DELIVERIES)}`;
const CLAIM_RECENT = `INSERT INTO ${RECENT} (${columns}) SELECT ${placeholders}
  WHERE NOT EXISTS (SELECT 1 FROM ${DELIVERIES} WHERE webhook_id = ?) ${taken(RECENT)}`;
const CLAIM_READ = `SELECT handled_at FROM ${RECENT} WHERE webhook_id = ? UNION ALL SELECT handled_at FROM ${DELIVERIES} WHERE webhook_id = ?`;

/**
 * Claims as one commit: each delivery's row (values in the order of DELIVERY_COLUMNS, claimed now)
 * inserted and taken as the claim (when free, with `leaseCutoff`); claimedRows reads what each
 * claim found. On PostgreSQL one statement for any number of deliveries of distinct ids (one's
 * values as they are, several's each column an array: pg's arrays cost a claim of one about twice
 * its CPU), a round trip committed on its own, which says only which it took.
 * On SQLite one delivery, in the transaction that runs its statements: taken in the journal's
 * table when kept there, else among the recent claims; with `move`, the recent claims settled
 * meanwhile moved into the journal's table first.
 */
export function claimStatements(dialect: SqlDatabase['dialect'], rows: readonly (readonly unknown[])[], leaseCutoff: number, move = false): Statement[] {
  if (dialect === 'postgres' && rows.length === 1) return [[CLAIM_ONE, [...rows[0]!, leaseCutoff]]];
  if (dialect === 'postgres') return [[CLAIM_MANY, claimManyParams(rows, leaseCutoff)]];
  const [row] = rows as [readonly unknown[]];
  const [id, claimedAt] = [row[0], row[DELIVERY_COLUMNS.length - 1]];
  return [...(move ? moveStatements : []), [CLAIM_IN_JOURNAL, [claimedAt, id, leaseCutoff]], claimRecent(row, leaseCutoff), [CLAIM_READ, [id, id]]];
}

/**
 * A lone claim on SQLite tried first as one statement, a commit of its own: a new delivery (most
 * are) is then claimed among the recent claims without claimStatements' transaction of three. When
 * it takes nothing (a redelivery, a claim held, a delivery the journal's table keeps), that
 * transaction runs after it and says why.
 */
export function claimRecent(row: readonly unknown[], leaseCutoff: number): Statement {
  return [CLAIM_RECENT, [...row, row[0], leaseCutoff]];
}

/**
 * What claimStatements' results say of each delivery of `ids`, in order: `claimed` 1 when this
 * claim took it, and its `handled_at`, which PostgreSQL's claims leave out (the caller reads it
 * with handledAtOf for those that took nothing).
 */
export function claimedRows(dialect: SqlDatabase['dialect'], results: readonly StatementResult[], ids: readonly unknown[]): Row[] {
  if (dialect === 'postgres') {
    // A lone claim returns no row: the row it changed says. Several return the ids they took.
    if (ids.length === 1) return [{ claimed: results[0]!.changes }];
    const took = new Set(results[0]!.rows.map((row) => row.webhook_id));
    return ids.map((id) => ({ claimed: took.has(id) ? 1 : 0 }));
  }
  // The journal's row taken, or the recent one: one of the two writes, at most, changed a row.
  const [inJournal, inRecent, read] = results.slice(-3) as [StatementResult, StatementResult, StatementResult];
  return [{ claimed: inJournal.changes + inRecent.changes, handled_at: read.rows[0]?.handled_at ?? null }];
}

/** What a handler did with a delivery, for settleStatements. */
export interface Settled {
  readonly webhookId: string;
  readonly state: 'handled' | 'failed';
  readonly error: string | null;
}

/** An outcome's SET: handled makes a claim for good; failed releases it, unless it was handled before. */
const settledAs = (state: string, error: string) => `outcome = ${state}, error = ${error}, settled_at = ?,
  handled_at = CASE WHEN ${state} = 'handled' THEN ? ELSE handled_at END,
  claimed_at = CASE WHEN ${state} = 'failed' AND handled_at IS NULL THEN NULL ELSE claimed_at END`;

/** One outcome's UPDATE of each table a delivery may be kept in. */
const SETTLE_ONE = new Map([DELIVERIES, RECENT].map((table) => [table, `UPDATE ${table} SET ${settledAs('?', '?')} WHERE webhook_id = ?`]));

/**
 * Several outcomes (of distinct ids) as parts of a WITH: each its own UPDATE of its row by key,
 * SETTLE_ONE's parameters each. Not a join of the table with arrays, for the reason CLAIM_MANY
 * gives: a look-up by key is planned alike at any size of table. Their number is rounded up to a
 * power of two, the parts past the outcomes given no id (they change no row): a connection then
 * keeps the plans of a few statements, not one for each number of outcomes (the server keeps every
 * plan for each connection: one for each number up to 64 took 98 MB; those of 2, 4, 8 and 16, 2.4 MB).
 */
function settleParts(count: number): string {
  return Array.from({ length: count }, (_, part) => `settled_${part} AS (${SETTLE_ONE.get(DELIVERIES)})`).join(', ');
}

/** The statements of several outcomes alone, and with claims, by their number of parts: each text built once. */
const SETTLE_MANY = new Map<number, string>();
const SETTLE_AND_CLAIM = new Map<number, string>();

function textOf(texts: Map<number, string>, parts: number, build: () => string): string {
  let text = texts.get(parts);
  if (text === undefined) texts.set(parts, (text = build()));
  return text;
}

/** The number of parts several outcomes are given: a power of two. */
const partsFor = (outcomes: number) => 2 ** Math.ceil(Math.log2(outcomes));

/** Each outcome's parameters, as SETTLE_ONE reads them, one after the other; then those of parts that change no row, up to `parts`. */
function settleParams(settled: readonly Settled[], now: number, parts = settled.length): unknown[] {
  const params = settled.flatMap(({ webhookId, state, error }) => [state, error, now, state, now, state, webhookId]);
  for (let part = settled.length; part < parts; part += 1) params.push('handled', null, now, 'handled', now, 'handled', null);
  return params;
}

/**
 * Outcomes and claims that waited together on PostgreSQL as one statement, one commit: the
 * outcomes kept, then the claims as claimStatements' several. None of the claims may be of an
 * outcome's delivery: the statement's parts all see the table as it stood before it, and a row
 * changed twice in one statement is refused. claimedRows reads it as claimStatements'.
 */
export function settleAndClaimStatement(settled: readonly Settled[], now: number, rows: readonly (readonly unknown[])[], leaseCutoff: number): Statement {
  const parts = partsFor(settled.length);
  const text = textOf(SETTLE_AND_CLAIM, parts, () => `WITH ${settleParts(parts)} ${CLAIM_MANY}`);
  return [text, [...settleParams(settled, now, parts), ...claimManyParams(rows, leaseCutoff)]];
}

/**
 * Outcomes, each statement one commit, in the order of the tables a delivery may be kept in: the
 * caller runs them until one changes a row (on SQLite most often the first, the recent claims').
 */
export function settleStatements(dialect: SqlDatabase['dialect'], settled: readonly Settled[], now: number): Statement[] {
  // Several (PostgreSQL, which alone groups them): all parts but the last as a WITH's, the last its statement.
  const parts = partsFor(settled.length);
  if (settled.length > 1)
    return [[textOf(SETTLE_MANY, parts, () => `WITH ${settleParts(parts - 1)} ${SETTLE_ONE.get(DELIVERIES)}`), settleParams(settled, now, parts)]];
  return deliveryTables(dialect).map((table): Statement => [SETTLE_ONE.get(table)!, settleParams(settled, now)]);
}
