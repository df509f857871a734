/**
 * What a plan does to people and to the app, asked of the API before anything is sent: for each
 * node it deletes and each mailing-list change, the API's own dry run (the contacts queued there,
 * the nodes removed); for each send-email node it changes in a workflow contacts move through, the
 * node's sends so far; for each email message it writes, Guardian's findings; for a transactional
 * email's draft (or its publish), the data variables added and removed and, with the app's source,
 * the calls that would start failing; for a campaign's schedule, the audience it goes to.
 *
 * It reads a plan's calls only (the units of a plan file), so every kind of plan has its impact:
 * `content push --plan` prints it and writes it into the plan file, `loopsctl apply` shows it
 * before it sends. The API's answers are kept as they came, in `answer`, `saved` and `campaign`.
 *
 * The calls it reads, by the names plans give them: a workflow's steps (`deleteWorkflowNode`,
 * `changeWorkflowMailingList`, `updateWorkflowNode`, `updateEmailMessage` by node key, with the
 * unit's `nodes`, `names`, `emails`, `workflowRevisionId` and `live`), a record's
 * `updateEmailMessage` (by `messageId`), `createTransactional`, `publishTransactional` and
 * `updateCampaign` with `scheduling` (a campaign's schedule is its update). Any other call has no
 * impact to show.
 */
import type { ApiClient } from '../../../api/client.js';
import { NotFoundError, RejectedError } from '../../../base/errors.js';
import { dataVariablesIn, guardianReportOf, type LmxKind } from '../../../lmx/index.js';
import type { EmailMetrics } from '../../../platform/email-metrics.js';
import { FALLBACK_FIELDS, type EmailMessage, type GuardianReport } from '../../../platform/email-messages/schemas.js';
import { dataVariableVerdict, leftOut } from '../../../platform/transactional/data-variables.js';
import { configurationWrite } from '../../../platform/configuration-writes.js';
import type { DeleteNodeAnswer, ExpectedRevision, MailingListAnswer } from '../../../platform/workflows/schemas.js';
import { getEmailMessage, guardianReport } from '../../email-messages/client.js';
import { getTransactional } from '../../transactional/client.js';
import * as workflowsApi from '../../workflows/client.js';
import { audienceOf, type AudienceImpact } from './audience.js';

/** One call of a plan, by its operation's name, with its arguments as the apply sends them. */
export type ImpactCall = { op: string } & Record<string, unknown>;

/** The calls of one record of a plan, with what the plan keeps beside them (a workflow's node ids, its revision). */
export type ImpactUnit = { record: string; kind: string; id?: string; calls: ImpactCall[] } & Record<string, unknown>;

/** Contacts a node delete or a mailing-list change removes from a workflow: the API's dry run, as it answered. */
export interface QueuedImpact {
  kind: 'queued-contacts';
  record: string;
  op: 'deleteWorkflowNode' | 'deleteWorkflowNodeRecursively' | 'changeWorkflowMailingList';
  /** The node deleted (its key in the tree), and the keys the delete removes with it. */
  node?: string;
  removes?: string[];
  mailingList?: string | null;
  answer?: DeleteNodeAnswer | MailingListAnswer;
  /** A node the plan itself creates: no one can be waiting there, and the API is not asked. */
  createdByPlan?: true;
  error?: string;
}

/** A send-email node changed (or deleted) in a workflow contacts move through: what it has sent so far. */
export interface SendsImpact {
  kind: 'sends';
  record: string;
  node: string;
  nodeId: string;
  change: 'updated' | 'email' | 'deleted';
  answer?: EmailMetrics;
  error?: string;
}

/**
 * Guardian's findings on an email message the plan writes. The API checks a saved message only
 * ("on a saved email message", its description): `saved` is its answer on what the account holds
 * now; `planned` is the same rule set (src/lmx/guardian.ts, the sandbox's Guardian) on what the
 * plan writes. An apply with the check on asks the API again after each write.
 */
export interface GuardianImpact {
  kind: 'guardian';
  record: string;
  /** The email: its message id, or a workflow email's file. */
  email: string;
  messageId?: string;
  saved?: GuardianReport;
  planned: GuardianReport;
  error?: string;
}

/** Where the app sends the transactional email, and what it would leave out once the plan is published. */
export interface CallSite {
  file: string;
  line: number;
  column: number;
  /** The variables the send gives, when its dataVariables is an object literal; undefined when the scanner cannot tell. */
  gives?: string[];
  /** The variables added without a fallback that the send leaves out: it fails unless the email marks them optional. */
  missing: string[];
  /** The variables it gives that the email would no longer use. */
  noLongerUsed: string[];
}

/** A transactional email's data variables, as published and as the plan would publish them. */
export interface DataVariablesImpact {
  kind: 'data-variables';
  record: string;
  transactionalId: string;
  /** Whether the plan publishes it; otherwise the change is its draft's, and takes effect when it is published. */
  publishes: boolean;
  /** The API's `dataVariables` of the published email. */
  published: string[];
  planned: string[];
  added: string[];
  removed: string[];
  /** Added ones with no fallback in the planned email: a send without them fails unless the email marks them optional. */
  withoutFallback: string[];
  /** With the app's source (--code): its sends of this email. */
  callSites?: CallSite[];
  error?: string;
}

export type ImpactRecord = QueuedImpact | SendsImpact | GuardianImpact | DataVariablesImpact | AudienceImpact;

export interface ImpactOptions {
  /** The app's source directories, scanned for its sends of the transactional emails the plan changes. */
  code?: readonly string[];
}

/** An answer the API refused to give (a node it would not delete, an email it does not have): said in the record, not fatal to the plan. */
async function asked<T>(question: () => Promise<T>): Promise<{ answer: T } | { error: string }> {
  try {
    return { answer: await question() };
  } catch (error) {
    if (error instanceof RejectedError || error instanceof NotFoundError) return { error: error.message };
    throw error;
  }
}

/** The impact of a plan's calls, record by record, in the plan's order. */
export async function impactOf(client: ApiClient, units: readonly ImpactUnit[], options: ImpactOptions = {}): Promise<ImpactRecord[]> {
  const scan = options.code === undefined || options.code.length === 0 ? undefined : (await import('../../../app-code/scan.js')).scanCode(options.code);
  const records: ImpactRecord[] = [];
  for (const unit of units) {
    if (unit.kind === 'workflows') records.push(...(await workflowImpact(client, unit)));
    else if (unit.calls.every((call) => call.op === 'request'))
      for (const call of unit.calls) records.push(...(await requestImpact(client, unit.record, call, scan?.uses)));
    else records.push(...(await recordImpact(client, unit, scan?.uses)));
  }
  return records;
}

/**
 * A write command's request call (`--plan --out` of `workflow nodes delete`, `workflow set-list`,
 * `campaigns update --schedule`, `transactional publish`): the same questions as a content push's,
 * addressed by the ids the request's path names.
 */
async function requestImpact(client: ApiClient, record: string, call: ImpactCall, uses: CodeUses | undefined): Promise<ImpactRecord[]> {
  const write = configurationWrite(call.method as string, call.path as string, call.body);
  if (write === undefined) return [];
  const body = (call.body ?? {}) as Record<string, unknown>;
  const { workflowId, nodeId, campaignId, transactionalId } = write.ids;
  const revision = body.expectedRevisionId as ExpectedRevision;
  switch (write.operation) {
    case 'deleteWorkflowNode':
    case 'deleteWorkflowNodeRecursively': {
      const recursive = write.operation === 'deleteWorkflowNodeRecursively';
      const dry = await asked(() => workflowsApi.deleteNode(client, workflowId!, nodeId!, revision, { dryRun: true, recursive }));
      return [{ kind: 'queued-contacts', record, op: write.operation, node: nodeId!, removes: [], ...dry }];
    }
    case 'changeWorkflowMailingList': {
      const listId = (body.mailingListId ?? null) as string | null;
      const dry = await asked(() => workflowsApi.changeMailingList(client, workflowId!, revision, listId, { dryRun: true }));
      return [{ kind: 'queued-contacts', record, op: 'changeWorkflowMailingList', mailingList: listId, ...dry }];
    }
    case 'updateCampaign':
      return body.scheduling === undefined ? [] : [await audienceOf(client, record, campaignId!, body)];
    case 'publishTransactionalEmail':
      return [await dataVariablesImpact(client, record, transactionalId!, undefined, true, uses)];
    default:
      return [];
  }
}

/** What the plan keeps of a workflow beside its edit script (plan-unit.ts). */
interface WorkflowUnit extends ImpactUnit {
  id: string;
  workflowRevisionId: string | null;
  live?: boolean;
  nodes: Record<string, string>;
  names: { lists: Record<string, string> };
  emails: Record<string, string>;
}

async function workflowImpact(client: ApiClient, unit: ImpactUnit): Promise<ImpactRecord[]> {
  const workflow = unit as WorkflowUnit;
  const records: ImpactRecord[] = [];
  // The dry runs ask about the workflow as the account holds it: each at the revision the plan was made against.
  const revision = workflow.workflowRevisionId;
  for (const call of workflow.calls) {
    if (call.op === 'deleteWorkflowNode') {
      const key = call.key as string;
      const recursive = call.recursive === true;
      const base = {
        kind: 'queued-contacts' as const,
        record: unit.record,
        op: recursive ? ('deleteWorkflowNodeRecursively' as const) : ('deleteWorkflowNode' as const),
        node: key,
        removes: call.removes as string[],
      };
      const nodeId = workflow.nodes[key];
      if (nodeId === undefined) {
        records.push({ ...base, createdByPlan: true });
        continue;
      }
      const dry = await asked(() => workflowsApi.deleteNode(client, workflow.id, nodeId, revision, { dryRun: true, recursive }));
      records.push({ ...base, ...dry });
    } else if (call.op === 'changeWorkflowMailingList') {
      const name = call.mailingList as string | null;
      const listId = name === null ? null : (workflow.names.lists[name] ?? name);
      const dry = await asked(() => workflowsApi.changeMailingList(client, workflow.id, revision, listId, { dryRun: true }));
      records.push({ kind: 'queued-contacts', record: unit.record, op: 'changeWorkflowMailingList', mailingList: name, ...dry });
    }
  }
  if (workflow.live === true) records.push(...(await sendsImpact(client, workflow)));
  records.push(...(await workflowEmailsImpact(client, workflow)));
  return records;
}

/** The send-email nodes a plan changes in a workflow contacts move through, each with its sends so far (node metrics). */
async function sendsImpact(client: ApiClient, workflow: WorkflowUnit): Promise<SendsImpact[]> {
  const changed = new Map<string, SendsImpact['change']>();
  for (const call of workflow.calls) {
    if (call.op === 'updateWorkflowNode') changed.set(call.key as string, changed.get(call.key as string) ?? 'updated');
    else if (call.op === 'updateEmailMessage') changed.set(call.key as string, 'email');
    else if (call.op === 'deleteWorkflowNode') for (const key of call.removes as string[]) changed.set(key, 'deleted');
  }
  const ids = [...changed.keys()].filter((key) => workflow.nodes[key] !== undefined);
  if (ids.length === 0) return [];
  const graph = await workflowsApi.getWorkflow(client, workflow.id);
  const records: SendsImpact[] = [];
  for (const key of ids) {
    const nodeId = workflow.nodes[key]!;
    if (graph.nodes[nodeId]?.typeName !== 'SendEmailAction') continue;
    const metrics = await asked(() => workflowsApi.nodeMetrics(client, workflow.id, nodeId));
    records.push({ kind: 'sends', record: workflow.record, node: key, nodeId, change: changed.get(key)!, ...metrics });
  }
  return records;
}

/** The fallbacks an email's fields file sets, by the namespace Guardian reads them under. */
function fallbacksOf(fields: Partial<Record<string, unknown>>): Partial<Record<'contact' | 'event' | 'data', Record<string, string>>> {
  return Object.fromEntries(
    Object.entries(FALLBACK_FIELDS).map(([namespace, field]) => [namespace, (fields[field] as Record<string, string> | undefined) ?? {}]),
  );
}

function parsedFields(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '{}');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Guardian on each workflow email the plan writes: the API's answer on the saved message, the rules on the file's. */
async function workflowEmailsImpact(client: ApiClient, workflow: WorkflowUnit): Promise<GuardianImpact[]> {
  const records: GuardianImpact[] = [];
  for (const call of workflow.calls) {
    if (call.op !== 'updateEmailMessage') continue;
    const file = call.email as string;
    const lmx = workflow.emails[file.replace(/email\.json$/, 'email.lmx')] ?? '';
    const planned = guardianReportOf(lmx, 'workflow', fallbacksOf(parsedFields(workflow.emails[file])));
    const nodeId = workflow.nodes[call.key as string];
    if (nodeId === undefined) {
      records.push({ kind: 'guardian', record: workflow.record, email: file, planned });
      continue;
    }
    const saved = await asked(async () => {
      const node = await workflowsApi.getWorkflowNode(client, workflow.id, nodeId);
      const messageId = node.emailMessageId as string;
      return { messageId, report: await guardianReport(client, messageId) };
    });
    records.push(
      'error' in saved
        ? { kind: 'guardian', record: workflow.record, email: file, planned, error: saved.error }
        : { kind: 'guardian', record: workflow.record, email: file, messageId: saved.answer.messageId, saved: saved.answer.report, planned },
    );
  }
  return records;
}

/** The kind of email each record's messages are, as Guardian reads them. */
const EMAIL_KIND: Partial<Record<string, LmxKind>> = { transactional: 'transactional', campaigns: 'campaign' };

/** An email message as a plan leaves it: its LMX and fallbacks after the update (fallbacks merge per key; null removes one). */
function afterUpdate(current: EmailMessage, body: Record<string, unknown>): { lmx: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  for (const field of Object.values(FALLBACK_FIELDS)) {
    const merged: Record<string, string> = { ...(current[field] ?? {}) };
    for (const [name, value] of Object.entries((body[field] as Record<string, string | null> | undefined) ?? {})) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    fields[field] = merged;
  }
  return { lmx: typeof body.lmx === 'string' ? body.lmx : current.lmx, fields };
}

/** A content record's calls: its email message's Guardian findings, its data variables, a campaign's audience. */
async function recordImpact(client: ApiClient, unit: ImpactUnit, uses: CodeUses | undefined): Promise<ImpactRecord[]> {
  const records: ImpactRecord[] = [];
  const kind = EMAIL_KIND[unit.kind];
  let draft: { messageId: string; lmx: string; fields: Record<string, unknown> } | undefined;
  for (const call of unit.calls) {
    if (call.op === 'updateEmailMessage' && kind !== undefined) {
      const messageId = call.messageId as string;
      const found = await asked(async () => {
        const current = await getEmailMessage(client, messageId);
        return { current, report: await guardianReport(client, messageId) };
      });
      if ('error' in found) {
        records.push({ kind: 'guardian', record: unit.record, email: messageId, messageId, planned: { errors: [], warnings: [] }, error: found.error });
        continue;
      }
      const after = afterUpdate(found.answer.current, call.body as Record<string, unknown>);
      const planned = guardianReportOf(after.lmx, kind, fallbacksOf(after.fields));
      records.push({ kind: 'guardian', record: unit.record, email: messageId, messageId, saved: found.answer.report, planned });
      draft = { messageId, ...after };
    } else if (call.op === 'createTransactional' && call.draft !== undefined) {
      const written = call.draft as { fields: Record<string, unknown>; lmx: string };
      records.push({
        kind: 'guardian',
        record: unit.record,
        email: unit.record,
        planned: guardianReportOf(written.lmx, 'transactional', fallbacksOf(written.fields)),
      });
    } else if (call.op === 'updateCampaign' && (call.body as Record<string, unknown> | undefined)?.scheduling !== undefined) {
      records.push(await audienceOf(client, unit.record, call.id as string, call.body as Record<string, unknown>));
    }
  }
  const publishes = unit.calls.some((call) => call.op === 'publishTransactional');
  if (unit.kind === 'transactional' && unit.id !== undefined && (draft !== undefined || publishes))
    records.push(await dataVariablesImpact(client, unit.record, unit.id, draft, publishes, uses));
  return records;
}

type CodeUses = Awaited<ReturnType<typeof import('../../../app-code/scan.js').scanCode>>['uses'];

/**
 * A transactional email's data variables once its draft is published, against what is published
 * now (the record's `dataVariables`): added, removed, and the app's sends that leave out an added
 * one without a fallback, which the API refuses ("Missing required data variable(s)") unless the
 * email marks it optional, which the API does not say.
 */
async function dataVariablesImpact(
  client: ApiClient,
  record: string,
  transactionalId: string,
  written: { messageId: string; lmx: string; fields: Record<string, unknown> } | undefined,
  publishes: boolean,
  uses: CodeUses | undefined,
): Promise<DataVariablesImpact> {
  const base = { kind: 'data-variables' as const, record, transactionalId, publishes };
  const found = await asked(() => getTransactional(client, transactionalId));
  if ('error' in found) return { ...base, published: [], planned: [], added: [], removed: [], withoutFallback: [], error: found.error };
  const transactional = found.answer;
  // Only the draft becomes what is published; a plan that only publishes publishes the draft as the account holds it.
  let draft = written?.messageId === transactional.draftEmailMessageId ? written : undefined;
  if (draft === undefined && transactional.draftEmailMessageId !== null) {
    const current = await getEmailMessage(client, transactional.draftEmailMessageId);
    draft = { messageId: current.id, ...afterUpdate(current, {}) };
  }
  const published = transactional.publishedEmailMessageId === null ? [] : transactional.dataVariables;
  const planned = draft === undefined ? published : dataVariablesIn(draft.lmx);
  const added = planned.filter((name) => !published.includes(name));
  const removed = published.filter((name) => !planned.includes(name));
  const fallbacks = (draft?.fields.dataVariablesFallbacks ?? {}) as Record<string, string>;
  const { unstated: withoutFallback } = dataVariableVerdict(added, { fallbacks });
  const impact: DataVariablesImpact = { ...base, published, planned, added, removed, withoutFallback };
  if (uses === undefined) return impact;
  impact.callSites = uses
    .filter((use) => use.kind === 'transactional' && use.value === transactionalId)
    .map((use) => {
      const given = Object.fromEntries((use.dataVariables ?? []).map((name) => [name, true]));
      return {
        file: use.file,
        line: use.line,
        column: use.column,
        ...(use.dataVariables === undefined ? {} : { gives: use.dataVariables }),
        missing: use.dataVariables === undefined ? [] : leftOut({ required: [], optional: [], unstated: withoutFallback }, given).unstated,
        noLongerUsed: (use.dataVariables ?? []).filter((name) => removed.includes(name)),
      };
    });
  return impact;
}
