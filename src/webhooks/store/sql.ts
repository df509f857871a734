/**
 * What the delivery store asks of a database: a few statements with `?` parameters, run one at a
 * time or in a transaction. SQLite (node:sqlite) and PostgreSQL (pg) each answer it, so the
 * store's queries are written once.
 */

/** A row as the database returns it: numbers may come back as text (PostgreSQL's bigint). */
export type Row = Record<string, unknown>;

/** What one statement of a batch did: the rows it changed, or (a SELECT) the rows it read. */
export interface StatementResult {
  readonly changes: number;
  readonly rows: Row[];
}

export interface SqlDatabase {
  /** The dialect's spelling of the few things the two differ in. */
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs a statement; the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Runs statements in one transaction: one commit for them all, and none of them without the
   * others. Each one's outcome, in order: the rows it changed, or the rows a SELECT read.
   */
  batch(statements: readonly Statement[]): Promise<StatementResult[]>;
  /** Runs `work` in a transaction that holds the store's lock, so that one process migrates at a time. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A statement and its `?` parameters. */
export type Statement = readonly [sql: string, params: readonly unknown[]];

/** Why a store cannot be opened or used: the message says what to do, and never holds a password. */
export class DeliveryStoreError extends Error {
  override readonly name = 'DeliveryStoreError';
}

/** The version of the tables this code writes; a store at a newer one was written by a newer loopsctl. */
export const STORE_VERSION = 6;

/** A UTC day in milliseconds: the daily counts' unit, the day of an event_at being event_at / DAY_MS. */
export const DAY_MS = 86_400_000;

/**
 * How many counters each day and event has on PostgreSQL: each connection adds to its own
 * (its backend's pid modulo this), so that concurrent deliveries of one event do not wait on one
 * row's lock until the other's commit. SQLite writes one transaction at a time, and keeps one.
 */
const COUNT_SHARDS = 16;

/** The `day` of a count of all time, beside each event's daily counts: later than any day. */
export const ALL_TIME_DAY = Number.MAX_SAFE_INTEGER;

/**
 * Version 2's trigger statements: a delivery's day's and all-time count of its event name in two
 * tables (a NULL cannot be part of a key, so a delivery without one is counted under '' with named
 * 0), each in its connection's counter. Version 4 replaces them with countedStatement's.
 */
function countedInTwoTables(dialect: SqlDatabase['dialect']): string {
  const shard = dialect === 'postgres' ? `pg_backend_pid() % ${COUNT_SHARDS}` : '0';
  const named = "CASE WHEN NEW.event_name IS NULL THEN 0 ELSE 1 END, COALESCE(NEW.event_name, '')";
  return `INSERT INTO loopsctl_webhook_daily (day, named, event_name, shard, n) VALUES (NEW.event_at / ${DAY_MS}, ${named}, ${shard}, 1)
    ON CONFLICT (day, named, event_name, shard) DO UPDATE SET n = loopsctl_webhook_daily.n + 1;
    INSERT INTO loopsctl_webhook_totals (named, event_name, shard, n) VALUES (${named}, ${shard}, 1)
    ON CONFLICT (named, event_name, shard) DO UPDATE SET n = loopsctl_webhook_totals.n + 1;`;
}

/**
 * The counts the deliveries an INSERT recorded add to, as one statement of the trigger: each one's
 * day's count and all-time count of its event name, rows of one table, one statement. On SQLite,
 * for each row (NEW): the table is kept in the order of its key, so that an event's count of today
 * and of all time are neighbours, most often on one page, the one page the counts add to a commit.
 * On PostgreSQL, once for the statement (its rows as `added`): a group of deliveries adds to each
 * counter once, in the order of the key, so that two groups never wait on each other's rows.
 */
function countedStatement(dialect: SqlDatabase['dialect']): string {
  const named = (row: string) => `CASE WHEN ${row}event_name IS NULL THEN 0 ELSE 1 END, COALESCE(${row}event_name, '')`;
  if (dialect === 'sqlite')
    return `INSERT INTO loopsctl_webhook_counts (named, event_name, shard, day, n)
      VALUES (${named('NEW.')}, 0, NEW.event_at / ${DAY_MS}, 1), (${named('NEW.')}, 0, ${ALL_TIME_DAY}, 1)
      ON CONFLICT (named, event_name, shard, day) DO UPDATE SET n = loopsctl_webhook_counts.n + 1;`;
  return `INSERT INTO loopsctl_webhook_counts (named, event_name, shard, day, n)
    SELECT named, event_name, shard, day, count(*) FROM (
      SELECT ${named('')} , pg_backend_pid() % ${COUNT_SHARDS}, unnest(ARRAY[event_at / ${DAY_MS}, ${ALL_TIME_DAY}]) FROM added
    ) AS counted (named, event_name, shard, day)
    GROUP BY named, event_name, shard, day ORDER BY named, event_name, shard, day
    ON CONFLICT (named, event_name, shard, day) DO UPDATE SET n = loopsctl_webhook_counts.n + excluded.n;`;
}

/**
 * The tables, version by version: each list runs once, in order, inside the exclusive transaction.
 * Times are milliseconds since the epoch (BIGINT): the same in both dialects, and sortable. The
 * versions are read in order, each after the one before it, so the list is one piece.
 */
export function migrations(dialect: SqlDatabase['dialect']): string[][] {
  const bigint = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  // The journal's columns as version 1 made them, which SQLite's recent claims (version 5) share.
  const journalColumns = `webhook_id TEXT PRIMARY KEY, received_at ${bigint} NOT NULL, event_at ${bigint} NOT NULL, event_name TEXT,
    recipient TEXT, email_id TEXT, contact_id TEXT, headers TEXT NOT NULL, body TEXT NOT NULL, verified INTEGER NOT NULL,
    outcome TEXT, error TEXT, settled_at ${bigint}`;
  // A trigger keeps the count in the transaction that records the delivery: no commit of its own,
  // and a redelivery (an INSERT that does nothing) inserts no row, so it fires not.
  const trigger =
    dialect === 'postgres'
      ? [
          `CREATE FUNCTION loopsctl_webhook_count_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN ${countedInTwoTables(dialect)} RETURN NULL; END $$`,
          `CREATE TRIGGER loopsctl_webhook_deliveries_counted AFTER INSERT ON loopsctl_webhook_deliveries
           FOR EACH ROW EXECUTE FUNCTION loopsctl_webhook_count_delivery()`,
        ]
      : [`CREATE TRIGGER loopsctl_webhook_deliveries_counted AFTER INSERT ON loopsctl_webhook_deliveries BEGIN ${countedInTwoTables(dialect)} END`];
  return [
    [
      // A delivery as received. event_at is the event's own time (eventTime), else the time it
      // arrived; find and stats read it. recipient is contactIdentity.email in lower case.
      `CREATE TABLE loopsctl_webhook_deliveries (${journalColumns})`,
      'CREATE INDEX loopsctl_webhook_deliveries_recipient ON loopsctl_webhook_deliveries (recipient, event_at)',
      'CREATE INDEX loopsctl_webhook_deliveries_email ON loopsctl_webhook_deliveries (email_id, event_at)',
      'CREATE INDEX loopsctl_webhook_deliveries_event ON loopsctl_webhook_deliveries (event_name, event_at)',
      'CREATE INDEX loopsctl_webhook_deliveries_time ON loopsctl_webhook_deliveries (event_at)',
      // A claim is held from the start of handling; handled_at makes it for good.
      `CREATE TABLE loopsctl_webhook_claims (
        webhook_id TEXT PRIMARY KEY,
        claimed_at ${bigint} NOT NULL,
        handled_at ${bigint}
      )`,
      // Each delivery to forward, per target: due at next_at until done_at (answered 2xx).
      `CREATE TABLE loopsctl_webhook_forwards (
        target TEXT NOT NULL,
        webhook_id TEXT NOT NULL,
        enqueued_at ${bigint} NOT NULL,
        next_at ${bigint},
        attempts INTEGER NOT NULL DEFAULT 0,
        last_at ${bigint},
        last_status INTEGER,
        last_error TEXT,
        done_at ${bigint},
        PRIMARY KEY (target, webhook_id)
      )`,
      'CREATE INDEX loopsctl_webhook_forwards_due ON loopsctl_webhook_forwards (target, next_at)',
      'CREATE INDEX loopsctl_webhook_forwards_delivery ON loopsctl_webhook_forwards (webhook_id)',
    ],
    [
      // The deliveries of each UTC day (of event_at) and event name, kept as they are recorded, so
      // that stats costs the same at any size of journal; a prune leaves them.
      `CREATE TABLE loopsctl_webhook_daily (
        day ${bigint} NOT NULL,
        named INTEGER NOT NULL,
        event_name TEXT NOT NULL,
        shard INTEGER NOT NULL,
        n ${bigint} NOT NULL,
        PRIMARY KEY (day, named, event_name, shard)
      )`,
      // The same counts of all time, so that stats of the whole journal reads as many rows however
      // many days it spans.
      `CREATE TABLE loopsctl_webhook_totals (
        named INTEGER NOT NULL,
        event_name TEXT NOT NULL,
        shard INTEGER NOT NULL,
        n ${bigint} NOT NULL,
        PRIMARY KEY (named, event_name, shard)
      )`,
      // The trigger first: on PostgreSQL it locks out other writers' inserts until the counts of
      // the journal as it stands are in, so none is counted twice or missed.
      ...trigger,
      `INSERT INTO loopsctl_webhook_daily (day, named, event_name, shard, n)
       SELECT event_at / ${DAY_MS}, CASE WHEN event_name IS NULL THEN 0 ELSE 1 END, COALESCE(event_name, ''), 0, COUNT(*)
       FROM loopsctl_webhook_deliveries GROUP BY 1, 2, 3`,
      `INSERT INTO loopsctl_webhook_totals (named, event_name, shard, n)
       SELECT named, event_name, 0, SUM(n) FROM loopsctl_webhook_daily GROUP BY named, event_name`,
    ],
    [
      // The claim on the delivery's own row: recorded and claimed by one INSERT, settled by one
      // UPDATE, a table (and its index) fewer for each commit to write. claimed_at is NULL when
      // recorded without a claim (webhooks listen) or released after a failure.
      `ALTER TABLE loopsctl_webhook_deliveries ADD COLUMN claimed_at ${bigint}`,
      `ALTER TABLE loopsctl_webhook_deliveries ADD COLUMN handled_at ${bigint}`,
      `UPDATE loopsctl_webhook_deliveries SET claimed_at = c.claimed_at, handled_at = c.handled_at
       FROM loopsctl_webhook_claims c WHERE c.webhook_id = loopsctl_webhook_deliveries.webhook_id`,
      'DROP TABLE loopsctl_webhook_claims',
    ],
    [
      // The trigger first: on PostgreSQL dropping it locks out other writers' inserts until the counts are moved and counted on.
      `DROP TRIGGER loopsctl_webhook_deliveries_counted${dialect === 'postgres' ? ' ON loopsctl_webhook_deliveries' : ''}`,
      // The counts of each day and of all time (day ALL_TIME_DAY) in one table, keyed event first (see countedStatement).
      `CREATE TABLE loopsctl_webhook_counts (
        named INTEGER NOT NULL,
        event_name TEXT NOT NULL,
        shard INTEGER NOT NULL,
        day ${bigint} NOT NULL,
        n ${bigint} NOT NULL,
        PRIMARY KEY (named, event_name, shard, day)
      )${dialect === 'sqlite' ? ' WITHOUT ROWID' : ''}`,
      'INSERT INTO loopsctl_webhook_counts (named, event_name, shard, day, n) SELECT named, event_name, shard, day, n FROM loopsctl_webhook_daily',
      `INSERT INTO loopsctl_webhook_counts (named, event_name, shard, day, n) SELECT named, event_name, shard, ${ALL_TIME_DAY}, n FROM loopsctl_webhook_totals`,
      'DROP TABLE loopsctl_webhook_daily',
      'DROP TABLE loopsctl_webhook_totals',
      ...(dialect === 'postgres'
        ? [
            `CREATE OR REPLACE FUNCTION loopsctl_webhook_count_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN ${countedStatement(dialect)} RETURN NULL; END $$`,
            `CREATE TRIGGER loopsctl_webhook_deliveries_counted AFTER INSERT ON loopsctl_webhook_deliveries
             REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION loopsctl_webhook_count_delivery()`,
          ]
        : [`CREATE TRIGGER loopsctl_webhook_deliveries_counted AFTER INSERT ON loopsctl_webhook_deliveries BEGIN ${countedStatement(dialect)} END`]),
    ],
    // SQLite's recent claims (statements.ts), their columns those of the journal's table. An older
    // loopsctl still running would claim in the journal's table, beside a claim here: its claims
    // are refused (the platform retries them), as the tables dropped by versions 3 and 4 refused
    // them. PostgreSQL keeps its claims in the journal's table (statements.ts says why), whose pages are
    // now filled to 70%: an outcome's UPDATE then finds room on its row's page, a HOT update that
    // writes none of the table's five indexes (new pages only; those filled before stay full).
    dialect === 'sqlite'
      ? [
          `CREATE TABLE loopsctl_webhook_recent (${journalColumns}, claimed_at INTEGER, handled_at INTEGER)`,
          `CREATE TRIGGER loopsctl_webhook_deliveries_claimed BEFORE INSERT ON loopsctl_webhook_deliveries WHEN NEW.claimed_at IS NOT NULL AND NEW.settled_at IS NULL
           BEGIN SELECT RAISE(ABORT, 'this delivery store is at version 5, where a claim is kept in loopsctl_webhook_recent: restart the app on the newer loopsctl'); END`,
        ]
      : ['ALTER TABLE loopsctl_webhook_deliveries SET (fillfactor = 70)'],
    // PostgreSQL's journal pages filled to 50%: deliveries claimed together lie on one page, and
    // their outcomes, kept together, are one UPDATE of its rows. At 70% the page had room for the
    // first's new version alone, and the others were written on other pages, in every index. SQLite
    // writes no such page (its claims are narrow rows, moved once settled).
    dialect === 'sqlite' ? [] : ['ALTER TABLE loopsctl_webhook_deliveries SET (fillfactor = 50)'],
  ];
}

/**
 * Creates or upgrades the tables, once, whichever process comes first: the version is read and
 * written inside the exclusive transaction.
 */
export function migrate(db: SqlDatabase, where: string): Promise<void> {
  return migrateTables(db, where, { versionTable: 'loopsctl_webhook_store', version: STORE_VERSION, steps: migrations(db.dialect), holds: 'deliveries' });
}

/** A set of tables at a version: the table its version is kept in, and the statements of each version. */
export interface TableSet {
  versionTable: string;
  version: number;
  steps: string[][];
  /** What the tables hold, for the refusal of a newer version: "deliveries". */
  holds: string;
}

/** Creates or upgrades a set of tables, in the exclusive transaction; refuses a store a newer loopsctl wrote. */
export async function migrateTables(db: SqlDatabase, where: string, tables: TableSet): Promise<void> {
  await db.exclusive(async () => {
    await db.run(`CREATE TABLE IF NOT EXISTS ${tables.versionTable} (version INTEGER NOT NULL)`);
    const [row] = await db.all(`SELECT version FROM ${tables.versionTable}`);
    const version = row === undefined ? 0 : Number(row.version);
    if (version > tables.version)
      throw new DeliveryStoreError(
        `${where} holds ${tables.holds} in version ${version} of the store's tables, newer than this loopsctl reads (${tables.version}): upgrade loopsctl`,
      );
    for (let next = version; next < tables.version; next += 1) for (const statement of tables.steps[next]!) await db.run(statement);
    if (row === undefined) await db.run(`INSERT INTO ${tables.versionTable} (version) VALUES (?)`, [tables.version]);
    else if (version < tables.version) await db.run(`UPDATE ${tables.versionTable} SET version = ?`, [tables.version]);
  });
}
