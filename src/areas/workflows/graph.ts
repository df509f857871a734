/**
 * What the Mermaid and DOT renderings share: the nodes in drawing order (the trigger first) with
 * their labels, and every edge, with ids that have no node listed once as missing.
 */
import type { Workflow } from './schemas.js';
import { sanitize } from '../../render/sanitize.js';
import { describeNode } from './labels.js';

export interface GraphNode {
  id: string;
  /** Lines of the label: the type, then the key fields when there are any. */
  lines: string[];
  isTrigger: boolean;
}

export interface WorkflowGraph {
  nodes: GraphNode[];
  /** Ids that an edge points to but no node has. */
  missing: string[];
  edges: { from: string; to: string }[];
}

export function workflowGraph(workflow: Pick<Workflow, 'rootNodeId' | 'nodes'>): WorkflowGraph {
  const ids = Object.keys(workflow.nodes);
  const root = workflow.rootNodeId;
  const ordered = root !== null && ids.includes(root) ? [root, ...ids.filter((id) => id !== root)] : ids;
  const nodes = ordered.map((id) => {
    const node = workflow.nodes[id]!;
    const description = describeNode(node);
    return { id, lines: [sanitize(node.typeName), ...(description ? [sanitize(description)] : [])], isTrigger: id === root };
  });
  const edges = ordered.flatMap((from) => workflow.nodes[from]!.nextNodeIds.map((to) => ({ from, to })));
  const missing = [...new Set(edges.map((edge) => edge.to).filter((to) => !Object.hasOwn(workflow.nodes, to)))];
  return { nodes, missing, edges };
}

export const MISSING_LABEL = 'missing node';
