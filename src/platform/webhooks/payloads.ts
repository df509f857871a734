/**
 * The 17 events the platform sends to a webhook endpoint, and the shape of each payload: the one
 * source of truth that `webhooks trigger` builds and checks against, and the sandbox delivers
 * (a test compares every schema with the published description). Objects are strict, as the
 * description's fields are all there is, except the contact of `contact.created`, which carries
 * the contact's custom properties besides its named fields.
 */
import { z } from '../../base/shapes.js';
import { isListId } from '../ids.js';
import { WEBHOOK_EVENT_NAMES, type WebhookEventName } from './event-names.js';

export { WEBHOOK_EVENT_NAMES, type WebhookEventName };

export const WEBHOOK_SCHEMA_VERSION = '1.0.0';

const contactIdentity = z.strictObject({ id: z.string(), email: z.string(), userId: z.nullable(z.string()) });

const webhookEmail = z.strictObject({ id: z.string(), emailMessageId: z.string(), subject: z.string() });

/** A list's id: 1 to 128 letters, digits, _ and -, and not a name every object inherits (`__proto__`). */
const listId = z.string().check(z.refine(isListId, { error: 'a mailing list id is 1 to 128 letters, digits, _ and -, and not a name every object has' }));

const webhookMailingList = z.strictObject({ id: listId, name: z.string(), description: z.nullable(z.string()), isPublic: z.boolean() });

const OPT_IN_STATUSES = ['accepted', 'pending', 'rejected'] as const;

const webhookContact = z.looseObject({
  id: z.string(),
  email: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  source: z.string(),
  subscribed: z.boolean(),
  userGroup: z.string(),
  userId: z.nullable(z.string()),
  notes: z.optional(z.nullable(z.string())),
  mailingLists: z.record(listId, z.boolean()),
  optInStatus: z.nullable(z.enum(OPT_IN_STATUSES)),
});

/** The fields every event about a contact carries. */
function aboutContact<Name extends string, Shape extends z.$ZodShape>(eventName: Name, shape: Shape) {
  return z.strictObject({
    eventName: z.literal(eventName),
    eventTime: z.int(),
    webhookSchemaVersion: z.literal(WEBHOOK_SCHEMA_VERSION),
    contactIdentity,
    ...shape,
  });
}

const ANY_EMAIL = ['loop', 'campaign', 'transactional'] as const;
const MARKETING_EMAIL = ['loop', 'campaign'] as const;

/** Delivery, bounce and spam events come from any email; opens, clicks and (re)subscriptions only from marketing email. */
function emailMetric<Name extends string>(eventName: Name, sources: typeof ANY_EMAIL | typeof MARKETING_EMAIL) {
  const sourceIds = { campaignId: z.optional(z.string()), loopId: z.optional(z.string()) };
  return aboutContact(eventName, {
    email: webhookEmail,
    sourceType: z.enum(sources),
    ...(sources === ANY_EMAIL ? { ...sourceIds, transactionalId: z.optional(z.string()) } : sourceIds),
  });
}

export interface WebhookEventType {
  schema: z.ZodMiniType;
  /** When the platform sends it, in a few words. */
  summary: string;
}

/** Every event type, by its eventName, in the description's order. */
export const WEBHOOK_EVENTS = {
  'contact.unsubscribed': { schema: aboutContact('contact.unsubscribed', {}), summary: 'a contact was unsubscribed from the audience, or deleted' },
  'contact.created': {
    // A contact created with double opt-in sends this only once confirmed: never "pending" or "rejected".
    schema: aboutContact('contact.created', { contact: z.extend(webhookContact, { optInStatus: z.nullable(z.literal('accepted')) }) }),
    summary: 'a contact was created',
  },
  'contact.deleted': { schema: aboutContact('contact.deleted', {}), summary: 'a contact was deleted' },
  'contact.mailingList.subscribed': {
    schema: aboutContact('contact.mailingList.subscribed', { mailingList: webhookMailingList }),
    summary: 'a contact joined a mailing list',
  },
  'contact.mailingList.unsubscribed': {
    schema: aboutContact('contact.mailingList.unsubscribed', { mailingList: webhookMailingList }),
    summary: 'a contact left a mailing list',
  },
  'transactional.email.sent': {
    schema: aboutContact('transactional.email.sent', { transactionalId: z.string(), transactionalName: z.string(), email: webhookEmail }),
    summary: 'a transactional email was sent',
  },
  'campaign.email.sent': {
    schema: aboutContact('campaign.email.sent', {
      campaignId: z.string(),
      campaignName: z.string(),
      email: webhookEmail,
      mailingLists: z.array(webhookMailingList),
    }),
    summary: 'a campaign email was sent to a contact',
  },
  'loop.email.sent': {
    schema: aboutContact('loop.email.sent', { loopId: z.string(), loopName: z.string(), email: webhookEmail, mailingLists: z.array(webhookMailingList) }),
    summary: 'a workflow email was sent to a contact',
  },
  'email.delivered': { schema: emailMetric('email.delivered', ANY_EMAIL), summary: 'an email was delivered' },
  'email.softBounced': { schema: emailMetric('email.softBounced', ANY_EMAIL), summary: 'an email bounced for now (it is retried)' },
  'email.hardBounced': { schema: emailMetric('email.hardBounced', ANY_EMAIL), summary: 'an email bounced for good' },
  'email.clicked': { schema: emailMetric('email.clicked', MARKETING_EMAIL), summary: 'a link in a campaign or workflow email was clicked' },
  'email.unsubscribed': { schema: emailMetric('email.unsubscribed', MARKETING_EMAIL), summary: "a recipient used an email's unsubscribe link" },
  'email.resubscribed': { schema: emailMetric('email.resubscribed', MARKETING_EMAIL), summary: "a recipient resubscribed from an email's preference center" },
  'email.opened': { schema: emailMetric('email.opened', MARKETING_EMAIL), summary: 'a campaign or workflow email was opened' },
  'email.spamReported': { schema: emailMetric('email.spamReported', ANY_EMAIL), summary: 'a recipient reported an email as spam' },
  'testing.testEvent': {
    schema: z.strictObject({
      eventName: z.literal('testing.testEvent'),
      eventTime: z.int(),
      message: z.literal('test'),
      webhookSchemaVersion: z.literal(WEBHOOK_SCHEMA_VERSION),
    }),
    summary: 'the test event of the webhook settings page',
  },
} satisfies Record<WebhookEventName, WebhookEventType>;

export function isWebhookEventName(name: string): name is WebhookEventName {
  return Object.hasOwn(WEBHOOK_EVENTS, name);
}

export type ContactIdentity = z.infer<typeof contactIdentity>;

/** Where a payload fails its event's schema, as "contactIdentity.email: expected string", or undefined when it fits. */
export function payloadProblem(name: WebhookEventName, payload: unknown): string | undefined {
  const result = WEBHOOK_EVENTS[name].schema.safeParse(payload);
  if (result.success) return undefined;
  const issue = result.error.issues[0]!;
  const where = issue.path.map(String).join('.');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}
