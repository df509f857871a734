/**
 * A workflow as a Graphviz DOT digraph (`dot -Tsvg`). Every id and label is a quoted string with
 * `\` and `"` escaped, so any name is safe; ids with no node are drawn dashed and red.
 */
import type { Workflow } from './schemas.js';
import { sanitize } from '../../render/sanitize.js';
import { MISSING_LABEL, workflowGraph } from './graph.js';

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

export function renderWorkflowDot(workflow: Pick<Workflow, 'id' | 'rootNodeId' | 'nodes'> & { name?: string }): string {
  const graph = workflowGraph(workflow);
  const lines = [
    `digraph ${quoteDot(workflow.id)} {`,
    `  label=${quoteDot(workflow.name ?? workflow.id)};`,
    '  labelloc=t;',
    '  node [shape=box, style=rounded];',
  ];
  for (const node of graph.nodes) {
    const shape = node.isTrigger ? ', shape=oval' : '';
    lines.push(`  ${quoteDot(node.id)} [label=${dotLabel(node.lines)}${shape}];`);
  }
  for (const id of graph.missing) {
    lines.push(`  ${quoteDot(id)} [label=${dotLabel([`✗ ${id}`, MISSING_LABEL])}, style=dashed, color=red, fontcolor=red];`);
  }
  for (const edge of graph.edges) lines.push(`  ${quoteDot(edge.from)} -> ${quoteDot(edge.to)};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
