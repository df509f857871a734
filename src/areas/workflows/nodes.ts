import { checkId } from '../../api/ids.js';
import { NotFoundError, UsageError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { parseAssignments, readJsonObject } from '../../core/typed-values.js';
import { withArticle } from '../../platform/words.js';
import type { CreatableNodeType } from '../../platform/workflows/node-facets.js';
import { updatableFields, updatePayloadProblems } from '../../platform/workflows/node-types.js';
import type { DeleteNodeAnswer, InsertPosition, Workflow } from '../../platform/workflows/schemas.js';
import * as api from './client.js';
import { contacts, destructiveBody, type PolicyOptions, presentChange, previewOutcome, type RevisionOption, send, startEdit } from './edit.js';
import { graphChanges } from './render.js';

export const nodeAdd: Handler<[string], RevisionOption & { type: CreatableNodeType; after?: string; before?: string; between?: string[] }> = handler(
  ['out', 'client', 'globals'],
  async (context, [id], options) => {
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
  },
);

function insertPosition(options: { after?: string; before?: string; between?: string[] }): InsertPosition {
  if (options.after !== undefined) return { insertMode: 'after', fromNodeId: checkId(options.after, 'node id') };
  if (options.before !== undefined) return { insertMode: 'before', toNodeId: checkId(options.before, 'node id') };
  const between = options.between!;
  if (between.length !== 2) throw new UsageError(`--between takes two node ids, <fromId> <toId>, not ${between.length}`);
  return { insertMode: 'between', fromNodeId: checkId(between[0]!, 'node id'), toNodeId: checkId(between[1]!, 'node id') };
}

async function readPayload(context: Uses<'files'>, options: { set?: string[]; payloadFile?: string }): Promise<Record<string, unknown>> {
  if (options.set !== undefined) return parseAssignments('--set', options.set, 'json');
  return readJsonObject(context.runtime, options.payloadFile!, '--payload-file', 'json');
}

export const nodeUpdate: Handler<[string, string], RevisionOption & { set?: string[]; payloadFile?: string }> = handler(
  ['out', 'client', 'files', 'globals'],
  async (context, [id, nodeId], options) => {
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
  },
);

function typeInGraph(workflow: Workflow, nodeId: string): string {
  if (!Object.hasOwn(workflow.nodes, nodeId))
    throw new NotFoundError(`node ${nodeId} not found in workflow ${workflow.id}`, { hint: `see its nodes with \`loopsctl workflow show ${workflow.id}\`` });
  return workflow.nodes[nodeId]!.typeName;
}

export const nodeReroute: Handler<[string, string], RevisionOption & { to: string }> = handler(
  ['out', 'client', 'globals'],
  async (context, [id, nodeId], options) => {
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
  },
);

export const nodeAddBranch: Handler<[string, string], RevisionOption> = handler(['out', 'client', 'globals'], async (context, [id, nodeId], options) => {
  checkId(nodeId, 'node id');
  const edit = await startEdit(context, id, options);
  const answer = await send(edit, () => api.addBranch(edit.client, id, nodeId, edit.revision));
  await presentChange(context, answer, {
    summary: `Added a branch to ${nodeId}: ${answer.node.typeName} ${answer.node.id}.`,
    workflow: answer.workflow,
    changes: graphChanges(edit.before, answer.workflow),
    revision: answer.node.workflowRevisionId,
  });
});

export const nodeDelete: Handler<[string, string], RevisionOption & PolicyOptions & { recursive?: boolean }> = handler(
  ['out', 'client', 'prompts', 'globals'],
  async (context, [id, nodeId], options) => {
    checkId(id, 'workflow id');
    checkId(nodeId, 'node id');
    const what = options.recursive ? `node ${nodeId} and every node only it leads to` : `node ${nodeId}`;
    // A plan (--plan) sends nothing and asks nothing: the confirmation is its apply's.
    if (!options.dryRun) await context.confirm(`Delete ${what} from workflow ${id}?`, options.yes);
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
  },
);
