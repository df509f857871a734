/**
 * The names of the 17 events the platform sends, in the description's order, without their
 * schemas (payloads.ts, which holds each to its name): what the delivery store's filters and the
 * event patterns of `--event` and `--forward-to` check against, which load no zod.
 */
export const WEBHOOK_EVENT_NAMES = [
  'contact.unsubscribed',
  'contact.created',
  'contact.deleted',
  'contact.mailingList.subscribed',
  'contact.mailingList.unsubscribed',
  'transactional.email.sent',
  'campaign.email.sent',
  'loop.email.sent',
  'email.delivered',
  'email.softBounced',
  'email.hardBounced',
  'email.clicked',
  'email.unsubscribed',
  'email.resubscribed',
  'email.opened',
  'email.spamReported',
  'testing.testEvent',
] as const;

export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];

/**
 * What a send is: an email sent, whatever sent it (`transactional.`, `campaign.`, `loop.email.sent`,
 * and any such event the platform adds). The delivery store's counts and the alert rules read it here.
 */
export const SEND_EVENT_SUFFIX = '.email.sent';

export const isSendEvent = (eventName: string): boolean => eventName.endsWith(SEND_EVENT_SUFFIX);
