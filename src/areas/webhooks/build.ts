/**
 * Realistic payloads of each event type for `webhooks trigger`: fresh ids, the current time, an
 * example contact, email and list, and the fields the person sets (`--set contactIdentity.email=...`),
 * checked against the event's schema before anything is sent.
 */
import { UsageError } from '../../base/errors.js';
import { examplePayload } from '../../platform/webhooks/examples.js';
import { payloadProblem, WEBHOOK_EVENTS, type WebhookEventName } from '../../platform/webhooks/payloads.js';

/** Sets a dotted path (`contact.plan`, `mailingLists.0.name`) in a payload, making objects on the way. */
function setPath(payload: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys.some((key) => key === '')) throw new UsageError(`--set ${path}: a field name is empty`);
  let at: Record<string, unknown> = payload;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1)!] = value;
}

/** Fields that name the contact, which `contact.created` carries twice (contactIdentity and contact). */
const IDENTITY_FIELDS = ['id', 'email', 'userId'];

/**
 * The payload of this type with the person's fields set, checked against its schema: a payload
 * that does not fit is refused, so it is never sent.
 */
export function buildPayload(name: WebhookEventName, now: Date, sets: Record<string, unknown>): Record<string, unknown> {
  const sourceType = typeof sets.sourceType === 'string' ? sets.sourceType : undefined;
  const payload = examplePayload(name, now, sourceType);
  for (const [path, value] of Object.entries(sets)) setPath(payload, path, value);
  if (name === 'contact.created') {
    // One contact, named the same in both places unless the person set them apart.
    for (const field of IDENTITY_FIELDS) {
      const inIdentity = Object.hasOwn(sets, `contactIdentity.${field}`);
      const inContact = Object.hasOwn(sets, `contact.${field}`);
      const identity = payload.contactIdentity as Record<string, unknown>;
      const contact = payload.contact as Record<string, unknown>;
      if (inIdentity && !inContact) contact[field] = identity[field];
      if (inContact && !inIdentity) identity[field] = contact[field];
    }
  }
  const problem = payloadProblem(name, payload);
  if (problem !== undefined) {
    throw new UsageError(`the payload is not a valid ${name} event (${problem}); nothing was sent`, {
      hint: `see its fields with \`loopsctl webhooks trigger ${name} --dry-run\`; --set name=value sets a string, name:=<json> a number, true, false or null`,
    });
  }
  return payload;
}

export const describeEventTypes = () => Object.entries(WEBHOOK_EVENTS).map(([name, { summary }]) => ({ name, summary }));
