/**
 * What the `workflow` commands do. Every change is made against a revision of the workflow: the
 * one given with --expected-revision-id, else the one just read, so a concurrent edit is caught by
 * the API's 409 either way. In text mode a change prints the graph after it, the nodes it touched
 * marked; with --json it prints the API's answer as it came.
 */
import type { ApiClient } from '../../api/client.js';
import { ExitCode, NotFoundError, RejectedError, ServerError, UsageError, withDetails } from '../../base/errors.js';
import { settleLimit } from '../../api/concurrency.js';
import { DEFAULT_REQUESTS_PER_SECOND } from '../../api/pacer.js';
import { checkId } from '../../api/ids.js';
import { openWeb } from '../../core/browser.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { confirm } from '../../core/prompt.js';
import { parseAssignments, readJsonObject } from '../../core/typed-values.js';
import { describeEngagement, fetchEach, renderEmailMetrics, writeMetricsJson, type EachItem } from '../email-metrics.js';
import type { EmailMetrics } from '../../platform/email-metrics.js';
import { explained, explainError, type Explanation } from '../explain.js';
import { withArticle } from '../../platform/words.js';
import { formatCount } from '../../render/numbers.js';
import { ProgressLine } from '../../render/progress.js';
import * as api from './client.js';
import { renderWorkflowDot } from './dot.js';
import type { GRAPH_FORMATS } from './graph-formats.js';
import type { NodeNotes } from './graph.js';
import { renderWorkflowMermaid } from './mermaid.js';
import type { CreatableNodeType } from '../../platform/workflows/node-type-names.js';
import { describeNode, updatableFields, updatePayloadProblems } from '../../platform/workflows/node-types.js';
import { graphChanges, renderChangedWorkflow, renderWorkflow, renderWorkflowNode, workflowListView, type GraphChanges } from './render.js';
import type { DeleteNodeAnswer, ExpectedRevision, InsertPosition, MailingListAnswer, Workflow } from '../../platform/workflows/schemas.js';
import { sanitize } from '../../base/sanitize.js';

export const list = listHandler(api.workflows, workflowListView);

type ShowOptions = { node?: string; format: (typeof GRAPH_FORMATS)[number]; metrics?: boolean; details?: boolean; web?: boolean };

export const show: Handler<[string], ShowOptions> = async (context, [id], options) => {
  checkId(id, 'workflow id');
  if (options.node !== undefined) checkId(options.node, 'node id');
  const { out } = context;
  if (options.node !== undefined) return showNode(context, id, options.node);
  const client = await context.client();
  const workflow = await api.getWorkflow(client, id);
  if (options.web) return openWeb(context, workflow.url, `workflow ${id}`);
  if (out.json) return out.writeJson(workflow);
  const [conditions, annotations] = await Promise.all([
    withConditions(context, client, workflow, options.details === true),
    options.metrics ? engagementByNode(context, client, workflow) : undefined,
  ]);
  const notes = conditionNotes(conditions.unread, annotations?.notes);
  const drawn = conditions.workflow;
  if (options.format === 'mermaid') await out.write(renderWorkflowMermaid(drawn, notes));
  else if (options.format === 'dot') await out.write(renderWorkflowDot(drawn, notes));
  else await out.write(renderWorkflow(out, drawn, notes));
  noteUnread(context, conditions.unread, 'Add --details to read them all, or --node <id> for one.');
  return annotations?.code;
};

/** The note beside each node whose condition was not read, else its annotation (metrics). */
function conditionNotes(unreadIds: string[], annotations?: NodeNotes): NodeNotes {
  const unread = new Set(unreadIds);
  // Each note made as its node is drawn: a graph too large to read holds tens of thousands of unread conditions.
  return { get: (nodeId) => (unread.has(nodeId) ? `condition: see --node ${nodeId}` : annotations?.get(nodeId)) };
}

/** Says, after a drawing, that the conditions of some nodes were not read, and how to read them. */
function noteUnread(context: CommandContext, unread: string[], how: string): void {
  if (unread.length === 0) return;
  const count = unread.length;
  context.out.note(
    `The conditions of ${formatCount(count)} filter and branch nodes were not read: that takes one request each, about ${formatCount(Math.ceil(count / DEFAULT_REQUESTS_PER_SECOND))} s at the API's pace. ${how}`,
  );
}

/** Node types whose condition (a branch's way of choosing, a filter) the workflow's own view leaves out, read node by node for the drawings. */
const CONDITION_TYPES = new Set(['AudienceFilter', 'BranchNode']);

/**
 * How many such nodes a drawing reads without --details: a graph of any size costs at most one
 * request for the workflow and this many for its conditions. A larger graph is drawn from the
 * workflow's own view, its conditions named as not read.
 */
const CONDITIONS_READ_BY_DEFAULT = 20;

/**
 * The workflow with each audience filter's condition (segment, filter) from the node's full view,
 * so the drawings can say it in words, and the nodes whose condition was not read. A node that
 * cannot be read is drawn as the workflow has it.
 */
async function withConditions(context: CommandContext, client: ApiClient, workflow: Workflow, all: boolean): Promise<{ workflow: Workflow; unread: string[] }> {
  const ids = Object.keys(workflow.nodes).filter((nodeId) => CONDITION_TYPES.has(workflow.nodes[nodeId]!.typeName));
  if (ids.length === 0) return { workflow, unread: [] };
  if (!all && ids.length > CONDITIONS_READ_BY_DEFAULT) return { workflow, unread: ids };
  const progress = new ProgressLine(() => context.runtime.stderr, context.runtime.paged);
  const seconds = formatCount(Math.ceil(ids.length / DEFAULT_REQUESTS_PER_SECOND));
  let done = 0;
  const outcomes = await settleLimit(ids, 4, async (nodeId) => {
    try {
      return await api.getWorkflowNode(client, workflow.id, nodeId);
    } finally {
      done += 1;
      if (ids.length > 1) progress.show(`read the conditions of ${formatCount(done)} of ${formatCount(ids.length)} nodes (about ${seconds} s in all)`);
    }
  }).finally(() => progress.clear());
  const nodes = { ...workflow.nodes };
  for (const outcome of outcomes) {
    if (!outcome.ok) continue;
    const { id: _id, workflowId: _workflow, workflowRevisionId: _revision, ...full } = outcome.value;
    nodes[outcome.item] = { ...full, ...nodes[outcome.item]! };
  }
  return { workflow: { ...workflow, nodes }, unread: [] };
}

/** Each send-email node's sends, open and click rates, in words by node id, and the exit code of the nodes that failed. */
async function engagementByNode(context: CommandContext, client: ApiClient, workflow: Workflow): Promise<{ notes: Map<string, string>; code: number }> {
  const { found, code } = await fetchEach(context, nodeMetricsRun(client, workflow, sendEmailNodes(workflow)), {});
  return { notes: new Map(found.map(({ item, value }) => [item, describeEngagement(value)])), code };
}

const NODE_HINT = (workflowId: string): Explanation => ({
  statuses: { 404: { message: (said) => said, hint: `see the workflow's nodes with \`loopsctl workflow show ${workflowId}\`` } },
});

async function showNode(context: CommandContext, id: string, nodeId: string): Promise<void> {
  const node = await api.getWorkflowNode(await context.client(), id, nodeId).catch((error: unknown) => {
    // A node that is not there: its workflow's tree names the ones that are (a missing workflow keeps the usual hint).
    throw error instanceof NotFoundError && /node/i.test(error.message) ? explainError(error, NODE_HINT(id)) : error;
  });
  await context.out.present(node, renderWorkflowNode);
}

export const nodeGet: Handler<[string, string]> = async (context, [id, nodeId]) => {
  checkId(id, 'workflow id');
  checkId(nodeId, 'node id');
  await showNode(context, id, nodeId);
};

export const create: Handler<[], { name: string; description?: string; list?: string }> = async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.list !== undefined) checkId(options.list, 'mailing list id');
  const body = {
    name: options.name,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.list === undefined ? {} : { mailingListId: options.list }),
  };
  const created = await api.createWorkflow(await context.client(), body);
  await presentChange(context, created, {
    summary: `Created workflow ${created.id}.`,
    workflow: created,
    changes: graphChanges(undefined, created),
    revision: created.workflowRevisionId,
  });
};

interface RevisionOption {
  expectedRevisionId?: string;
}

/** What a change starts from: a client, the graph as it was (for the marks), and the revision to send. */
interface Edit {
  context: CommandContext;
  client: ApiClient;
  workflowId: string;
  before?: Workflow;
  revision: ExpectedRevision;
}

/** Reads the workflow when the revision is not given (and in text mode, to mark what changes). */
async function startEdit(context: CommandContext, workflowId: string, options: RevisionOption): Promise<Edit> {
  checkId(workflowId, 'workflow id');
  const client = await context.client();
  const given = options.expectedRevisionId;
  const before = given === undefined || !context.out.json ? await api.getWorkflow(client, workflowId) : undefined;
  if (given !== undefined) return { context, client, workflowId, before, revision: given === 'null' ? null : given };
  return { context, client, workflowId, before, revision: before!.workflowRevisionId ?? null };
}

/**
 * The API's words for a request's fields, in loopsctl's own flags, so a refusal tells the person
 * what to type: `insertMode "after"` is --after, `toNodeId` the node --between leads to.
 */
const API_WORDING: [RegExp, string][] = [
  [/insertMode "(after|before|between)"/g, '--$1'],
  [/use "between"/g, 'use --between'],
  [/with the exact toNodeId/g, 'naming both nodes'],
  [/as fromNodeId/g, 'as its first node'],
  [/\bfromNodeId\b/g, 'the node before it (<fromId>)'],
  [/\btoNodeId\b/g, 'the node after it (<toId>)'],
  [/\bnewTargetNodeId\b/g, '--to'],
  [/\bnodeTypeName\b/g, '--type'],
  [/\bqueuedContactPolicy\b/g, '--queued-contacts'],
  [/\bexpectedRevisionId\b/g, '--expected-revision-id'],
];

export function inLoopsctlWords(message: string): string {
  return API_WORDING.reduce((text, [pattern, words]) => text.replace(pattern, words), message);
}

/**
 * Sends a change, explaining the answers a person needs more from: a 409 (the workflow changed
 * since the revision) and a 501 (the API does not do this change yet), both exit 5, and a 400 in
 * the command's own words. With --debug, says first which revision the change is made against
 * (never before a refusal made locally, since nothing is sent then).
 */
async function send<T>(edit: Edit, change: () => Promise<T>, notImplemented = 'this change'): Promise<T> {
  const { context } = edit;
  if (context.globals.debug) {
    context.runtime.stderr.write(
      `Changing workflow ${edit.workflowId} at revision ${edit.revision ?? 'null (it has none yet)'}; a change made since is refused.\n`,
    );
  }
  try {
    return await change();
  } catch (error) {
    if (error instanceof RejectedError && error.status === 400) {
      const translated = inLoopsctlWords(error.message);
      if (translated !== error.message) throw withDetails(error, { message: translated });
    }
    // The workflow was read at the start: what the API did not find is a node of it.
    if (error instanceof NotFoundError && error.hint === undefined)
      throw withDetails(error, { hint: `see the workflow's nodes and their ids with \`loopsctl workflow show ${edit.workflowId}\`` });
    if (error instanceof RejectedError && error.status === 409) {
      throw new RejectedError(
        `workflow ${edit.workflowId} has changed since revision ${edit.revision ?? 'null'}, so nothing was changed (the API said: ${error.message})`,
        {
          status: 409,
          code: error.code,
          hint: `see the new state with \`loopsctl workflow show ${edit.workflowId}\`, then run the command again`,
        },
      );
    }
    if (error instanceof ServerError && error.status === 501) {
      throw new RejectedError(`the workflow API does not support ${notImplemented} yet; nothing was changed (the API said: ${error.message})`, {
        status: 501,
        code: 'not_implemented',
        hint: 'the workflow API is in alpha: this may become possible later; the Loops app can make the change meanwhile',
      });
    }
    throw error;
  }
}

interface ChangeView {
  summary: string;
  workflow: Workflow;
  changes: GraphChanges;
  revision?: string | null;
  /** Said after the drawing: a dry run's impact, or why nothing was changed. */
  outcome?: string;
}

/**
 * A change's summary, the graph after it drawn as `show` draws it (the conditions of its filter and
 * branch nodes read the same way, or named as not read), its outcome and the new revision.
 */
async function presentChange(context: CommandContext, answer: unknown, view: ChangeView): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  const conditions = await withConditions(context, await context.client(), view.workflow, false);
  const notes = conditionNotes(conditions.unread);
  const lines = [view.summary, '', renderChangedWorkflow(out, conditions.workflow, view.changes, notes).trimEnd()];
  if (view.outcome !== undefined) lines.push('', view.outcome);
  if (view.revision !== undefined) lines.push('', `revision ${view.revision ?? 'null'}`);
  await out.writeProse(lines.join('\n'));
  noteUnread(context, conditions.unread, `\`loopsctl workflow show ${view.workflow.id} --details\` reads them all.`);
}

export const update: Handler<[string], RevisionOption & { name?: string; description?: string }> = async (context, [id], options) => {
  const fields = {
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.description === undefined ? {} : { description: options.description }),
  };
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  const edit = await startEdit(context, id, options);
  const after = await send(edit, () => api.updateWorkflow(edit.client, id, edit.revision, fields));
  await presentChange(context, after, {
    summary: `Updated workflow ${id}.`,
    workflow: after,
    changes: graphChanges(edit.before, after),
    revision: after.workflowRevisionId,
  });
};

type PolicyOptions = { dryRun?: boolean; queuedContacts?: 'fail' | 'discard'; yes?: boolean };

function destructiveBody(options: PolicyOptions) {
  return { ...(options.dryRun ? { dryRun: true } : {}), ...(options.queuedContacts === undefined ? {} : { queuedContactPolicy: options.queuedContacts }) };
}

function contacts(count: number): string {
  return `${count} queued contact${count === 1 ? '' : 's'}`;
}

/** What a dry run or a held-back change says, and its exit code: 5 when queued contacts held it back. */
function previewOutcome(status: string, impact: string, count: number): { outcome: string; code?: number } {
  if (status === 'dryRun') return { outcome: `Dry run: ${impact}; ${contacts(count)} would be discarded. Nothing was changed.` };
  return {
    outcome: `Not done: ${impact}, and ${contacts(count)} would be discarded. Nothing was changed.\nTo go ahead and discard them, run it again with --queued-contacts discard.`,
    code: ExitCode.rejected,
  };
}

/** A 400 that names the mailing list: the list, not the workflow, is what to look up. */
function listRefused(apiMessage: string): string | undefined {
  return /\bmailing list\b/i.test(apiMessage) ? 'see the mailing lists and their ids with `loopsctl lists list`' : undefined;
}

export const setList: Handler<[string, string], RevisionOption & PolicyOptions> = async (context, [id, list], options) => {
  const mailingListId = list === 'none' ? null : list;
  if (mailingListId !== null) checkId(mailingListId, 'mailing list id');
  checkId(id, 'workflow id');
  if (options.queuedContacts === 'discard' && !options.dryRun) {
    await confirm(context.runtime, `Change the mailing list of workflow ${id} and discard the contacts queued in it that the new list excludes?`, options.yes);
  }
  const edit = await startEdit(context, id, options);
  const answer: MailingListAnswer = await send(edit, () =>
    explained(api.changeMailingList(edit.client, id, edit.revision, mailingListId, destructiveBody(options)), { statuses: { 400: listRefused } }),
  );
  const target = mailingListId ?? 'none';
  if (answer.status === 'updated' && 'workflow' in answer) {
    const workflow = answer.workflow;
    const outcome = answer.queuedContactCount > 0 ? `${contacts(answer.queuedContactCount)} were discarded.` : undefined;
    return presentChange(context, answer, {
      summary: `Set the mailing list of workflow ${id} to ${target}.`,
      workflow,
      changes: graphChanges(edit.before, workflow),
      revision: answer.workflowRevisionId,
      outcome,
    });
  }
  const { outcome, code } = previewOutcome(answer.status, `the mailing list of workflow ${id} would change to ${target}`, answer.queuedContactCount);
  if (context.out.json) await context.out.writeJson(answer);
  else await context.out.writeProse(outcome);
  return code;
};

export const nodeAdd: Handler<[string], RevisionOption & { type: CreatableNodeType; after?: string; before?: string; between?: string[] }> = async (
  context,
  [id],
  options,
) => {
  const position = insertPosition(options);
  const edit = await startEdit(context, id, options);
  const answer = await send(edit, () => api.createNode(edit.client, id, edit.revision, options.type, position));
  const where =
    position.insertMode === 'between'
      ? `between ${position.fromNodeId} and ${position.toNodeId}`
      : position.insertMode === 'after'
        ? `after ${position.fromNodeId}`
        : `before ${position.toNodeId}`;
  await presentChange(context, answer, {
    summary: `Added ${options.type} ${answer.node.id} ${where}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow),
    revision: answer.node.workflowRevisionId,
  });
};

function insertPosition(options: { after?: string; before?: string; between?: string[] }): InsertPosition {
  if (options.after !== undefined) return { insertMode: 'after', fromNodeId: checkId(options.after, 'node id') };
  if (options.before !== undefined) return { insertMode: 'before', toNodeId: checkId(options.before, 'node id') };
  const between = options.between!;
  if (between.length !== 2) throw new UsageError(`--between takes two node ids, <fromId> <toId>, not ${between.length}`);
  return { insertMode: 'between', fromNodeId: checkId(between[0]!, 'node id'), toNodeId: checkId(between[1]!, 'node id') };
}

async function readPayload(context: CommandContext, options: { set?: string[]; payloadFile?: string }): Promise<Record<string, unknown>> {
  if (options.set !== undefined) return parseAssignments('--set', options.set, 'json');
  return readJsonObject(context.runtime, options.payloadFile!, '--payload-file', 'json');
}

export const nodeUpdate: Handler<[string, string], RevisionOption & { set?: string[]; payloadFile?: string }> = async (context, [id, nodeId], options) => {
  checkId(nodeId, 'node id');
  const payload = await readPayload(context, options);
  const edit = await startEdit(context, id, options);
  const typeName = edit.before !== undefined ? typeInGraph(edit.before, nodeId) : (await api.getWorkflowNode(edit.client, id, nodeId)).typeName;
  const problems = updatePayloadProblems(typeName, payload);
  if (problems.length > 0) {
    const fields = updatableFields(typeof payload.typeName === 'string' ? payload.typeName : typeName);
    throw new UsageError(`cannot update ${typeName} ${nodeId}: ${problems.join('; ')}`, {
      hint: fields === undefined ? undefined : `${withArticle(typeName)} node takes: ${fields.join(', ') || 'typeName only'}`,
    });
  }
  const answer = await send(edit, () => api.updateNode(edit.client, id, nodeId, edit.revision, payload), `updating ${withArticle(typeName)} node`);
  await presentChange(context, answer, {
    summary: `Updated ${answer.typeName} ${nodeId}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow, [nodeId]),
    revision: answer.workflowRevisionId,
  });
};

function typeInGraph(workflow: Workflow, nodeId: string): string {
  if (!Object.hasOwn(workflow.nodes, nodeId))
    throw new NotFoundError(`node ${nodeId} not found in workflow ${workflow.id}`, { hint: `see its nodes with \`loopsctl workflow show ${workflow.id}\`` });
  return workflow.nodes[nodeId]!.typeName;
}

export const nodeReroute: Handler<[string, string], RevisionOption & { to: string }> = async (context, [id, nodeId], options) => {
  checkId(nodeId, 'node id');
  checkId(options.to, 'target node id');
  const edit = await startEdit(context, id, options);
  const answer = await send(edit, () => api.rerouteNode(edit.client, id, nodeId, edit.revision, options.to));
  await presentChange(context, answer, {
    summary: `Rerouted ${nodeId} to ${options.to}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow, [nodeId]),
    revision: answer.workflowRevisionId,
  });
};

export const nodeAddBranch: Handler<[string, string], RevisionOption> = async (context, [id, nodeId], options) => {
  checkId(nodeId, 'node id');
  const edit = await startEdit(context, id, options);
  const answer = await send(edit, () => api.addBranch(edit.client, id, nodeId, edit.revision));
  await presentChange(context, answer, {
    summary: `Added a branch to ${nodeId}: ${answer.node.typeName} ${answer.node.id}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow),
    revision: answer.node.workflowRevisionId,
  });
};

export const nodeDelete: Handler<[string, string], RevisionOption & PolicyOptions & { recursive?: boolean }> = async (context, [id, nodeId], options) => {
  checkId(id, 'workflow id');
  checkId(nodeId, 'node id');
  const what = options.recursive ? `node ${nodeId} and every node only it leads to` : `node ${nodeId}`;
  if (!options.dryRun) await confirm(context.runtime, `Delete ${what} from workflow ${id}?`, options.yes);
  const edit = await startEdit(context, id, options);
  const answer: DeleteNodeAnswer = await send(edit, () =>
    api.deleteNode(edit.client, id, nodeId, edit.revision, { ...destructiveBody(options), recursive: options.recursive }),
  );
  const count = answer.nodeIds.length;
  const nodes = `${count} node${count === 1 ? '' : 's'}`;
  if (answer.status === 'deleted' && 'workflow' in answer) {
    const outcome = answer.queuedContactCount > 0 ? `${contacts(answer.queuedContactCount)} were discarded.` : undefined;
    return presentChange(context, answer, {
      summary: `Deleted ${nodes}.`,
      workflow: answer.workflow,
      changes: graphChanges(edit.before, answer.workflow),
      revision: answer.workflowRevisionId,
      outcome,
    });
  }
  const { outcome, code } = previewOutcome(answer.status, `deleting ${what} would remove ${nodes}`, answer.queuedContactCount);
  if (edit.before === undefined) {
    await context.out.writeJson(answer);
    return code;
  }
  // Nothing changed: the graph as it is, with the nodes that would go marked.
  const marks = new Map(answer.nodeIds.map((removed) => [removed, 'removed' as const]));
  await presentChange(context, answer, {
    summary: answer.status === 'dryRun' ? `Would delete ${nodes}.` : `Did not delete ${nodes}.`,
    workflow: edit.before,
    changes: { marks, removed: [] },
    outcome,
  });
  return code;
};

/** The send-email nodes of a workflow in the order the tree draws them: from the trigger, then those it does not reach. */
export function sendEmailNodes(workflow: Pick<Workflow, 'rootNodeId' | 'nodes'>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (seen.has(id) || !Object.hasOwn(workflow.nodes, id)) continue;
      seen.add(id);
      order.push(id);
      stack.push(...[...workflow.nodes[id]!.nextNodeIds].reverse());
    }
  };
  if (workflow.rootNodeId !== null) visit(workflow.rootNodeId);
  for (const id of Object.keys(workflow.nodes)) visit(id);
  return order.filter((id) => workflow.nodes[id]!.typeName === 'SendEmailAction');
}

/** Fetching the metrics of a workflow's nodes; a node that sends no email is said in words, not failed. */
function nodeMetricsRun(client: ApiClient, workflow: Workflow, nodeIds: string[]): EachItem<EmailMetrics> {
  const hints: Explanation = { metricsApi: true, statuses: { 404: `see the workflow's nodes with \`loopsctl workflow show ${workflow.id}\`` } };
  return {
    items: nodeIds,
    noun: 'send-email nodes',
    fetch: (nodeId) => explained(api.nodeMetrics(client, workflow.id, nodeId), hints),
    noMetrics: async (nodeId, error) => (error instanceof RejectedError && error.status === 400 ? whyNoMetrics(workflow, nodeId) : undefined),
    about: (nodeId) => ({ workflowId: workflow.id, nodeId }),
  };
}

/** Why the API has no metrics for a node, read from the graph; undefined when it should have some. */
function whyNoMetrics(workflow: Workflow, nodeId: string): string | undefined {
  if (!Object.hasOwn(workflow.nodes, nodeId)) return undefined;
  const node = workflow.nodes[nodeId]!;
  if (node.typeName !== 'SendEmailAction') {
    const description = describeNode(node);
    return `${withArticle(node.typeName)} node${description ? ` (${description})` : ''} sends no email, so it has no metrics; only send-email nodes do`;
  }
  if (typeof node.emailMessageId !== 'string' || node.emailMessageId === '') return 'this send-email node has no email message yet, so it has no metrics';
  return undefined;
}

export const nodeMetrics: Handler<[string, string[]], { jsonl?: boolean }> = async (context, [id, given], options) => {
  checkId(id, 'workflow id');
  given.forEach((nodeId) => checkId(nodeId, 'node id'));
  const { out } = context;
  const client = await context.client();
  const workflow = await api.getWorkflow(client, id);
  const nodeIds = given.length > 0 ? given : sendEmailNodes(workflow);
  const jsonl = options.jsonl === true;
  if (nodeIds.length === 0) {
    context.runtime.stderr.write(`workflow ${id} has no send-email nodes, so it has no email metrics\n`);
    if (out.json || jsonl) await writeMetricsJson(out, [], jsonl);
    return;
  }
  const { found, code } = await fetchEach(context, nodeMetricsRun(client, workflow, nodeIds), options);
  if (out.json || jsonl) {
    if (found.length > 0 || code === 0)
      await writeMetricsJson(
        out,
        found.map(({ item, value }) => ({ workflowId: id, nodeId: item, ...value })),
        jsonl,
      );
  } else if (found.length > 0) {
    const subject = (nodeId: string) => {
      const value = Object.hasOwn(workflow.nodes, nodeId) ? workflow.nodes[nodeId]!.subject : undefined;
      return typeof value === 'string' && value !== '' ? value : '-';
    };
    await out.write(
      renderEmailMetrics(
        out,
        found.map(({ item, value }) => ({ id: item, name: subject(item), metrics: value })),
        { id: 'NODE', name: 'SUBJECT' },
      ),
    );
  }
  return code;
};

type DeleteOptions = { expectedRevisionId?: string; force?: boolean; yes?: boolean; confirmDelete?: boolean; dryRun?: boolean };

/** What the API's 409 says a delete would stop, when it asks for confirmation (else undefined: a stale revision). */
interface Impact {
  sending: boolean;
  queued?: number;
  /** The API's words, for wording loopsctl does not know. */
  said: string;
}

function confirmationAsked(error: unknown): Impact | undefined {
  if (!(error instanceof RejectedError) || error.status !== 409 || !/confirmDelete|confirm deletion/i.test(error.message)) return undefined;
  const queued = /(\d[\d,]*) queued contacts?/i.exec(error.message);
  return { sending: /currently sending/i.test(error.message), queued: queued ? Number(queued[1]!.replace(/,/g, '')) : undefined, said: error.message };
}

/** "is sending and has 3 queued contacts", and what deleting it stops: "stop sending it and cancel those 3 contacts". */
function impactWords(impact: Impact): { state: string; stops: string } {
  const contacts = impact.queued === undefined ? undefined : `${impact.queued} queued contact${impact.queued === 1 ? '' : 's'}`;
  const state = [impact.sending && 'is sending', contacts && `has ${contacts}`].filter(Boolean).join(' and ');
  const stops = [impact.sending && 'stop sending it', contacts && `cancel ${impact.queued === 1 ? 'that contact' : `those ${impact.queued} contacts`}`]
    .filter(Boolean)
    .join(' and ');
  if (state === '') return { state: `cannot be deleted without confirming (the API said: ${impact.said})`, stops: 'stop what it is doing' };
  return { state, stops };
}

/** " Sending stopped; 3 queued contacts cancelled." */
function afterDelete(impact: Impact): string {
  const queued = impact.queued === undefined ? undefined : `${impact.queued} queued contact${impact.queued === 1 ? '' : 's'} cancelled`;
  const parts = [impact.sending ? 'sending stopped' : undefined, queued].filter((part): part is string => part !== undefined);
  if (parts.length === 0) return '';
  const sentence = parts.join('; ');
  return ` ${sentence[0]!.toUpperCase()}${sentence.slice(1)}.`;
}

function staleRevision(id: string, given: string | null, now: string | null): RejectedError {
  return new RejectedError(`workflow ${id} is at revision ${now ?? 'null'}, not ${given ?? 'null'}: it has changed since, so nothing was deleted`, {
    status: 409,
    code: 'stale_revision',
    hint: `see what changed with \`loopsctl workflow show ${id}\`; to delete it as it is now, run again with --expected-revision-id ${now ?? 'null'}`,
  });
}

/** A 409 that is not a request to confirm is a stale revision: name the current one, from the API's message or by reading it. */
async function explainDeleteFailure(error: unknown, client: ApiClient, id: string, revision: string | null): Promise<unknown> {
  if (!(error instanceof RejectedError) || error.status !== 409) return error;
  const latest = /latest workflowRevisionId is ([A-Za-z0-9_-]+)/i.exec(error.message)?.[1];
  const now =
    latest ??
    (await api.getWorkflow(client, id).then(
      (workflow) => workflow.workflowRevisionId ?? null,
      () => undefined,
    ));
  return now === undefined ? error : staleRevision(id, revision, now);
}

/**
 * Deletes a workflow at a known revision. A workflow that is sending or has queued contacts is
 * deleted only after a second, explicit yes (--confirm-delete), since that stops its sending and
 * cancels the queued contacts; until then nothing changes.
 */
export const remove: Handler<[string], DeleteOptions> = async (context, [id], options) => {
  checkId(id, 'workflow id');
  // Both at once is refused where the command is declared; neither is refused here, as a dry run needs neither.
  if (options.expectedRevisionId === undefined && !options.force && !options.dryRun) {
    throw new UsageError('refusing to delete a workflow without knowing which revision of it is meant', {
      hint: `pass --expected-revision-id <revision> (\`loopsctl workflow show ${id} --jq .workflowRevisionId\` prints it), or --force to delete it at whatever revision it is now`,
    });
  }
  const { out, runtime } = context;
  const client = await context.client();
  const current = await api.getWorkflow(client, id);
  const now = current.workflowRevisionId ?? null;
  const given = options.expectedRevisionId;
  const revision = given === undefined ? now : given === 'null' ? null : given;
  if (revision !== now) throw staleRevision(id, revision, now);
  // The name comes from the API and is printed in the question, the dry run and the outcome.
  const named = `workflow ${id}${current.name ? ` "${sanitize(current.name)}"` : ''}`;
  if (options.dryRun) return dryRunDelete(context, current, named);
  await confirm(runtime, `Delete ${named}?`, options.yes);
  let impact: Impact | undefined;
  try {
    await api.deleteWorkflow(client, id, revision, false);
  } catch (error) {
    impact = confirmationAsked(error);
    if (impact === undefined) throw await explainDeleteFailure(error, client, id, revision);
    const { state, stops } = impactWords(impact);
    if (!options.confirmDelete) {
      if (!runtime.stdin.isTTY) {
        throw new RejectedError(`${named} was not deleted: it ${state}, and deleting it would ${stops}`, {
          status: 409,
          code: 'confirmation_required',
          hint: 'run it again with --confirm-delete to go ahead',
        });
      }
      out.note(`W${named.slice(1)} ${state}: deleting it will ${stops}.`);
      await confirm(runtime, `Delete it anyway and ${stops}?`, false);
    }
    try {
      await api.deleteWorkflow(client, id, revision, true);
    } catch (retried) {
      throw await explainDeleteFailure(retried, client, id, revision);
    }
  }
  // 204: the API says nothing, so --json prints nothing; the exit code tells.
  if (out.json) return;
  await out.writeProse(`Deleted ${named}.${impact === undefined ? '' : afterDelete(impact)}`);
};

/** What a delete would do, said without changing anything. */
async function dryRunDelete(context: CommandContext, workflow: Workflow, named: string): Promise<void> {
  const { out } = context;
  const sending = workflow.status === 'Sending';
  const revision = workflow.workflowRevisionId ?? null;
  if (out.json) return out.writeJson({ dryRun: true, workflowId: workflow.id, workflowRevisionId: revision, status: workflow.status ?? null, sending });
  const lines = [`Dry run: would delete ${named} at revision ${revision ?? 'null'}.`];
  lines.push(
    sending
      ? 'It is sending: deleting it stops sending it and cancels any contacts queued in it, which the API asks to confirm (on a terminal you are asked; in scripts, --confirm-delete).'
      : 'If contacts are queued in it, deleting it cancels them, which the API asks to confirm (on a terminal you are asked; in scripts, --confirm-delete).',
  );
  lines.push('Nothing was changed.');
  await out.writeProse(lines.join('\n'));
}
