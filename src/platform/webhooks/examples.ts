/**
 * Realistic payloads of each event type: what `webhooks trigger` sends (with fresh ids and the
 * person's fields set) and the fixtures `loopsctl/webhooks` gives an app's tests (with the same ids
 * on every run): an example contact, email and list.
 */

import { WEBHOOK_SCHEMA_VERSION, type WebhookEventName } from './payloads.js';
import { osRandomBytes } from './signature.js';

/** A new id in the platform's form: "c" and 24 lower-case letters and digits. */
function newRecordId(): string {
  return `c${Array.from(osRandomBytes(24), (byte) => (byte % 36).toString(36)).join('')}`;
}

const SOURCE_ID: Record<string, string> = { campaign: 'campaignId', loop: 'loopId', transactional: 'transactionalId' };

/**
 * The payload of an event of this type, as the platform would send it at `now`: with fresh ids,
 * or those `newId` gives (a fixture's, the same on every run).
 */
export function examplePayload(name: WebhookEventName, now: Date, sourceType?: string, newId: () => string = newRecordId): Record<string, unknown> {
  const eventTime = Math.floor(now.getTime() / 1000);
  if (name === 'testing.testEvent') return { eventName: name, eventTime, message: 'test', webhookSchemaVersion: WEBHOOK_SCHEMA_VERSION };
  const contactIdentity = { id: newId(), email: 'jane.doe@example.com', userId: null };
  const base = { eventName: name, eventTime, webhookSchemaVersion: WEBHOOK_SCHEMA_VERSION, contactIdentity };
  const email = { id: newId(), emailMessageId: newId(), subject: 'Your October update from Acme' };
  const mailingList = { id: newId(), name: 'Product updates', description: 'Monthly product news and release notes', isPublic: true };
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
      return { ...base, transactionalId: newId(), transactionalName: 'Password reset', email: { ...email, subject: 'Reset your password' } };
    case 'campaign.email.sent':
      return { ...base, campaignId: newId(), campaignName: 'October newsletter', email, mailingLists: [mailingList] };
    case 'loop.email.sent':
      return { ...base, loopId: newId(), loopName: 'Welcome series', email: { ...email, subject: 'Welcome to Acme' }, mailingLists: [mailingList] };
    default: {
      const source = sourceType ?? 'campaign';
      return { ...base, sourceType: source, ...(SOURCE_ID[source] === undefined ? {} : { [SOURCE_ID[source]!]: newId() }), email };
    }
  }
}
