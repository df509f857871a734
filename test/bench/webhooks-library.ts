/**
 * `npm run bench -- webhooks`: loopsctl/webhooks as the package ships it (dist/webhooks/), in
 * this process as an app runs it, in this order:
 *  - verifyWebhook (parse included) against the `standardwebhooks` reference library's verify on
 *    the same deliveries, in CPU time, interleaved rounds after rounds of warm-up (goal ≤ 1x);
 *  - verify, parse and claim on a SQLite store: deliveries a second on one core (goal ≥ 1,000);
 *  - a handler's added time: the p99 of webhookHandler (SQLite store) against a bare node:http
 *    answer that reads the body, over keep-alive connections on loopback (goal within 2 ms).
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, type RequestListener, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';

export type Library = typeof import('../../src/webhooks/index.js');

export interface WebhookFigures {
  /** Deliveries verified, parsed and claimed a second. */
  perSecond: number;
  handlerP99: number;
  bareP99: number;
  /** CPU time of verifyWebhook over the reference's, the median of the rounds' ratios. */
  verifyRatio: number;
  /** The same over the warm-up rounds, not counted in verifyRatio. */
  verifyWarmUpRatio: number;
  verifyUs: number;
  referenceUs: number;
}

const SECRET = `whsec_${Buffer.from('loopsctl-bench-webhooks-secret!!').toString('base64')}`;
const DELIVERIES = 3_000;
const REQUESTS = 2_000;
/**
 * Counted rounds of verifyWebhook against the reference: on a shared machine one round's ratio
 * swings widely, and the median of a few rounds swings with it.
 */
const ROUNDS = 21;
/**
 * Rounds of verifyWebhook against the reference run first and not counted: V8 compiles both
 * libraries' code over their first thousands of deliveries, and a server verifies its deliveries
 * in the steady state that follows.
 */
const WARM_UP_ROUNDS = 4;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p99 = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length * 0.99)]!;

export async function measureWebhooksLibrary(root: string): Promise<WebhookFigures> {
  const library = (await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href)) as Library;
  const fixtures = library.webhookFixtures();
  const signed = (prefix: string) =>
    Array.from({ length: DELIVERIES }, (_, index) => library.signWebhookEvent(fixtures[index % fixtures.length]!, SECRET, { id: `${prefix}_${index}` }));
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-webhooks-'));
  try {
    // Each figure in a function of its own: an await costs more in a function with more variables
    // (its frame is saved and restored), and a loop that awaits one side alone would be charged it.
    // verifyWebhook first, before a handler gives it Node requests: an app gives it one kind of input.
    const verified = await verifyAgainstReference(library, signed('msg_verify'));
    const perSecond = await claimsASecond(library, dir, signed('msg_claim'));
    const { handlerP99, bareP99 } = await handlerOverBare(library, dir, signed('msg_http'));
    return { perSecond, handlerP99, bareP99, ...verified };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Signed = ReturnType<Library['signWebhookEvent']>;

/** Verify, parse and claim, one after the other, as a handler does: deliveries a second. */
async function claimsASecond(library: Library, dir: string, deliveries: readonly Signed[]): Promise<number> {
  const store = await library.openDeliveryStore(`sqlite:${join(dir, 'claims.db')}`);
  try {
    const started = performance.now();
    for (const delivery of deliveries) {
      await library.verifyWebhook(delivery, SECRET);
      const received = { webhookId: delivery.headers['webhook-id']!, receivedAt: new Date(), headers: delivery.headers, body: delivery.body, verified: true };
      if ((await store.claim(received)) !== 'claimed') throw new Error('a new delivery was not claimed');
    }
    return DELIVERIES / ((performance.now() - started) / 1000);
  } finally {
    await store.close();
  }
}

/** The handler against a bare answer, request after request on one kept-alive connection each: the p99 of each. */
async function handlerOverBare(library: Library, dir: string, requests: readonly Signed[]): Promise<{ handlerP99: number; bareP99: number }> {
  const handlerStore = await library.openDeliveryStore(`sqlite:${join(dir, 'handler.db')}`);
  const handler = library.webhookHandler({ secret: SECRET, store: handlerStore, on: { 'email.opened': () => {} } });
  const bare: RequestListener = (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  };
  const [handlerTimes, bareTimes] = [[] as number[], [] as number[]];
  const servers = await Promise.all([handler, bare].map((listener) => listen(listener)));
  try {
    for (let index = 0; index < REQUESTS; index += 1) {
      const delivery = requests[index % requests.length]!;
      // Each a new delivery to the handler (a redelivery would skip its work).
      const fresh = library.signWebhookEvent(JSON.parse(delivery.body), SECRET, { id: `msg_http_${index}` });
      handlerTimes.push(await post(servers[0]!, fresh));
      bareTimes.push(await post(servers[1]!, fresh));
    }
  } finally {
    for (const server of servers) server.close();
    await handlerStore.close();
  }
  return { handlerP99: p99(handlerTimes), bareP99: p99(bareTimes) };
}

/** verifyWebhook against the reference, in CPU time, interleaved. */
async function verifyAgainstReference(
  library: Library,
  toVerify: readonly Signed[],
): Promise<Pick<WebhookFigures, 'verifyRatio' | 'verifyWarmUpRatio' | 'verifyUs' | 'referenceUs'>> {
  const reference = new Webhook(SECRET);
  const ratios: number[] = [];
  const warmUpRatios: number[] = [];
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let round = -WARM_UP_ROUNDS; round < ROUNDS; round += 1) {
    let at = cpuMs();
    for (const delivery of toVerify) await library.verifyWebhook(delivery, SECRET);
    const oursMs = cpuMs() - at;
    at = cpuMs();
    for (const delivery of toVerify) reference.verify(delivery.body, delivery.headers as Record<string, string>);
    const theirsMs = cpuMs() - at;
    if (round < 0) {
      warmUpRatios.push(oursMs / theirsMs);
      continue;
    }
    ratios.push(oursMs / theirsMs);
    ours.push(oursMs);
    theirs.push(theirsMs);
  }
  return {
    verifyRatio: median(ratios),
    verifyWarmUpRatio: median(warmUpRatios),
    verifyUs: (median(ours) * 1000) / DELIVERIES,
    referenceUs: (median(theirs) * 1000) / DELIVERIES,
  };
}

interface Listening {
  port: number;
  agent: Agent;
  close(): void;
}

async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    port: (server.address() as AddressInfo).port,
    agent,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

/** One delivery POSTed and answered: its time in milliseconds. */
function post(server: Listening, delivery: { headers: Readonly<Record<string, string>>; body: string }): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port: server.port, method: 'POST', agent: server.agent, headers: delivery.headers }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`answered ${res.statusCode}`))));
    });
    outgoing.on('error', reject);
    outgoing.end(delivery.body);
  });
}

export interface JournalFigures {
  rows: number;
  /** Median of `find({ to, limit: 50 })` over recipients, in ms. */
  findMs: number;
  /** `stats()` over every delivery, and by day, in ms. */
  statsMs: number;
  statsByDayMs: number;
}

/**
 * `npm run bench -- journal`: a SQLite journal of `rows` deliveries (written straight into the
 * store's tables, in one transaction: 10,000 recipients, the event types in the mix a sender
 * sees), then `find --to`'s query and `stats`'s, as `loopsctl deliveries` runs them.
 */
export async function measureJournal(root: string, rows = 1_000_000): Promise<JournalFigures> {
  const library = (await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href)) as Library;
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-journal-'));
  try {
    const file = join(dir, 'journal.db');
    await fillJournal(library, file, rows);
    const store = await library.openDeliveryStore(`sqlite:${file}`);
    try {
      const finds: number[] = [];
      for (let index = 0; index < 21; index += 1) {
        const at = performance.now();
        const found = await store.find({ to: `person${index * 37}@example.com`, limit: 50 });
        finds.push(performance.now() - at);
        if (found.length !== 50) throw new Error(`find --to found ${found.length} deliveries, not 50`);
      }
      let at = performance.now();
      const [all] = await store.stats();
      const statsMs = performance.now() - at;
      if (all?.events !== rows) throw new Error(`stats counted ${all?.events} deliveries, not ${rows}`);
      at = performance.now();
      await store.stats({}, 'day');
      const statsByDayMs = performance.now() - at;
      return { rows, findMs: median(finds), statsMs, statsByDayMs };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A delivery as fillJournal writes it. */
export interface JournalRow {
  at: number;
  eventName: string;
  recipient: string;
  emailId: string;
  contactId: string;
  body: string;
}

const MIX = [
  'campaign.email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.delivered',
  'email.opened',
  'email.hardBounced',
  'email.spamReported',
];

/** 10,000 recipients, the event types in the mix a sender sees, one every 2 seconds. */
function mixedRow(index: number): JournalRow {
  const at = Date.UTC(2026, 0, 1) + index * 2_000;
  const recipient = `person${index % 10_000}@example.com`;
  const eventName = MIX[index % MIX.length]!;
  const body = JSON.stringify({ eventName, eventTime: Math.floor(at / 1000), contactIdentity: { id: `c${index % 10_000}`, email: recipient, userId: null } });
  return { at, eventName, recipient, emailId: `e${index >> 3}`, contactId: `c${index % 10_000}`, body };
}

/**
 * A SQLite journal of `rows` deliveries, written straight into the store's tables in one
 * transaction (the store's trigger keeps the daily counts as it does for a delivery recorded),
 * each the delivery `rowAt` makes of its index.
 */
export async function fillJournal(library: Library, file: string, rows: number, rowAt: (index: number) => JournalRow = mixedRow): Promise<void> {
  await (await library.openDeliveryStore(`sqlite:${file}`)).close();
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file);
  const insert = db.prepare(
    'INSERT INTO loopsctl_webhook_deliveries (webhook_id, received_at, event_at, event_name, recipient, email_id, contact_id, headers, body, verified) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)',
  );
  db.exec('BEGIN');
  for (let index = 0; index < rows; index += 1) {
    const row = rowAt(index);
    insert.run(`msg_${index}`, row.at, row.at, row.eventName, row.recipient, row.emailId, row.contactId, '{}', row.body);
  }
  db.exec('COMMIT');
  db.close();
}

/**
 * `npm run bench -- deliveries-stats`: `stats()` with no filter (median of 21) on a SQLite journal
 * of each size: read from the counts of all time, it should cost the same at any size.
 */
export async function measureDeliveriesStats(root: string, sizes: readonly number[]): Promise<{ rows: number; statsMs: number }[]> {
  const library = (await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href)) as Library;
  const figures: { rows: number; statsMs: number }[] = [];
  for (const rows of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-stats-'));
    try {
      const file = join(dir, 'journal.db');
      await fillJournal(library, file, rows);
      const store = await library.openDeliveryStore(`sqlite:${file}`);
      try {
        const times: number[] = [];
        for (let round = 0; round < 21; round += 1) {
          const at = performance.now();
          const [all] = await store.stats();
          times.push(performance.now() - at);
          if (all?.events !== rows) throw new Error(`stats counted ${all?.events} deliveries, not ${rows}`);
        }
        figures.push({ rows, statsMs: median(times) });
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return figures;
}

/** A handler process against its floor: CPU a delivery (µs) and deliveries a second, by round. */
export interface EndpointFigures {
  store: 'SQLite' | 'PostgreSQL';
  /** Requests in flight at once. */
  concurrency: number;
  handlerCpuUs: number[];
  bareCpuUs: number[];
  handlerPerSecond: number[];
  barePerSecond: number[];
}

const ENDPOINT_DELIVERIES = 3_000;
const ENDPOINT_ROUNDS = 7;

/**
 * `webhookHandler` on a store against a bare node:http handler doing one HMAC and one
 * `INSERT … ON CONFLICT DO NOTHING` on the same kind of store (floor/webhook-server.mjs), each in a
 * process of its own, this process sending: interleaved rounds of ENDPOINT_DELIVERIES new
 * deliveries, `concurrency` at once over as many kept-alive connections; each round's CPU of the
 * server process a delivery, and its deliveries a second. On PostgreSQL both pools have
 * `maxConnections` connections.
 */
export async function measureEndpoints(
  root: string,
  urls: { handler: string; bare: string },
  options: { concurrency: number; maxConnections?: number },
): Promise<EndpointFigures> {
  const library = (await import(pathToFileURL(join(root, 'dist/webhooks/index.mjs')).href)) as Library;
  const fixtures = [library.webhookFixture('email.opened'), library.webhookFixture('email.delivered')];
  const script = join(root, 'test/bench/floor/webhook-server.mjs');
  const pool = String(options.maxConnections ?? 8);
  const [handler, bare] = await Promise.all([
    startEndpoint(script, [root, 'handler', urls.handler, pool, SECRET]),
    startEndpoint(script, [root, 'bare', urls.bare, pool, SECRET]),
  ]);
  const figures: EndpointFigures = {
    store: urls.handler.startsWith('postgres') ? 'PostgreSQL' : 'SQLite',
    concurrency: options.concurrency,
    handlerCpuUs: [],
    bareCpuUs: [],
    handlerPerSecond: [],
    barePerSecond: [],
  };
  try {
    // A round of each to warm up (JIT, the pools' connections), not counted.
    for (let round = -1; round < ENDPOINT_ROUNDS; round += 1) {
      const order = round % 2 === 0 ? [handler, bare] : [bare, handler];
      for (const endpoint of order) {
        const deliveries = Array.from({ length: ENDPOINT_DELIVERIES }, (_, index) =>
          library.signWebhookEvent(fixtures[index % fixtures.length]!, SECRET, { id: `msg_${endpoint === handler ? 'h' : 'b'}${round}_${index}` }),
        );
        const cpuBefore = await endpoint.cpu();
        const started = performance.now();
        await sendAll(endpoint, deliveries, options.concurrency);
        const seconds = (performance.now() - started) / 1000;
        const cpuUs = ((await endpoint.cpu()) - cpuBefore) / ENDPOINT_DELIVERIES;
        if (round < 0) continue;
        (endpoint === handler ? figures.handlerCpuUs : figures.bareCpuUs).push(cpuUs);
        (endpoint === handler ? figures.handlerPerSecond : figures.barePerSecond).push(ENDPOINT_DELIVERIES / seconds);
      }
    }
  } finally {
    await Promise.all([handler.stop(), bare.stop()]);
  }
  return figures;
}

interface Endpoint extends Listening {
  /** The server process's CPU time so far, in µs. */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

async function startEndpoint(script: string, args: string[]): Promise<Endpoint> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () =>
    new Promise<Record<string, number>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the webhook server (${args[1]}) exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message as Record<string, number>);
      });
    });
  const { port } = await next();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return {
    port: port!,
    agent,
    close: () => agent.destroy(),
    cpu: async () => {
      const answer = next();
      child.send('cpu');
      return (await answer).cpu!;
    },
    stop: async () => {
      agent.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

/** Every delivery POSTed, `concurrency` at once. */
async function sendAll(endpoint: Listening, deliveries: { headers: Readonly<Record<string, string>>; body: string }[], concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) await post(endpoint, deliveries[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
