/** What the journal says of each contact's subscription, for `deliveries reconcile --contacts`. */
import { describe, expect, it } from 'vitest';
import { ContactStates } from '../../../../src/areas/deliveries/reconcile-contacts.js';
import type { StoredDelivery } from '../../../../src/webhooks/store/index.js';

const delivery = (eventName: string, name: string, eventTime: number, more: Record<string, unknown> = {}) => {
  const contactIdentity = { id: `c_${name}`, email: `${name}@example.com`, userId: null };
  const body = JSON.stringify({ eventName, eventTime, webhookSchemaVersion: '1.0.0', contactIdentity, ...more });
  return { eventName, body, contactId: contactIdentity.id, recipient: contactIdentity.email, eventAt: new Date(eventTime * 1000) } as StoredDelivery;
};
const T = Date.UTC(2026, 10, 2, 10) / 1000;
const created = (subscribed: boolean) => ({ contact: { id: 'x', email: 'x@example.com', subscribed, mailingLists: {} } });

describe('ContactStates', () => {
  it('says which contacts the journal has unsubscribed or hard-bounced, whatever order one second’s events came in', () => {
    const states = new ContactStates();
    // The journal orders a second's events by webhook-id, not by when they happened: created, then unsubscribed.
    states.see(delivery('contact.unsubscribed', 'ada', T + 5));
    states.see(delivery('contact.created', 'ada', T + 5, created(true)));
    states.see(delivery('contact.unsubscribed', 'bob', T + 1));
    states.see(
      delivery('email.resubscribed', 'bob', T + 9, { sourceType: 'campaign', campaignId: 'c1', email: { id: 'e', emailMessageId: 'm', subject: 's' } }),
    );
    states.see(
      delivery('email.hardBounced', 'cy', T + 1, { sourceType: 'transactional', transactionalId: 't1', email: { id: 'e', emailMessageId: 'm', subject: 's' } }),
    );
    states.see(delivery('contact.unsubscribed', 'cy', T + 1));
    states.see(
      delivery('email.spamReported', 'dee', T + 1, {
        sourceType: 'transactional',
        transactionalId: 't1',
        email: { id: 'e', emailMessageId: 'm', subject: 's' },
      }),
    );
    states.see(delivery('contact.unsubscribed', 'eve', T + 2));
    states.see(delivery('contact.deleted', 'eve', T + 3));
    expect(states.unsubscribed().sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: 'ada@example.com', said: 'unsubscribed', at: (T + 5) * 1000 },
      { email: 'cy@example.com', said: 'hard-bounced', at: (T + 1) * 1000 },
    ]);
  });
});
