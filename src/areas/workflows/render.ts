/**
 * Text views of workflows: the list, the graph as a tree, one node in full, and what a change did
 * to the graph (the tree after it with added, changed and removed nodes marked).
 */

import { sanitize } from '../../base/sanitize.js';
import { describeFilter } from '../../platform/audience-filter-words.js';
import type { AudienceFilter } from '../../platform/segments/schemas.js';
import { describeComparison, nodeType } from '../../platform/workflows/node-types.js';
import type { Workflow, WorkflowNode, WorkflowSummary } from '../../platform/workflows/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { type Style, styleFor } from '../../render/style.js';
import { renderRecord, timestampColumn } from '../../render/table.js';
import { wrapLines } from '../../render/wrap.js';
import type { NodeNotes } from './graph.js';
import { type ChangeMark, MARK_SIGNS, renderWorkflowTree } from './tree.js';

export const workflowListView: ListView<WorkflowSummary> = {
  noun: 'workflows',
  // The app's address stays out of the table, which it would fill: it is in `show`, --json and --web.
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, timestampColumn('UPDATED')],
  row: (workflow) => [workflow.id, workflow.name, workflow.updatedAt],
};

/** What a change did to a workflow's graph, by node id. */
export interface GraphChanges {
  marks: Map<string, ChangeMark>;
  /** Nodes of the graph before that are gone after (for a dry run: that would go). */
  removed: { id: string; typeName: string }[];
}

/**
 * Compares two readings of a graph: ids only after are added, ids only before removed, and ids in
 * both whose type, connections or shown fields differ are changed, as are the `touched` ids (a
 * node whose changed fields the simplified view does not show).
 */
export function graphChanges(before: Pick<Workflow, 'nodes'> | undefined, after: Pick<Workflow, 'nodes'>, touched: string[] = []): GraphChanges {
  const marks = new Map<string, ChangeMark>();
  const removed: GraphChanges['removed'] = [];
  for (const [id, node] of Object.entries(after.nodes)) {
    const old = before === undefined ? undefined : Object.hasOwn(before.nodes, id) ? before.nodes[id] : undefined;
    if (old === undefined) marks.set(id, 'added');
    else if (touched.includes(id) || JSON.stringify(old) !== JSON.stringify(node)) marks.set(id, 'changed');
  }
  if (before !== undefined) {
    for (const [id, node] of Object.entries(before.nodes)) if (!Object.hasOwn(after.nodes, id)) removed.push({ id, typeName: node.typeName });
  }
  return { marks, removed };
}

/**
 * The name, the facts, the app's address and the description, each wrapped to a terminal's width.
 * The emoji goes with colour: a plain pipe gets plain text.
 */
function header(out: Output, style: Style, workflow: Workflow): string[] {
  const emoji = out.tty || out.color ? workflow.emoji : undefined;
  const title = [emoji, workflow.name ?? '(unnamed workflow)'].filter(Boolean).join(' ');
  const facts = [
    `id ${workflow.id}`,
    typeof workflow.status === 'string' ? `status ${workflow.status}` : undefined,
    workflow.mailingListId ? `mailing list ${workflow.mailingListId}` : undefined,
    `${Object.keys(workflow.nodes).length} nodes`,
  ].filter(Boolean);
  const lines = [style.bold(sanitize(title)), style.dim(sanitize(facts.join(' · ')))];
  if (typeof workflow.url === 'string') lines.push(style.dim(sanitize(workflow.url)));
  if (workflow.description) lines.push(sanitize(workflow.description));
  return out.tty ? lines.flatMap((line) => wrapLines(line, out.columns)) : lines;
}

function tree(out: Output, style: Style, workflow: Workflow, marks?: Map<string, ChangeMark>, annotations?: NodeNotes): string {
  return renderWorkflowTree(workflow, {
    unicode: out.tty,
    marks,
    annotations,
    width: out.tty ? out.columns : undefined,
    // Without colour, nothing to paint: the plain palette would still be called for every word.
    paint: out.color
      ? {
          type: style.cyan,
          id: style.dim,
          reference: style.yellow,
          missing: style.red,
          mark: { added: style.green, changed: style.yellow, removed: style.red },
          annotation: style.green,
        }
      : undefined,
  });
}

/** A workflow's header and its graph as a tree; with annotations (metrics), each beside its node. */
export function renderWorkflow(out: Output, workflow: Workflow, annotations?: NodeNotes): string {
  const style = styleFor(out);
  return `${header(out, style, workflow).join('\n')}\n\n${tree(out, style, workflow, undefined, annotations)}`;
}

/**
 * A workflow after a change (or, for a dry run, as it is), with the nodes the change touched
 * marked, the removed ones listed after the tree, and a legend of the signs in use; annotations as
 * in `renderWorkflow`.
 */
export function renderChangedWorkflow(out: Output, workflow: Workflow, changes: GraphChanges, annotations?: NodeNotes): string {
  const style = styleFor(out);
  const paint: Record<ChangeMark, (text: string) => string> = { added: style.green, changed: style.yellow, removed: style.red };
  const lines = [`${header(out, style, workflow).join('\n')}\n`, tree(out, style, workflow, changes.marks, annotations).trimEnd()];
  if (changes.removed.length > 0) {
    lines.push('', 'Removed:');
    for (const node of changes.removed) lines.push(`${paint.removed(MARK_SIGNS.removed)} ${sanitize(node.typeName)}  ${style.dim(sanitize(node.id))}`);
  }
  const used = new Set<ChangeMark>(changes.marks.values());
  if (changes.removed.length > 0) used.add('removed');
  if (used.size > 0) lines.push('', [...used].map((mark) => `${paint[mark](MARK_SIGNS[mark])} ${mark}`).join('  '));
  return `${lines.join('\n')}\n`;
}

/**
 * Every field of a node: the common ones, then its type's fields in the reference's order (shown
 * even when absent, as '-'), then any field the CLI does not know, so nothing the API sends is
 * hidden, whatever its name (own properties only: a field named constructor or __proto__ is data).
 */
export function renderWorkflowNode(out: Output, node: WorkflowNode): string {
  if (!out.tty) return renderRecord(out, node);
  const typeFields = Object.keys(nodeType(node.typeName)?.fields ?? {});
  const fields = new Map<string, unknown>();
  for (const key of ['id', 'workflowId', 'typeName', 'nextNodeIds', ...typeFields]) fields.set(key, Object.hasOwn(node, key) ? node[key] : undefined);
  for (const [key, value] of Object.entries(node)) if (!fields.has(key)) fields.set(key, value);
  const rows = Array.from(fields, ([key, value]): [string, unknown] => [key, describeField(key, value)]);
  return renderRecord(out, Object.fromEntries(rows));
}

function describeField(key: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (key === 'contactPropertyQuery') {
    const query = value as { key: string; is: never; was: never };
    return `key ${query.key}; was ${describeComparison(query.was)}; is ${describeComparison(query.is)}`;
  }
  if (key === 'audienceFilter' && typeof value === 'object' && Array.isArray((value as AudienceFilter).conditions))
    return describeFilter(value as AudienceFilter);
  if (key === 'eventProperties' && Array.isArray(value)) {
    return value.length === 0 ? '-' : value.map((property: { name: string; type: string }) => `${property.name} (${property.type})`).join(', ');
  }
  return value;
}
