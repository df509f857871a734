/**
 * A workflow's changes in words, node by node: the workflow's own fields, the nodes added,
 * removed and changed (with each field from the account's value to the file's), and the
 * connections moved; the emails' files as unified diffs. Readable where a YAML diff is not: a
 * node moved in the file is no change, and a connection moved is said as such.
 */

import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../../../api/client.js';
import { sanitize } from '../../../base/sanitize.js';
import type { FileNode, WorkflowFile } from '../../../platform/workflows/file.js';
import type { EnvValues } from '../shared/env-values.js';
import type { ContentState, Files } from '../shared/files.js';
import type { LmxNames } from '../shared/lmx-names.js';
import { recordDiff } from '../shared/render.js';
import type { Scope } from '../shared/scope.js';
import { readSides, type WorkflowStanding } from './sides.js';

const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const changes: string[] = [];
  for (const field of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    if (field === 'type' || field === 'next' || isDeepStrictEqual(before[field], after[field])) continue;
    changes.push(`${field}: ${shown(before[field])} -> ${shown(after[field])}`);
  }
  return changes;
}

function describeNode(key: string, node: FileNode): string {
  const { type, next, ...fields } = node;
  const parts = Object.entries(fields).map(([field, value]) => `${field} ${JSON.stringify(value)}`);
  return `${key} (${type})${parts.length > 0 ? `: ${parts.join(', ')}` : ''}; next [${next.join(', ')}]`;
}

/** The lines of a workflow's graph diff, from the account's side to the file's; empty when the graphs are the same. */
export function graphDiff(account: WorkflowFile | undefined, local: WorkflowFile | undefined): string[] {
  const lines: string[] = [];
  const before = account?.nodes ?? {};
  const after = local?.nodes ?? {};
  const { nodes: _before, status: _status, ...accountFields } = account ?? ({ nodes: {} } as unknown as WorkflowFile);
  const { nodes: _after, status: _localStatus, ...localFields } = local ?? ({ nodes: {} } as unknown as WorkflowFile);
  for (const change of fieldChanges(accountFields, localFields)) lines.push(`  ~ ${change}`);
  for (const [key, node] of Object.entries(after)) if (before[key] === undefined) lines.push(`  + node ${describeNode(key, node)}`);
  for (const [key, node] of Object.entries(before)) if (after[key] === undefined) lines.push(`  - node ${describeNode(key, node)}`);
  for (const [key, node] of Object.entries(after)) {
    const was = before[key];
    if (was === undefined) continue;
    const changes = was.type === node.type ? fieldChanges(was, node) : [`type: ${was.type} -> ${node.type}`, ...fieldChanges(was, node)];
    if (!isDeepStrictEqual(was.next, node.next)) changes.push(`next: [${was.next.join(', ')}] -> [${node.next.join(', ')}]`);
    if (changes.length > 0) lines.push(`  ~ node ${key}: ${changes.join('; ')}`);
  }
  return lines.map((line) => sanitize(line));
}

/** The whole of a workflow's diff: its graph in words, then its emails' files as unified diffs. */
export function workflowDiff(path: string, account: { file?: WorkflowFile; files?: Files }, local: { file?: WorkflowFile; files?: Files }): string {
  const graph = graphDiff(account.file, local.file);
  const emails = (files: Files | undefined) => (files === undefined ? undefined : new Map([...files].filter(([name]) => name.startsWith('emails/'))));
  const text = recordDiff(emails(account.files), emails(local.files), path);
  return `${graph.length > 0 ? `${graph.join('\n')}\n` : ''}${text}`;
}

/** A workflow that differs between the tree and the account, as `content diff` reports it. */
export interface WorkflowDifference {
  path: string;
  kind: 'workflows';
  name: string;
  id?: string;
  standing: Exclude<WorkflowStanding, 'same'>;
  /** The graph in words, then the emails' unified diffs. */
  text: string;
}

/** Every workflow of the tree, and of the account, that differs; their emails' LMX in the tree's names of components and themes (`lmx`). */
export async function diffWorkflows(
  client: ApiClient,
  scope: Scope,
  state: ContentState,
  account: string,
  lmx?: LmxNames,
  values?: EnvValues,
): Promise<WorkflowDifference[]> {
  const { sides } = await readSides(client, scope.root, state, account, { onlyChanged: false, scope, lmx, values });
  return sides.flatMap((side) => {
    if (side.standing === 'same') return [];
    return [
      {
        path: side.path,
        kind: 'workflows' as const,
        name: side.file?.name ?? side.remote?.name ?? side.path,
        ...(side.remote === undefined ? {} : { id: side.remote.id }),
        standing: side.standing,
        text: workflowDiff(side.path, { file: side.account?.file, files: side.account?.files }, { file: side.file, files: side.local?.files }),
      },
    ];
  });
}
