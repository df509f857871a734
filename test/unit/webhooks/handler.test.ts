/**
 * webhookHandler's answers, as the platform reads them: refused (4xx, never dispatched), handled
 * once (2xx, a redelivery not dispatched again), failed (5xx, released so that the retry is
 * handled), and a store that fails (503, nothing recorded as handled). Through `.fetch` and through
 * a real node:http server.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DELIVERY_HEADERS } from '../../../src/platform/webhooks/deliver.js';
import type { DeliveryJournal } from '../../../src/webhooks/delivery-store.js';
import { webhookHandler } from '../../../src/webhooks/handler.js';
import { signWebhookEvent, webhookFixture } from '../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../src/webhooks/store/index.js';
import { tempDir } from '../../support/temp.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const asRequest = (delivery: { headers: Readonly<Record<string, string>>; body: string }) =>
  new Request('http://127.0.0.1/hooks', { method: 'POST', headers: delivery.headers, body: delivery.body });

describe('webhookHandler', () => {
  it('dispatches a delivery once, answers a redelivery 200 without dispatching, and refuses a forgery 401 unrecorded', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      const bounced: string[] = [];
      const handler = webhookHandler({ secret: SECRET, store, on: { 'email.hardBounced': (event) => void bounced.push(event.contactIdentity.email) } });
      const delivery = signWebhookEvent(webhookFixture('email.hardBounced'), SECRET, { id: 'msg_a' });
      const first = await handler.fetch(asRequest(delivery));
      expect([first.status, await first.json()]).toEqual([200, { ok: true }]);
      const again = await handler.fetch(asRequest(delivery));
      expect([again.status, await again.json()]).toEqual([200, { ok: true, duplicate: true }]);
      expect(bounced).toEqual(['jane.doe@example.com']);
      const forged = await handler.fetch(asRequest({ ...signWebhookEvent(webhookFixture('email.hardBounced'), 'whsec_AAAAAAAA', { id: 'msg_f' }) }));
      expect(forged.status).toBe(401);
      expect(bounced).toHaveLength(1);
      expect(await store.get('msg_f')).toBeUndefined();
      expect(await store.get('msg_a')).toMatchObject({ verified: true, outcome: { state: 'handled' }, body: delivery.body });
    } finally {
      await store.close();
    }
  });

  it("journals a delivery's own headers only, as webhooks listen --store does: never authorization or cookie", async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      const handler = webhookHandler({ secret: SECRET, store, on: {} });
      const delivery = signWebhookEvent(webhookFixture('email.opened'), SECRET, { id: 'msg_headers' });
      const extra = { authorization: 'Bearer app-session-token', cookie: 'session=s3cret', 'x-forwarded-for': '203.0.113.9' };
      expect((await handler.fetch(asRequest({ ...delivery, headers: { ...delivery.headers, ...extra } }))).status).toBe(200);
      const kept = await store.get('msg_headers');
      expect(kept?.headers).toEqual(Object.fromEntries(DELIVERY_HEADERS.map((name) => [name, delivery.headers[name]])));
      expect(Object.keys(kept!.headers).toSorted()).toEqual(['content-type', 'user-agent', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    } finally {
      await store.close();
    }
  });

  it('parses the body of a delivery once, and journals the facts of the event it parsed', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'parsed.db')}`);
    try {
      const handler = webhookHandler({ secret: SECRET, store, on: {} });
      const event = { ...webhookFixture('email.hardBounced'), contactIdentity: { id: 'c_1', email: 'Ada@Example.com', userId: null } };
      const delivery = signWebhookEvent(event, SECRET, { id: 'msg_parsed' });
      const parse = vi.spyOn(JSON, 'parse');
      try {
        expect((await handler.answer(delivery)).status).toBe(200);
        expect(parse.mock.calls.filter(([text]) => text === delivery.body)).toHaveLength(1);
      } finally {
        parse.mockRestore();
      }
      expect(await store.get('msg_parsed')).toMatchObject({ eventName: 'email.hardBounced', recipient: 'ada@example.com', contactId: 'c_1' });
    } finally {
      await store.close();
    }
  });

  it('answers a stale or future timestamp 401, as a forgery, unrecorded and not dispatched', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      let dispatched = 0;
      const handler = webhookHandler({ secret: SECRET, store, on: { 'email.opened': () => void (dispatched += 1) } });
      for (const [id, offsetSeconds] of [
        ['msg_old', -301],
        ['msg_ahead', 301],
      ] as const) {
        const delivery = signWebhookEvent(webhookFixture('email.opened'), SECRET, { id, timestamp: Date.now() / 1000 + offsetSeconds });
        const answer = await handler.answer(delivery);
        expect([answer.status, answer.body.error]).toEqual([401, expect.stringMatching(/too (old|far in the future)/)]);
        expect(await store.get(id)).toBeUndefined();
      }
      expect(dispatched).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('keeps the outcome before it answers: a process frozen once it has answered (serverless) loses none', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      const kept: string[] = [];
      // Each write done a turn of the event loop later, as a database's answer comes.
      const later = () => new Promise((resolve) => setImmediate(resolve));
      const journal: DeliveryJournal = {
        claim: (delivery) => store.claim(delivery),
        settle: async (webhookId, outcome) => {
          await later();
          await store.settle(webhookId, outcome);
          kept.push(outcome.state);
        },
        close: () => store.close(),
      };
      const handler = webhookHandler({
        secret: SECRET,
        store: journal,
        on: {
          'email.opened': () => {},
          'email.clicked': () => {
            throw new Error('the database was away');
          },
        },
      });
      expect((await handler.answer(signWebhookEvent(webhookFixture('email.opened'), SECRET))).status).toBe(200);
      expect(kept).toEqual(['handled']);
      expect((await handler.answer(signWebhookEvent(webhookFixture('email.clicked'), SECRET))).status).toBe(500);
      expect(kept).toEqual(['handled', 'failed']);
    } finally {
      await store.close();
    }
  });

  it('answers 500 when the handler throws and releases the claim, so that the retry is handled once', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      let calls = 0;
      const handler = webhookHandler({
        secret: SECRET,
        store,
        on: {
          'email.clicked': () => {
            calls += 1;
            if (calls === 1) throw new Error('the database was away');
          },
        },
      });
      const delivery = signWebhookEvent(webhookFixture('email.clicked'), SECRET, { id: 'msg_retry' });
      expect((await handler.fetch(asRequest(delivery))).status).toBe(500);
      expect(await store.get('msg_retry')).toMatchObject({ outcome: { state: 'failed', error: 'Error: the database was away' } });
      expect((await handler.fetch(asRequest(delivery))).status).toBe(200);
      expect((await handler.fetch(asRequest(delivery))).status).toBe(200);
      expect(calls).toBe(2);
      expect((await store.get('msg_retry'))?.outcome).toEqual({ state: 'handled' });
    } finally {
      await store.close();
    }
  });

  it('answers 409, not a duplicate, while a claim is held unsettled: a slow handler that then throws leaves the retry to be handled', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    try {
      let release: (failure: Error | undefined) => void = () => {};
      const calls: string[] = [];
      const handler = webhookHandler({
        secret: SECRET,
        store,
        on: {
          'loop.email.sent': async (event) => {
            calls.push(event.contactIdentity.email);
            if (calls.length > 1) return;
            const failure = await new Promise<Error | undefined>((resolve) => (release = resolve));
            if (failure !== undefined) throw failure;
          },
        },
      });
      const delivery = signWebhookEvent(webhookFixture('loop.email.sent'), SECRET, { id: 'msg_slow' });
      // The platform stopped waiting for the first attempt; its retry comes while the handler still runs.
      const first = handler.answer(delivery);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      const retry = await handler.fetch(asRequest(delivery));
      expect(retry.status).toBe(409);
      expect(await retry.json()).toEqual({ ok: false, error: expect.stringContaining('will be retried') });
      release(new Error('the mail provider timed out'));
      expect((await first).status).toBe(500);
      const next = await handler.fetch(asRequest(delivery));
      expect([next.status, await next.json()]).toEqual([200, { ok: true }]);
      expect(calls).toEqual(['jane.doe@example.com', 'jane.doe@example.com']);
      expect(await handler.answer(delivery)).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    } finally {
      await store.close();
    }
  });

  it('answers 503 when the store fails before handling, and dispatches nothing', async () => {
    const failing: DeliveryJournal = {
      claim: async () => {
        throw new Error('connection lost');
      },
      settle: async () => {},
      close: async () => {},
    };
    const errors: unknown[] = [];
    let dispatched = 0;
    const handler = webhookHandler({
      secret: SECRET,
      store: failing,
      on: { 'email.opened': () => void (dispatched += 1) },
      onError: (error) => errors.push(error),
    });
    const answer = await handler.fetch(asRequest(signWebhookEvent(webhookFixture('email.opened'), SECRET)));
    expect(answer.status).toBe(503);
    expect(dispatched).toBe(0);
    expect(errors).toEqual([new Error('connection lost')]);
    // An onError that throws changes no answer.
    const throwing = webhookHandler({
      secret: SECRET,
      store: failing,
      on: {},
      onError: () => {
        throw new Error('the log is full');
      },
    });
    expect((await throwing.answer(signWebhookEvent(webhookFixture('email.opened'), SECRET))).status).toBe(503);
    expect((await throwing.answer(signWebhookEvent(webhookFixture('email.opened'), 'whsec_AAAAAAAA'))).status).toBe(401);
  });

  it('passes an event it does not know to on.unknown and acknowledges it; a misconfigured secret answers 500', async () => {
    const unknown: string[] = [];
    const handler = webhookHandler({ secret: SECRET, on: { unknown: (event) => void unknown.push(event.eventName) } });
    const delivery = signWebhookEvent({ eventName: 'email.deferred', eventTime: 1 }, SECRET);
    expect((await handler.fetch(asRequest(delivery))).status).toBe(200);
    expect(unknown).toEqual(['email.deferred']);
    const misconfigured = webhookHandler({ secret: 'not-a-secret', on: {} });
    expect((await misconfigured.fetch(asRequest(delivery))).status).toBe(500);
    const unchecked = webhookHandler({ secret: SECRET, toleranceSeconds: 0, on: { unknown: (event) => void unknown.push(event.eventName) } });
    expect((await unchecked.fetch(asRequest(delivery))).status).toBe(500);
    expect(unknown).toEqual(['email.deferred']);
  });

  it('is a node:http listener that reads the raw body itself, and refuses an oversized one without reading it', async () => {
    const store = await openDeliveryStore(`sqlite:${join(tempDir(), 'd.db')}`);
    const seen: string[] = [];
    const handler = webhookHandler({ secret: SECRET, store, maxBodyBytes: 4096, on: { 'contact.created': (event) => void seen.push(event.contact.email) } });
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const delivery = signWebhookEvent(webhookFixture('contact.created'), SECRET);
      expect(await post(port, delivery.headers, delivery.body)).toEqual({ status: 200, body: '{"ok":true}' });
      expect(seen).toEqual(['jane.doe@example.com']);
      const large = await post(port, delivery.headers, 'x'.repeat(100_000));
      expect(large.status).toBe(400);
      expect(large.body).toContain('over 4096 bytes');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    }
  });
});

function post(port: number, headers: Readonly<Record<string, string>>, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
    });
    // The server may close before the whole body is written: its answer is what counts.
    outgoing.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    outgoing.end(text);
  });
}
