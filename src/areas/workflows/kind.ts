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
import { asked, type ExperimentImpact, type QueuedImpact, type SendsImpact } from '../change/impact/records.js';
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

/**
 * The send-email nodes a plan changes in a workflow contacts move through (`changed`, by node id),
 * each with its sends so far (node metrics), and, for one on a variant's path of an experiment,
 * that the experiment's results straddle the change. `keyOf` names a node by its key in the tree.
 */
export async function sendsImpact(
  client: ApiClient,
  record: string,
  workflowId: string,
  changed: ReadonlyMap<string, { node: string; change: SendsImpact['change'] }>,
  keyOf: (nodeId: string) => string | undefined = () => undefined,
) {
  if (changed.size === 0) return [];
  const graph = await getWorkflow(client, workflowId);
  const nodes = graph.nodes as unknown as Record<string, { typeName?: string; nextNodeIds?: readonly string[] }>;
  const records: (SendsImpact | ExperimentImpact)[] = [];
  for (const [nodeId, { node, change }] of changed) {
    if (nodes[nodeId]?.typeName !== 'SendEmailAction') continue;
    const metrics = await asked(() => nodeMetrics(client, workflowId, nodeId));
    records.push({ kind: 'sends', record, node, nodeId, change, ...metrics });
    const within = experimentOf(nodes, nodeId);
    if (within !== undefined)
      records.push({
        kind: 'experiment',
        record,
        node,
        nodeId,
        change,
        experiment: keyOf(within.experiment) ?? within.experiment,
        variants: within.variants.map((variant) => keyOf(variant) ?? variant),
      });
  }
  return records;
}

/** The experiment and the variants whose paths reach `nodeId` when not every variant's does (past where the paths meet again, it is the experiment's for all). */
export function experimentOf(
  nodes: Record<string, { typeName?: string; nextNodeIds?: readonly string[] }>,
  nodeId: string,
): { experiment: string; variants: string[] } | undefined {
  const reaches = (start: string) => {
    const seen = new Set<string>();
    const queue = [start];
    while (queue.length > 0) {
      const at = queue.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      queue.push(...(nodes[at]?.nextNodeIds ?? []));
    }
    return seen.has(nodeId);
  };
  for (const [experiment, node] of Object.entries(nodes)) {
    if (node.typeName !== 'ExperimentBranchNode') continue;
    const variants = (node.nextNodeIds ?? []).filter((next) => nodes[next]?.typeName === 'VariantNode');
    const reaching = variants.filter(reaches);
    if (reaching.length > 0 && reaching.length < variants.length) return { experiment, variants: reaching };
  }
  return undefined;
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
