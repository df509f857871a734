/**
 * Realistic payloads of each event type for `webhooks trigger`: fresh ids, the current time, an
 * example contact, email and list, and the fields the person sets (`--set contactIdentity.email=...`),
 * checked against the event's schema before anything is sent.
 */
import { UsageError } from '../../base/errors.js';
import { osRandomBytes } from '../../platform/webhooks/signature.js';
import { WEBHOOK_EVENTS, WEBHOOK_SCHEMA_VERSION, payloadProblem, type WebhookEventName } from '../../platform/webhooks/payloads.js';

/** A new id in the platform's form: "c" and 24 lower-case letters and digits. */
function newRecordId(): string {
  return `c${Array.from(osRandomBytes(24), (byte) => (byte % 36).toString(36)).join('')}`;
}

const SOURCE_ID: Record<string, string> = { campaign: 'campaignId', loop: 'loopId', transactional: 'transactionalId' };

/** The payload of an event of this type, as the platform would send it now. */
export function examplePayload(name: WebhookEventName, now: Date, sourceType?: string): Record<string, unknown> {
  const eventTime = Math.floor(now.getTime() / 1000);
  if (name === 'testing.testEvent') return { eventName: name, eventTime, message: 'test', webhookSchemaVersion: WEBHOOK_SCHEMA_VERSION };
  const contactIdentity = { id: newRecordId(), email: 'jane.doe@example.com', userId: null };
  const base = { eventName: name, eventTime, webhookSchemaVersion: WEBHOOK_SCHEMA_VERSION, contactIdentity };
  const email = { id: newRecordId(), emailMessageId: newRecordId(), subject: 'Your October update from Acme' };
  const mailingList = { id: newRecordId(), name: 'Product updates', description: 'Monthly product news and release notes', isPublic: true };
  switch (name) {
    case 'contact.created':
      return {
        ...base,
        contact: {
          ...contactIdentity,
          firstName: 'Jane',
          lastName: 'Doe',
          source: 'API',
          subscribed: true,
          userGroup: '',
          mailingLists: { [mailingList.id]: true },
          optInStatus: null,
          plan: 'pro',
        },
      };
    case 'contact.unsubscribed':
    case 'contact.deleted':
      return base;
    case 'contact.mailingList.subscribed':
    case 'contact.mailingList.unsubscribed':
      return { ...base, mailingList };
    case 'transactional.email.sent':
      return { ...base, transactionalId: newRecordId(), transactionalName: 'Password reset', email: { ...email, subject: 'Reset your password' } };
    case 'campaign.email.sent':
      return { ...base, campaignId: newRecordId(), campaignName: 'October newsletter', email, mailingLists: [mailingList] };
    case 'loop.email.sent':
      return { ...base, loopId: newRecordId(), loopName: 'Welcome series', email: { ...email, subject: 'Welcome to Acme' }, mailingLists: [mailingList] };
    default: {
      const source = sourceType ?? 'campaign';
      return { ...base, sourceType: source, ...(SOURCE_ID[source] === undefined ? {} : { [SOURCE_ID[source]!]: newRecordId() }), email };
    }
  }
}

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
