/**
 * A workflow file read as the account's view of a workflow, its nodes mapped as push and pull map
 * them (file-nodes.ts): for `workflow show` to draw a local workflow (a pull request's new graph)
 * as it draws one from the account, and for `workflow test --file` to run one.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { readTreeFile } from '../../base/tree-files.js';
import { MAX_LMX_BYTES } from '../../platform/email-messages/schemas.js';
import { WORKFLOW_FILE, type WorkflowFile } from '../../platform/workflows/file.js';
import { type ApiNames, toApiNode } from '../../platform/workflows/file-nodes.js';
import { directoryId, parseWorkflowFile } from '../../platform/workflows/file-text.js';
import type { Workflow } from '../../platform/workflows/schemas.js';

function subjectOf(directory: string, email: unknown): string | undefined {
  if (typeof email !== 'string') return undefined;
  try {
    const fields = JSON.parse(readTreeFile(directory, email, MAX_LMX_BYTES)?.toString('utf8') ?? '{}') as { subject?: unknown };
    return typeof fields.subject === 'string' ? fields.subject : undefined;
  } catch {
    return undefined;
  }
}

/** A workflow file read, from its path or its directory's. */
export interface LocalFile {
  directory: string;
  file: WorkflowFile;
}

export function readLocalFile(path: string): LocalFile {
  const directory = basename(path) === WORKFLOW_FILE ? dirname(path) : path;
  const file = join(directory, WORKFLOW_FILE);
  if (!existsSync(file))
    throw new UsageError(`${path}: no ${WORKFLOW_FILE} there`, { hint: 'name a workflow.yaml, or the workflow directory of a content tree that holds one' });
  // Never through a link: readTreeFile refuses one, naming it.
  return { directory, file: parseWorkflowFile(file, readTreeFile(directory, WORKFLOW_FILE, MAX_LMX_BYTES)!.toString('utf8')) };
}

/** The API's fields of a send-email node's email, read from its files: the subject, and `made` when there is one. */
export function emailFieldsIn(directory: string, made: (key: string) => Record<string, unknown> = () => ({})): ApiNames['email'] {
  return (path, key) => {
    const subject = subjectOf(directory, path);
    return subject === undefined ? {} : { ...made(key), subject };
  };
}

/** The workflow a local file describes, in the shape the account answers with: each key for a node id, its names as `names` resolves them. */
export function localWorkflow({ directory, file }: LocalFile, names: ApiNames): Workflow {
  const nodes = Object.fromEntries(Object.entries(file.nodes).map(([key, node]) => [key, toApiNode(node, key, names)]));
  return {
    id: directoryId(directory) ?? basename(directory),
    name: file.name,
    ...(file.description === undefined ? {} : { description: file.description }),
    ...(file.emoji === undefined ? {} : { emoji: file.emoji }),
    ...(file.status === undefined ? {} : { status: file.status }),
    mailingListId: file.mailingList ?? null,
    rootNodeId: file.root,
    nodes,
  } as Workflow;
}

/**
 * The workflow a local file describes, to draw: with no account to read, a segment is named by its
 * name where the account's id would be, and a send-email node by its email's subject.
 */
export function readLocalWorkflow(path: string): Workflow {
  const local = readLocalFile(path);
  return localWorkflow(local, { segmentId: (name) => name, email: emailFieldsIn(local.directory) });
}
