/**
 * What a workflow brings to a plan: the API's own dry run of a node delete or a mailing-list change
 * (the contacts queued where it removes them), and, for a workflow contacts move through, what each
 * send-email node a plan changes has sent so far. A content push's edit script and a write
 * command's held request ask the same questions.
 */
import type { ApiClient } from '../../api/client.js';
import { carriedId } from '../../platform/operation-row.js';
import { WORKFLOW } from '../../platform/workflows/resource.js';
import type { ExpectedRevision } from '../../platform/workflows/schemas.js';
import { asked, type QueuedImpact, type SendsImpact } from '../change/impact/records.js';
import type { ResourceKind } from '../change/request-calls.js';
import { changeMailingList, deleteNode, getWorkflow, nodeMetrics } from './client.js';

/** The contacts a node delete would remove from a workflow, as the API's dry run answers at the plan's revision. */
export function dryRunDelete(client: ApiClient, workflowId: string, nodeId: string, revision: ExpectedRevision, recursive: boolean) {
  return asked(() => deleteNode(client, workflowId, nodeId, revision, { dryRun: true, recursive }));
}

/** The contacts a change of a workflow's mailing list would remove, as the API's dry run answers at the plan's revision. */
export function dryRunListChange(client: ApiClient, workflowId: string, revision: ExpectedRevision, listId: string | null) {
  return asked(() => changeMailingList(client, workflowId, revision, listId, { dryRun: true }));
}

/** The send-email nodes a plan changes in a workflow contacts move through (`changed`, by node id), each with its sends so far (node metrics). */
export async function sendsImpact(
  client: ApiClient,
  record: string,
  workflowId: string,
  changed: ReadonlyMap<string, { node: string; change: SendsImpact['change'] }>,
) {
  if (changed.size === 0) return [];
  const graph = await getWorkflow(client, workflowId);
  const records: SendsImpact[] = [];
  for (const [nodeId, { node, change }] of changed) {
    if (graph.nodes[nodeId]?.typeName !== 'SendEmailAction') continue;
    const metrics = await asked(() => nodeMetrics(client, workflowId, nodeId));
    records.push({ kind: 'sends', record, node, nodeId, change, ...metrics });
  }
  return records;
}

async function deleteImpact(client: ApiClient, record: string, ids: Partial<Record<string, string>>, body: Record<string, unknown>, recursive: boolean) {
  const dry = await dryRunDelete(client, ids.workflowId!, ids.nodeId!, body.expectedRevisionId as ExpectedRevision, recursive);
  const op = recursive ? ('deleteWorkflowNodeRecursively' as const) : ('deleteWorkflowNode' as const);
  const impact: QueuedImpact = { kind: 'queued-contacts', record, op, node: ids.nodeId!, removes: [], ...dry };
  return [impact];
}

export const WORKFLOWS: ResourceKind = {
  impacts: {
    deleteWorkflowNode: (client, { record, ids, body }) => deleteImpact(client, record, ids, body, false),
    deleteWorkflowNodeRecursively: (client, { record, ids, body }) => deleteImpact(client, record, ids, body, true),
    changeWorkflowMailingList: async (client, { record, ids, body }) => {
      const listId = carriedId(WORKFLOW.operations.changeWorkflowMailingList, body, 'mailing list') ?? null;
      const dry = await dryRunListChange(client, ids.workflowId!, body.expectedRevisionId as ExpectedRevision, listId);
      return [{ kind: 'queued-contacts', record, op: 'changeWorkflowMailingList', mailingList: listId, ...dry }];
    },
  },
};
