/**
 * `webhookHandler`: verify, record and claim (one commit), dispatch to `on[eventName]`, keep the
 * outcome (a second commit), answer. One function for
 * node:http and Express (`(req, res)`), and `.fetch(request)` for Fetch-style frameworks (Next.js
 * route handlers, Hono, Bun, Deno). What each answer tells the platform:
 *  - 400 (401 for a signature or timestamp that fails): refused, never dispatched;
 *  - 200: handled, or handled already (a redelivery is not dispatched again);
 *  - 409: claimed and not settled, by a handler still running or by a process that stopped
 *    mid-handling: the platform retries, and the retry after the claim's lease is handled;
 *  - 500: the app's handler threw; the claim is released, so the platform's retry is handled;
 *  - 503: the store failed before the delivery was handled; nothing is recorded as handled.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DELIVERY_HEADERS } from '../platform/webhooks/deliver.js';
import type { DeliveryJournal } from './delivery-store.js';
import { WebhookVerificationError } from './errors.js';
import type { UnknownWebhookEvent, WebhookEventName, WebhookEventOf } from './events.js';
import { type VerifiedDelivery, type VerifyWebhookOptions, verifyDelivery, type WebhookInput } from './verify.js';

/** What a handler of one event type is given: the event, and the delivery it came in. */
export type WebhookHandlers = {
  [Name in WebhookEventName]?: (event: WebhookEventOf<Name>, delivery: VerifiedDelivery) => unknown;
} & {
  /** An event this version does not know (a new type or schema version): acknowledged unless this throws. */
  unknown?: (event: UnknownWebhookEvent, delivery: VerifiedDelivery) => unknown;
};

export interface WebhookHandlerOptions extends VerifyWebhookOptions {
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** Where deliveries are journaled and claimed (openDeliveryStore); without one, a redelivery is dispatched again. */
  store?: DeliveryJournal;
  on: WebhookHandlers;
  /** Told of every refusal and failure, for the app's log (the answer is sent either way, whatever this throws). */
  onError?: (error: unknown, delivery: { webhookId?: string }) => void;
}

/** The answer to a delivery, before a framework sends it. */
export interface WebhookAnswer {
  readonly status: number;
  readonly body: { readonly ok: boolean; readonly duplicate?: boolean; readonly error?: string };
}

export interface WebhookHandler {
  /** node:http's and Express's listener. */
  (request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** For Fetch-style frameworks: the Response to return. */
  fetch(request: Request): Promise<Response>;
  /** The answer to any input verifyWebhook takes, for a framework of another kind. */
  answer(input: WebhookInput): Promise<WebhookAnswer>;
}

export function webhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  const { secret, store, on } = options;
  // The app's log failing must not change the answer the platform gets.
  const onError = (error: unknown, delivery: { webhookId?: string }) => {
    try {
      options.onError?.(error, delivery);
    } catch {}
  };

  async function answer(input: WebhookInput): Promise<WebhookAnswer> {
    let delivery: VerifiedDelivery;
    try {
      delivery = await verifyDelivery(input, secret, options);
    } catch (error) {
      onError(error, {});
      if (!(error instanceof WebhookVerificationError))
        return { status: 500, body: { ok: false, error: 'the webhook handler is not set up: see the server log' } };
      const status = error.reason === 'bad-signature' || error.reason === 'stale' ? 401 : 400;
      return { status, body: { ok: false, error: error.message } };
    }
    const { webhookId } = delivery;
    if (store !== undefined) {
      try {
        const { event } = delivery;
        const parsed = event.known ? event : event.raw;
        const claim = await store.claim({
          webhookId,
          receivedAt: new Date(),
          headers: journaled(delivery.headers),
          body: delivery.body,
          verified: true,
          parsed,
        });
        if (claim === 'handled') return { status: 200, body: { ok: true, duplicate: true } };
        // Not 200: the handler that holds it may never settle it (killed, out of memory), and the platform stops at a 2xx.
        if (claim === 'held') return { status: 409, body: { ok: false, error: HELD } };
      } catch (error) {
        onError(error, { webhookId });
        return { status: 503, body: { ok: false, error: 'the delivery store is unavailable: the delivery will be retried' } };
      }
    }
    try {
      const event = delivery.event;
      const handle = (event.known ? on[event.eventName] : on.unknown) as ((event: unknown, delivery: VerifiedDelivery) => unknown) | undefined;
      await handle?.(event, delivery);
    } catch (error) {
      onError(error, { webhookId });
      // Settled as failed, which releases the claim, so that the platform's retry is handled; if the store fails too, the claim's lease ends it.
      if (store !== undefined)
        await store.settle(webhookId, { state: 'failed', error: errorText(error) }).catch((settleError: unknown) => onError(settleError, { webhookId }));
      return { status: 500, body: { ok: false, error: 'the handler failed: the delivery will be retried' } };
    }
    if (store !== undefined) await store.settle(webhookId, { state: 'handled' }).catch((error: unknown) => onError(error, { webhookId }));
    return { status: 200, body: { ok: true } };
  }

  const listener = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const { status, body } = await answer(request);
    const text = JSON.stringify(body);
    // A body left unread (refused before reading) would hold the connection: it closes after the answer.
    if (!request.readableEnded && status >= 400) response.setHeader('connection', 'close');
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
  };
  return Object.assign(listener, {
    fetch: async (request: Request) => {
      const { status, body } = await answer(request);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
    answer,
  });
}

const HELD = 'the delivery is being handled, or its handler stopped before it settled: the delivery will be retried';

/** The delivery's own headers, as `webhooks listen --store` keeps them: never the app's credentials (authorization, cookie). */
function journaled(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of DELIVERY_HEADERS) {
    const value = headers[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
