/**
 * The sandbox's email messages as its state holds them: the seed's, and what the routes that make
 * a transactional email, a campaign or a workflow's send-email node add. Apart from the routes
 * (./email-messages.ts), so that those modules need neither the routes nor the LMX compiler.
 */
import { z } from '../../base/shapes.js';
import { fallbacksOf as messageFallbacks } from '../../platform/email-messages/fallbacks.js';
import * as s from '../../platform/email-messages/schemas.js';
import { lazily, type RouteContext, type StateCore, seedId, seedTime, slice } from '../module.js';
import { workflows } from './workflow-records.js';

const storedMessage = z.object({
  message: s.emailMessage,
  /**
   * What the message belongs to. `published`: the message is a published transactional version
   * (or a campaign past its draft), which updates refuse with 409.
   */
  parent: z.object({ kind: z.enum(['transactional', 'workflow', 'campaign']), id: z.string(), published: z.boolean() }),
});
export type StoredMessage = z.infer<typeof storedMessage>;
export type Parent = StoredMessage['parent'];

const SENDER = { fromName: 'Acme', fromEmail: 'hello', replyToEmail: 'support@acme.example' };

/** A transactional email's draft or published version, as the seed has them. */
function transactionalMessage(
  name: string,
  version: 'draft' | 'published',
  hours: number,
  content: { subject: string; previewText: string; lmx: string; fallbacks?: Record<string, string> },
): StoredMessage {
  const label = `transactional/${name}/${version}`;
  return {
    message: {
      id: seedId(label),
      transactionalId: seedId(`transactional/${name}`),
      subject: content.subject,
      previewText: content.previewText,
      ...SENDER,
      emailFormat: 'styled',
      lmx: content.lmx,
      contentRevisionId: seedId(`${label}/revision`),
      updatedAt: seedTime(hours),
      ...(content.fallbacks === undefined ? {} : { dataVariablesFallbacks: content.fallbacks }),
    },
    parent: { kind: 'transactional', id: seedId(`transactional/${name}`), published: version === 'published' },
  };
}

const lines = (...body: string[]) => `${body.join('\n')}\n`;

const passwordReset = {
  previewText: 'The link works for a limited time',
  lmx: lines(
    '<H1>Reset your password</H1>',
    '<Paragraph>Hi {data.firstName}, someone asked to reset the password of your Acme account.</Paragraph>',
    '<Button href="{data.resetUrl}">Choose a new password</Button>',
    '<Paragraph>The link expires in {data.expiresInMinutes} minutes. If it was not you, ignore this email.</Paragraph>',
  ),
  fallbacks: { firstName: 'there' },
};

const magicLink = {
  previewText: 'One click and you are in',
  lmx: lines('<H1>Sign in to Acme</H1>', '<Button href="{data.signInUrl}">Sign in</Button>', '<Paragraph>The link works once, for 15 minutes.</Paragraph>'),
};

const seedTransactionalMessages = lazily((): StoredMessage[] => [
  transactionalMessage('Welcome', 'published', 690, {
    subject: 'Welcome to Acme',
    previewText: 'Your account is ready',
    lmx: lines(
      '<H1>Welcome to Acme, {data.firstName}!</H1>',
      '<Paragraph>Your account is ready.</Paragraph>',
      '<Button href="{data.loginUrl}">Sign in</Button>',
    ),
    fallbacks: { firstName: 'there' },
  }),
  transactionalMessage('Password reset', 'published', 1_100, { subject: 'Reset your Acme password', ...passwordReset }),
  transactionalMessage('Password reset', 'draft', 1_210, { subject: 'Your password reset link', ...passwordReset }),
  transactionalMessage('Order receipt', 'published', 970, {
    subject: 'Your receipt for order {data.orderNumber}',
    previewText: 'Thank you for your order',
    lmx: lines(
      '<H1>Thank you for your order</H1>',
      '<Paragraph>Order {data.orderNumber}: {data.items}</Paragraph>',
      '<Paragraph><Strong>Total: {data.total}</Strong></Paragraph>',
      '<Paragraph>Download the invoice <Link href="{data.invoiceUrl}">here</Link>.</Paragraph>',
    ),
  }),
  transactionalMessage('Magic sign-in link', 'published', 1_300, { subject: 'Your sign-in link', ...magicLink }),
  transactionalMessage('Magic sign-in link', 'draft', 1_330, { subject: 'Your Acme sign-in link', ...magicLink }),
  // Not published yet, and not ready to be: its button leads nowhere.
  transactionalMessage('Payment failed', 'draft', 1_342, {
    subject: 'Your payment did not go through',
    previewText: 'Update your card to keep your plan',
    lmx: lines(
      '<H1>Your payment of {data.amount} failed</H1>',
      '<Paragraph>Update your payment method to keep your plan.</Paragraph>',
      '<Button>Update payment method</Button>',
    ),
  }),
]);

/** One email message for each send-email node of the seeded workflows. */
function seedWorkflowMessages(): StoredMessage[] {
  // This workflow email greets contacts by name with no fallback, which Guardian warns about.
  const noFallback = seedId('email-message/trial-ending');
  // And this one links to an http:// page, which `loopsctl check` warns about.
  const insecure = seedId('email-message/upgrade-thanks');
  return workflows.seed().flatMap((workflow) =>
    workflow.nodes.flatMap((node) => {
      const id = node.typeName === 'SendEmailAction' ? (node as { emailMessageId?: string }).emailMessageId : undefined;
      if (id === undefined) return [];
      const subject = (node as { subject?: string }).subject ?? '';
      return [
        {
          message: {
            id,
            subject,
            previewText: 'A note from the Acme team',
            ...SENDER,
            emailFormat: 'styled',
            lmx: lines(
              `<H1>${subject}</H1>`,
              '<Paragraph>Hi {contact.firstName},</Paragraph>',
              '<Button href="https://app.acme.example">Open Acme</Button>',
              ...(id === insecure ? ['<Paragraph>Your invoices are on <Link href="http://billing.acme.example">the billing page</Link>.</Paragraph>'] : []),
            ),
            contentRevisionId: seedId(`${id}/revision`),
            updatedAt: workflow.updatedAt,
            ...(id === noFallback ? {} : { contactPropertiesFallbacks: { firstName: 'there' } }),
          },
          parent: { kind: 'workflow', id: workflow.id, published: false },
        },
      ];
    }),
  );
}

/** The email of each seeded campaign; the sent one's content can no longer change. */
function campaignMessage(
  campaign: string,
  label: string,
  hours: number,
  content: { subject: string; previewText: string; lmx: string },
  sent = false,
): StoredMessage {
  const id = seedId(`email-message/${label}`);
  const campaignId = seedId(`campaign/${campaign}`);
  return {
    message: {
      id,
      campaignId,
      ...content,
      ...SENDER,
      emailFormat: 'styled',
      contentRevisionId: seedId(`${id}/revision`),
      updatedAt: seedTime(hours),
      contactPropertiesFallbacks: { firstName: 'there' },
    },
    parent: { kind: 'campaign', id: campaignId, published: sent },
  };
}

const seedCampaignMessages = lazily((): StoredMessage[] => [
  campaignMessage(
    'October newsletter',
    'october-newsletter',
    790,
    {
      subject: 'What shipped in October',
      previewText: 'Faster exports and a new dashboard',
      lmx: lines(
        '<H1>What shipped in October</H1>',
        '<Paragraph>Hi {contact.firstName}, exports are twice as fast and the dashboard is new.</Paragraph>',
        '<Button href="https://acme.example/changelog">Read the changelog</Button>',
      ),
    },
    true,
  ),
  campaignMessage('November newsletter', 'november-newsletter', 1_080, {
    subject: 'What shipped in November',
    previewText: 'Team workspaces are here',
    lmx: lines('<H1>What shipped in November</H1>', '<Paragraph>Hi {contact.firstName}, you can now share a workspace with your team.</Paragraph>'),
  }),
  campaignMessage('Spring sale', 'spring-sale', 1_200, { subject: '', previewText: '', lmx: '' }),
]);

export const emailMessages = slice('emailMessages', z.array(storedMessage), () => [
  ...seedTransactionalMessages(),
  ...seedWorkflowMessages(),
  ...seedCampaignMessages(),
]);

export function findMessage(state: StateCore, id: string): StoredMessage | undefined {
  return emailMessages.of(state).find((stored) => stored.message.id === id);
}

/** The message's fallbacks, by the namespace of the variables they stand in for, as the renderer takes them. */
export function fallbacksOf({ message }: StoredMessage): { contact?: Record<string, string>; event?: Record<string, string>; data?: Record<string, string> } {
  return messageFallbacks(message);
}

const EMPTY: Content = { subject: '', previewText: '', ...SENDER, emailFormat: 'styled', lmx: '' };

/** The fields of a message that say what it sends (the schema is loose, so Omit cannot express it). */
type Content = Pick<s.EmailMessage, 'subject' | 'previewText' | 'fromName' | 'fromEmail' | 'replyToEmail' | 'emailFormat' | 'lmx'> & Record<string, unknown>;

/** What a message says, without what identifies it or its revision. */
function contentOf(message: s.EmailMessage): Content {
  const {
    id: _id,
    contentRevisionId: _revision,
    updatedAt: _updated,
    warnings: _warnings,
    transactionalId: _transactional,
    campaignId: _campaign,
    ...content
  } = message;
  return content;
}

/** The ids of a new revision of a message with this content. */
function revised(context: RouteContext, id: string, parent: Parent, content: Content): s.EmailMessage {
  return {
    id,
    ...(parent.kind === 'transactional' ? { transactionalId: parent.id } : parent.kind === 'campaign' ? { campaignId: parent.id } : {}),
    ...content,
    contentRevisionId: context.newId(),
    updatedAt: context.now().toISOString(),
  };
}

/**
 * A new message for a parent: empty, or with the content of another (a draft made from the
 * published version, or a first publication). Saved with the caller's context.changed().
 */
export function addMessage(context: RouteContext, parent: Parent, from?: s.EmailMessage): StoredMessage {
  const created: StoredMessage = { message: revised(context, context.newId(), parent, from === undefined ? EMPTY : contentOf(from)), parent };
  emailMessages.of(context.state).push(created);
  return created;
}

/** A message takes over another's content, as a new revision (publishing over the last published version). */
export function replaceContent(context: RouteContext, target: StoredMessage, from: s.EmailMessage): void {
  target.message = revised(context, target.message.id, target.parent, contentOf(from));
}

export function removeMessage(state: StateCore, id: string): void {
  const all = emailMessages.of(state);
  const index = all.findIndex((candidate) => candidate.message.id === id);
  if (index >= 0) all.splice(index, 1);
}
