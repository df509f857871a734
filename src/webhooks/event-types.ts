/**
 * The platform's 17 webhook event types, as loopsctl/webhooks declares them to an app. Written from
 * the payload schemas (src/platform/webhooks/payloads.ts) by event-types-module.ts: do not edit.
 * Fields the platform adds later are kept on each event at run time, though not named here.
 */

/** `contact.unsubscribed`: a contact was unsubscribed from the audience, or deleted. */
export interface ContactUnsubscribedEvent {
  readonly eventName: 'contact.unsubscribed';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly known: true;
}

/** `contact.created`: a contact was created. */
export interface ContactCreatedEvent {
  readonly eventName: 'contact.created';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly contact: {
    readonly id: string;
    readonly email: string;
    readonly firstName: string | null;
    readonly lastName: string | null;
    readonly source: string;
    readonly subscribed: boolean;
    readonly userGroup: string;
    readonly userId: string | null;
    readonly notes?: string | null;
    readonly mailingLists: Readonly<Record<string, boolean>>;
    readonly optInStatus: 'accepted' | null;
    readonly [field: string]: unknown;
  };
  readonly known: true;
}

/** `contact.deleted`: a contact was deleted. */
export interface ContactDeletedEvent {
  readonly eventName: 'contact.deleted';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly known: true;
}

/** `contact.mailingList.subscribed`: a contact joined a mailing list. */
export interface ContactMailingListSubscribedEvent {
  readonly eventName: 'contact.mailingList.subscribed';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly mailingList: {
    readonly id: string;
    readonly name: string;
    readonly description: string | null;
    readonly isPublic: boolean;
  };
  readonly known: true;
}

/** `contact.mailingList.unsubscribed`: a contact left a mailing list. */
export interface ContactMailingListUnsubscribedEvent {
  readonly eventName: 'contact.mailingList.unsubscribed';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly mailingList: {
    readonly id: string;
    readonly name: string;
    readonly description: string | null;
    readonly isPublic: boolean;
  };
  readonly known: true;
}

/** `transactional.email.sent`: a transactional email was sent. */
export interface TransactionalEmailSentEvent {
  readonly eventName: 'transactional.email.sent';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly transactionalId: string;
  readonly transactionalName: string;
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly known: true;
}

/** `campaign.email.sent`: a campaign email was sent to a contact. */
export interface CampaignEmailSentEvent {
  readonly eventName: 'campaign.email.sent';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly campaignId: string;
  readonly campaignName: string;
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly mailingLists: readonly {
    readonly id: string;
    readonly name: string;
    readonly description: string | null;
    readonly isPublic: boolean;
  }[];
  readonly known: true;
}

/** `loop.email.sent`: a workflow email was sent to a contact. */
export interface LoopEmailSentEvent {
  readonly eventName: 'loop.email.sent';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly loopId: string;
  readonly loopName: string;
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly mailingLists: readonly {
    readonly id: string;
    readonly name: string;
    readonly description: string | null;
    readonly isPublic: boolean;
  }[];
  readonly known: true;
}

/** `email.delivered`: an email was delivered. */
export interface EmailDeliveredEvent {
  readonly eventName: 'email.delivered';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign' | 'transactional';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly transactionalId?: string;
  readonly known: true;
}

/** `email.softBounced`: an email bounced for now (it is retried). */
export interface EmailSoftBouncedEvent {
  readonly eventName: 'email.softBounced';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign' | 'transactional';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly transactionalId?: string;
  readonly known: true;
}

/** `email.hardBounced`: an email bounced for good. */
export interface EmailHardBouncedEvent {
  readonly eventName: 'email.hardBounced';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign' | 'transactional';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly transactionalId?: string;
  readonly known: true;
}

/** `email.clicked`: a link in a campaign or workflow email was clicked. */
export interface EmailClickedEvent {
  readonly eventName: 'email.clicked';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly known: true;
}

/** `email.unsubscribed`: a recipient used an email's unsubscribe link. */
export interface EmailUnsubscribedEvent {
  readonly eventName: 'email.unsubscribed';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly known: true;
}

/** `email.resubscribed`: a recipient resubscribed from an email's preference center. */
export interface EmailResubscribedEvent {
  readonly eventName: 'email.resubscribed';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly known: true;
}

/** `email.opened`: a campaign or workflow email was opened. */
export interface EmailOpenedEvent {
  readonly eventName: 'email.opened';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly known: true;
}

/** `email.spamReported`: a recipient reported an email as spam. */
export interface EmailSpamReportedEvent {
  readonly eventName: 'email.spamReported';
  readonly eventTime: number;
  readonly webhookSchemaVersion: '1.0.0';
  readonly contactIdentity: {
    readonly id: string;
    readonly email: string;
    readonly userId: string | null;
  };
  readonly email: {
    readonly id: string;
    readonly emailMessageId: string;
    readonly subject: string;
  };
  readonly sourceType: 'loop' | 'campaign' | 'transactional';
  readonly campaignId?: string;
  readonly loopId?: string;
  readonly transactionalId?: string;
  readonly known: true;
}

/** `testing.testEvent`: the test event of the webhook settings page. */
export interface TestingTestEvent {
  readonly eventName: 'testing.testEvent';
  readonly eventTime: number;
  readonly message: 'test';
  readonly webhookSchemaVersion: '1.0.0';
  readonly known: true;
}

/** Every event type the platform sends, told apart by `eventName`. */
export type KnownWebhookEvent =
  | ContactUnsubscribedEvent
  | ContactCreatedEvent
  | ContactDeletedEvent
  | ContactMailingListSubscribedEvent
  | ContactMailingListUnsubscribedEvent
  | TransactionalEmailSentEvent
  | CampaignEmailSentEvent
  | LoopEmailSentEvent
  | EmailDeliveredEvent
  | EmailSoftBouncedEvent
  | EmailHardBouncedEvent
  | EmailClickedEvent
  | EmailUnsubscribedEvent
  | EmailResubscribedEvent
  | EmailOpenedEvent
  | EmailSpamReportedEvent
  | TestingTestEvent;

/** The name of an event type this version knows. */
export type WebhookEventName = KnownWebhookEvent['eventName'];
