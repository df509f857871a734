/**
 * Whether a record can email people now, and why: the one rule that the write gate
 * (src/core/gate.ts), each kind of a plan's units (src/areas/change/kinds.ts, `live`) and the
 * sandbox hold to. A record is live when a write to it reaches people without anything more:
 *
 * - a workflow that is not a draft (Sending, Paused, PausedAndQueueing): contacts move through it
 *   (`SimplifiedWorkflow.status`, read by `GET /v1/workflows/{workflowId}`);
 * - a campaign that is scheduled or sending (`CampaignResponse.status`, read by
 *   `GET /v1/campaigns/{campaignId}`), or a draft whose `scheduling` names a time: its audience
 *   (list, segment, filter), its email and its schedule are what it sends, to whom;
 * - an email message held by one of those: by a live workflow's send-email node (the node's
 *   `emailMessageId`), by a scheduled campaign (its `emailMessageId`), or as a transactional
 *   email's published message (`publishedEmailMessageId`, which every send of it uses).
 *
 * What holds a message is read from the message first: "`campaignId`: present only when the
 * message belongs to a campaign (mutually exclusive with `transactionalId`)" (the API's reference,
 * `EmailMessageResponse`). A message with neither is a workflow's, and the API has no read from a
 * message to its workflow: a workflow names its nodes' messages ("`emailMessageId`: the ID of the
 * email message to send. To edit this email, use the `POST /v1/email-messages/{emailMessageId}`
 * endpoint", `SimplifiedSendEmailActionWorkflowNode`), so the workflows are read until one names it.
 * What holds a message never changes (no write moves a message to another record: a node's update
 * takes no `emailMessageId`, `UpdateWorkflowNodePayload`), so it may be known from any answer of
 * the account (`holdersIn`); whether the holder is live is read fresh each time, from the holder
 * itself, which must still name the message.
 */
import { CAMPAIGN } from './campaigns/resource.js';
import { EMAIL_MESSAGE } from './email-messages/resource.js';
import { at, idsAt } from './operation-row.js';
import { TRANSACTIONAL_EMAIL } from './transactional/resource.js';
import { WORKFLOW } from './workflows/resource.js';

/** A record that can be live: a write to it is judged by its state now. */
export type LiveTarget = RecordTarget | UsedTarget;

/** A record that can be live by its own state or its holder's. */
export type RecordTarget =
  | { kind: 'workflow'; id: string }
  | { kind: 'campaign'; id: string }
  /** `heldBy`: what a caller says holds it, checked by the read of the holder (the message is looked up when the holder does not name it). */
  | { kind: 'email message'; id: string; heldBy?: Holder };

/** A record that emails use: live when an email that can email people now uses it (used-liveness.ts). */
export type UsedTarget = { kind: 'component'; id: string } | { kind: 'theme'; id: string };

/** What holds an email message. */
export interface Holder {
  kind: 'workflow' | 'campaign' | 'transactional';
  id: string;
}

/** Where each record is read: its row's getter. */
const GETTERS = {
  workflow: WORKFLOW.operations.getWorkflow,
  campaign: CAMPAIGN.operations.getCampaign,
  transactional: TRANSACTIONAL_EMAIL.operations.getTransactionalEmail,
  'email message': EMAIL_MESSAGE.operations.getEmailMessage,
} as const;

function readPath(kind: keyof typeof GETTERS, id: string): string {
  return at(GETTERS[kind], id);
}

type Fields = Record<string, unknown>;

export function fieldsOf(answer: unknown): Fields | undefined {
  return typeof answer === 'object' && answer !== null && !Array.isArray(answer) ? (answer as Fields) : undefined;
}

export function named(record: Fields, noun: string): string {
  const id = typeof record.id === 'string' ? ` ${record.id}` : '';
  return typeof record.name === 'string' && record.name !== '' ? `${noun} "${record.name}"${id === '' ? '' : ` (${id.trim()})`}` : `${noun}${id}`;
}

/** Whether a workflow's status is that of a draft: any other (Sending, Paused, PausedAndQueueing) holds contacts that move through it. */
export function isDraftStatus(status: unknown): boolean {
  return status === undefined || status === null || status === 'Draft';
}

/** Why a workflow (as `GET /v1/workflows/{id}` answers it) is live, as the words after "a workflow": undefined for a draft. */
export function workflowLive(workflow: unknown): string | undefined {
  const status = fieldsOf(workflow)?.status;
  return isDraftStatus(status) ? undefined : `is ${String(status)}: contacts move through it`;
}

/**
 * The statuses of a campaign that send nothing more: a draft (its schedule is not set) and one
 * sent ("Once a campaign has been sent, only its `name` and `campaignGroupId` can be updated").
 * Any other, Scheduled, Sending or one loopsctl does not know, may send.
 */
const CAMPAIGN_QUIET = new Set(['Draft', 'Sent']);

/** Whether a campaign's status is one that sends (Scheduled, Sending, or one loopsctl does not know). */
export function campaignSends(status: unknown): boolean {
  return typeof status !== 'string' || !CAMPAIGN_QUIET.has(status);
}

/**
 * Whether a campaign has been sent (or is being sent): its audience and content can no longer
 * change ("Once a campaign has been sent, only its `name` and `campaignGroupId` can be updated").
 * A scheduled one has not: a change of its audience changes who gets it, which is why it is live.
 */
export function campaignSent(status: unknown): boolean {
  return status === 'Sending' || status === 'Sent';
}

/**
 * Why a campaign (as `GET /v1/campaigns/{id}` answers it) is live, as the words after "a campaign":
 * undefined for a draft with no time set, or a sent one. A draft whose `scheduling` names a time
 * ("When the campaign is scheduled to send", `CampaignResponse.scheduling`; set "on create or
 * later via update") is taken as one that sends then: the description does not say that its
 * status moves to Scheduled when the time is set through the API, and a write to it may reach
 * people at that time.
 */
export function campaignLive(campaign: unknown): string | undefined {
  const fields = fieldsOf(campaign);
  const scheduling = fieldsOf(fields?.scheduling);
  const at = scheduling?.method === 'schedule' && typeof scheduling.timestamp === 'string' ? scheduling.timestamp : undefined;
  if (!campaignSends(fields?.status)) {
    return fields?.status === 'Draft' && at !== undefined ? `is a draft set to send at ${at}: it sends to its audience then` : undefined;
  }
  return `is ${String(fields?.status)}${at === undefined ? '' : ` to send at ${at}`}: it sends to its audience`;
}

/** What holds a message, as its read says: a campaign, a transactional email, or (neither named) a workflow, unknown by the message. */
export function holderOfMessage(message: unknown): Holder | 'workflow' {
  const fields = fieldsOf(message);
  if (typeof fields?.campaignId === 'string') return { kind: 'campaign', id: fields.campaignId };
  if (typeof fields?.transactionalId === 'string') return { kind: 'transactional', id: fields.transactionalId };
  return 'workflow';
}

/** The messages a workflow's send-email nodes send, as `GET /v1/workflows/{id}` names them. */
export function workflowMessages(workflow: Fields): string[] {
  const nodes = fieldsOf(workflow.nodes);
  if (nodes === undefined) return [];
  return Object.values(nodes).flatMap((node) => {
    const id = fieldsOf(node)?.emailMessageId;
    return typeof id === 'string' ? [id] : [];
  });
}

/** The messages an answer of the account says who holds, by the path it was read at: what a run may learn for free. */
export function holdersIn(path: string, answer: unknown): [string, Holder][] {
  const read = (...operations: { path: string }[]) => operations.some((operation) => idsAt(operation, path) !== undefined);
  const source = read(EMAIL_MESSAGE.operations.getEmailMessage)
    ? 'email message'
    : read(WORKFLOW.operations.getWorkflow)
      ? 'workflow'
      : read(CAMPAIGN.operations.listCampaigns, CAMPAIGN.operations.getCampaign)
        ? 'campaign'
        : read(TRANSACTIONAL_EMAIL.operations.listTransactionalEmails, TRANSACTIONAL_EMAIL.operations.getTransactionalEmail)
          ? 'transactional'
          : undefined;
  const fields = fieldsOf(answer);
  if (source === undefined || fields === undefined) return [];
  const records: Fields[] = Array.isArray(fields.data)
    ? (fields.data as unknown[]).flatMap((item): Fields[] => {
        const record = fieldsOf(item);
        return record === undefined ? [] : [record];
      })
    : [fields];
  const held: [string, Holder][] = [];
  for (const record of records) {
    const id = typeof record.id === 'string' ? record.id : undefined;
    if (id === undefined) continue;
    if (source === 'email message') {
      const holder = holderOfMessage(record);
      if (holder !== 'workflow') held.push([id, holder]);
    } else if (source === 'workflow') {
      for (const message of workflowMessages(record)) held.push([message, { kind: 'workflow', id }]);
    } else if (source === 'campaign') {
      if (typeof record.emailMessageId === 'string') held.push([record.emailMessageId, { kind: 'campaign', id }]);
    } else {
      for (const field of ['draftEmailMessageId', 'publishedEmailMessageId']) {
        const message = record[field];
        if (typeof message === 'string') held.push([message, { kind: 'transactional', id }]);
      }
    }
  }
  return held;
}

/** Why a message is live, judged by its holder as read now; `undefined` when the holder no longer names it. */
function heldMessageLive(holder: Holder, record: Fields, messageId: string): { names: boolean; why?: string } {
  switch (holder.kind) {
    case 'workflow': {
      if (!workflowMessages(record).includes(messageId)) return { names: false };
      const why = workflowLive(record);
      return { names: true, why: why === undefined ? undefined : `that ${named(record, 'workflow')} sends, while it ${why}` };
    }
    case 'campaign': {
      if (record.emailMessageId !== messageId) return { names: false };
      const why = campaignLive(record);
      return { names: true, why: why === undefined ? undefined : `that ${named(record, 'campaign')} sends, while it ${why}` };
    }
    case 'transactional': {
      const published = record.publishedEmailMessageId === messageId;
      if (!published && record.draftEmailMessageId !== messageId) return { names: false };
      // A draft reaches no one until it is published; the published message is what every send uses.
      return { names: true, why: published ? `that is the published email of ${named(record, 'transactional email')}: every send of it uses it` : undefined };
    }
  }
}

/** How the rule reads the account: each read fresh, `undefined` for a record the account does not hold (404). */
export interface LiveReads {
  read(path: string): Promise<unknown>;
  /** What holds each message, as the run has learned it (holdersIn); the rule adds what it finds. */
  holders: Map<string, Holder>;
}

/**
 * Why the target can email people now, as the words that follow what a write does to it ("edits
 * a workflow" + " that is Sending: contacts move through it"); undefined when it cannot, or when
 * the account does not hold it (the write itself is then refused, and nothing moves).
 */
export async function whyLive(target: RecordTarget, reads: LiveReads): Promise<string | undefined> {
  if (target.kind === 'workflow' || target.kind === 'campaign') {
    // The record itself: the workflows' list gives no status (`WorkflowSummary`: id, url, name and times).
    const record = await reads.read(readPath(target.kind, target.id));
    const why = target.kind === 'workflow' ? workflowLive(record) : campaignLive(record);
    return why === undefined ? undefined : `that ${why}`;
  }
  return messageLive(target.id, target.heldBy, reads);
}

async function messageLive(messageId: string, claimed: Holder | undefined, reads: LiveReads): Promise<string | undefined> {
  const tried = new Set<string>();
  // One read when what holds it is known: the holder, read now, which must still name it.
  const known = claimed ?? reads.holders.get(messageId);
  if (known !== undefined) {
    const judged = await judgedBy(known, messageId, reads);
    if (judged.names) return judged.why;
    tried.add(`${known.kind}/${known.id}`);
  }
  const message = await reads.read(readPath('email message', messageId));
  if (message === undefined) return undefined;
  const holder = holderOfMessage(message);
  if (holder !== 'workflow') {
    reads.holders.set(messageId, holder);
    return (await judgedBy(holder, messageId, reads)).why;
  }
  // A workflow's: the workflows it may be in, those the run knows first, until one names it.
  const candidates = [...new Set([...reads.holders.values()].filter((each) => each.kind === 'workflow').map((each) => each.id))];
  for (const id of [...candidates, ...(await workflowIds(reads))]) {
    if (tried.has(`workflow/${id}`)) continue;
    tried.add(`workflow/${id}`);
    const judged = await judgedBy({ kind: 'workflow', id }, messageId, reads);
    if (judged.names) return judged.why;
  }
  // Held by nothing that sends: no campaign, transactional email or workflow names it.
  return undefined;
}

async function judgedBy(holder: Holder, messageId: string, reads: LiveReads): Promise<{ names: boolean; why?: string }> {
  const record = fieldsOf(await reads.read(readPath(holder.kind, holder.id)));
  if (record === undefined) return { names: false };
  if (holder.kind === 'workflow') for (const message of workflowMessages(record)) reads.holders.set(message, holder);
  const judged = heldMessageLive(holder, record, messageId);
  if (judged.names) reads.holders.set(messageId, holder);
  else if (reads.holders.get(messageId)?.id === holder.id) reads.holders.delete(messageId);
  return judged;
}

/** Every workflow's id, from the list's pages. */
export async function workflowIds(reads: Pick<LiveReads, 'read'>): Promise<string[]> {
  return (await listed(reads, at(WORKFLOW.operations.listWorkflows))).flatMap((item) => (typeof item.id === 'string' ? [item.id] : []));
}

/** Every item of a list, from its pages (the description's largest page: "Must be between 10 and 50"). */
export async function listed(reads: Pick<LiveReads, 'read'>, list: string): Promise<Fields[]> {
  const items: Fields[] = [];
  const first = `${list}?perPage=50`;
  let path: string | undefined = first;
  while (path !== undefined) {
    const page = fieldsOf(await reads.read(path));
    for (const item of Array.isArray(page?.data) ? page.data : []) {
      const fields = fieldsOf(item);
      if (fields !== undefined) items.push(fields);
    }
    const next = fieldsOf(page?.pagination)?.nextCursor;
    path = typeof next === 'string' && next !== '' ? `${first}&cursor=${encodeURIComponent(next)}` : undefined;
  }
  return items;
}
