/**
 * A workflow as a Graphviz DOT digraph (`dot -Tsvg`). Nodes get short synthetic ids (n0, n1, ...;
 * m0, ... for missing nodes), so two real ids can never merge into one node; the real id is the
 * node's tooltip. Every label is a quoted string with `\` and `"` escaped, so any name is safe;
 * ids with no node are drawn dashed and red.
 */
import { sanitize } from '../../base/sanitize.js';
import { type GraphNode, type GraphSource, MISSING_LABEL, type NodeNotes, syntheticIds, workflowGraph } from './graph.js';

/** Text inside a DOT quoted string. sanitize makes control characters visible, so no raw newline remains. */
function escapeDot(text: string): string {
  return sanitize(text).replace(/[\\"]/g, (char) => `\\${char}`);
}

export function quoteDot(text: string): string {
  return `"${escapeDot(text)}"`;
}

/** A label of several lines, joined by DOT's centred line break. */
function dotLabel(lines: string[]): string {
  return `"${lines.map(escapeDot).join('\\n')}"`;
}

const SHAPES: Partial<Record<GraphNode['role'], string>> = { trigger: ', shape=oval', branch: ', shape=hexagon' };

export function renderWorkflowDot(workflow: GraphSource, annotations?: NodeNotes): string {
  const graph = workflowGraph(workflow, annotations);
  const ids = syntheticIds(graph);
  const lines = [
    `digraph ${quoteDot(workflow.id)} {`,
    `  label=${quoteDot(workflow.name ?? workflow.id)};`,
    '  labelloc=t;',
    '  node [shape=box, style=rounded];',
  ];
  for (const node of graph.nodes) {
    lines.push(`  ${ids.get(node.id)} [label=${dotLabel(node.lines)}, tooltip=${quoteDot(node.id)}${SHAPES[node.role] ?? ''}];`);
  }
  for (const id of graph.missing) {
    lines.push(`  ${ids.get(id)} [label=${dotLabel([`✗ ${id}`, MISSING_LABEL])}, tooltip=${quoteDot(id)}, style=dashed, color=red, fontcolor=red];`);
  }
  for (const node of graph.nodes) {
    const from = ids.get(node.id)!;
    for (const to of node.next) lines.push(`  ${from} -> ${ids.get(to)};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
