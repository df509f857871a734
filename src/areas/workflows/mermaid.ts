/**
 * A workflow as a Mermaid flowchart, which GitHub renders in Markdown. Node ids are replaced by
 * safe identifiers (n0, n1, ...; m0, ... for missing nodes) and the real ids kept in comments;
 * every label is quoted, with characters Mermaid could read as syntax written as entity codes.
 * Mermaid reads a `%%{...}%%` directive anywhere, even inside a comment, so comments carry no
 * `%`, `{` or `}` of their own.
 */
import { sanitize } from '../../base/sanitize.js';
import { type GraphNode, type GraphSource, MISSING_LABEL, type NodeNotes, syntheticIds, workflowGraph } from './graph.js';

// Quotes end a label, # starts an entity code, and the rest can be read as markup or shape syntax.
const SPECIAL = /["#&<>`|[\]{}();%]/g;

const entity = (char: string) => (char === '"' ? '#quot;' : `#${char.charCodeAt(0)};`);

export function escapeMermaidLabel(text: string): string {
  return text.replace(SPECIAL, entity);
}

/** Text for a `%%` comment line: no control characters, and nothing a directive could start with. */
export function escapeMermaidComment(text: string): string {
  return sanitize(text).replace(/[%{}#]/g, entity);
}

function label(lines: string[]): string {
  return `"${lines.map(escapeMermaidLabel).join('<br/>')}"`;
}

function shape(node: GraphNode): string {
  const text = label(node.lines);
  if (node.role === 'trigger') return `([${text}])`;
  if (node.role === 'branch') return `{{${text}}}`;
  return `[${text}]`;
}

export function renderWorkflowMermaid(workflow: GraphSource, annotations?: NodeNotes): string {
  const graph = workflowGraph(workflow, annotations);
  const ids = syntheticIds(graph);
  const title = `workflow ${workflow.id}${workflow.name ? `: ${workflow.name}` : ''}`;
  const lines = ['flowchart TD', `  %% ${escapeMermaidComment(title)}`];
  for (const node of graph.nodes) {
    const safe = ids.get(node.id)!;
    lines.push(`  %% ${safe} = ${escapeMermaidComment(node.id)}`);
    lines.push(`  ${safe}${shape(node)}`);
  }
  for (const id of graph.missing) {
    lines.push(`  ${ids.get(id)}[${label([`✗ ${sanitize(id)}`, MISSING_LABEL])}]:::missing`);
  }
  for (const node of graph.nodes) {
    const from = ids.get(node.id)!;
    for (const to of node.next) lines.push(`  ${from} --> ${ids.get(to)}`);
  }
  if (graph.missing.length > 0) lines.push('  classDef missing stroke:#c00,stroke-dasharray:4 3,color:#c00');
  return `${lines.join('\n')}\n`;
}
