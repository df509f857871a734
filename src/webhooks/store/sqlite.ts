/**
 * The delivery store in a SQLite file (node:sqlite): for one process or several on one machine.
 * WAL mode lets readers go on while one process writes; a writer waits for another's lock rather
 * than failing (busy_timeout). A commit is not synced on its own (synchronous = NORMAL): it
 * survives the process's crash at once, and power loss once a checkpoint has synced it. The
 * checkpoint, two syncs, runs once the store has been quiet a moment, off the path of a delivery;
 * under a steady stream, in the commit that passes CHECKPOINT_PAGES. The file is refused when it is a link, cannot be written, or is not
 * a SQLite database, with a message that says which.
 */
import { accessSync, constants, lstatSync } from 'node:fs';
import { monotonicMs } from '../../base/monotonic.js';
import { quietSqlite } from '../../base/sqlite.js';
import { DeliveryStoreError, type Row, type SqlDatabase, type StatementResult } from './sql.js';

/** How long a write waits for another process's, before it fails. */
const BUSY_TIMEOUT_MS = 10_000;
/**
 * How many pages (4 KiB) of the write-ahead log a commit may leave before it checkpoints them
 * itself: about 400 deliveries (SQLite's default of 1,000 pages came every 80, and set the p99).
 */
const CHECKPOINT_PAGES = 5_000;
/** How long without a write before the log is checkpointed, and synced, in the background. */
const QUIET_MS = 200;

export function openSqlite(file: string): SqlDatabase {
  const sqlite = quietSqlite();
  if (sqlite === undefined)
    throw new DeliveryStoreError(`a sqlite: store needs node:sqlite, which Node.js ${process.versions.node} does not have: use Node.js 22.13 or later`);
  refuseUnsafeFile(file);
  let db: import('node:sqlite').DatabaseSync;
  try {
    db = new sqlite.DatabaseSync(file);
  } catch (error) {
    throw storeError(file, error);
  }
  whileBusy(file, () => {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  });
  // PASSIVE: never waits for another process's writer. One that fails is left to the next (a
  // throw here would end the app); the commits it would have synced are kept as they were.
  const quiet = setTimeout(() => {
    try {
      if (db.isOpen && !db.isTransaction) db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {}
  }, QUIET_MS).unref();
  const wrote = () => void quiet.refresh();
  const statements = new Map<string, import('node:sqlite').StatementSync>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const guarded = <T>(work: () => T): T => whileBusy(file, work);
  return {
    dialect: 'sqlite',
    run: async (sql, params = []) =>
      guarded(() => {
        const changes = Number(prepared(sql).run(...(params as never[])).changes);
        wrote();
        return changes;
      }),
    all: async (sql, params = []) => guarded(() => prepared(sql).all(...(params as never[])) as Row[]),
    // Run without a pause: no other request's statement can fall inside the transaction.
    batch: async (statements) =>
      guarded(() => {
        prepared('BEGIN IMMEDIATE').run();
        try {
          const results = statements.map(([sql, params]): StatementResult => {
            const statement = prepared(sql);
            return sql.startsWith('SELECT')
              ? { changes: 0, rows: statement.all(...(params as never[])) as Row[] }
              : { changes: Number(statement.run(...(params as never[])).changes), rows: [] };
          });
          prepared('COMMIT').run();
          wrote();
          return results;
        } catch (error) {
          if (db.isTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    async exclusive(work) {
      guarded(() => db.exec('BEGIN IMMEDIATE'));
      try {
        const result = await work();
        guarded(() => db.exec('COMMIT'));
        return result;
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    async close() {
      clearTimeout(quiet);
      if (db.isOpen) db.close();
    },
  };
}

/** A link could point the store anywhere; a file that cannot be written would fail at the first delivery. */
function refuseUnsafeFile(file: string): void {
  let stats: import('node:fs').Stats;
  try {
    stats = lstatSync(file);
  } catch {
    return; // Made on first use.
  }
  if (stats.isSymbolicLink()) throw new DeliveryStoreError(`the store ${file} is a symbolic link: give the path of the file itself`);
  if (!stats.isFile()) throw new DeliveryStoreError(`the store ${file} is not a file`);
  try {
    accessSync(file, constants.R_OK | constants.W_OK);
  } catch {
    throw new DeliveryStoreError(`the store ${file} cannot be written: give a file this process may write, or change its permissions`);
  }
}

/**
 * Runs `work` (a statement outside a transaction, or a whole transaction from its BEGIN), and again
 * while SQLite answers busy, until BUSY_TIMEOUT_MS have passed since the first try. The busy
 * timeout waits inside SQLite for most locks, but SQLite answers some at once, without calling its
 * busy handler (where waiting could deadlock, and while another connection sets up or takes down
 * the write-ahead log); four app processes sharing one file on a loaded machine met one such.
 * A busy answer means SQLite did nothing of the work, so it is safe to run again.
 */
export function whileBusy<T>(file: string, work: () => T, timeoutMs = BUSY_TIMEOUT_MS): T {
  const started = monotonicMs();
  for (let pause = 1; ; pause = Math.min(pause * 2, 100)) {
    try {
      return work();
    } catch (error) {
      const waited = monotonicMs() - started;
      if (!isBusy(error) || waited >= timeoutMs) throw storeError(file, error, waited);
      // A pause of at most 100 ms: an app's signal handlers run after it, as after any statement.
      Atomics.wait(PAUSE, 0, 0, Math.min(pause, timeoutMs - waited));
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: number }).errcode;
  // SQLITE_BUSY (5) and SQLITE_LOCKED (6), with their extended codes in the high bits.
  return code === undefined ? /database is locked|busy/i.test(String((error as Error).message)) : [5, 6].includes(code & 0xff);
}

function storeError(file: string, error: unknown, waitedMs = 0): DeliveryStoreError {
  const message = (error as Error).message ?? String(error);
  if (/not a database|malformed|corrupt/i.test(message))
    return new DeliveryStoreError(`the store ${file} is not a SQLite database (or is damaged): give a new file, or the one the journal was kept in`);
  if (/readonly|read-only/i.test(message)) return new DeliveryStoreError(`the store ${file} cannot be written: ${message}`);
  if (/unable to open/i.test(message)) return new DeliveryStoreError(`the store ${file} cannot be opened: does its folder exist? (${message})`);
  if (isBusy(error))
    return new DeliveryStoreError(`the store ${file} stayed locked by another process for ${(waitedMs / 1000).toFixed(1)} s (SQLite: ${message})`);
  return new DeliveryStoreError(`the store ${file} failed: ${message}`);
}
