/**
 * One delivery of a webhook over HTTP, as `webhooks trigger` sends it, `webhooks listen` passes
 * it on and the sandbox delivers it: a POST with a time limit, whose outcome is the app's status
 * and how long it took to answer, or why there was no answer. A redirect is an answer, not
 * followed: the platform does not follow one either.
 */

import { monotonicMs } from '../../base/monotonic.js';
import { ConnectionPool } from '../../base/node-http.js';
import { VERSION } from '../../base/version.js';
import { type SignedMessage, signHeaders } from './signature.js';

/** What the app said, or why it said nothing. */
export type DeliveryOutcome = { status: number; latencyMs: number; body: string | undefined } | { status: null; latencyMs: number; error: string };

/** The most of an app's answer that is kept, to show it. */
const ANSWER_LIMIT = 64 * 1024;

export const isAccepted = (outcome: DeliveryOutcome) => outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** Sends deliveries, keeping connections to the app open between them. */
export class Deliverer {
  private readonly pool: ConnectionPool;

  constructor(private readonly timeoutMs: number) {
    this.pool = new ConnectionPool({ connections: 16, keepAliveTimeout: 5_000, connectTimeout: timeoutMs });
  }

  async post(url: string, headers: Record<string, string>, body: Buffer | string, signal?: AbortSignal): Promise<DeliveryOutcome> {
    const started = monotonicMs();
    const elapsed = () => Math.round(monotonicMs() - started);
    try {
      const response = await this.pool.request(url, { method: 'POST', headers, body, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, signal });
      const text = await response.text(ANSWER_LIMIT).catch(() => undefined);
      return { status: response.statusCode, latencyMs: elapsed(), body: text };
    } catch (error) {
      return { status: null, latencyMs: elapsed(), error: failureText(error, this.timeoutMs) };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function failureText(error: unknown, timeoutMs: number): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'HEADERS_TIMEOUT' || code === 'BODY_TIMEOUT' || code === 'CONNECT_TIMEOUT') return `no answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNREFUSED') return 'connection refused (is the app running?)';
  if (code === 'ECONNRESET') return 'the app closed the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if ((error as Error).name === 'AbortError') return 'stopped';
  return (error as Error).message;
}

/**
 * The headers of a delivery, as the platform sends them: the only ones `webhooks listen` passes on
 * to the app and the only ones a journal keeps. Others (authorization, cookie, x-forwarded-for) are
 * not covered by the signature: anyone who can reach the receiver could set them, the app might
 * trust them, and a credential among them has no place in a journal.
 */
export const DELIVERY_HEADERS: readonly string[] = ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** The headers a signed delivery carries, as the platform sends them. */
export function deliveryHeaders(key: Buffer, message: SignedMessage): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': `loopsctl/${VERSION}`, ...signHeaders(key, message) };
}

/** A status as the lines show it: "200 OK (12 ms)", or why there was none. */
export function outcomeText(outcome: DeliveryOutcome): string {
  if (outcome.status === null) return `${outcome.error} (${outcome.latencyMs} ms)`;
  return `${outcome.status} (${outcome.latencyMs} ms)`;
}
