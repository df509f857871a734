/**
 * A workflow file read as the account's view of a workflow, so that `workflow show` draws a local
 * workflow (a pull request's new graph) as it draws one from the account: each key for a node id,
 * a segment by its name, a send-email node with the subject of its email.
 */
import { existsSync } from 'node:fs';
import { readTreeFile } from '../../base/tree-files.js';
import { MAX_LMX_BYTES } from '../../platform/email-messages/schemas.js';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { WORKFLOW_FILE } from '../../platform/workflows/file.js';
import type { Workflow } from '../../platform/workflows/schemas.js';
import { directoryId, parseWorkflowFile } from '../../platform/workflows/file-text.js';

function subjectOf(directory: string, email: unknown): string | undefined {
  if (typeof email !== 'string') return undefined;
  try {
    const fields = JSON.parse(readTreeFile(directory, email, MAX_LMX_BYTES)?.toString('utf8') ?? '{}') as { subject?: unknown };
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
  // Never through a link: readTreeFile refuses one, naming it.
  const parsed = parseWorkflowFile(file, readTreeFile(directory, WORKFLOW_FILE, MAX_LMX_BYTES)!.toString('utf8'));
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
