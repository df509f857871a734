/**
 * Which webhooks the sandbox queues for which API calls, by its rules alone (no server, no sending):
 * contacts, lists, transactional sends, and the first email of the workflows a change starts.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../../../src/emulator/routes/webhook-records.js';
import { freshSandbox, SEED_IDS } from '../../../support/sandbox.js';

const PRODUCT_UPDATES = 'co0gnzwtbvun8n3amky3gzsp4';

function sandboxWithWebhooks(simulateEngagement = false) {
  const sandbox = freshSandbox({ now: () => new Date('2026-11-23T03:00:00.000Z') });
  sandbox.api.state.webhookEndpoint = { url: 'http://127.0.0.1:9/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', simulateEngagement };
  const queued = () => sandbox.api.state.webhookDeliveries as WebhookDelivery[];
  const types = () => queued().map((delivery) => delivery.eventName);
  return { ...sandbox, queued, types };
}

describe('the webhooks the sandbox queues', () => {
  it('queues nothing without an endpoint', () => {
    const { api, call } = freshSandbox();
    call('POST', '/v1/contacts/create', { body: { email: 'quiet@example.com' } });
    expect(api.state.webhookDeliveries).toEqual([]);
  });

  it('reports a contact update that unsubscribes, and list changes, each once', () => {
    const { call, types, queued } = sandboxWithWebhooks();
    call('PUT', '/v1/contacts/update', { body: { email: 'ada@example.com', subscribed: false, mailingLists: { [PRODUCT_UPDATES]: false } } });
    expect(types()).toEqual(['contact.unsubscribed', 'contact.mailingList.unsubscribed']);
    call('PUT', '/v1/contacts/update', { body: { email: 'ada@example.com', firstName: 'Ada' } });
    expect(types()).toHaveLength(2);
    expect(queued()[1]!.payload).toMatchObject({ mailingList: { id: PRODUCT_UPDATES, name: 'Product updates', isPublic: true } });
  });

  it('keeps the last 1,000 deliveries, dropping the oldest finished ones first', () => {
    const { call, queued } = sandboxWithWebhooks();
    call('POST', '/v1/contacts/create', { body: { email: 'first@example.com' } });
    queued()[0]!.status = 'delivered';
    // Every other update unsubscribes her again: 1,000 contact.unsubscribed events.
    for (let index = 0; index < 2_000; index += 1) call('PUT', '/v1/contacts/update', { body: { email: 'ada@example.com', subscribed: index % 2 === 1 } });
    expect(queued()).toHaveLength(1_000);
    expect(
      queued().some((delivery) => delivery.payload.contactIdentity && (delivery.payload.contactIdentity as { email: string }).email === 'first@example.com'),
    ).toBe(false);
    expect(queued().every((delivery) => delivery.status === 'pending')).toBe(true);
  });

  it('queues nothing for a request the API refuses', () => {
    const { call, types } = sandboxWithWebhooks();
    expect(call('POST', '/v1/contacts/create', { body: { email: 'ada@example.com' } }).status).toBe(409);
    expect(types()).toEqual([]);
  });

  it('sends the first email of a workflow a property change starts, with its merge tags filled in, and its engagement', () => {
    const { call, types, queued } = sandboxWithWebhooks(true);
    call('POST', '/v1/contacts/create', { body: { email: 'pat@example.com', firstName: 'Pat', plan: 'free' } });
    call('PUT', '/v1/contacts/update', { body: { email: 'pat@example.com', plan: 'pro' } });
    expect(types()).toEqual(['contact.created', 'loop.email.sent', 'email.delivered', 'email.opened', 'email.clicked']);
    const sent = queued()[1]!;
    expect(sent.payload).toMatchObject({ loopName: 'Upgrade thank-you', email: { subject: 'Thank you for upgrading' }, mailingLists: [] });
    const [delivered, opened, clicked] = queued().slice(2);
    for (const [step, engagement] of [delivered!, opened!, clicked!].entries()) {
      expect(engagement.payload).toMatchObject({ sourceType: 'loop', loopId: sent.payload.loopId, email: sent.payload.email });
      expect(Date.parse(engagement.dueAt) - Date.parse(sent.dueAt)).toBe((step + 1) * 1000);
      expect(engagement.payload.eventTime).toBe((sent.payload.eventTime as number) + step + 1);
    }
  });

  it("follows a workflow email with what it met as the node's engagement set, and counts it in the node's counters", () => {
    const { call, types, api } = sandboxWithWebhooks(true);
    const workflow = (api.state.workflows as { id: string; name: string; nodes: { id: string; typeName: string }[] }[]).find(
      (each) => each.name === 'Upgrade thank-you',
    )!;
    const node = workflow.nodes.find((each) => each.typeName === 'SendEmailAction')!.id;
    // A copy: the sandbox answers with its record itself.
    const metrics = () => ({ ...(call('GET', `/v1/workflows/${workflow.id}/nodes/${node}/metrics`).body as Record<string, number>) });
    const before = metrics();
    expect(call('POST', '/_sandbox/engagement', { body: { emailId: node, openRate: 1, clickRate: 0, spamRate: 1 } }).status).toBe(200);
    call('POST', '/v1/contacts/create', { body: { email: 'pat@example.com', firstName: 'Pat', plan: 'free' } });
    call('PUT', '/v1/contacts/update', { body: { email: 'pat@example.com', plan: 'pro' } });
    // Opened, never clicked, and reported as spam.
    expect(types()).toEqual(['contact.created', 'loop.email.sent', 'email.delivered', 'email.spamReported', 'email.opened']);
    const after = metrics();
    expect([after.sends! - before.sends!, after.opens! - before.opens!, after.clicks! - before.clicks!, after.spamReports! - before.spamReports!]).toEqual([
      1, 1, 0, 1,
    ]);
  });

  it('starts the welcome series for a contact who signs up on its list, and not for one off it', () => {
    const { call, queued } = sandboxWithWebhooks();
    call('POST', '/v1/contacts/create', { body: { email: 'off@example.com', firstName: 'Off' } });
    expect(queued().map((delivery) => delivery.eventName)).toEqual(['contact.created']);
    call('POST', '/v1/contacts/create', { body: { email: 'on@example.com', firstName: 'Kim', mailingLists: { [PRODUCT_UPDATES]: true } } });
    const sent = queued().find((delivery) => delivery.eventName === 'loop.email.sent');
    expect(sent?.payload).toMatchObject({
      contactIdentity: { email: 'on@example.com' },
      loopName: 'Welcome series',
      email: { subject: 'Welcome aboard, Kim' },
      mailingLists: [{ id: PRODUCT_UPDATES }],
    });
  });

  it('sends no workflow email that waits behind a timer, nor to an unsubscribed contact', () => {
    const { call, types } = sandboxWithWebhooks();
    // Trial conversion waits an hour before its first email.
    call('POST', '/v1/events/send', { body: { email: 'ada@example.com', eventName: 'trial_started' } });
    call('PUT', '/v1/contacts/update', { body: { email: 'margaret@example.com', plan: 'pro' } });
    expect(types()).toEqual([]);
  });

  it('follows a transactional send with its delivery only: opens and clicks are not tracked for transactional email', () => {
    const { call, types, queued } = sandboxWithWebhooks(true);
    expect(
      call('POST', '/v1/transactional', {
        body: {
          transactionalId: SEED_IDS.passwordReset,
          email: 'someone@example.com',
          dataVariables: { firstName: 'Sam', resetUrl: 'https://example.com/r/1' },
        },
      }).status,
    ).toBe(200);
    expect(types()).toEqual(['transactional.email.sent', 'email.delivered']);
    expect(queued()[0]!.payload).toMatchObject({
      contactIdentity: { email: 'someone@example.com', userId: null },
      email: { subject: 'Reset your Acme password' },
    });
  });

  it('follows a transactional send with what it met as the engagement set: a bounce or a spam report instead of a delivery', () => {
    const { call, types } = sandboxWithWebhooks(true);
    const rates = { emailId: SEED_IDS.passwordReset, deliveryRate: 0.5, hardBounceRate: 0.5, spamRate: 0.5 };
    expect(call('POST', '/_sandbox/engagement', { body: rates }).status).toBe(200);
    const send = (i: number) =>
      call('POST', '/v1/transactional', {
        body: { transactionalId: SEED_IDS.passwordReset, email: `r${i}@example.com`, dataVariables: { firstName: 'Sam', resetUrl: 'https://example.com/r/1' } },
      }).status;
    expect([send(1), send(2)]).toEqual([200, 200]);
    // The first send: none counts yet at a half; the second: each of the three.
    expect(types()).toEqual(['transactional.email.sent', 'transactional.email.sent', 'email.delivered', 'email.hardBounced', 'email.spamReported']);
  });

  it('follows a campaign sent to its mailing list with each send and what it met, and a hard bounce with the contact unsubscribed', () => {
    const { call, queued } = sandboxWithWebhooks(true);
    const springSale = 'c5hihv2wbzma9bzs8kg5hvd41';
    expect(call('POST', `/v1/campaigns/${springSale}`, { body: { mailingListId: PRODUCT_UPDATES } }).status).toBe(200);
    for (const email of ['on@example.com', 'off@example.com'])
      call('POST', '/v1/contacts/create', { body: { email, mailingLists: { [PRODUCT_UPDATES]: email === 'on@example.com' } } });
    expect(call('POST', '/_sandbox/engagement', { body: { emailId: springSale, hardBounceRate: 1, openRate: 1 } }).status).toBe(200);
    const before = queued().length;
    const sent = call('POST', '/_sandbox/campaigns/send', { body: { campaignId: springSale } });
    expect(sent.status).toBe(200);
    const events = queued().slice(before);
    const recipients = events
      .filter((delivery) => delivery.eventName === 'campaign.email.sent')
      .map((delivery) => (delivery.payload.contactIdentity as { email: string }).email);
    expect(recipients).toContain('on@example.com');
    expect(recipients).not.toContain('off@example.com');
    expect(recipients).toHaveLength((sent.body as { sent: number }).sent);
    const ons = events.filter((delivery) => (delivery.payload.contactIdentity as { email: string }).email === 'on@example.com');
    expect(ons.map((delivery) => delivery.eventName)).toEqual(['campaign.email.sent', 'email.hardBounced', 'email.opened', 'contact.unsubscribed']);
    expect(ons[0]!.payload).toMatchObject({ campaignId: springSale, campaignName: 'Spring sale', mailingLists: [{ id: PRODUCT_UPDATES }] });
    expect(ons[1]!.payload).toMatchObject({ sourceType: 'campaign', campaignId: springSale });
    expect((call('GET', '/v1/contacts/find', { query: { email: 'on@example.com' } }).body as { subscribed: boolean }[])[0]!.subscribed).toBe(false);
  });
});
