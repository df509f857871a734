/**
 * A workflow as a Mermaid flowchart, which GitHub renders in Markdown. Node ids are replaced by
 * safe identifiers (n0, n1, ...; m0, ... for missing nodes) and the real ids kept in comments;
 * every label is quoted, with characters Mermaid could read as syntax written as entity codes.
 */
import type { Workflow } from './schemas.js';
import { sanitize } from '../../render/sanitize.js';
import { MISSING_LABEL, workflowGraph } from './graph.js';

// Quotes end a label, # starts an entity code, and the rest can be read as markup or shape syntax.
const SPECIAL = /["#&<>`|[\]{}();]/g;

export function escapeMermaidLabel(text: string): string {
  return text.replace(SPECIAL, (char) => (char === '"' ? '#quot;' : `#${char.charCodeAt(0)};`));
}

function label(lines: string[]): string {
  return `"${lines.map(escapeMermaidLabel).join('<br/>')}"`;
}

export function renderWorkflowMermaid(workflow: Pick<Workflow, 'id' | 'rootNodeId' | 'nodes'> & { name?: string }): string {
  const graph = workflowGraph(workflow);
  const safeIds = new Map<string, string>();
  graph.nodes.forEach((node, index) => safeIds.set(node.id, `n${index}`));
  graph.missing.forEach((id, index) => safeIds.set(id, `m${index}`));

  const lines = ['flowchart TD', `  %% workflow ${sanitize(workflow.id)}${workflow.name ? `: ${sanitize(workflow.name)}` : ''}`];
  for (const node of graph.nodes) {
    const safe = safeIds.get(node.id)!;
    lines.push(`  %% ${safe} = ${sanitize(node.id)}`);
    lines.push(node.isTrigger ? `  ${safe}([${label(node.lines)}])` : `  ${safe}[${label(node.lines)}]`);
  }
  for (const id of graph.missing) {
    lines.push(`  ${safeIds.get(id)}[${label([`✗ ${sanitize(id)}`, MISSING_LABEL])}]:::missing`);
  }
  for (const edge of graph.edges) lines.push(`  ${safeIds.get(edge.from)} --> ${safeIds.get(edge.to)}`);
  if (graph.missing.length > 0) lines.push('  classDef missing stroke:#c00,stroke-dasharray:4 3,color:#c00');
  return `${lines.join('\n')}\n`;
}
