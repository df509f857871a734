/** The conditions of filter and branch nodes, read node by node for the drawings of `show` and of a change. */

import type { ApiClient } from '../../api/client.js';
import { settleLimit } from '../../api/concurrency.js';
import { DEFAULT_REQUESTS_PER_SECOND } from '../../api/pacer.js';
import type { Uses } from '../../core/capabilities.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import { formatCount } from '../../render/numbers.js';
import { ProgressLine } from '../../render/progress.js';
import * as api from './client.js';
import type { NodeNotes } from './graph.js';

/** The note beside each node whose condition was not read, else its annotation (metrics). */
export function conditionNotes(unreadIds: string[], annotations?: NodeNotes): NodeNotes {
  const unread = new Set(unreadIds);
  // Each note made as its node is drawn: a graph too large to read holds tens of thousands of unread conditions.
  return { get: (nodeId) => (unread.has(nodeId) ? `condition: see --node ${nodeId}` : annotations?.get(nodeId)) };
}

/** Says, after a drawing, that the conditions of some nodes were not read, and how to read them. */
export function noteUnread(context: Uses<'out'>, unread: string[], how: string): void {
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
export async function withConditions(
  context: Uses<'out'>,
  client: ApiClient,
  workflow: Workflow,
  all: boolean,
): Promise<{ workflow: Workflow; unread: string[] }> {
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
