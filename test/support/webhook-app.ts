/**
 * A small app that takes webhooks, as a user's would: a real HTTP server on loopback that checks
 * each delivery's signature on its own (node:crypto, not loopsctl's code), records it, and answers
 * what the test says. Tests wait on it for deliveries to arrive, never for time to pass.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  payload: any;
  /** The Standard Webhooks signature matches the body, id and timestamp under the app's secret. */
  signed: boolean;
}

export interface WebhookApp {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` deliveries (matching `which`, if given) have arrived. */
  waitFor(count: number, which?: (delivery: ReceivedWebhook) => boolean): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** How the app answers a delivery: a status (200 by default), or nothing at all until it closes. */
export type Answer = (delivery: ReceivedWebhook, index: number) => number | 'hang';

export function signedCorrectly(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((entry) => {
      const given = Buffer.from(entry.replace(/^v1,/, ''), 'base64');
      return entry.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

export async function startWebhookApp(secret: string, answer: Answer = () => 200): Promise<WebhookApp> {
  const received: ReceivedWebhook[] = [];
  const waiting = new Set<() => void>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: unknown;
      try {
        payload = JSON.parse(body);
      } catch {
        payload = undefined;
      }
      const delivery = { path: req.url ?? '/', headers: req.headers, body, payload, signed: signedCorrectly(secret, req.headers, body) };
      received.push(delivery);
      const status = answer(delivery, received.length - 1);
      if (status === 'hang') hanging.add(res);
      else {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status < 300 ? '{"ok":true}' : '{"error":"the app failed"}');
      }
      for (const check of waiting) check();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor: (count, which = () => true) =>
      new Promise((resolve) => {
        const check = () => {
          const matching = received.filter(which);
          if (matching.length >= count) {
            waiting.delete(check);
            resolve(matching);
          }
        };
        waiting.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface PostOptions {
  secret: string;
  timestamp?: number | string;
  id?: string;
  /** Headers besides the delivery's own. */
  extra?: Record<string, string>;
}

/** POSTs a delivery as a sender would, signed with `secret` at `timestamp`; resolves with the status. */
export function postSigned(
  url: string,
  body: string,
  { secret, timestamp = Math.floor(Date.now() / 1000), id = 'msg_1', extra = {} }: PostOptions,
): Promise<number> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  const headers = {
    ...extra,
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
