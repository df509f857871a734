/**
 * `npm run bench -- metrics-scale` and `npm run bench -- reconcile`: what a change did, at scale,
 * against an account of this file's own on 127.0.0.1 that refuses (429) a request past 10 in any
 * second, as the API's limit, and counts every request:
 *   - `metrics snapshot` of 500 transactional emails: its requests (the listings' pages and one
 *     counter read an email, no more) and the most that arrived in any second;
 *   - `metrics history` of one email of a store of 365 daily snapshots of those 500 (the snapshot
 *     taken, and 364 days before it written into the store), drawn on a terminal;
 *   - `deliveries reconcile` of 1,000 emails over a journal of 1,000,000 deliveries of theirs, at
 *     the API's pace, then against an account that states a limit of a million a second: what is
 *     not the API's pace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, median, run, runOnTerminal, runWithUsage } from './measure.js';
import { fillJournal, type Library } from './webhooks-library.js';

const PER_SECOND = 10;
const DAY_MS = 86_400_000;

/** What a transactional email's counters say: for the reconcile, the journal's events of each email, exactly. */
interface Counters {
  sends: number;
  deliveries: number;
  spamReports: number;
  hardBounces: number;
  softBounces: number;
}

interface Account {
  url: string;
  /** Requests answered, by what they asked: `listing` (a page of a list) or `metrics`. */
  asked: { listing: number; metrics: number; other: number };
  /** The largest page size asked for. */
  perPage: number;
  /** Requests refused for passing 10 in a second. */
  refused: number;
  /** The most requests that arrived in any one second. */
  mostInSecond: number;
  close(): Promise<void>;
}

const id = (index: number) => `cm${String(index).padStart(23, '0')}`;
const page = (data: unknown[], total: number, perPage: number, next: string | null) =>
  JSON.stringify({
    pagination: { totalResults: total, returnedResults: data.length, perPage, totalPages: Math.ceil(total / perPage), nextCursor: next, nextPage: null },
    data,
  });

/** An account of `emails` published transactional emails, no campaign and no workflow; with `statesLimit`, its answers state that limit and nothing is refused. */
async function startAccount(emails: number, counters: Counters, statesLimit?: number): Promise<Account> {
  const asked = { listing: 0, metrics: 0, other: 0 };
  const arrivals: number[] = [];
  const account: Account = { url: '', asked, perPage: 0, refused: 0, mostInSecond: 0, close: async () => {} };
  const metrics = JSON.stringify(counters);
  const send = (res: ServerResponse, status: number, body: string) => {
    if (statesLimit !== undefined) res.setHeader('x-ratelimit-limit', String(statesLimit));
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  };
  const server = createServer((req, res) => {
    const now = performance.now();
    arrivals.push(now);
    while (arrivals[0]! <= now - 1000) arrivals.shift();
    account.mostInSecond = Math.max(account.mostInSecond, arrivals.length);
    req.resume();
    if (statesLimit === undefined && arrivals.length > PER_SECOND) {
      account.refused += 1;
      return send(res, 429, '{"message":"Rate limit exceeded"}');
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/v1/transactional-emails') {
      asked.listing += 1;
      const perPage = Number(url.searchParams.get('perPage') ?? 20);
      account.perPage = Math.max(account.perPage, perPage);
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const data = Array.from({ length: Math.max(0, Math.min(perPage, emails - from)) }, (_, offset) => {
        const index = from + offset;
        return {
          id: id(index),
          name: `Email ${index}`,
          draftEmailMessageId: `dm${index}`,
          draftEmailMessageContentRevisionId: null,
          publishedEmailMessageId: `pm${index}`,
          transactionalGroupId: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
          dataVariables: [],
        };
      });
      return send(res, 200, page(data, emails, perPage, from + perPage < emails ? String(from + perPage) : null));
    }
    if (url.pathname === '/v1/campaigns' || url.pathname === '/v1/workflows') {
      asked.listing += 1;
      return send(res, 200, page([], 0, Number(url.searchParams.get('perPage') ?? 20), null));
    }
    if (/^\/v1\/transactional-emails\/[^/]+\/metrics$/.test(url.pathname)) {
      asked.metrics += 1;
      return send(res, 200, metrics);
    }
    asked.other += 1;
    send(res, 404, `{"message":"no route for ${url.pathname}"}`);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  account.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  account.close = () => new Promise((resolve) => server.close(() => resolve()));
  return account;
}

/** The requests a read of every email's counters needs: each list's pages at its largest size, and one counter read an email. */
function needed(emails: number, perPage: number): number {
  return Math.ceil(emails / perPage) + 2 + emails;
}

export interface MetricsScaleFigures {
  emails: number;
  snapshot: { ms: number; requests: number; needed: number; perPage: number; mostInSecond: number; refused: number };
  history: { snapshots: number; dayMs: number; weekMs: number; jsonMs: number };
}

/** `metrics snapshot` of 500 emails, then `metrics history` of one of them over 365 daily snapshots. */
export async function measureMetricsScale(bin: string, baseEnv: Record<string, string>, benchDir: string, emails = 500): Promise<MetricsScaleFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-metrics-'));
  const account = await startAccount(emails, { sends: 1_000_000, deliveries: 990_000, spamReports: 1_000, hardBounces: 4_000, softBounces: 8_000 });
  try {
    const file = join(dir, 'metrics.db');
    const env = { ...baseEnv, LOOPS_BASE_URL: account.url, LOOPS_METRICS_STORE: `sqlite:${file}` };
    const snapshot = await run({ label: 'metrics snapshot', args: [bin, 'metrics', 'snapshot', '--json'] }, env);
    const kept = (JSON.parse(snapshot.stdout) as { kept: number }).kept;
    if (kept !== emails) throw new Error(`metrics snapshot kept ${kept} emails, not ${emails}`);
    const requests = account.asked.listing + account.asked.metrics + account.asked.other;
    // The 364 days before the snapshot, each email's counters smaller by a day's sends.
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file);
    const earlier = db.prepare(
      `INSERT INTO loopsctl_metrics_counters
       SELECT email_key, taken_at - ?1, recorded_at - ?1, kind, record_id, node_id, name, workflow_name,
              sends - ?2 * 1000, deliveries - ?2 * 990, opens, clicks, unsubscribes, spam_reports - ?2, hard_bounces - ?2 * 4, soft_bounces - ?2 * 8
       FROM loopsctl_metrics_counters WHERE recorded_at = (SELECT MAX(recorded_at) FROM loopsctl_metrics_counters)`,
    );
    db.exec('BEGIN');
    for (let day = 1; day < 365; day += 1) earlier.run(day * DAY_MS, day);
    db.exec('COMMIT');
    const snapshots = Number((db.prepare('SELECT COUNT(*) AS n FROM loopsctl_metrics_counters').get() as { n: number }).n);
    db.close();
    const history = (label: string, more: string[], onTerminal: boolean) => {
      const command: Command = { label, args: [bin, 'metrics', 'history', id(emails - 1), ...more] };
      return onTerminal ? runOnTerminal(command, env, benchDir) : run(command, env);
    };
    const times = async (label: string, more: string[], onTerminal: boolean) => {
      const all: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        const result = await history(label, more, onTerminal);
        if (onTerminal && !/[▁▂▃▄▅▆▇█]/.test(result.stdout)) throw new Error(`${label} drew no sparkline`);
        all.push(result.ms);
      }
      return median(all);
    };
    return {
      emails,
      snapshot: {
        ms: snapshot.ms,
        requests,
        needed: needed(emails, account.perPage),
        perPage: account.perPage,
        mostInSecond: account.mostInSecond,
        refused: account.refused,
      },
      history: {
        snapshots,
        dayMs: await times('metrics history --by day', ['--by', 'day'], true),
        weekMs: await times('metrics history --by week', ['--by', 'week'], true),
        jsonMs: await times('metrics history --json', ['--json'], false),
      },
    };
  } finally {
    await account.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ReconcileFigures {
  emails: number;
  deliveries: number;
  paced: { ms: number; cpuMs: number; requests: number; needed: number; mostInSecond: number; refused: number };
  /** Against an account stating a limit of a million a second: what is not the API's pace. */
  unpaced: { ms: number; cpuMs: number };
}

/** Each email's share of the journal: of every 10 deliveries, 4 sends, 4 deliveries, a hard bounce and a spam report. */
const EVENTS = [
  'transactional.email.sent',
  'email.delivered',
  'transactional.email.sent',
  'email.delivered',
  'transactional.email.sent',
  'email.delivered',
  'transactional.email.sent',
  'email.delivered',
  'email.hardBounced',
  'email.spamReported',
];

/** `deliveries reconcile` of `emails` emails over a journal of `rows` deliveries of theirs (one every 2 s, 10,000 recipients). */
export async function measureReconcile(
  root: string,
  bin: string,
  baseEnv: Record<string, string>,
  benchDir: string,
  emails = 1_000,
  rows = 1_000_000,
): Promise<ReconcileFigures> {
  const library = (await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href)) as Library;
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-reconcile-'));
  const perEmail = rows / emails / EVENTS.length;
  const counters: Counters = { sends: 4 * perEmail, deliveries: 4 * perEmail, spamReports: perEmail, hardBounces: perEmail, softBounces: 0 };
  try {
    const file = join(dir, 'journal.db');
    await fillJournal(library, file, rows, (index) => {
      const at = Date.UTC(2026, 0, 1) + index * 2_000;
      const eventName = EVENTS[Math.floor(index / emails) % EVENTS.length]!;
      const recipient = `person${index % 10_000}@example.com`;
      const contactIdentity = { id: `c${index % 10_000}`, email: recipient, userId: null };
      const email = { id: `e${index}`, emailMessageId: `pm${index % emails}`, subject: 'Hello' };
      const about = eventName === 'transactional.email.sent' ? { transactionalName: `Email ${index % emails}` } : { sourceType: 'transactional' };
      const body = JSON.stringify({ eventName, eventTime: Math.floor(at / 1000), contactIdentity, transactionalId: id(index % emails), ...about, email });
      return { at, eventName, recipient, emailId: email.id, contactId: contactIdentity.id, body };
    });
    const reconcile = async (statesLimit?: number) => {
      const account = await startAccount(emails, counters, statesLimit);
      try {
        const env = { ...baseEnv, LOOPS_BASE_URL: account.url };
        const result = await runWithUsage(
          { label: 'deliveries reconcile', args: [bin, 'deliveries', 'reconcile', '--store', `sqlite:${file}`, '--json'] },
          env,
          benchDir,
        );
        const report = JSON.parse(result.stdout) as { events: number; emails: { gaps: { missing: number }[] }[] };
        if (report.emails.length !== emails || report.events !== rows || report.emails.some((row) => row.gaps.some((gap) => gap.missing !== 0)))
          throw new Error(`deliveries reconcile was not exact over ${report.emails.length} emails and ${report.events} events`);
        const requests = account.asked.listing + account.asked.metrics + account.asked.other;
        return {
          ms: result.ms,
          cpuMs: result.cpuMs,
          requests,
          needed: needed(emails, account.perPage),
          mostInSecond: account.mostInSecond,
          refused: account.refused,
        };
      } finally {
        await account.close();
      }
    };
    const paced = await reconcile();
    const unpaced = await reconcile(1_000_000);
    return { emails, deliveries: rows, paced, unpaced: { ms: unpaced.ms, cpuMs: unpaced.cpuMs } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
