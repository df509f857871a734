/** Text views of workflows: the list, the graph as a tree, and one node in full. */
import { isKnownNodeType, nodeFieldsByType, type Workflow, type WorkflowNode, type WorkflowSummary } from './schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { sanitize } from '../../render/sanitize.js';
import { styleFor } from '../../render/style.js';
import { renderRecord, timestampColumn } from '../../render/table.js';
import { describeComparison } from './labels.js';
import { renderWorkflowTree } from './tree.js';

export const workflowListView: ListView<WorkflowSummary> = {
  noun: 'workflows',
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, timestampColumn('UPDATED')],
  row: (workflow) => [workflow.id, workflow.name, workflow.updatedAt],
};

export function renderWorkflow(out: Output, workflow: Workflow): string {
  const style = styleFor(out);
  const title = [workflow.emoji, workflow.name ?? '(unnamed workflow)'].filter(Boolean).join(' ');
  const facts = [
    `id ${workflow.id}`,
    typeof workflow.status === 'string' ? `status ${workflow.status}` : undefined,
    workflow.mailingListId ? `mailing list ${workflow.mailingListId}` : undefined,
    `${Object.keys(workflow.nodes).length} nodes`,
  ].filter(Boolean);
  const header = [style.bold(sanitize(title)), style.dim(sanitize(facts.join(' · ')))];
  if (workflow.description) header.push(sanitize(workflow.description));
  const tree = renderWorkflowTree(workflow, {
    unicode: out.tty,
    paint: { type: style.cyan, id: style.dim, reference: style.yellow, missing: style.red },
  });
  return `${header.join('\n')}\n\n${tree}`;
}

/**
 * Every field of a node: the common ones, then its type's fields in the reference's order (shown
 * even when absent, as '-'), then any field the CLI does not know, so nothing the API sends is hidden.
 */
export function renderWorkflowNode(out: Output, node: WorkflowNode): string {
  const typeFields = isKnownNodeType(node.typeName) ? Object.keys(nodeFieldsByType[node.typeName]) : [];
  const order = ['id', 'workflowId', 'typeName', 'nextNodeIds', ...typeFields];
  const ordered: Record<string, unknown> = {};
  for (const key of order) ordered[key] = node[key];
  for (const [key, value] of Object.entries(node)) if (!(key in ordered)) ordered[key] = value;
  for (const [key, value] of Object.entries(ordered)) ordered[key] = describeField(key, value);
  return renderRecord(out, ordered);
}

function describeField(key: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (key === 'contactPropertyQuery') {
    const query = value as { key: string; is: never; was: never };
    return `key ${query.key}; was ${describeComparison(query.was)}; is ${describeComparison(query.is)}`;
  }
  if (key === 'eventProperties' && Array.isArray(value)) {
    return value.length === 0 ? '-' : value.map((property: { name: string; type: string }) => `${property.name} (${property.type})`).join(', ');
  }
  return value;
}
