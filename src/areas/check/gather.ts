/**
 * The account as `loopsctl check` reads it: every record the rules look at, read with GET requests
 * only, a few in flight at once under the client's pacer. A record that cannot be read is kept in
 * `unchecked` with why, so that a report never calls an account clean that it did not see whole.
 */
import { type ApiClient, everyItem } from '../../api/client.js';
import { settleLimit } from '../../api/concurrency.js';
import type { CodeScan } from '../../app-code/uses.js';
import { AuthError, InterruptedError, LoopsctlError, NetworkError, ProxyError } from '../../base/errors.js';
import type { LmxKind } from '../../lmx/index.js';
import type { Campaign } from '../../platform/campaigns/schemas.js';
import type { Component } from '../../platform/components/schemas.js';
import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import type { EmailMessage, GuardianReport } from '../../platform/email-messages/schemas.js';
import type { EventPatternSummary } from '../../platform/event-patterns/schemas.js';
import type { MailingList } from '../../platform/lists/schemas.js';
import type { AudienceFilter, AudienceSegment } from '../../platform/segments/schemas.js';
import type { Theme } from '../../platform/themes/schemas.js';
import type { TransactionalEmail } from '../../platform/transactional/schemas.js';
import type { Workflow, WorkflowSummary } from '../../platform/workflows/schemas.js';
import { campaigns } from '../campaigns/client.js';
import { components } from '../components/client.js';
import { listContactProperties } from '../contact-properties/client.js';
import { getEmailMessage, guardianReport } from '../email-messages/client.js';
import { eventPatterns } from '../event-patterns/client.js';
import { listMailingLists } from '../lists/client.js';
import { segments } from '../segments/client.js';
import { themes } from '../themes/client.js';
import { transactionalEmails } from '../transactional/client.js';
import { getWorkflow, getWorkflowNode, workflows } from '../workflows/client.js';
import { campaignTarget, type EmailCounters, type MetricsTarget, readCounters, transactionalTarget, workflowEmailTarget } from './metrics.js';
import { appUrl, type Problem, type RecordRef } from './records.js';

/** Requests in flight at once: the pacer keeps them under the API's rate, this keeps them busy. */
const CONCURRENCY = 8;

/** An email message the account can send (or, with --drafts, a draft of one), read with its Guardian report. */
export interface CheckedMessage {
  /** The record that sends it. */
  record: RecordRef;
  /** Which of the record's messages: `published`, `draft`, `campaign`, or a workflow email's subject in quotes. */
  role: string;
  lmxKind: Exclude<LmxKind, 'component'>;
  message: EmailMessage;
  /** Undefined when Guardian's report was not asked for (no content family), or could not be read (the message is then in `unchecked`). */
  guardian?: GuardianReport;
  /** A draft, checked because --drafts asked. */
  draft: boolean;
}

export interface WorkflowRead {
  record: Workflow;
  ref: RecordRef;
  /** The audience filters of its AudienceFilter nodes, which only the node's full view shows. */
  filters: { nodeId: string; filter: AudienceFilter }[];
}

export interface Account {
  transactional: { record: TransactionalEmail; ref: RecordRef; draft?: EmailMessage; published?: EmailMessage }[];
  campaigns: { record: Campaign; ref: RecordRef; email?: EmailMessage }[];
  workflows: WorkflowRead[];
  components: Component[];
  themes: Theme[];
  eventPatterns: EventPatternSummary[];
  contactProperties: ContactProperty[];
  mailingLists: MailingList[];
  segments: AudienceSegment[];
  /** Every email message read, in scope or not: the unused-component and unused-theme rules read them all. */
  allMessages: EmailMessage[];
  /** The messages the content and rendered rules check. */
  messages: CheckedMessage[];
  /** The send counters of each email that has sent, when a threshold asks for them. */
  metrics?: EmailCounters[];
  /** The counters are the sends since a snapshot. */
  sinceSnapshot?: boolean;
  /** What the app's source uses, with --code. */
  code?: CodeScan;
  /** The qa family's findings that need the network: links and images fetched (--links, --only qa), spamd's verdicts (--spamassassin). */
  network?: Problem[];
  /** The listings that were read whole: a rule that compares with one that failed says nothing. */
  listed: ReadonlySet<string>;
  /** What could not be read, and why: the report names them, and the run cannot pass. */
  unchecked: { what: string; reason: string; record?: RecordRef }[];
}

export interface GatherOptions {
  /** Check drafts too: transactional drafts, draft campaigns, the emails of workflows that are not sending. */
  drafts: boolean;
  /** Read the send counters the metrics rules judge. */
  metrics?: boolean;
  /** Read Guardian's report on each email the check reads (the content family's); true unless false. */
  guardian?: boolean;
  /** Told after each request, for a progress line. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Work on the account's emails as soon as they are read (the link check), while Guardian's
   * reports and the send counters are read: the account it is handed has its emails and records,
   * and gets those reports in place once they come.
   */
  alongside?: (account: Account) => Promise<void>;
}

/** Failures that every other request would meet too: no key, no network, Ctrl-C. */
const dooms = (error: unknown) =>
  error instanceof AuthError || error instanceof NetworkError || error instanceof ProxyError || error instanceof InterruptedError;

function reasonOf(error: unknown): string {
  if (error instanceof LoopsctlError) return error.message;
  throw error;
}

/** The listings, side by side; a listing that fails leaves its kind unchecked, unless every one failed alike. */
async function listings(api: ApiClient, unchecked: Account['unchecked']) {
  const reads = {
    'transactional emails': () => everyItem(api, transactionalEmails),
    campaigns: () => everyItem(api, campaigns),
    workflows: () => everyItem(api, workflows),
    components: () => everyItem(api, components),
    themes: () => everyItem(api, themes),
    'event patterns': () => everyItem(api, eventPatterns),
    'contact properties': () => listContactProperties(api, 'all'),
    'mailing lists': () => listMailingLists(api),
    segments: () => everyItem(api, segments),
  };
  const names = Object.keys(reads) as (keyof typeof reads)[];
  const outcomes = await settleLimit(names, CONCURRENCY, (name) => reads[name]() as Promise<unknown[]>, { dooms });
  const failed = outcomes.filter((outcome) => !outcome.ok);
  if (failed.length === outcomes.length) throw failed[0]!.error;
  const lists = new Map<string, unknown[]>();
  for (const outcome of outcomes) {
    if (outcome.ok) lists.set(outcome.item, outcome.value);
    else unchecked.push({ what: `every one of the ${outcome.item}`, reason: reasonOf(outcome.error) });
  }
  const of = <T>(name: keyof typeof reads) => (lists.get(name) ?? []) as T[];
  return {
    listed: new Set(lists.keys()),
    transactional: of<TransactionalEmail>('transactional emails'),
    campaigns: of<Campaign>('campaigns'),
    workflows: of<WorkflowSummary>('workflows'),
    components: of<Component>('components'),
    themes: of<Theme>('themes'),
    eventPatterns: of<EventPatternSummary>('event patterns'),
    contactProperties: of<ContactProperty>('contact properties'),
    mailingLists: of<MailingList>('mailing lists'),
    segments: of<AudienceSegment>('segments'),
  };
}

/** A campaign whose email goes out without anyone pressing a button again. */
export const isScheduled = (campaign: Campaign) => ['scheduled', 'sending'].includes(campaign.status.toLowerCase());
export const isSending = (workflow: Workflow) => (workflow.status ?? '').toLowerCase() === 'sending';

/** One request, counted; a failure is recorded against what it was for, and gives undefined. */
class Reader {
  done = 0;
  total = 0;
  constructor(
    private readonly unchecked: Account['unchecked'],
    private readonly onProgress?: (done: number, total: number) => void,
  ) {}

  async read<T>(what: string, record: RecordRef | undefined, request: () => Promise<T>): Promise<T | undefined> {
    this.total++;
    try {
      return await request();
    } catch (error) {
      if (dooms(error)) throw error;
      this.unchecked.push({ what, reason: reasonOf(error), ...(record === undefined ? {} : { record }) });
      return undefined;
    } finally {
      this.done++;
      this.onProgress?.(this.done, this.total);
    }
  }

  /** fn over items, CONCURRENCY at a time; a failure no other request escapes ends the run. */
  async each<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
    const outcomes = await settleLimit(items, CONCURRENCY, fn, { dooms });
    return outcomes.map((outcome) => {
      if (!outcome.ok) throw outcome.error;
      return outcome.value;
    });
  }
}

/**
 * The account, read for a check. Only GET requests: the check never changes anything. The emails
 * come first (the listings, the records, their messages), and `alongside` starts on them; then
 * Guardian's reports and the send counters.
 */
export async function gather(api: ApiClient, options: GatherOptions): Promise<Account> {
  const unchecked: Account['unchecked'] = [];
  const listed = await listings(api, unchecked);
  const reader = new Reader(unchecked, options.onProgress);
  const message = (id: string | null, owner: RecordRef, role: string) =>
    id === null ? Promise.resolve(undefined) : reader.read(`the ${role} email of ${owner.kind} "${owner.name}"`, owner, () => getEmailMessage(api, id));

  const [transactional, campaignsRead, workflowsRead] = await Promise.all([
    reader.each(listed.transactional, async (record) => {
      const ref = { kind: 'transactional', name: record.name, id: record.id, url: appUrl('transactional', record) } as const;
      const [draft, published] = await Promise.all([
        message(record.draftEmailMessageId, ref, 'draft'),
        message(record.publishedEmailMessageId, ref, 'published'),
      ]);
      return { record, ref, draft, published };
    }),
    reader.each(listed.campaigns, async (record) => {
      const ref = { kind: 'campaign', name: record.name, id: record.id, url: appUrl('campaign', record) } as const;
      return { record, ref, email: await message(record.emailMessageId, ref, 'campaign') };
    }),
    reader.each(listed.workflows, (summary) => readWorkflow(api, reader, summary)),
  ]);
  const workflowEmails = await reader.each(
    workflowsRead.flatMap((read) => (read === undefined ? [] : sendEmailNodes(read.record).map((node) => ({ read, node })))),
    async ({ read, node }) => ({ read, node, message: await message(node.emailMessageId, read.ref, node.subject === '' ? 'workflow' : `"${node.subject}"`) }),
  );

  const messages: CheckedMessage[] = [];
  for (const { ref, draft, published } of transactional) {
    if (published !== undefined) messages.push({ record: ref, role: 'published', lmxKind: 'transactional', message: published, draft: false });
    if (draft !== undefined && options.drafts) messages.push({ record: ref, role: 'draft', lmxKind: 'transactional', message: draft, draft: true });
  }
  for (const { record, ref, email } of campaignsRead) {
    const draft = record.status.toLowerCase() === 'draft';
    if (email !== undefined && (isScheduled(record) || (draft && options.drafts)))
      messages.push({ record: ref, role: 'campaign', lmxKind: 'campaign', message: email, draft });
  }
  for (const { read, node, message: email } of workflowEmails) {
    const draft = !isSending(read.record);
    if (email !== undefined && (!draft || options.drafts))
      messages.push({ record: read.ref, role: node.subject === '' ? `node ${node.id}` : `"${node.subject}"`, lmxKind: 'workflow', message: email, draft });
  }
  const account: Account = {
    ...listed,
    transactional,
    campaigns: campaignsRead,
    workflows: workflowsRead.filter((read) => read !== undefined),
    allMessages: [
      ...transactional.flatMap(({ draft, published }) => [draft, published]),
      ...campaignsRead.map(({ email }) => email),
      ...workflowEmails.map(({ message: email }) => email),
    ].filter((email) => email !== undefined),
    messages,
    unchecked,
  };
  // The emails are all read: what works on them starts now, beside the reports read next.
  const alongside = options.alongside?.(account);
  const reports = async () => {
    if (options.guardian !== false)
      await reader.each(messages, async (entry) => {
        const guardian = await reader.read(`Guardian's report on the ${entry.role} email of ${entry.record.kind} "${entry.record.name}"`, entry.record, () =>
          guardianReport(api, entry.message.id),
        );
        if (guardian !== undefined) entry.guardian = guardian;
      });
    const targets: MetricsTarget[] = options.metrics
      ? [
          ...transactional.filter(({ record }) => record.publishedEmailMessageId !== null).map(({ ref }) => transactionalTarget(ref)),
          ...campaignsRead.filter(({ record }) => record.status.toLowerCase() === 'sent').map(({ ref }) => campaignTarget(ref)),
          ...workflowEmails.map(({ read, node }) => workflowEmailTarget(read.ref, node.id, node.subject)),
        ]
      : [];
    const metrics = await reader.each(targets, (target) =>
      reader.read(`the metrics of ${target.which} of ${target.record.kind} "${target.record.name}"`, target.record, () => readCounters(api, target)),
    );
    if (options.metrics) account.metrics = metrics.filter((read) => read !== undefined);
  };
  // Both are waited for, whichever fails first; then a failure no request escapes (no key, Ctrl-C) ends the run.
  const [read, worked] = await Promise.allSettled([reports(), alongside]);
  for (const outcome of [read, worked]) if (outcome.status === 'rejected') throw outcome.reason;
  return account;
}

interface SendEmailNode {
  id: string;
  emailMessageId: string;
  subject: string;
}

function sendEmailNodes(workflow: Workflow): SendEmailNode[] {
  return Object.entries(workflow.nodes).flatMap(([id, node]) => {
    const fields = node as { typeName: string; emailMessageId?: string; subject?: string };
    if (fields.typeName !== 'SendEmailAction' || fields.emailMessageId === undefined) return [];
    return [{ id, emailMessageId: fields.emailMessageId, subject: fields.subject ?? '' }];
  });
}

async function readWorkflow(api: ApiClient, reader: Reader, summary: WorkflowSummary): Promise<WorkflowRead | undefined> {
  const ref = { kind: 'workflow', name: summary.name, id: summary.id, url: appUrl('workflow', summary) } as const;
  const record = await reader.read(`workflow "${summary.name}"`, ref, () => getWorkflow(api, summary.id));
  if (record === undefined) return undefined;
  const filterNodes = Object.entries(record.nodes).filter(([, node]) => (node as { typeName: string }).typeName === 'AudienceFilter');
  const nodes = await Promise.all(
    filterNodes.map(([nodeId]) =>
      reader.read(`the audience filter ${nodeId} of workflow "${summary.name}"`, ref, () => getWorkflowNode(api, summary.id, nodeId)),
    ),
  );
  const filters = nodes.flatMap((node) => {
    const filter = (node as { audienceFilter?: AudienceFilter } | undefined)?.audienceFilter;
    return node === undefined || filter === undefined ? [] : [{ nodeId: node.id, filter }];
  });
  return { record, ref, filters };
}
