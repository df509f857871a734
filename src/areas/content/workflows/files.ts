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
import { basename, join } from 'node:path';
import { readTreeFile, removeTreeFile, treeEntries, treeEntryKind, writeTreeFile } from '../../../base/tree-files.js';
import { Document, isPair, isScalar, parseDocument, visit, type YAMLError } from 'yaml';
import { positionAt, yamlFault, yamlValue } from '../../../base/parse-faults.js';
import { LocalFileError } from '../../../base/errors.js';
import { MAX_LMX_BYTES } from '../../../platform/email-messages/schemas.js';
import { fileFieldsOf, workflowFile, type FileNode, type WorkflowFile } from '../../../platform/workflows/file.js';
import type { Files } from '../files.js';
import { WORKFLOWS } from '../lmx-files.js';

/** A workflow directory as read: its path in the tree (`workflows/welcome--<id>`) and its files by path inside it. */
export interface WorkflowFiles {
  path: string;
  files: Files;
}

/** The id a pulled directory's name ends in (`welcome--<id>`), or undefined for a new one (`welcome`). */
export function directoryId(path: string): string | undefined {
  const name = basename(path);
  const at = name.lastIndexOf('--');
  if (at < 0 || at + 2 === name.length) return undefined;
  try {
    return decodeURIComponent(name.slice(at + 2));
  } catch {
    // `--%E0%A4%A`: escapes that decode to no text, which a pull never writes.
    throw new LocalFileError(`${path}: the end of its name after -- is not an id that a pull writes`, {
      hint: 'rename the directory: keep the id a pull gave it, or drop everything from -- for a new workflow',
    });
  }
}

/** Every workflow directory of a tree, each with its files (hidden ones, such as the preview's sample values, left out). */
export function readWorkflows(root: string): WorkflowFiles[] {
  if (treeEntryKind(root, WORKFLOWS) !== 'directory') return [];
  return visible(root, WORKFLOWS).flatMap(({ name }) => {
    const path = `${WORKFLOWS}/${name}`;
    // A link is refused here, naming it; a loose file (a README) is no workflow.
    return treeEntryKind(root, path) === 'directory' ? [{ path, files: readTree(root, path) }] : [];
  });
}

/** The entries of a directory of the tree that are not hidden. */
function visible(root: string, path: string) {
  return treeEntries(root, path).filter(({ name }) => !name.startsWith('.'));
}

/** The regular files under a workflow directory, by their path inside it, with `/`; never through a link. */
function readTree(root: string, directory: string): Files {
  const files: Files = new Map();
  const pending = [''];
  while (pending.length > 0) {
    const inside = pending.shift()!;
    for (const { name, kind } of visible(root, inside === '' ? directory : `${directory}/${inside}`)) {
      const relative = inside === '' ? name : `${inside}/${name}`;
      if (kind === 'directory') pending.push(relative);
      // readTreeFile refuses a link, or anything but a regular file, naming it.
      else files.set(relative, readTreeFile(root, `${directory}/${relative}`, MAX_LMX_BYTES)!.toString('utf8'));
    }
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Makes a workflow directory hold exactly these files: each renamed into place, never through a link, the files it no longer has removed. */
export function writeWorkflow(root: string, path: string, files: Files): void {
  const existing = treeEntryKind(root, path) === 'directory' ? readTree(root, path) : new Map<string, string>();
  for (const [name, text] of files) writeTreeFile(root, `${path}/${name}`, text);
  for (const name of existing.keys()) if (!files.has(name)) removeTreeFile(root, `${path}/${name}`);
  for (const { name, kind } of visible(root, `${path}/emails`)) {
    if (kind === 'directory' && visible(root, `${path}/emails/${name}`).length === 0)
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

/** What is wrong with a workflow file's YAML, in words that quote none of it but the key a repeated one is. */
export interface YamlProblem {
  repeated: boolean;
  message: string;
  fix: string;
}

/**
 * A YAML error of a workflow file as a problem: a key given twice named by where it stands (a node
 * key, or a field inside its node), anything else by the parser's code alone.
 */
export function yamlProblem(document: Document.Parsed, error: YAMLError): YamlProblem {
  if (error.code !== 'DUPLICATE_KEY') return { repeated: false, message: yamlFault(error), fix: 'fix the YAML: indentation, quotes, a missing colon' };
  let path: string[] | undefined;
  let key: string | undefined;
  visit(document, {
    Pair(_, pair, ancestors) {
      if (!isScalar(pair.key) || pair.key.range?.[0] !== error.pos[0]) return undefined;
      key = String(pair.key.value);
      path = ancestors.filter(isPair).map((parent) => String(isScalar(parent.key) ? parent.key.value : '?'));
      return visit.BREAK;
    },
  });
  if (path === undefined || key === undefined) return { repeated: true, message: 'a key is used twice', fix: 'keep one of them' };
  if (path.length === 1 && path[0] === 'nodes')
    return { repeated: true, message: `the node key "${key}" is used twice`, fix: 'each node key names one node: rename one of them' };
  if (path.length === 2 && path[0] === 'nodes')
    return { repeated: true, message: `node "${path[1]}": the field "${key}" is given twice`, fix: `keep one ${key} in the node` };
  return { repeated: true, message: `${[...path, key].join('.')} is given twice`, fix: 'keep one of them' };
}

/** A workflow file's text, parsed and its shape checked; an error names the file and, for YAML, the line. */
export function parseWorkflowFile(file: string, text: string): WorkflowFile {
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    const { line, column } = positionAt(text, first.pos[0]);
    const { message, fix } = yamlProblem(document, first);
    throw new LocalFileError(`${file}:${line}:${column}: ${message}`, { hint: fix });
  }
  const read = yamlValue(document);
  if ('fault' in read) throw new LocalFileError(`${file}: ${read.fault}`, { hint: 'write each node out, without YAML aliases' });
  const result = workflowFile.safeParse(read.value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    const message = issue.code === 'unrecognized_keys' ? `${issue.keys.join(', ')}: not a field of a workflow file` : issue.message;
    throw new LocalFileError(`${file}: ${where}${message}`, {
      hint: 'a workflow file has name, description, emoji, status, mailingList, root and nodes, each node its type and next',
    });
  }
  return result.data as WorkflowFile;
}
