/**
 * verifyWebhook and parseWebhookEvent on every form of input and every bad input the library
 * names: checked against signatures made by node:crypto here, not by the code under test.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { WebhookVerificationError } from '../../../src/webhooks/errors.js';
import { parseWebhookEvent } from '../../../src/webhooks/events.js';
import { signWebhookEvent, webhookFixture, webhookFixtures } from '../../../src/webhooks/sign.js';
import { verifyWebhook } from '../../../src/webhooks/verify.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NOW = 1_767_225_600;
const now = () => new Date(NOW * 1000);

/** A delivery signed by node:crypto, as Standard Webhooks specifies: HMAC-SHA256 of `id.timestamp.body`, base64. */
function signed(body: string, { id = 'msg_1', timestamp = String(NOW), secret = SECRET } = {}) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { headers: { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` }, body };
}

const body = JSON.stringify({ ...webhookFixture('email.hardBounced'), known: undefined });

async function refusal(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('verifyWebhook', () => {
  it('returns the event of a delivery signed as Standard Webhooks specifies, from headers and raw bytes', async () => {
    const delivery = signed(body);
    expect(await verifyWebhook(delivery, SECRET, { now })).toMatchObject({ eventName: 'email.hardBounced', known: true });
    expect(await verifyWebhook({ ...delivery, body: Buffer.from(body) }, SECRET, { now })).toMatchObject({ known: true });
    expect(await verifyWebhook({ headers: new Headers(delivery.headers), body: new TextEncoder().encode(body).buffer }, SECRET, { now })).toMatchObject({
      known: true,
    });
  });

  it('verifies headers and bytes given without a read to wait for: its answer comes two turns of the microtask queue after the call', async () => {
    let verified = false;
    const verifying = verifyWebhook(signed(body), SECRET, { now }).then(() => {
      verified = true;
    });
    let turns = 0;
    while (!verified && turns < 10) {
      await Promise.resolve();
      turns += 1;
    }
    await verifying;
    expect(turns).toBe(2);
  });

  it('takes any one matching v1 entry among several (a secret being rotated)', async () => {
    const delivery = signed(body);
    const headers = { ...delivery.headers, 'webhook-signature': `v1,AAAA v2,zzz ${delivery.headers['webhook-signature']}` };
    expect(await verifyWebhook({ headers, body }, SECRET, { now })).toMatchObject({ known: true });
  });

  it('reads a Fetch Request and a Node request whose body was not read', async () => {
    const delivery = signed(body);
    const fetched = new Request('http://127.0.0.1/hooks', { method: 'POST', headers: delivery.headers, body });
    expect(await verifyWebhook(fetched, SECRET, { now })).toMatchObject({ eventName: 'email.hardBounced' });
    const verdicts: unknown[] = [];
    const server = createServer(async (req, res) => {
      verdicts.push(await verifyWebhook(req, SECRET, { now }).catch((error: Error) => error.message));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await post((server.address() as AddressInfo).port, delivery.headers, body);
      expect(verdicts).toMatchObject([{ eventName: 'email.hardBounced', known: true }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('bounds a body in UTF-8 bytes, not characters, as given, as a framework parsed it (express.text(), express.raw()) or as read', async () => {
    // 600 characters, 1,200 bytes: under a bound of 1,000 counted in characters, over it in bytes.
    const wide = signed(JSON.stringify({ eventName: 'testing.testEvent', note: 'é'.repeat(580) }));
    expect(wide.body.length).toBeLessThan(1000);
    expect(Buffer.byteLength(wide.body)).toBeGreaterThan(1000);
    expect((await refusal(verifyWebhook(wide, SECRET, { now, maxBodyBytes: 1000 }))).message).toContain('over 1000 bytes');
    const verdicts: string[] = [];
    const forms = [(text: string) => text, (text: string) => Buffer.from(text), undefined];
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      const form = forms[verdicts.length];
      if (form !== undefined) {
        for await (const chunk of req) chunks.push(chunk as Buffer);
        Object.assign(req, { body: form(Buffer.concat(chunks).toString('utf8')) });
      }
      verdicts.push(
        await verifyWebhook(req, SECRET, { now, maxBodyBytes: 1000 }).then(
          () => 'verified',
          (error: Error) => error.message,
        ),
      );
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      for (const _form of forms) await post((server.address() as AddressInfo).port, wide.headers, wide.body);
      expect(verdicts).toEqual(forms.map(() => expect.stringContaining('over 1000 bytes')));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('names the raw body when a JSON middleware re-serialised it, and when it parsed it', async () => {
    const delivery = signed(body);
    const reserialised = await refusal(verifyWebhook({ headers: delivery.headers, body: JSON.stringify(JSON.parse(body), null, 2) }, SECRET, { now }));
    expect(reserialised.reason).toBe('bad-signature');
    expect(reserialised.message).toMatch(/re-serialised .* verify the raw body as received \(express\.raw/);
    const parsed = await refusal(verifyWebhook({ headers: delivery.headers, body: JSON.parse(body) }, SECRET, { now }));
    expect(parsed.reason).toBe('bad-body');
    expect(parsed.message).toMatch(/parsed before verification .* express\.raw/);
    const forged = await refusal(verifyWebhook({ headers: delivery.headers, body: 'not json' }, SECRET, { now }));
    expect(forged.message).toMatch(/no signature matches .* is the secret the one of this endpoint/);
  });

  it('refuses missing, empty and duplicated headers, each named', async () => {
    const { headers } = signed(body);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const { [name]: _left, ...without } = headers;
      const missing = await refusal(verifyWebhook({ headers: without, body }, SECRET, { now }));
      expect([missing.reason, missing.message]).toEqual(['missing-header', expect.stringContaining(`the ${name} header is missing`)]);
      const empty = await refusal(verifyWebhook({ headers: { ...headers, [name]: ' ' }, body }, SECRET, { now }));
      expect(empty.message).toContain(`the ${name} header is empty`);
      const twice = await refusal(verifyWebhook({ headers: { ...headers, [name]: [headers[name], headers[name]] }, body }, SECRET, { now }));
      expect(twice.message).toContain(`the ${name} header was sent more than once`);
      const joined = new Headers(headers);
      joined.append(name, headers[name]);
      expect((await refusal(verifyWebhook({ headers: joined, body }, SECRET, { now }))).message).toContain('more than once');
    }
  });

  it('refuses a signature list of 50 entries before computing any', async () => {
    const { headers } = signed(body);
    const many = Array.from({ length: 50 }, () => headers['webhook-signature']).join(' ');
    const error = await refusal(verifyWebhook({ headers: { ...headers, 'webhook-signature': many }, body }, SECRET, { now }));
    expect([error.reason, error.message]).toEqual(['bad-signature', expect.stringContaining('has 50 entries, more than the 16')]);
  });

  it('takes exactly 16 signature entries, the one that matches last, and refuses 17', async () => {
    const { headers } = signed(body);
    const entries = (count: number) => [
      ...Array.from({ length: count - 1 }, (_, index) => `v1,${Buffer.from(`old key ${index}`).toString('base64')}`),
      headers['webhook-signature'],
    ];
    expect(await verifyWebhook({ headers: { ...headers, 'webhook-signature': entries(16).join(' ') }, body }, SECRET, { now })).toMatchObject({ known: true });
    const error = await refusal(verifyWebhook({ headers: { ...headers, 'webhook-signature': entries(17).join(' ') }, body }, SECRET, { now }));
    expect(error.message).toContain('has 17 entries, more than the 16');
  });

  it('refuses a header given twice in two spellings, in a headers object and on the wire', async () => {
    const { headers } = signed(body);
    const other = signed(body, { id: 'msg_2' }).headers;
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const spelt = name.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
      const twice = await refusal(verifyWebhook({ headers: { ...headers, [spelt]: other[name] }, body }, SECRET, { now }));
      expect([twice.reason, twice.message]).toEqual(['missing-header', expect.stringContaining(`the ${name} header was sent more than once`)]);
      const listed = new Headers([...Object.entries(headers), [spelt, other[name]]]);
      expect((await refusal(verifyWebhook({ headers: listed, body }, SECRET, { now }))).message).toContain('more than once');
    }
    const verdicts: string[] = [];
    const server = createServer(async (req, res) => {
      verdicts.push(
        await verifyWebhook(req, SECRET, { now }).then(
          () => 'verified',
          (error: Error) => error.message,
        ),
      );
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const lines = [
        'POST / HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        `Webhook-Signature: ${other['webhook-signature']}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ];
      await rawRequest(port, `${lines.join('\r\n')}\r\n\r\n${body}`);
      expect(verdicts).toEqual([expect.stringContaining('the webhook-signature header was sent more than once')]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a timestamp outside 300 s by default, in milliseconds, in the future, or not a number; toleranceSeconds widens it', async () => {
    const old = signed(body, { timestamp: String(NOW - 301) });
    expect((await refusal(verifyWebhook(old, SECRET, { now }))).reason).toBe('stale');
    expect(await verifyWebhook(signed(body, { timestamp: String(NOW - 300) }), SECRET, { now })).toMatchObject({ known: true });
    expect(await verifyWebhook(old, SECRET, { now, toleranceSeconds: 400 })).toMatchObject({ known: true });
    const future = await refusal(verifyWebhook(signed(body, { timestamp: String(NOW + 301) }), SECRET, { now }));
    expect([future.reason, future.message]).toEqual(['stale', expect.stringContaining('too far in the future')]);
    const millis = await refusal(verifyWebhook(signed(body, { timestamp: String(NOW * 1000) }), SECRET, { now }));
    expect(millis.message).toContain('it looks like milliseconds');
    expect((await refusal(verifyWebhook(signed(body, { timestamp: '17e8' }), SECRET, { now }))).message).toContain('not a whole number of seconds');
  });

  it('refuses a toleranceSeconds of 0, negative or not a number, rather than checking no timestamp', async () => {
    const old = signed(body, { timestamp: String(NOW - 86_400) });
    for (const toleranceSeconds of [0, -1, Number.NaN])
      await expect(verifyWebhook(old, SECRET, { now, toleranceSeconds })).rejects.toThrow(
        new TypeError(
          `toleranceSeconds is ${toleranceSeconds}: give a positive number of seconds (300 by default); the timestamp check cannot be turned off, ` +
            'and a test that verifies a delivery signed at another time gives now instead',
        ),
      );
    expect(await verifyWebhook(old, SECRET, { now: () => new Date((NOW - 86_400) * 1000) })).toMatchObject({ known: true });
  });

  it('refuses a body over the bound from its declared size or as it passes it, and a secret that is not whsec_ and base64', async () => {
    const large = signed('x'.repeat(2048));
    const error = await refusal(verifyWebhook(large, SECRET, { now, maxBodyBytes: 1024 }));
    expect([error.reason, error.message]).toEqual(['bad-body', expect.stringContaining('over 1024 bytes')]);
    const declared = new Request('http://127.0.0.1/', { method: 'POST', headers: { ...large.headers, 'content-length': '999999999' }, body: 'x' });
    expect((await refusal(verifyWebhook(declared, SECRET, { now, maxBodyBytes: 1024 }))).message).toContain('was not read');
    let pulled = 0;
    const endless = new ReadableStream({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(512));
      },
    });
    const streamed = new Request('http://127.0.0.1/', { method: 'POST', headers: large.headers, body: endless, duplex: 'half' } as RequestInit);
    expect((await refusal(verifyWebhook(streamed, SECRET, { now, maxBodyBytes: 1024 }))).reason).toBe('bad-body');
    expect(pulled).toBeLessThan(10);
    await expect(verifyWebhook(signed(body), 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', { now })).rejects.toThrow(/does not start with whsec_/);
    await expect(verifyWebhook(signed(body), 'whsec_not base64!', { now })).rejects.toThrow(/not whsec_ followed by base64/);
  });
});

describe('parseWebhookEvent', () => {
  it('returns each of the 17 event types as known, keeping fields the description does not name', () => {
    for (const fixture of webhookFixtures()) {
      const { known: _known, ...payload } = fixture;
      const event = parseWebhookEvent(JSON.stringify({ ...payload, addedLater: { x: 1 } }));
      expect(event).toEqual({ ...payload, addedLater: { x: 1 }, known: true });
    }
  });

  it('returns the object JSON.parse made, marked known, not a copy of it', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const event = parseWebhookEvent(JSON.stringify(webhookFixture('email.opened')));
      expect(event.known).toBe(true);
      expect(parse.mock.results).toHaveLength(1);
      expect(parse.mock.results[0]!.value).toBe(event);
    } finally {
      parse.mockRestore();
    }
  });

  it('returns an unknown event name, a newer schema version or a misfit as unknown with its reason, never thrown', () => {
    const bounce = webhookFixture('email.hardBounced');
    expect(parseWebhookEvent('{"eventName":"email.deferred","eventTime":1}')).toMatchObject({
      eventName: 'email.deferred',
      known: false,
      raw: { eventTime: 1 },
    });
    expect(parseWebhookEvent(JSON.stringify({ ...bounce, webhookSchemaVersion: '2.0.0' }))).toMatchObject({
      known: false,
      problem: expect.stringContaining('webhookSchemaVersion "2.0.0"'),
    });
    expect(parseWebhookEvent(JSON.stringify({ ...bounce, contactIdentity: { id: 'c1' } }))).toMatchObject({
      known: false,
      problem: expect.stringContaining('contactIdentity.email'),
    });
  });

  it('throws on a body that is not a JSON object with an eventName', () => {
    for (const bad of ['', 'null', '[]', '"email.opened"', '{"event":"email.opened"}', '{"eventName":3}']) {
      expect(() => parseWebhookEvent(bad)).toThrow(WebhookVerificationError);
    }
  });
});

describe('signWebhookEvent', () => {
  it('signs as Standard Webhooks specifies, with the id and time given, and verifies', async () => {
    const fixture = webhookFixture('contact.created');
    const delivery = signWebhookEvent(fixture, SECRET, { id: 'msg_fixed', timestamp: NOW });
    const { known: _known, ...payload } = fixture;
    expect(delivery.body).toBe(JSON.stringify(payload));
    expect(delivery.headers).toMatchObject(signed(delivery.body, { id: 'msg_fixed' }).headers);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(await verifyWebhook(delivery, SECRET, { now })).toEqual(fixture);
    expect(signWebhookEvent(fixture, SECRET, { id: 'msg_fixed', timestamp: new Date(NOW * 1000 + 999) })).toEqual(delivery);
  });

  it('gives the same fixtures on every call, one of each type', () => {
    expect(webhookFixtures()).toEqual(webhookFixtures());
    expect(new Set(webhookFixtures().map((event) => event.eventName)).size).toBe(17);
  });
});

/** Sends bytes as they are, headers and all, and resolves once the server closes the connection. */
function rawRequest(port: number, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    socket.on('error', reject);
    socket.resume();
    socket.on('close', () => resolve());
  });
}

function post(port: number, headers: Record<string, string>, text: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res));
    });
    outgoing.on('error', reject);
    outgoing.end(text);
  });
}
