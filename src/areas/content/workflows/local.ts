/**
 * A workflow file read as the account's view of a workflow, so that `workflow show` draws a local
 * workflow (a pull request's new graph) as it draws one from the account: each key for a node id,
 * a segment by its name, a send-email node with the subject of its email.
 */
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import { WORKFLOW_FILE } from '../../../platform/workflows/file.js';
import type { Workflow } from '../../../platform/workflows/schemas.js';
import { directoryId, parseWorkflowFile } from './files.js';

function subjectOf(directory: string, email: unknown): string | undefined {
  if (typeof email !== 'string') return undefined;
  try {
    const fields = JSON.parse(readFileSync(join(directory, email), 'utf8')) as { subject?: unknown };
    return typeof fields.subject === 'string' ? fields.subject : undefined;
  } catch {
    return undefined;
  }
}

/** The workflow a local file describes, in the shape the account answers with. */
export function readLocalWorkflow(path: string): Workflow {
  const directory = basename(path) === WORKFLOW_FILE ? dirname(path) : path;
  const file = join(directory, WORKFLOW_FILE);
  if (!existsSync(file))
    throw new UsageError(`${path}: no ${WORKFLOW_FILE} there`, { hint: 'name a workflow.yaml, or the workflow directory of a content tree that holds one' });
  if (lstatSync(file).isSymbolicLink()) throw new LocalFileError(`${file} is a symbolic link: content is never read through a link`);
  const parsed = parseWorkflowFile(file, readFileSync(file, 'utf8'));
  const nodes = Object.fromEntries(
    Object.entries(parsed.nodes).map(([key, node]) => {
      const { type, next, segment, email, ...fields } = node;
      const subject = subjectOf(directory, email);
      return [
        key,
        {
          typeName: type,
          nextNodeIds: next,
          ...fields,
          ...(typeof segment === 'string' ? { audienceSegmentId: segment } : {}),
          ...(subject === undefined ? {} : { subject }),
        },
      ];
    }),
  );
  return {
    id: directoryId(directory) ?? basename(directory),
    name: parsed.name,
    ...(parsed.description === undefined ? {} : { description: parsed.description }),
    ...(parsed.emoji === undefined ? {} : { emoji: parsed.emoji }),
    ...(parsed.status === undefined ? {} : { status: parsed.status }),
    mailingListId: parsed.mailingList ?? null,
    rootNodeId: parsed.root,
    nodes,
  } as Workflow;
}
