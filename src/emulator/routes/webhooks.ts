/**
 * What the sandbox keeps of webhooks: the endpoint it delivers to (one, as the platform allows)
 * and every delivery with its attempts; and the events its routes report, each queued as the
 * platform would send it. The queue is part of the state, so a delivery is never lost between a
 * request and its sending, and a request that fails queues nothing. Sending is the delivery
 * engine's (src/emulator/webhook-delivery.ts).
 */

import { CONTACT_FIELDS } from '../../platform/contact-properties/typing.js';
import { type ContactIdentity, payloadProblem, WEBHOOK_SCHEMA_VERSION, type WebhookEventName } from '../../platform/webhooks/payloads.js';
import { newMessageId } from '../../platform/webhooks/signature.js';
import type { TriggerCause } from '../../platform/workflows/running.js';
import { type RouteContext, type SandboxModule, seedId } from '../module.js';
import { contactCopy, contactTable, type StoredContact } from './contact-records.js';
import { emailMessages } from './email-message-records.js';
import type { SendOutcome } from './engagement.js';
import { mailingLists } from './lists.js';
import { webhookDeliveries, webhookEndpoint } from './webhook-records.js';
import { contactValue } from './workflow-emails.js';

/** Deliveries kept at most. */
const KEPT_DELIVERIES = 1_000;

/** How long after a send each step of its simulated engagement follows: delivered, then opened, then clicked. */
export const ENGAGEMENT_STEP_MS = 1_000;

/** Queues an event for the endpoint, if there is one, `delayMs` from now; returns when it happens (undefined with no endpoint). */
function queue(context: RouteContext, eventName: WebhookEventName, fields: Record<string, unknown>, delayMs = 0): string | undefined {
  if (webhookEndpoint.of(context.state) === null) return undefined;
  const now = context.now();
  // A simulated open happens when it is delivered, not when the send that leads to it does.
  const happens = new Date(now.getTime() + delayMs);
  const payload = { eventName, eventTime: Math.floor(happens.getTime() / 1000), webhookSchemaVersion: WEBHOOK_SCHEMA_VERSION, ...fields };
  const problem = payloadProblem(eventName, payload);
  if (problem !== undefined) throw new Error(`the sandbox built a ${eventName} event that does not fit its schema: ${problem}`);
  const all = webhookDeliveries.of(context.state);
  all.push({ id: newMessageId(), eventName, payload, createdAt: now.toISOString(), dueAt: happens.toISOString(), status: 'pending', attempts: [] });
  const excess = all.length - KEPT_DELIVERIES;
  if (excess > 0) {
    // The oldest finished ones go first; past that (no sandbox serving for long), the oldest waiting.
    const oldest = [...all.filter((entry) => entry.status !== 'pending'), ...all.filter((entry) => entry.status === 'pending')].slice(0, excess);
    for (const entry of oldest) all.splice(all.indexOf(entry), 1);
  }
  return happens.toISOString();
}

const identityOf = (contact: Pick<StoredContact, 'id' | 'email' | 'userId'>): ContactIdentity => ({
  id: contact.id,
  email: contact.email,
  userId: contact.userId,
});

function listFields(context: RouteContext, id: string) {
  const list = mailingLists.of(context.state).find((candidate) => candidate.id === id);
  return { id, name: list?.name ?? id, description: list?.description ?? null, isPublic: list?.isPublic ?? false };
}

/**
 * The events a contact's change makes (created, unsubscribed from the audience, joined or left a
 * list); returns what happened to it as workflow triggers name it, for the journeys it starts.
 */
export function reportContactChange(context: RouteContext, before: StoredContact | undefined, after: StoredContact): TriggerCause[] {
  // With double opt-in the platform reports a contact only once confirmed.
  if (before === undefined && (after.optInStatus === 'pending' || after.optInStatus === 'rejected')) return [];
  const lists = (contact: StoredContact | undefined) => Object.keys(contact?.mailingLists ?? {}).filter((id) => contact!.mailingLists[id]);
  const was = lists(before);
  const is = lists(after);
  const joined = is.filter((id) => !was.includes(id));
  // Without an endpoint no event is queued, so none is made: an import pays for none.
  if (webhookEndpoint.of(context.state) !== null) {
    const contactIdentity = identityOf(after);
    if (before === undefined) {
      const { properties, suppressed: _suppressed, createdAt: _createdAt, ...fields } = after;
      queue(context, 'contact.created', {
        contactIdentity,
        contact: { ...properties, ...fields, optInStatus: fields.optInStatus === 'accepted' ? 'accepted' : null },
      });
    } else if (before.subscribed && !after.subscribed) {
      queue(context, 'contact.unsubscribed', { contactIdentity });
    }
    for (const id of joined) queue(context, 'contact.mailingList.subscribed', { contactIdentity, mailingList: listFields(context, id) });
    for (const id of was.filter((id) => !is.includes(id)))
      queue(context, 'contact.mailingList.unsubscribed', { contactIdentity, mailingList: listFields(context, id) });
  }
  const causes: TriggerCause[] = joined.map((mailingListId) => ({ kind: 'joinedList', mailingListId }));
  if (before === undefined) causes.push({ kind: 'created' });
  else {
    for (const key of new Set([...CONTACT_FIELDS, ...Object.keys(before.properties), ...Object.keys(after.properties)])) {
      const [was, is] = [contactValue(before, key), contactValue(after, key)];
      if (was !== is) causes.push({ kind: 'propertyChanged', key, was, is });
    }
  }
  return causes;
}

/** A workflow's email, as loop.email.sent reports it. */
export interface LoopEmail {
  loopId: string;
  loopName: string;
  mailingListId: string | null;
  emailMessageId: string;
  /** As the contact reads it: merge tags filled in. */
  subject: string;
}

/** When a workflow email's simulated engagement happens: delivered, opened, clicked, a step apart after its send; each only when the send met it. */
export interface Engagement {
  deliveredAt?: string;
  openedAt?: string;
  clickedAt?: string;
}

/**
 * A workflow's send: loop.email.sent, and its engagement when simulated. Returns the email's id in
 * those events (undefined when no webhook reports it), and when its simulated engagement happens,
 * which audience filters' activity conditions read.
 */
export function reportLoopEmailSent(
  context: RouteContext,
  contact: StoredContact,
  sent: LoopEmail,
  outcome?: SendOutcome,
): { emailId?: string; engagement?: Engagement } {
  const source = { sourceType: 'loop', loopId: sent.loopId };
  return reportMarketingSent(context, contact, sent, 'loop.email.sent', { loopId: sent.loopId, loopName: sent.loopName }, source, outcome);
}

/** A campaign's email, as campaign.email.sent reports it. */
export interface CampaignEmail {
  campaignId: string;
  campaignName: string;
  mailingListId: string | null;
  emailMessageId: string;
  subject: string;
}

/** A campaign's send to a contact: campaign.email.sent, and its engagement when simulated, as a workflow's. */
export function reportCampaignEmailSent(context: RouteContext, contact: StoredContact, sent: CampaignEmail, outcome?: SendOutcome): { emailId?: string } {
  const source = { sourceType: 'campaign', campaignId: sent.campaignId };
  return reportMarketingSent(context, contact, sent, 'campaign.email.sent', { campaignId: sent.campaignId, campaignName: sent.campaignName }, source, outcome);
}

/** A marketing email's send (a workflow's or a campaign's): its sent event, then what it met, each a step after it. */
function reportMarketingSent(
  context: RouteContext,
  contact: StoredContact,
  sent: { mailingListId: string | null; emailMessageId: string; subject: string },
  sentEvent: 'loop.email.sent' | 'campaign.email.sent',
  names: Record<string, string>,
  source: Record<string, string>,
  outcome: SendOutcome | undefined,
): { emailId?: string; engagement?: Engagement } {
  const endpoint = webhookEndpoint.of(context.state);
  if (endpoint === null) return {};
  const contactIdentity = identityOf(contact);
  const email = { id: context.newId(), emailMessageId: sent.emailMessageId, subject: sent.subject };
  const mailingLists = sent.mailingListId === null ? [] : [listFields(context, sent.mailingListId)];
  queue(context, sentEvent, { contactIdentity, ...names, email, mailingLists });
  if (!endpoint.simulateEngagement) return { emailId: email.id };
  const after = (step: number, eventName: WebhookEventName) => queue(context, eventName, { contactIdentity, ...source, email }, step * ENGAGEMENT_STEP_MS)!;
  // Without rates set (src/emulator/routes/engagement.ts), every send is delivered, opened and clicked.
  const met = outcome ?? { delivered: true, opened: true, clicked: true, hardBounced: false, softBounced: false, spamReported: false };
  // Queued in the order they happen: delivery (or bounce) and spam report a step after the send, then the open, then the click.
  const deliveredAt = met.delivered ? after(1, 'email.delivered') : undefined;
  for (const [happened, eventName] of [
    [met.hardBounced, 'email.hardBounced'],
    [met.softBounced, 'email.softBounced'],
    [met.spamReported, 'email.spamReported'],
  ] as const)
    if (happened) after(1, eventName);
  const openedAt = met.opened ? after(2, 'email.opened') : undefined;
  const clickedAt = met.clicked ? after(3, 'email.clicked') : undefined;
  const engagement: Engagement = {
    ...(deliveredAt === undefined ? {} : { deliveredAt }),
    ...(openedAt === undefined ? {} : { openedAt }),
    ...(clickedAt === undefined ? {} : { clickedAt }),
  };
  return { emailId: email.id, engagement };
}

/**
 * A hard bounce unsubscribes the contact from the audience, as the platform does, with
 * contact.unsubscribed for one that was subscribed.
 */
export function unsubscribeBounced(context: RouteContext, contact: StoredContact): void {
  if (!contact.subscribed) return;
  const before = contactCopy(contact);
  contact.subscribed = false;
  contactTable(context.state).reindex(contact, before);
  queue(context, 'contact.unsubscribed', { contactIdentity: identityOf(contact) });
}

/** A deleted contact: contact.deleted, and contact.unsubscribed alongside it for one who was subscribed. */
export function reportContactDeleted(context: RouteContext, contact: StoredContact): void {
  const contactIdentity = identityOf(contact);
  queue(context, 'contact.deleted', { contactIdentity });
  if (contact.subscribed) queue(context, 'contact.unsubscribed', { contactIdentity });
}

export interface SentTransactional {
  to: string;
  transactionalId: string;
  transactionalName: string;
  emailMessageId: string;
}

/**
 * A transactional send: transactional.email.sent, and with simulated engagement email.delivered a
 * moment later (opens and clicks are not tracked for transactional email, so none follow). Returns
 * the email's id in those events, or undefined when no webhook reports it.
 */
export function reportTransactionalSent(
  context: RouteContext,
  sent: SentTransactional,
  recipient: StoredContact | undefined,
  outcome: SendOutcome,
): string | undefined {
  if (webhookEndpoint.of(context.state) === null) return undefined;
  // A recipient who is not a contact still has an identity in the platform's events.
  const contactIdentity = identityOf(recipient ?? { id: seedId(`recipient/${sent.to.toLowerCase()}`), email: sent.to, userId: null });
  const message = emailMessages.of(context.state).find((stored) => stored.message.id === sent.emailMessageId);
  const email = { id: context.newId(), emailMessageId: sent.emailMessageId, subject: message?.message.subject ?? '' };
  queue(context, 'transactional.email.sent', { contactIdentity, transactionalId: sent.transactionalId, transactionalName: sent.transactionalName, email });
  if (webhookEndpoint.of(context.state)!.simulateEngagement) {
    const fields = { contactIdentity, sourceType: 'transactional', transactionalId: sent.transactionalId, email };
    // What the send met (src/emulator/routes/engagement.ts), each a step after the send.
    const met: [boolean, WebhookEventName][] = [
      [outcome.delivered, 'email.delivered'],
      [outcome.hardBounced, 'email.hardBounced'],
      [outcome.softBounced, 'email.softBounced'],
      [outcome.spamReported, 'email.spamReported'],
    ];
    for (const [happened, eventName] of met) if (happened) queue(context, eventName, fields, ENGAGEMENT_STEP_MS);
  }
  return email.id;
}

export const sandbox: SandboxModule = { slices: [webhookEndpoint, webhookDeliveries], routes: [] };
