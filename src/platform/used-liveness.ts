/**
 * Whether a component or a theme can email people now, and why: a write to it reaches every email
 * that uses it when that email is next sent, live ones included. It is live when an email that can
 * email people now uses it (liveness.ts): a transactional email's published message, the email of
 * a scheduled campaign, or the email of a live workflow's send-email node.
 *
 * What an email uses is in its LMX alone: a component by each `<Component componentId="…">` it
 * embeds ("Self-closing reference: `<Component componentId="cmp_123" />`"; "Components cannot nest
 * inside components", the LMX specification), a theme by its `<Style themeId="…">` ("Use `themeId`
 * for the current theme/style-template id"), and the account's default theme by an email whose
 * `<Style>` names none or a theme the account does not hold (themes/drawn-with.ts: the renderers'
 * pick, read from the themes' list). So the rule reads the account's live emails' messages, and only theirs:
 * the transactional emails' and the campaigns' lists (whose items say which message is published
 * or scheduled), each workflow (its list does not say whether it is live), then each live email's
 * message. Past USED_READ_BOUND records it stops and judges the target live, as a read that fails
 * does: it cannot tell, and a write that may reach people needs a yes.
 */
import { withParticulars } from '../base/particulars.js';
import { CAMPAIGN } from './campaigns/resource.js';
import { EMAIL_MESSAGE } from './email-messages/resource.js';
import { campaignLive, fieldsOf, type LiveReads, listed, named, type UsedTarget, workflowIds, workflowLive, workflowMessages } from './liveness.js';
import { at } from './operation-row.js';
import { themeDrawnWith } from './themes/drawn-with.js';
import { THEME } from './themes/resource.js';
import { TRANSACTIONAL_EMAIL } from './transactional/resource.js';
import { WORKFLOW } from './workflows/resource.js';

/** What an email's LMX uses: the components it embeds, and the theme its `<Style>` names (none: the default). */
export interface Uses {
  components: readonly string[];
  theme?: string;
}

/** How the rule reads the account (liveness.ts, LiveReads), and how it reads an LMX body (src/lmx, which the platform's rules do not import). */
export interface UsedReads extends LiveReads {
  uses(lmx: string): Uses;
  /**
   * Told each live record whose email uses the target, as the gate keys a record (`workflow w1`,
   * `campaign c1`, `email message <published message>`): a yes given for the target covers those
   * alone, not one that went live, or began to use it, since.
   */
  sender?(key: string): void;
}

/**
 * The most records (workflows and live emails' messages) the rule reads for one write: an account
 * with more is judged live for a component's or a theme's write, which a person's yes then lets go.
 */
export const USED_READ_BOUND = 100;

/** A record the rule could not judge within its bound: the gate says why, and judges the target live. */
export class TooManyToRead extends Error {}

/** An email that can email people now: its message, and the record that sends it, in words ("the email of" + it). */
interface LiveEmail {
  message: string;
  /** The record that makes it live, as the gate keys it (WriteGate.liveKey). */
  key: string;
  of: string;
  /** How one such email is said: a transactional email's published one is "the published email". */
  one: string;
}

/**
 * Why a component or a theme can email people now, as the words that follow what a write does to
 * it ("edits a component" + " that live emails use: …"); undefined when no live email uses it, or
 * the account does not hold it. Throws TooManyToRead past USED_READ_BOUND.
 */
export async function whyUsedLive(target: UsedTarget, reads: UsedReads): Promise<string | undefined> {
  // The account's themes, for the one each email is drawn with (themes/drawn-with.ts): the default stands for an id it does not hold.
  const themes =
    target.kind === 'theme'
      ? (await listed(reads, at(THEME.operations.listThemes))).flatMap((theme) =>
          typeof theme.id === 'string' ? [{ id: theme.id, isDefault: theme.isDefault }] : [],
        )
      : [];
  if (target.kind === 'theme' && !themes.some((theme) => theme.id === target.id)) return undefined;
  const budget = { left: USED_READ_BOUND };
  // By the record that sends them, how many of its live emails use it.
  const users = new Map<string, { one: string; count: number }>();
  // Each message once, though two nodes may send it.
  const emails = new Map((await liveEmails(reads, budget)).map((email) => [email.message, email]));
  for (const email of emails.values()) {
    spend(budget, 1);
    const message = fieldsOf(await reads.read(at(EMAIL_MESSAGE.operations.getEmailMessage, email.message)));
    if (message === undefined) continue;
    // A message whose LMX the answer does not carry cannot be told not to use it.
    const uses = typeof message.lmx === 'string' ? reads.uses(message.lmx) : undefined;
    const used =
      uses === undefined || (target.kind === 'component' ? uses.components.includes(target.id) : themeDrawnWith(uses.theme, themes)?.id === target.id);
    if (!used) continue;
    users.set(email.of, { one: email.one, count: (users.get(email.of)?.count ?? 0) + 1 });
    reads.sender?.(email.key);
  }
  const total = [...users.values()].reduce((sum, user) => sum + user.count, 0);
  if (total === 0) return undefined;
  const said = [...users].map(([of, { one, count }]) => `${count === 1 ? one : `${count} emails`} of ${of}`);
  return withParticulars(`that ${total === 1 ? 'a live email uses' : `${total} live emails use`}`, said);
}

function spend(budget: { left: number }, reads: number): void {
  budget.left -= reads;
  if (budget.left < 0) throw new TooManyToRead(`its emails are more than the ${USED_READ_BOUND} records the gate reads to tell which live ones use it`);
}

/** The account's emails that can email people now, each with its message. */
async function liveEmails(reads: LiveReads, budget: { left: number }): Promise<LiveEmail[]> {
  const emails: LiveEmail[] = [];
  for (const email of await listed(reads, at(TRANSACTIONAL_EMAIL.operations.listTransactionalEmails))) {
    if (typeof email.publishedEmailMessageId === 'string')
      emails.push({
        message: email.publishedEmailMessageId,
        key: `email message ${email.publishedEmailMessageId}`,
        one: 'the published email',
        of: named(email, 'transactional email'),
      });
  }
  for (const campaign of await listed(reads, at(CAMPAIGN.operations.listCampaigns))) {
    const why = campaignLive(campaign);
    if (why !== undefined && typeof campaign.emailMessageId === 'string')
      emails.push({
        message: campaign.emailMessageId,
        key: `campaign ${String(campaign.id)}`,
        one: 'the email',
        of: `${named(campaign, 'campaign')}, which ${why}`,
      });
  }
  for (const id of await workflowIds(reads)) {
    spend(budget, 1);
    const workflow = fieldsOf(await reads.read(at(WORKFLOW.operations.getWorkflow, id)));
    const why = workflow === undefined ? undefined : workflowLive(workflow);
    if (why === undefined) continue;
    for (const message of workflowMessages(workflow!))
      emails.push({ message, key: `workflow ${id}`, one: 'an email', of: `${named(workflow!, 'workflow')}, which ${why}` });
  }
  return emails;
}
