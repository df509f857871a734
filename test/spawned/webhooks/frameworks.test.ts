/**
 * The handlers docs/webhooks.md shows (test/examples/webhooks/, the docs hold their text), as an
 * app runs them: a Next.js route handler, an Express app and a Hono app, each importing the built
 * package `loopsctl/webhooks`, against real deliveries of all 17 event types: those the sandbox
 * delivers itself (its API calls cause ten of them) and, for the seven it never sends (campaign
 * sends, bounces, spam reports, email unsubscribes and resubscribes, the test event), those
 * `webhooks trigger` sends with the same signing code. Each delivery is verified and handled once in
 * each framework, its redelivery answered without handling it again; signWebhookEvent gives each
 * delivery's bytes; and an Express app that parses JSON first is told to verify the raw body.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/emulator/public.js';
import { WEBHOOK_EVENT_NAMES } from '../../../src/platform/webhooks/payloads.js';
import { type FetchServer, serveFetch } from '../../support/fetch-server.js';
import { run } from '../../support/main.js';
import { callSandbox } from '../../support/sandbox-http.js';
import { tempDir } from '../../support/temp.js';
import { type ReceivedWebhook, startWebhookApp, type WebhookApp } from '../../support/webhook-app.js';

const SECRET = 'whsec_ZnJhbWV3b3Jrcy10ZXN0LXNlY3JldC0wMTIzNDU=';
const EXAMPLES = join(import.meta.dirname, '../../examples/webhooks');
/** What the sandbox never sends: `webhooks trigger` sends these. */
const TRIGGERED = [
  'campaign.email.sent',
  'email.softBounced',
  'email.hardBounced',
  'email.unsubscribed',
  'email.resubscribed',
  'email.spamReported',
  'testing.testEvent',
];

/** The built package, as an app imports it (by a name TypeScript does not follow: a clone type-checks before it builds). */
const PACKAGE: string = 'loopsctl/webhooks';
type Library = typeof import('../../../src/webhooks/index.js');
let library: Library;
let recorder: WebhookApp;
let sandbox: Sandbox;
const servers: { name: string; url: string; store: string; close: () => Promise<void> }[] = [];
let handled: { eventName: string; email: string | undefined }[];
let logged: { error: unknown; webhookId: string | undefined }[];

async function exampleWithStore<T>(file: string, store: string): Promise<T> {
  process.env.LOOPS_DELIVERY_STORE = `sqlite:${store}`;
  return (await import(join(EXAMPLES, file))) as T;
}

/** The URL of a server once it listens. */
function listening(server: Server): Promise<string> {
  return new Promise((resolve) => server.once('listening', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  library = (await import(PACKAGE)) as Library;
  process.env.LOOPS_WEBHOOK_SECRET = SECRET;
  const dir = tempDir();
  const next = await exampleWithStore<{ POST: (request: Request) => Promise<Response> }>('next-route.ts', join(dir, 'next.db'));
  const nextServer: FetchServer = await serveFetch(next.POST);
  servers.push({ name: 'Next.js route handler', url: `${nextServer.url}/api/webhooks/loops`, store: join(dir, 'next.db'), close: nextServer.close });
  const express = await exampleWithStore<{ app: import('express').Express }>('express.ts', join(dir, 'express.db'));
  const expressServer = express.app.listen(0, '127.0.0.1');
  const expressUrl = await listening(expressServer);
  servers.push({
    name: 'Express',
    url: `${expressUrl}/webhooks/loops`,
    store: join(dir, 'express.db'),
    close: () => new Promise((resolve) => expressServer.close(() => resolve())),
  });
  const hono = await exampleWithStore<{ app: { fetch: (request: Request) => Promise<Response> } }>('hono.ts', join(dir, 'hono.db'));
  const honoServer = await serveFetch((request) => hono.app.fetch(request));
  servers.push({ name: 'Hono', url: `${honoServer.url}/webhooks/loops`, store: join(dir, 'hono.db'), close: honoServer.close });
  ({ handled, logged } = (await import(join(EXAMPLES, 'app.ts'))) as { handled: typeof handled; logged: typeof logged });
  recorder = await startWebhookApp(SECRET);
  sandbox = await startSandbox({ seed: 'demo', webhookUrl: recorder.url, webhookSecret: SECRET, simulateEngagement: true, rateLimit: false });
});

afterAll(async () => {
  await sandbox?.close();
  await recorder?.close();
  for (const server of servers.splice(0)) await server.close();
  delete process.env.LOOPS_WEBHOOK_SECRET;
  delete process.env.LOOPS_DELIVERY_STORE;
});

/** Makes the sandbox deliver the ten event types its API calls cause, then `webhooks trigger` the other seven. */
async function deliverAll17(): Promise<ReceivedWebhook[]> {
  const lists = (await callSandbox(sandbox, 'GET', '/v1/lists')).body as { id: string; name: string }[];
  const productUpdates = lists.find((list) => list.name === 'Product updates')!.id;
  const email = 'ada.hooks@example.com';
  expect((await callSandbox(sandbox, 'POST', '/v1/contacts/create', { email, mailingLists: { [productUpdates]: true } })).status).toBe(200);
  await recorder.waitFor(1, (delivery) => delivery.payload?.eventName === 'email.clicked');
  expect((await callSandbox(sandbox, 'PUT', '/v1/contacts/update', { email, mailingLists: { [productUpdates]: false } })).status).toBe(200);
  expect((await callSandbox(sandbox, 'PUT', '/v1/contacts/update', { email, subscribed: false })).status).toBe(200);
  const transactional = (await callSandbox(sandbox, 'GET', '/v1/transactional?perPage=50')).body.data as { id: string; name: string }[];
  const signIn = transactional.find((candidate) => candidate.name === 'Magic sign-in link')!;
  const sent = await callSandbox(sandbox, 'POST', '/v1/transactional', {
    transactionalId: signIn.id,
    email,
    dataVariables: { signInUrl: 'https://example.com/in' },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await recorder.waitFor(1, (delivery) => delivery.payload?.eventName === 'email.delivered' && delivery.payload?.sourceType === 'transactional');
  expect((await callSandbox(sandbox, 'POST', '/v1/contacts/delete', { email })).status).toBe(200);
  await recorder.waitFor(1, (delivery) => delivery.payload?.eventName === 'contact.deleted');
  for (const eventName of TRIGGERED) {
    const result = await run(['webhooks', 'trigger', eventName, '--to', recorder.url], { env: { LOOPS_WEBHOOK_SECRET: SECRET } });
    expect(result.code, result.stderr).toBe(0);
  }
  return recorder.received;
}

describe("the docs' handlers, against real deliveries of all 17 event types", () => {
  let deliveries: ReceivedWebhook[];
  beforeAll(async () => {
    deliveries = await deliverAll17();
  });

  it('are given deliveries of all 17 types, the sandbox sending all but the seven it never sends', () => {
    expect(new Set(deliveries.map((delivery) => delivery.payload.eventName))).toEqual(new Set(WEBHOOK_EVENT_NAMES));
    const fromSandbox = deliveries.filter((delivery) => !TRIGGERED.includes(delivery.payload.eventName));
    expect(new Set(fromSandbox.map((delivery) => delivery.payload.eventName)).size).toBe(10);
    expect(deliveries.every((delivery) => delivery.signed)).toBe(true);
  });

  it('signWebhookEvent gives each delivery byte for byte, from its event, id and time', () => {
    for (const delivery of deliveries) {
      const signed = library.signWebhookEvent(JSON.parse(delivery.body), SECRET, {
        id: String(delivery.headers['webhook-id']),
        timestamp: Number(delivery.headers['webhook-timestamp']),
      });
      expect(signed.body).toBe(delivery.body);
      for (const [name, value] of Object.entries(signed.headers)) expect([name, delivery.headers[name]]).toEqual([name, value]);
    }
  });

  it('handle each delivery once in each framework, and answer its redelivery without handling it again', async () => {
    for (const server of servers) {
      const before = handled.length;
      for (const delivery of deliveries) {
        const headers = Object.fromEntries(
          Object.entries(delivery.headers).filter(([name]) => name !== 'content-length' && name !== 'host' && name !== 'connection'),
        );
        const first = await fetch(server.url, { method: 'POST', headers: headers as Record<string, string>, body: delivery.body });
        expect([server.name, delivery.payload.eventName, first.status, await first.json()]).toEqual([
          server.name,
          delivery.payload.eventName,
          200,
          { ok: true },
        ]);
        const again = await fetch(server.url, { method: 'POST', headers: headers as Record<string, string>, body: delivery.body });
        expect([server.name, await again.json()]).toEqual([server.name, { ok: true, duplicate: true }]);
      }
      const mine = handled.slice(before);
      expect(mine.filter((call) => call.eventName === 'email.hardBounced')).toEqual([{ eventName: 'email.hardBounced', email: expect.any(String) }]);
      expect(mine.filter((call) => call.eventName === 'contact.unsubscribed')).toHaveLength(
        deliveries.filter((d) => d.payload.eventName === 'contact.unsubscribed').length,
      );
      const store = await library.openDeliveryStore(`sqlite:${server.store}`);
      try {
        const kept = await store.find();
        expect(kept).toHaveLength(deliveries.length);
        expect(kept.every((delivery) => delivery.verified && delivery.outcome?.state === 'handled')).toBe(true);
      } finally {
        await store.close();
      }
    }
  });

  it('refuse a forged delivery in each framework, and handle nothing of it', async () => {
    const [delivery] = deliveries;
    for (const server of servers) {
      const before = handled.length;
      const headers = {
        'content-type': 'application/json',
        'webhook-id': 'msg_forged',
        'webhook-timestamp': String(delivery!.headers['webhook-timestamp']),
        'webhook-signature': String(delivery!.headers['webhook-signature']),
      };
      const logs = logged.length;
      const answer = await fetch(server.url, { method: 'POST', headers, body: delivery!.body });
      expect([server.name, answer.status]).toEqual([server.name, 401]);
      expect(handled.length).toBe(before);
      // The app's log is told why, through onError.
      expect([server.name, logged.slice(logs)]).toEqual([
        server.name,
        [{ error: expect.objectContaining({ name: 'WebhookVerificationError', reason: 'bad-signature' }), webhookId: undefined }],
      ]);
    }
  });

  it('tell an Express app that parsed JSON before the handler to verify the raw body', async () => {
    const { default: express } = await import('express');
    const trapped = express();
    trapped.use(express.json());
    trapped.post('/hooks', library.webhookHandler({ secret: SECRET, on: {} }));
    const server = trapped.listen(0, '127.0.0.1');
    try {
      const url = await listening(server);
      const [delivery] = deliveries;
      const headers = Object.fromEntries(Object.entries(delivery!.headers).filter(([name]) => name.startsWith('webhook-') || name === 'content-type'));
      const answer = await fetch(`${url}/hooks`, { method: 'POST', headers: headers as Record<string, string>, body: delivery!.body });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toMatch(/parsed before verification .* express\.raw\(\{ type: "application\/json" \}\)/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('docs/webhooks.md', () => {
  it('shows each handler as the tests run it', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');
    for (const file of ['next-route.ts', 'express.ts', 'hono.ts']) expect(docs).toContain(readFileSync(join(EXAMPLES, file), 'utf8'));
  });
});
