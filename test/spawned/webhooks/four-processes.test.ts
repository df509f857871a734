/**
 * Four app processes sharing one delivery store, each given every delivery twice in its own order,
 * as the platform's redeliveries and a load balancer would spread them: each event is handled
 * exactly once among them (one held by another process meanwhile is answered 409), then not again
 * by a process started after they stopped, which answers each 200. On SQLite (one
 * file) and on a real PostgreSQL server (test/support/postgres.ts). The processes run the built
 * package, as an app does.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signWebhookEvent, webhookFixtures } from '../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../src/webhooks/store/index.js';
import { postgresAvailable, postgresForBlock } from '../../support/postgres.js';
import { tempDir } from '../../support/temp.js';

const SECRET = 'whsec_Zm91ci1wcm9jZXNzZXMtdGVzdC1zZWNyZXQtMDE=';
const PACKAGE = resolve(import.meta.dirname, '../../../dist/webhooks/index.mjs');
const DELIVERIES = 60;

/** An app process: handles each delivery of the file twice, in an order of its own, and prints the ids it handled. */
const APP = `
import { readFileSync } from 'node:fs';
import { openDeliveryStore, webhookHandler } from ${JSON.stringify(PACKAGE)};
const [storeUrl, file, seed] = process.argv.slice(2);
const deliveries = JSON.parse(readFileSync(file, 'utf8'));
const store = await openDeliveryStore(storeUrl);
const handledIds = [];
const record = (_event, delivery) => { handledIds.push(delivery.webhookId); };
const on = new Proxy({}, { get: () => record });
const handler = webhookHandler({ secret: ${JSON.stringify(SECRET)}, store, on });
let state = Number(seed);
const order = [...deliveries, ...deliveries].map((delivery) => ({ delivery, key: (state = (state * 1103515245 + 12345) % 2147483648) })).sort((a, b) => a.key - b.key);
const statuses = [];
for (const { delivery } of order) statuses.push((await handler.answer(delivery)).status);
await store.close();
process.stdout.write(JSON.stringify({ handledIds, statuses }));
`;

function runApp(script: string, storeUrl: string, file: string, seed: number): Promise<{ handledIds: string[]; statuses: number[] }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, storeUrl, file, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolvePromise(JSON.parse(out)) : reject(new Error(`an app process exited ${code}: ${err}`))));
  });
}

function describeFourProcesses(name: string, storeUrl: () => Promise<string>): void {
  it(`${name}: four processes handle each of ${DELIVERIES} deliveries once, and a process started after them none`, async () => {
    const dir = tempDir();
    const script = join(dir, 'app.mjs');
    writeFileSync(script, APP);
    const fixtures = webhookFixtures();
    const deliveries = Array.from({ length: DELIVERIES }, (_, index) =>
      signWebhookEvent(fixtures[index % fixtures.length]!, SECRET, { id: `msg_shared_${index}` }),
    );
    const file = join(dir, 'deliveries.json');
    writeFileSync(file, JSON.stringify(deliveries));
    const url = await storeUrl();
    const results = await Promise.all([1, 2, 3, 4].map((seed) => runApp(script, url, file, seed)));
    const handledIds = results.flatMap((result) => result.handledIds);
    expect(handledIds.toSorted()).toEqual(deliveries.map((delivery) => delivery.headers['webhook-id']).toSorted());
    // A delivery another process holds while it handles it is answered 409, which the platform retries.
    expect(results.flatMap((result) => result.statuses).filter((status) => status !== 200 && status !== 409)).toEqual([]);
    const later = await runApp(script, url, file, 5);
    expect(later.handledIds).toEqual([]);
    expect(later.statuses.filter((status) => status !== 200)).toEqual([]);
    const store = await openDeliveryStore(url);
    try {
      const kept = await store.find();
      expect(kept).toHaveLength(DELIVERIES);
      expect(kept.filter((delivery) => delivery.outcome?.state !== 'handled')).toEqual([]);
    } finally {
      await store.close();
    }
  });
}

describe('one store shared by four processes', () => {
  describeFourProcesses('SQLite', async () => `sqlite:${join(tempDir(), 'shared.db')}`);

  describe.runIf(postgresAvailable())('on PostgreSQL', () => {
    const postgres = postgresForBlock();
    describeFourProcesses('PostgreSQL', async () => postgres().url(await postgres().createDatabase()));
  });
});
