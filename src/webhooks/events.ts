/**
 * `parseWebhookEvent`: a delivery's body as one of the platform's 17 event types, discriminated by
 * `eventName`, each with `known: true`. Checked against the same schemas `webhooks trigger` builds
 * with, except that fields the description does not name are kept, not refused (the platform adds
 * fields; a handler that failed on one would lose events). An event it does not know, a newer
 * `webhookSchemaVersion`, or a known event that does not fit its schema is returned as
 * `{ eventName, known: false, raw }`, never thrown: the app decides what to do with it.
 */
import { isWebhookEventName, WEBHOOK_EVENTS, WEBHOOK_SCHEMA_VERSION } from '../platform/webhooks/payloads.js';
import { WebhookVerificationError } from './errors.js';
import type { KnownWebhookEvent, WebhookEventName } from './event-types.js';

export type { KnownWebhookEvent, WebhookEventName } from './event-types.js';

/** An event of a type or schema version this version of loopsctl does not know, as it came. */
export interface UnknownWebhookEvent {
  readonly eventName: string;
  readonly known: false;
  readonly raw: Readonly<Record<string, unknown>>;
  /** Why it is not a known event: a new name, a newer schema version, or where it does not fit. */
  readonly problem: string;
}

export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** The event of one type, by its name: `WebhookEventOf<'email.hardBounced'>`. */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<KnownWebhookEvent, { eventName: Name }>;

/** A body's event; throws a WebhookVerificationError (`bad-body`) when it is not a JSON object with an `eventName`. */
export function parseWebhookEvent(body: string | Uint8Array): WebhookEvent {
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('bad-body', 'the body is not JSON: a Loops delivery is a JSON object with an eventName');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || typeof (parsed as { eventName?: unknown }).eventName !== 'string')
    throw new WebhookVerificationError('bad-body', 'the body is not a JSON object with an eventName: it is not a Loops delivery');
  const raw = parsed as Record<string, unknown> & { eventName: string };
  const unknown = (problem: string): UnknownWebhookEvent => ({ eventName: raw.eventName, known: false, raw, problem });
  // zod passes over a "__proto__" key without an issue; an app that copies the event would take it as the object's prototype.
  // Only a text that spells it, or escapes a character, can hold one: the walk is spared for the rest.
  const proto = /__proto__|\\u/.test(text) ? protoKeyPath(raw) : undefined;
  if (proto !== undefined) return unknown(`it has a "__proto__" key (at ${proto}), which no event of the platform has`);
  if (!isWebhookEventName(raw.eventName)) return unknown(`${raw.eventName} is not one of the event types this version of loopsctl knows`);
  if (raw.webhookSchemaVersion !== WEBHOOK_SCHEMA_VERSION)
    return unknown(`webhookSchemaVersion ${JSON.stringify(raw.webhookSchemaVersion)} is not ${WEBHOOK_SCHEMA_VERSION}, the version this loopsctl knows`);
  const result = WEBHOOK_EVENTS[raw.eventName].schema.safeParse(raw);
  // A field the schema does not name is the platform's addition, kept as it came; any other issue is a misfit.
  const issue = result.success ? undefined : result.error.issues.find((candidate) => candidate.code !== 'unrecognized_keys');
  if (issue !== undefined) {
    const where = issue.path.map(String).join('.');
    return unknown(`it does not fit the ${raw.eventName} event: ${where === '' ? '' : `${where}: `}${issue.message}`);
  }
  // The object JSON.parse made is this call's own: marked known in place, not copied.
  raw.known = true;
  return raw as unknown as KnownWebhookEvent;
}

/** Where the parsed JSON has an own "__proto__" key (JSON.parse makes one, even from "\u005f_proto__"), or undefined. */
function protoKeyPath(value: unknown, path = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Object.hasOwn(value, '__proto__')) return path === '' ? 'the top' : path;
  for (const [key, inner] of Object.entries(value)) {
    const found = protoKeyPath(inner, path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
