/**
 * The delivery store in PostgreSQL, through the `pg` client: for an app that runs several
 * instances, in the database it already runs. The first process to open it creates the tables,
 * under a transaction-scoped advisory lock, so that four starting at once do it once.
 */
import { isSecretParameter, redactUrl } from '../../base/redact-url.js';
import { DeliveryStoreError, type Row, type SqlDatabase, type Statement, type StatementResult } from './sql.js';

/** The advisory lock the store's migrations hold ("loopsctl" in ASCII, cut to 32 bits). */
const MIGRATION_LOCK = 0x6c6f6f70;
const CONNECT_TIMEOUT_MS = 10_000;
/** The pool's size when the app names none: as many deliveries claimed or settled at once. */
export const DEFAULT_MAX_CONNECTIONS = 8;

/** `?` parameters as PostgreSQL numbers them. */
function numbered(sql: string): string {
  let count = 0;
  return sql.replace(/\?/g, () => `$${++count}`);
}

/**
 * Statements as pg runs them, `?` numbered once a text. A write (run, batch) is prepared by name:
 * each connection parses and plans it once, then runs it by name. A read is not, nor a migration's
 * statement: a prepared `SELECT d.*` would fail once a newer loopsctl adds a column to the table.
 */
function preparedQueries(): (sql: string, params: readonly unknown[], named: boolean) => import('pg').QueryConfig {
  const texts = new Map<string, { name: string; text: string }>();
  return (sql, params, named) => {
    let query = texts.get(sql);
    if (query === undefined) {
      query = { name: `loopsctl_${texts.size}`, text: numbered(sql) };
      texts.set(sql, query);
    }
    return named ? { ...query, values: params as unknown[] } : { text: query.text, values: params as unknown[] };
  };
}

/**
 * Opens a pool of at most `maxConnections` connections, opened as deliveries need them: each
 * claim or outcome of a delivery takes one for its statement, so that many deliveries at once
 * are claimed side by side, up to the pool's size; past it the store groups them (grouped.ts).
 */
export async function openPostgres(url: string, maxConnections = DEFAULT_MAX_CONNECTIONS): Promise<SqlDatabase> {
  const shown = redactUrl(url);
  const { default: pg } = await import('./pg.js');
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, max: maxConnections });
  // An idle connection the server closed: the next query opens another, so this is not the app's crash.
  pool.on('error', () => {});
  const fail = (error: unknown): DeliveryStoreError => postgresError(shown, url, error);
  const connect = () => pool.connect().catch((error: unknown) => Promise.reject(fail(error)));
  let held: import('pg').PoolClient | undefined;
  const prepared = preparedQueries();
  const query = async (sql: string, params: readonly unknown[], named = false) => {
    try {
      return await (held ?? pool).query(prepared(sql, params, named && held === undefined));
    } catch (error) {
      throw fail(error);
    }
  };
  const db: SqlDatabase = {
    dialect: 'postgres',
    run: async (sql, params = []) => (await query(sql, params, true)).rowCount ?? 0,
    all: async (sql, params = []) => (await query(sql, params)).rows as Row[],
    async batch(statements) {
      // One statement is a transaction of its own: one round trip, not three.
      if (statements.length === 1) {
        const [[sql, params]] = statements as [Statement];
        const { rowCount, rows } = await query(sql, params, true);
        return [{ changes: rowCount ?? 0, rows: rows as Row[] }];
      }
      const client = await connect();
      try {
        await client.query('BEGIN');
        const results: StatementResult[] = [];
        for (const [sql, params] of statements) {
          const { rowCount, rows } = await client.query(prepared(sql, params, true));
          results.push({ changes: rowCount ?? 0, rows: rows as Row[] });
        }
        await client.query('COMMIT');
        return results;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw fail(error);
      } finally {
        client.release();
      }
    },
    async exclusive(work) {
      const client = await connect();
      held = client;
      try {
        await query('BEGIN', []);
        await query('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
        const result = await work();
        await query('COMMIT', []);
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        held = undefined;
        client.release();
      }
    },
    close: () => pool.end(),
  };
  return db;
}

/** What went wrong, said without the URL's secrets (the URL shown is redacted; pg's messages may name an sslkey file). */
function postgresError(shown: string, url: string, error: unknown): DeliveryStoreError {
  const { code, message } = error as { code?: string; message?: string };
  const said = secretsOf(url).reduce((text, secret) => text.split(secret).join('[redacted]'), String(message));
  if (code === '28P01' || code === '28000') return new DeliveryStoreError(`the store ${shown} refused the user or password: ${said}`);
  if (code === 'ECONNREFUSED') return new DeliveryStoreError(`the store ${shown} cannot be reached: nothing listens there (is PostgreSQL running?)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new DeliveryStoreError(`the store ${shown} cannot be reached: its host name does not resolve`);
  if (code === '3D000') return new DeliveryStoreError(`the store ${shown} names a database that does not exist: create it first`);
  if (/timeout/i.test(said)) return new DeliveryStoreError(`the store ${shown} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`);
  return new DeliveryStoreError(`the store ${shown} failed: ${said}`);
}

/** The password and the secret parameters' values of a URL, as pg reads them. */
function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const values = [...parsed.searchParams].filter(([name]) => isSecretParameter(name)).map(([, value]) => value);
    return [decodeURIComponent(parsed.password), ...values].filter((secret) => secret !== '');
  } catch {
    return [];
  }
}
