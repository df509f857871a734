/**
 * `signWebhookEvent` and the fixtures: a delivery as the platform, the sandbox and `webhooks
 * trigger` send it (the same body and headers, from the same code: platform/webhooks/deliver.ts),
 * for an app's own tests, as Stripe's `generateTestHeaderString` is for one header.
 */
import { deliveryHeaders } from '../platform/webhooks/deliver.js';
import { examplePayload } from '../platform/webhooks/examples.js';
import { isWebhookEventName, WEBHOOK_EVENT_NAMES } from '../platform/webhooks/payloads.js';
import { newMessageId } from '../platform/webhooks/signature.js';
import type { KnownWebhookEvent, WebhookEvent, WebhookEventName, WebhookEventOf } from './events.js';
import { signingKey } from './verify.js';

export interface SignWebhookOptions {
  /** The webhook-id (a new `msg_…` id by default). */
  id?: string;
  /** When it is sent: a Date, or seconds since the epoch (now by default). */
  timestamp?: Date | number;
}

/** A signed delivery: the headers the platform sends (names in lower case) and the body, as bytes would travel. */
export interface SignedWebhook {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The delivery of an event (a payload, a fixture, or an event parseWebhookEvent returned), signed
 * with the secret: byte for byte what the sandbox delivers for the same event, id and time.
 */
export function signWebhookEvent(event: WebhookEvent | Readonly<Record<string, unknown>>, secret: string, options: SignWebhookOptions = {}): SignedWebhook {
  const body = JSON.stringify(payloadOf(event));
  const at = options.timestamp ?? new Date();
  const timestamp = String(typeof at === 'number' ? Math.floor(at) : Math.floor(at.getTime() / 1000));
  return { headers: deliveryHeaders(signingKey(secret), { id: options.id ?? newMessageId(), timestamp, body }), body };
}

/** The payload as the platform sent it: without the `known` a parsed event carries. */
function payloadOf(event: WebhookEvent | Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (event.known === false && typeof event.raw === 'object' && event.raw !== null) return event.raw as Record<string, unknown>;
  if (event.known !== true) return event as Readonly<Record<string, unknown>>;
  const { known: _known, ...payload } = event;
  return payload;
}

/** When every fixture happens: 2026-01-01T00:00:00Z. */
const FIXTURE_TIME = new Date('2026-01-01T00:00:00Z');

/**
 * An event of this type as the platform sends it, with the same ids and time on every run, for an
 * app's tests: change what a test needs (`{ ...webhookFixture('email.hardBounced'), eventTime }`).
 */
export function webhookFixture<Name extends WebhookEventName>(eventName: Name): WebhookEventOf<Name> {
  if (!isWebhookEventName(eventName)) throw new TypeError(`${String(eventName)} is not one of the platform's event types`);
  let next = 0;
  const fixtureId = () => `cfixture${String(++next).padStart(17, '0')}`;
  return { ...examplePayload(eventName, FIXTURE_TIME, undefined, fixtureId), known: true } as unknown as WebhookEventOf<Name>;
}

/** A fixture of every event type, in the published description's order. */
export function webhookFixtures(): KnownWebhookEvent[] {
  return WEBHOOK_EVENT_NAMES.map((name) => webhookFixture(name));
}
