/**
 * What the Mermaid and DOT drawings share: the nodes in drawing order (the trigger first) with
 * their labels, roles and edges, with ids that have no node listed once as missing.
 * Built in one pass over nodes and edges, without spreading arrays of unbounded length.
 */

import { sanitize } from '../../base/sanitize.js';
import { facetsOf, type NodeRole } from '../../platform/workflows/node-facets.js';
import { describeNode } from '../../platform/workflows/node-types.js';
import type { Workflow } from '../../platform/workflows/schemas.js';

export interface GraphNode {
  id: string;
  /** Lines of the label: the type, then the key fields when there are any. */
  lines: string[];
  /** The role its type declares; the root is drawn as a trigger whatever its type. */
  role: NodeRole | 'unknown';
  /** The ids its edges lead to, in order: a node's edges are drawn together, its own id looked up once. */
  next: readonly string[];
}

export interface WorkflowGraph {
  /** The nodes, each with its edges: every edge of the graph, node by node. */
  nodes: GraphNode[];
  /** Ids that an edge points to but no node has. */
  missing: string[];
}

/** A note by node id: a Map, or a lookup that makes each note as its node is drawn. */
export type NodeNotes = Pick<ReadonlyMap<string, string>, 'get'>;

export type GraphSource = Pick<Workflow, 'id' | 'rootNodeId' | 'nodes'> & { name?: string };

/** `annotations` (a send-email node's metrics, by id) add a last line to their node's label. */
export function workflowGraph(workflow: Pick<Workflow, 'rootNodeId' | 'nodes'>, annotations?: NodeNotes): WorkflowGraph {
  const root = workflow.rootNodeId;
  const ids = Object.keys(workflow.nodes);
  const ordered: string[] = [];
  if (root !== null && Object.hasOwn(workflow.nodes, root)) ordered.push(root);
  for (const id of ids) if (id !== root) ordered.push(id);
  const nodes: GraphNode[] = [];
  const missing = new Set<string>();
  for (const id of ordered) {
    const node = workflow.nodes[id]!;
    const description = describeNode(node);
    const role = id === root ? 'trigger' : (facetsOf(node.typeName)?.role ?? 'unknown');
    const lines = description ? [sanitize(node.typeName), sanitize(description)] : [sanitize(node.typeName)];
    const annotation = annotations?.get(id);
    if (annotation !== undefined) lines.push(sanitize(annotation));
    nodes.push({ id, lines, role, next: node.nextNodeIds });
    for (const to of node.nextNodeIds) if (!Object.hasOwn(workflow.nodes, to)) missing.add(to);
  }
  return { nodes, missing: Array.from(missing) };
}

/** Short ids for the drawings (n0, n1, ...; m0, ... for missing nodes), so no id can be read as syntax. */
export function syntheticIds(graph: WorkflowGraph): Map<string, string> {
  const ids = new Map<string, string>();
  graph.nodes.forEach((node, index) => ids.set(node.id, `n${index}`));
  graph.missing.forEach((id, index) => ids.set(id, `m${index}`));
  return ids;
}

export const MISSING_LABEL = 'missing node';
