/**
 * Workflows in a content tree: `workflows/<slug>--<id>/workflow.yaml` with its emails under
 * `emails/<slug>/`, read and written as the other records are (never through a symbolic link, each
 * file renamed into place), and the YAML of the workflow file.
 *
 * YAML rather than JSON: a workflow is reviewed as a graph of small nodes, where YAML reads as
 * prose (`next: [wait-1h]`), takes comments that a push keeps (it never rewrites the file), and
 * merges line by line; the `yaml` package, already bundled for the sandbox's fixtures, parses it
 * with positions and writes it in a stable layout.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Document, isPair, isScalar, visit } from 'yaml';
import { refused, treeEntryKind } from '../../../base/tree-files.js';
import { removeTreeFile, writeTreeFiles } from '../../../base/tree-writes.js';
import { MAX_LMX_BYTES } from '../../../platform/email-messages/schemas.js';
import type { FileNode, WorkflowFile } from '../../../platform/workflows/file.js';
import { fileFieldsOf } from '../../../platform/workflows/node-facets.js';
import { type EnvValues, fillFiles } from './env-values.js';
import { type Files, shownDirectory, shownEntries } from './files.js';
import { WORKFLOWS } from './lmx-files.js';

/** A workflow directory as read: its path in the tree (`workflows/welcome--<id>`) and its files by path inside it. */
export interface WorkflowFiles {
  path: string;
  files: Files;
  /** The files as on disk where their emails' LMX names components or themes by id, as an older pull wrote it (lmx-names.ts). */
  withIds?: Files;
  /** The files as written, where `files` holds its emails filled with an environment's values (env-values.ts): never written over. */
  written?: Files;
}

/**
 * Every workflow directory of a tree, each with its files (hidden ones, such as the preview's sample
 * values, left out), its emails filled with an environment's values when given.
 */
export function readWorkflows(root: string, values?: EnvValues): WorkflowFiles[] {
  if (treeEntryKind(root, WORKFLOWS) !== 'directory') return [];
  return shownEntries(root, WORKFLOWS).flatMap(({ name }) => {
    const path = `${WORKFLOWS}/${name}`;
    // A link is refused here, naming it; a loose file (a README) is no workflow.
    if (treeEntryKind(root, path) !== 'directory') return [];
    const files = readTree(root, path);
    const filled = values === undefined ? files : fillFiles(files, values);
    return [{ path, files: filled, ...(filled === files ? {} : { written: files }) }];
  });
}

/** The regular files under a workflow directory, by their path inside it, with `/`; never through a link. */
function readTree(root: string, directory: string): Files {
  const files: Files = new Map();
  const pending = [''];
  while (pending.length > 0) {
    const inside = pending.shift()!;
    const path = inside === '' ? directory : `${directory}/${inside}`;
    const listed = shownDirectory(root, path);
    for (const { name, kind } of listed?.entries ?? []) {
      const relative = inside === '' ? name : `${inside}/${name}`;
      if (kind === 'directory') pending.push(relative);
      else if (kind === 'file') files.set(relative, listed!.read(name, MAX_LMX_BYTES)!.toString('utf8'));
      // A link, or anything but a regular file, refused without opening it, named.
      else throw refused(join(root, path, name), kind, 'regular file');
    }
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Makes a workflow directory hold exactly these files: each renamed into place, never through a link, the files it no longer has removed. */
export function writeWorkflow(root: string, path: string, files: Files): void {
  const existing = treeEntryKind(root, path) === 'directory' ? readTree(root, path) : new Map<string, string>();
  writeTreeFiles(root, path, files);
  for (const name of existing.keys()) if (!files.has(name)) removeTreeFile(root, `${path}/${name}`);
  for (const { name, kind } of shownEntries(root, `${path}/emails`)) {
    if (kind === 'directory' && shownEntries(root, `${path}/emails/${name}`).length === 0)
      rmSync(join(root, path, 'emails', name), { recursive: true, force: true });
  }
}

/** The workflow file as written: the fields in a fixed order, each node's fields in its type's order, `next` on one line. */
export function workflowYaml(file: WorkflowFile): string {
  const nodes = Object.fromEntries(Object.entries(file.nodes).map(([key, node]) => [key, orderedNode(node)]));
  const ordered = {
    name: file.name,
    ...(file.description === undefined ? {} : { description: file.description }),
    ...(file.emoji === undefined ? {} : { emoji: file.emoji }),
    ...(file.status === undefined ? {} : { status: file.status }),
    mailingList: file.mailingList ?? null,
    root: file.root,
    nodes,
  };
  const document = new Document(ordered);
  visit(document, {
    Seq(_key, sequence, path) {
      const parent = path.at(-1);
      if (isPair(parent) && (parent.key as { value?: unknown }).value === 'next') sequence.flow = true;
    },
  });
  // The status is the account's to change (the app starts and pauses a workflow): the file says so where it is read.
  const status = document.get('status', true);
  if (isScalar(status)) status.comment = ' as pulled; read-only (start, pause and publish in the app)';
  return document.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function orderedNode(node: FileNode): Record<string, unknown> {
  const { type, next, ...fields } = node;
  const order = fileFieldsOf(type) ?? Object.keys(fields).sort();
  const known = order.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]);
  const rest = Object.keys(fields)
    .filter((field) => !order.includes(field))
    .sort()
    .map((field) => [field, fields[field]]);
  return { type, next, ...Object.fromEntries([...known, ...rest]) };
}
