/**
 * An app process killed while its handler runs (a deploy, an out-of-memory end, kill -9) does not
 * lose the event. The platform's API reference names the headers and the pace of its deliveries,
 * not when it retries (its Events section: "Signature algorithm and verification steps: not
 * shown"); the sandbox retries as Standard Webhooks schedules it, 5 s, then 5 min, then 30 min
 * after each failure (docs/webhooks.md). So: the retry 5 s after the crash finds the claim the
 * killed process left, still within its five-minute lease, and is answered 409, which the platform
 * retries; the retry 5 min later, to a fresh process on the same store, takes the claim and is
 * handled. Each app process is a real one running the built package, its clock set to when its
 * retry comes; its handler waits on a line the test writes to its stdin, or is killed instead.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { signWebhookEvent, webhookFixture } from '../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../src/webhooks/store/index.js';
import { postgresAvailable, postgresForBlock } from '../../support/postgres.js';
import { tempDir } from '../../support/temp.js';

const SECRET = 'whsec_Y3Jhc2gtbWlkLWhhbmRsaW5nLXRlc3Qtc2VjcmV0MDE=';
const PACKAGE = resolve(import.meta.dirname, '../../../dist/webhooks/index.mjs');
const FIRST_RETRY_MS = 5_000;
const SECOND_RETRY_MS = FIRST_RETRY_MS + 5 * 60_000;

/** An app: a node:http server with webhookHandler, its clock `offset` ms ahead; each handling waits for a line on stdin. */
const APP = `
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { openDeliveryStore, webhookHandler } from ${JSON.stringify(PACKAGE)};
const [storeUrl, offset] = process.argv.slice(2);
const now = () => new Date(Date.now() + Number(offset));
const store = await openDeliveryStore(storeUrl, { now });
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (record) => process.stdout.write(JSON.stringify(record) + '\\n');
const handler = webhookHandler({
  secret: ${JSON.stringify(SECRET)},
  store,
  now,
  on: {
    'loop.email.sent': async (event, delivery) => {
      say({ handling: delivery.webhookId });
      await lines.next();
      say({ handled: delivery.webhookId });
    },
  },
});
const server = createServer(handler);
server.listen(0, '127.0.0.1', () => say({ url: 'http://127.0.0.1:' + server.address().port + '/' }));
`;

interface App {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first line (parsed) that has this key. */
  said(key: string): Promise<Record<string, string>>;
  lines: Record<string, string>[];
}

async function startApp(script: string, storeUrl: string, offsetMs: number): Promise<App> {
  const child = spawn(process.execPath, [script, storeUrl, String(offsetMs)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  const lines: Record<string, string>[] = [];
  const waiting = new Set<() => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(JSON.parse(line) as Record<string, string>);
    for (const wake of waiting) wake();
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`the app exited (${code ?? signal}): ${err}`))));
  exited.catch(() => {});
  const said = (key: string) =>
    Promise.race([
      exited,
      new Promise<Record<string, string>>((resolvePromise) => {
        const look = () => {
          const found = lines.find((line) => key in line);
          if (found === undefined) return;
          waiting.delete(look);
          resolvePromise(found);
        };
        waiting.add(look);
        look();
      }),
    ]);
  const { url } = await said('url');
  return { url: url!, child, said, lines };
}

function kill(app: App): Promise<void> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    app.child.once('exit', () => resolvePromise());
    app.child.kill('SIGKILL');
  });
}

function post(url: string, delivery: { headers: Readonly<Record<string, string>>; body: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const outgoing = request(url, { method: 'POST', headers: delivery.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    outgoing.on('error', reject);
    outgoing.end(delivery.body);
  });
}

function describeCrash(name: string, storeUrl: () => Promise<string>): void {
  it(`${name}: the retry after a process was killed mid-handling is answered 409, then handled by a fresh process`, async () => {
    const dir = tempDir();
    const script = join(dir, 'app.mjs');
    writeFileSync(script, APP);
    const url = await storeUrl();
    const event = webhookFixture('loop.email.sent');
    const attempt = (offsetMs: number) => signWebhookEvent(event, SECRET, { id: 'msg_crash', timestamp: new Date(Date.now() + offsetMs) });
    const apps: App[] = [];
    try {
      const killed = await startApp(script, url, 0);
      apps.push(killed);
      const cut = post(killed.url, attempt(0)).then(
        () => 'answered',
        () => 'cut',
      );
      await killed.said('handling');
      await kill(killed);
      expect(await cut).toBe('cut');

      const early = await startApp(script, url, FIRST_RETRY_MS);
      apps.push(early);
      const held = await post(early.url, attempt(FIRST_RETRY_MS));
      expect([held.status, JSON.parse(held.body)]).toEqual([409, { ok: false, error: expect.stringContaining('will be retried') }]);
      expect(early.lines.filter((line) => 'handling' in line)).toEqual([]);

      const fresh = await startApp(script, url, SECOND_RETRY_MS);
      apps.push(fresh);
      const answered = post(fresh.url, attempt(SECOND_RETRY_MS));
      await fresh.said('handling');
      fresh.child.stdin.write('go\n');
      const handled = await answered;
      expect([handled.status, JSON.parse(handled.body)]).toEqual([200, { ok: true }]);
      const duplicate = await post(fresh.url, attempt(SECOND_RETRY_MS));
      expect([duplicate.status, JSON.parse(duplicate.body)]).toEqual([200, { ok: true, duplicate: true }]);
    } finally {
      await Promise.all(apps.map(kill));
    }
    const store = await openDeliveryStore(url);
    try {
      expect((await store.get('msg_crash'))?.outcome).toEqual({ state: 'handled' });
    } finally {
      await store.close();
    }
  });
}

describe('an app process killed mid-handling', () => {
  describeCrash('SQLite', async () => `sqlite:${join(tempDir(), 'crash.db')}`);

  describe.runIf(postgresAvailable())('on PostgreSQL', () => {
    const postgres = postgresForBlock();
    describeCrash('PostgreSQL', async () => postgres().url(await postgres().createDatabase()));
  });
});
