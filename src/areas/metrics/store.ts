/**
 * The metrics store: each email's all-time counters as `metrics snapshot` read them, dated by the
 * account's clock (the API's Date), which `metrics history` subtracts into periods. It takes the
 * delivery journal's URLs and databases (a SQLite file, or PostgreSQL): the default is a SQLite
 * file in the config directory, LOOPS_METRICS_STORE or --store names another, and what loopsctl
 * says of a store never shows its password.
 */
import { join } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { ensureDirectory } from '../../base/private-dir.js';
import type { Uses } from '../../core/capabilities.js';
import type { SqlDatabase } from '../../webhooks/store/sql.js';
import { COUNTER_FIELDS, type CounterField, type Counts } from './periods.js';
import { METRICS_STORE_ENV } from './store-env.js';

/** The version of the tables this code writes; a store at a newer one was written by a newer loopsctl. */
const METRICS_STORE_VERSION = 2;

/** Each counter's column. */
const COLUMNS: Record<CounterField, string> = {
  sends: 'sends',
  deliveries: 'deliveries',
  opens: 'opens',
  clicks: 'clicks',
  unsubscribes: 'unsubscribes',
  spamReports: 'spam_reports',
  hardBounces: 'hard_bounces',
  softBounces: 'soft_bounces',
};

/** The tables, version by version. Times are milliseconds since the epoch; a counter the API does not report for a kind is NULL. */
function migrations(dialect: SqlDatabase['dialect']): string[][] {
  const bigint = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  return [
    [
      // A row an email a snapshot: taken_at is the account's time (the answer's Date), recorded_at
      // this machine's, which orders the snapshots as they were taken whatever either clock did.
      `CREATE TABLE loopsctl_metrics_counters (
        email_key TEXT NOT NULL,
        taken_at ${bigint} NOT NULL,
        recorded_at ${bigint} NOT NULL,
        kind TEXT NOT NULL,
        record_id TEXT NOT NULL,
        node_id TEXT,
        name TEXT NOT NULL,
        workflow_name TEXT,
        ${Object.values(COLUMNS)
          .map((column) => `${column} ${bigint}`)
          .join(', ')},
        PRIMARY KEY (email_key, recorded_at, taken_at)
      )`,
    ],
    [
      // A workflow email's message, as the latest snapshot read it: its webhooks name it by that (with
      // the workflow's id), so the delivery journal's events are matched to it.
      `CREATE TABLE loopsctl_metrics_messages (
        email_key TEXT PRIMARY KEY,
        email_message_id TEXT NOT NULL
      )`,
    ],
  ];
}

/** What kind of record an email is part of. */
export type EmailKind = 'transactional' | 'campaign' | 'workflow';

/** An email the store knows, as its latest snapshot named it. */
export interface KeptEmail {
  /** `transactional/<id>`, `campaign/<id>`, `workflow/<id>/<node id>`. */
  key: string;
  kind: EmailKind;
  recordId: string;
  nodeId: string | null;
  /** The transactional email's or campaign's name; a workflow email's subject. */
  name: string;
  workflowName: string | null;
}

/** One email's counters at one time. */
export interface KeptCounters extends KeptEmail {
  /** The account's time, in milliseconds. */
  takenAt: number;
  /** This machine's, in milliseconds: the order snapshots were taken in. */
  recordedAt: number;
  counts: Counts;
}

export class MetricsStore {
  constructor(
    private readonly db: SqlDatabase,
    /** The store as it may be shown (a PostgreSQL URL without its password). */
    readonly location: string,
  ) {}

  /** Keeps the rows in one commit. */
  async add(rows: readonly KeptCounters[]): Promise<void> {
    const columns = Object.values(COLUMNS);
    const sql = `INSERT INTO loopsctl_metrics_counters (email_key, taken_at, recorded_at, kind, record_id, node_id, name, workflow_name, ${columns.join(', ')})
      VALUES (${Array.from({ length: 8 + columns.length }, () => '?').join(', ')}) ON CONFLICT DO NOTHING`;
    await this.db.batch(
      rows.map((row) => [
        sql,
        [
          row.key,
          row.takenAt,
          row.recordedAt,
          row.kind,
          row.recordId,
          row.nodeId,
          row.name,
          row.workflowName,
          ...COUNTER_FIELDS.map((field) => row.counts[field]),
        ],
      ]),
    );
  }

  /** Keeps each workflow email's message, in one commit, over the one kept before. */
  async keepMessages(messages: readonly { key: string; emailMessageId: string }[]): Promise<void> {
    await this.db.batch(
      messages.map(({ key, emailMessageId }) => [
        'INSERT INTO loopsctl_metrics_messages (email_key, email_message_id) VALUES (?, ?) ON CONFLICT (email_key) DO UPDATE SET email_message_id = excluded.email_message_id',
        [key, emailMessageId],
      ]),
    );
  }

  /** A workflow email's message, when a snapshot kept it. */
  async messageOf(key: string): Promise<string | undefined> {
    const [row] = await this.db.all('SELECT email_message_id FROM loopsctl_metrics_messages WHERE email_key = ?', [key]);
    return row === undefined ? undefined : String(row.email_message_id);
  }

  /** Each email's latest snapshot by the account's time, by key. */
  async latest(): Promise<Map<string, number>> {
    const rows = await this.db.all('SELECT email_key, MAX(taken_at) AS at FROM loopsctl_metrics_counters GROUP BY email_key');
    return new Map(rows.map((row) => [String(row.email_key), Number(row.at)]));
  }

  /** Every email kept, each as its latest snapshot names it. */
  async emails(): Promise<KeptEmail[]> {
    const rows = await this.db.all(
      `SELECT c.* FROM loopsctl_metrics_counters c
       JOIN (SELECT email_key, MAX(recorded_at) AS last FROM loopsctl_metrics_counters GROUP BY email_key) l
         ON l.email_key = c.email_key AND l.last = c.recorded_at
       ORDER BY c.email_key`,
    );
    const seen = new Set<string>();
    return rows.map(emailOf).filter((email) => !seen.has(email.key) && Boolean(seen.add(email.key)));
  }

  /** An email's snapshots in the order they were taken. */
  async series(key: string): Promise<KeptCounters[]> {
    const rows = await this.db.all('SELECT * FROM loopsctl_metrics_counters WHERE email_key = ? ORDER BY recorded_at, taken_at', [key]);
    return rows.map((row) => ({
      ...emailOf(row),
      takenAt: Number(row.taken_at),
      recordedAt: Number(row.recorded_at),
      counts: Object.fromEntries(
        COUNTER_FIELDS.map((field) => {
          const value = row[COLUMNS[field]];
          return [field, value === null || value === undefined ? null : Number(value)];
        }),
      ) as Counts,
    }));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

function emailOf(row: Record<string, unknown>): KeptEmail {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    key: String(row.email_key),
    kind: String(row.kind) as EmailKind,
    recordId: String(row.record_id),
    nodeId: text(row.node_id),
    name: String(row.name),
    workflowName: text(row.workflow_name),
  };
}

/** The store named (--store, else LOOPS_METRICS_STORE), else metrics.db in the config directory. */
export function metricsStoreUrl(context: Uses<'env' | 'config'>, options: { store?: string }): { url: string; isDefault: boolean } {
  const named = options.store ?? context.env[METRICS_STORE_ENV];
  if (named !== undefined && named !== '') return { url: named, isDefault: false };
  return { url: `sqlite:${join(context.configDir, 'metrics.db')}`, isDefault: true };
}

/** Opens the store; one that cannot be opened (a URL of neither kind, a newer loopsctl's tables) is a usage error that names it. */
export async function openMetricsStore(context: Uses<'env' | 'config'>, options: { store?: string }): Promise<MetricsStore> {
  const { url, isDefault } = metricsStoreUrl(context, options);
  if (isDefault) ensureDirectory(context.configDir);
  const [{ openStoreDatabase }, { DeliveryStoreError, migrateTables }] = await Promise.all([
    import('../../webhooks/store/index.js'),
    import('../../webhooks/store/sql.js'),
  ]);
  try {
    const { db, location } = await openStoreDatabase(url, (db, where) =>
      migrateTables(db, where, {
        versionTable: 'loopsctl_metrics_store',
        version: METRICS_STORE_VERSION,
        steps: migrations(db.dialect),
        holds: 'metrics',
      }),
    );
    return new MetricsStore(db, location);
  } catch (error) {
    if (error instanceof DeliveryStoreError) throw new UsageError(error.message, { hint: `check --store (or ${METRICS_STORE_ENV})` });
    throw error;
  }
}
