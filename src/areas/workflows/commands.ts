/**
 * What the `workflow` commands do. Every change is made against a revision of the workflow: the
 * one given with --expected-revision-id, else the one just read, so a concurrent edit is caught by
 * the API's 409 either way. In text mode a change prints the graph after it, the nodes it touched
 * marked; with --json it prints the API's answer as it came.
 */
import type { ApiClient } from '../../api/client.js';
import { ExitCode, LocalFileError, NotFoundError, RejectedError, ServerError, UsageError } from '../../api/errors.js';
import { checkId } from '../../api/ids.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { listHandler } from '../../core/list-run.js';
import { readInput } from '../../core/input.js';
import { confirm } from '../../core/prompt.js';
import * as api from './client.js';
import { renderWorkflowDot } from './dot.js';
import type { GRAPH_FORMATS } from './index.js';
import { renderWorkflowMermaid } from './mermaid.js';
import type { CreatableNodeType } from './node-type-names.js';
import { updatableFields, updatePayloadProblems } from './node-types.js';
import { graphChanges, renderChangedWorkflow, renderWorkflow, renderWorkflowNode, workflowListView, type GraphChanges } from './render.js';
import type { DeleteNodeAnswer, ExpectedRevision, InsertPosition, MailingListAnswer, Workflow } from './schemas.js';

export const list = listHandler(api.workflows, workflowListView);

export const show: Handler<[string], { node?: string; format: (typeof GRAPH_FORMATS)[number] }> = async (context, [id], options) => {
  checkId(id, 'workflow id');
  if (options.node !== undefined) checkId(options.node, 'node id');
  const { out } = context;
  if (options.node !== undefined) return showNode(context, id, options.node);
  const workflow = await api.getWorkflow(await context.client(), id);
  if (options.format === 'mermaid') return out.write(renderWorkflowMermaid(workflow));
  if (options.format === 'dot') return out.write(renderWorkflowDot(workflow));
  return out.present(workflow, renderWorkflow);
};

async function showNode(context: CommandContext, id: string, nodeId: string): Promise<void> {
  await context.out.present(await api.getWorkflowNode(await context.client(), id, nodeId), renderWorkflowNode);
}

export const nodeGet: Handler<[string, string]> = async (context, [id, nodeId]) => {
  checkId(id, 'workflow id');
  checkId(nodeId, 'node id');
  await showNode(context, id, nodeId);
};

export const create: Handler<[], { name: string; description?: string; list?: string }> = async (context, _args, options) => {
  if (options.name.trim() === '') throw new UsageError('--name must not be empty');
  if (options.list !== undefined) checkId(options.list, 'mailing list id');
  const body = { name: options.name, ...(options.description === undefined ? {} : { description: options.description }), ...(options.list === undefined ? {} : { mailingListId: options.list }) };
  const created = await api.createWorkflow(await context.client(), body);
  await presentChange(context, created, { summary: `Created workflow ${created.id}.`, workflow: created, changes: graphChanges(undefined, created), revision: created.workflowRevisionId });
};

interface RevisionOption {
  expectedRevisionId?: string;
}

/** What a change starts from: a client, the graph as it was (for the marks), and the revision to send. */
interface Edit {
  client: ApiClient;
  workflowId: string;
  before?: Workflow;
  revision: ExpectedRevision;
}

/**
 * Reads the workflow when the revision is not given (and in text mode, to mark what changes), and
 * says on stderr which revision the change will be made against.
 */
async function startEdit(context: CommandContext, workflowId: string, options: RevisionOption): Promise<Edit> {
  checkId(workflowId, 'workflow id');
  const client = await context.client();
  const given = options.expectedRevisionId;
  const before = given === undefined || !context.out.json ? await api.getWorkflow(client, workflowId) : undefined;
  if (given !== undefined) return { client, workflowId, before, revision: given === 'null' ? null : given };
  const revision = before!.workflowRevisionId ?? null;
  context.out.note(`Changing workflow ${workflowId} at revision ${revision ?? 'null (it has none yet)'}; a change made since is refused.`);
  return { client, workflowId, before, revision };
}

/**
 * Sends a change, explaining the answers a person needs more from: a 409 (the workflow changed
 * since the revision) and a 501 (the API does not do this change yet), both exit 5.
 */
async function send<T>(edit: Edit, change: () => Promise<T>, notImplemented = 'this change'): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof RejectedError && error.status === 409) {
      throw new RejectedError(`workflow ${edit.workflowId} has changed since revision ${edit.revision ?? 'null'}, so nothing was changed (the API said: ${error.message})`, {
        status: 409,
        code: error.code,
        hint: `see the new state with \`loopsctl workflow show ${edit.workflowId}\`, then run the command again`,
      });
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

async function presentChange(context: CommandContext, answer: unknown, view: ChangeView): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  const lines = [view.summary, '', renderChangedWorkflow(out, view.workflow, view.changes).trimEnd()];
  if (view.outcome !== undefined) lines.push('', view.outcome);
  if (view.revision !== undefined) lines.push('', `revision ${view.revision ?? 'null'}`);
  await out.writeProse(lines.join('\n'));
}

export const update: Handler<[string], RevisionOption & { name?: string; description?: string }> = async (context, [id], options) => {
  const fields = { ...(options.name === undefined ? {} : { name: options.name }), ...(options.description === undefined ? {} : { description: options.description }) };
  if (options.name !== undefined && options.name.trim() === '') throw new UsageError('--name must not be empty');
  const edit = await startEdit(context, id, options);
  const after = await send(edit, () => api.updateWorkflow(edit.client, id, edit.revision, fields));
  await presentChange(context, after, { summary: `Updated workflow ${id}.`, workflow: after, changes: graphChanges(edit.before, after), revision: after.workflowRevisionId });
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

export const setList: Handler<[string, string], RevisionOption & PolicyOptions> = async (context, [id, list], options) => {
  const mailingListId = list === 'none' ? null : list;
  if (mailingListId !== null) checkId(mailingListId, 'mailing list id');
  checkId(id, 'workflow id');
  if (options.queuedContacts === 'discard' && !options.dryRun) {
    await confirm(context.runtime, `Change the mailing list of workflow ${id} and discard the contacts queued in it that the new list excludes?`, options.yes);
  }
  const edit = await startEdit(context, id, options);
  const answer: MailingListAnswer = await send(edit, () => api.changeMailingList(edit.client, id, edit.revision, mailingListId, destructiveBody(options)));
  const target = mailingListId ?? 'none';
  if (answer.status === 'updated' && 'workflow' in answer) {
    const workflow = answer.workflow;
    const outcome = answer.queuedContactCount > 0 ? `${contacts(answer.queuedContactCount)} were discarded.` : undefined;
    return presentChange(context, answer, { summary: `Set the mailing list of workflow ${id} to ${target}.`, workflow, changes: graphChanges(edit.before, workflow), revision: answer.workflowRevisionId, outcome });
  }
  const { outcome, code } = previewOutcome(answer.status, `the mailing list of workflow ${id} would change to ${target}`, answer.queuedContactCount);
  if (context.out.json) await context.out.writeJson(answer);
  else await context.out.writeProse(outcome);
  return code;
};

export const nodeAdd: Handler<[string], RevisionOption & { type: CreatableNodeType; after?: string; before?: string; between?: string[] }> = async (context, [id], options) => {
  const position = insertPosition(options);
  const edit = await startEdit(context, id, options);
  const answer = await send(edit, () => api.createNode(edit.client, id, edit.revision, options.type, position));
  const where = position.insertMode === 'between' ? `between ${position.fromNodeId} and ${position.toNodeId}` : position.insertMode === 'after' ? `after ${position.fromNodeId}` : `before ${position.toNodeId}`;
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

/** `field=value`: the value is JSON when it reads as JSON (3, true, null, {"a":1}), else the text itself. */
export function parseSetting(setting: string): [string, unknown] {
  const equals = setting.indexOf('=');
  if (equals <= 0) throw new UsageError(`--set takes field=value, not "${setting}"`);
  const raw = setting.slice(equals + 1);
  try {
    return [setting.slice(0, equals), JSON.parse(raw) as unknown];
  } catch {
    return [setting.slice(0, equals), raw];
  }
}

async function readPayload(context: CommandContext, options: { set?: string[]; payloadFile?: string }): Promise<Record<string, unknown>> {
  if (options.set !== undefined) {
    const payload = new Map(options.set.map(parseSetting));
    return Object.fromEntries(payload);
  }
  const file = options.payloadFile!;
  const { text } = await readInput(context.runtime, file, 'payload');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new LocalFileError(`the payload in ${file === '-' ? 'stdin' : file} is not JSON: ${(error as Error).message}`, { hint: 'the payload is a JSON object of the fields to change, e.g. {"amount": 3, "unit": "d"}' });
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new LocalFileError(`the payload in ${file === '-' ? 'stdin' : file} must be a JSON object`);
  return payload as Record<string, unknown>;
}

export const nodeUpdate: Handler<[string, string], RevisionOption & { set?: string[]; payloadFile?: string }> = async (context, [id, nodeId], options) => {
  checkId(nodeId, 'node id');
  const payload = await readPayload(context, options);
  const edit = await startEdit(context, id, options);
  const typeName = edit.before !== undefined ? typeInGraph(edit.before, nodeId) : (await api.getWorkflowNode(edit.client, id, nodeId)).typeName;
  const problems = updatePayloadProblems(typeName, payload);
  if (problems.length > 0) {
    const fields = updatableFields(typeof payload.typeName === 'string' ? payload.typeName : typeName);
    throw new UsageError(`cannot update ${typeName} ${nodeId}: ${problems.join('; ')}`, { hint: fields === undefined ? undefined : `a ${typeName} node takes: ${fields.join(', ') || 'typeName only'}` });
  }
  const answer = await send(edit, () => api.updateNode(edit.client, id, nodeId, edit.revision, payload), `updating a ${typeName} node`);
  await presentChange(context, answer, {
    summary: `Updated ${answer.typeName} ${nodeId}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow, [nodeId]),
    revision: answer.workflowRevisionId,
  });
};

function typeInGraph(workflow: Workflow, nodeId: string): string {
  if (!Object.hasOwn(workflow.nodes, nodeId)) throw new NotFoundError(`node ${nodeId} not found in workflow ${workflow.id}`, { hint: `see its nodes with \`loopsctl workflow show ${workflow.id}\`` });
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
  const answer: DeleteNodeAnswer = await send(edit, () => api.deleteNode(edit.client, id, nodeId, edit.revision, { ...destructiveBody(options), recursive: options.recursive }));
  const count = answer.nodeIds.length;
  const nodes = `${count} node${count === 1 ? '' : 's'}`;
  if (answer.status === 'deleted' && 'workflow' in answer) {
    const outcome = answer.queuedContactCount > 0 ? `${contacts(answer.queuedContactCount)} were discarded.` : undefined;
    return presentChange(context, answer, { summary: `Deleted ${nodes}.`, workflow: answer.workflow, changes: graphChanges(edit.before, answer.workflow), revision: answer.workflowRevisionId, outcome });
  }
  const { outcome, code } = previewOutcome(answer.status, `deleting ${what} would remove ${nodes}`, answer.queuedContactCount);
  if (edit.before === undefined) {
    await context.out.writeJson(answer);
    return code;
  }
  // Nothing changed: the graph as it is, with the nodes that would go marked.
  const marks = new Map(answer.nodeIds.map((removed) => [removed, 'removed' as const]));
  await presentChange(context, answer, { summary: answer.status === 'dryRun' ? `Would delete ${nodes}.` : `Did not delete ${nodes}.`, workflow: edit.before, changes: { marks, removed: [] }, outcome });
  return code;
};
