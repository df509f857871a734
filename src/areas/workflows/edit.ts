/**
 * What the `workflow` commands do. Every change is made against a revision of the workflow: the
 * one given with --expected-revision-id, else the one just read, so a concurrent edit is caught by
 * the API's 409 either way. In text mode a change prints the graph after it, the nodes it touched
 * marked; with --json it prints the API's answer as it came.
 */

import type { ApiClient } from '../../api/client.js';
import { checkId } from '../../api/ids.js';
import { ExitCode, NotFoundError, RejectedError, ServerError, withDetails } from '../../base/errors.js';
import type { Uses } from '../../core/capabilities.js';
import type { ExpectedRevision, Workflow } from '../../platform/workflows/schemas.js';
import * as api from './client.js';
import { conditionNotes, noteUnread, withConditions } from './conditions.js';
import { type GraphChanges, renderChangedWorkflow } from './render.js';

export interface RevisionOption {
  expectedRevisionId?: string;
}

/** What a change starts from: a client, the graph as it was (for the marks), and the revision to send. */
interface Edit {
  context: Uses<'out' | 'globals'>;
  client: ApiClient;
  workflowId: string;
  before?: Workflow;
  revision: ExpectedRevision;
}

/** Reads the workflow when the revision is not given (and in text mode, to mark what changes). */
export async function startEdit(context: Uses<'out' | 'client' | 'globals'>, workflowId: string, options: RevisionOption): Promise<Edit> {
  checkId(workflowId, 'workflow id');
  const client = await context.client();
  const given = options.expectedRevisionId;
  const before = given === undefined || !context.out.json ? await api.getWorkflow(client, workflowId) : undefined;
  if (given !== undefined) return { context, client, workflowId, before, revision: given === 'null' ? null : given };
  return { context, client, workflowId, before, revision: before!.workflowRevisionId ?? null };
}

/**
 * The API's words for a request's fields, in loopsctl's own flags, so a refusal tells the person
 * what to type: `insertMode "after"` is --after, `toNodeId` the node --between leads to.
 */
const API_WORDING: [RegExp, string][] = [
  [/insertMode "(after|before|between)"/g, '--$1'],
  [/use "between"/g, 'use --between'],
  [/with the exact toNodeId/g, 'naming both nodes'],
  [/as fromNodeId/g, 'as its first node'],
  [/\bfromNodeId\b/g, 'the node before it (<fromId>)'],
  [/\btoNodeId\b/g, 'the node after it (<toId>)'],
  [/\bnewTargetNodeId\b/g, '--to'],
  [/\bnodeTypeName\b/g, '--type'],
  [/\bqueuedContactPolicy\b/g, '--queued-contacts'],
  [/\bexpectedRevisionId\b/g, '--expected-revision-id'],
];

export function inLoopsctlWords(message: string): string {
  return API_WORDING.reduce((text, [pattern, words]) => text.replace(pattern, words), message);
}

/**
 * Sends a change, explaining the answers a person needs more from: a 409 (the workflow changed
 * since the revision) and a 501 (the API does not do this change yet), both exit 5, and a 400 in
 * the command's own words. With --debug, says first which revision the change is made against
 * (never before a refusal made locally, since nothing is sent then).
 */
export async function send<T>(edit: Edit, change: () => Promise<T>, notImplemented = 'this change'): Promise<T> {
  const { context } = edit;
  if (context.globals.debug) {
    context.runtime.stderr.write(
      `Changing workflow ${edit.workflowId} at revision ${edit.revision ?? 'null (it has none yet)'}; a change made since is refused.\n`,
    );
  }
  try {
    return await change();
  } catch (error) {
    if (error instanceof RejectedError && error.status === 400) {
      const translated = inLoopsctlWords(error.message);
      if (translated !== error.message) throw withDetails(error, { message: translated });
    }
    // The workflow was read at the start: what the API did not find is a node of it.
    if (error instanceof NotFoundError && error.hint === undefined)
      throw withDetails(error, { hint: `see the workflow's nodes and their ids with \`loopsctl workflow show ${edit.workflowId}\`` });
    if (error instanceof RejectedError && error.status === 409) {
      throw new RejectedError(
        `workflow ${edit.workflowId} has changed since revision ${edit.revision ?? 'null'}, so nothing was changed (the API said: ${error.message})`,
        {
          status: 409,
          code: error.code,
          hint: `see the new state with \`loopsctl workflow show ${edit.workflowId}\`, then run the command again`,
        },
      );
    }
    if (error instanceof ServerError && error.status === 501) {
      throw new RejectedError(`the workflow API does not support ${notImplemented} yet; nothing was changed (the API said: ${error.message})`, {
        status: 501,
        code: 'not_implemented',
        hint: 'the workflow API is in alpha: this may become possible later; the Loops app can make the change meanwhile',
      });
    }
    throw error;
  }
}

interface ChangeView {
  summary: string;
  workflow: Workflow;
  changes: GraphChanges;
  revision?: string | null;
  /** Said after the drawing: a dry run's impact, or why nothing was changed. */
  outcome?: string;
}

/**
 * A change's summary, the graph after it drawn as `show` draws it (the conditions of its filter and
 * branch nodes read the same way, or named as not read), its outcome and the new revision.
 */
export async function presentChange(context: Uses<'out' | 'client'>, answer: unknown, view: ChangeView): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(answer);
  const conditions = await withConditions(context, await context.client(), view.workflow, false);
  const notes = conditionNotes(conditions.unread);
  const lines = [view.summary, '', renderChangedWorkflow(out, conditions.workflow, view.changes, notes).trimEnd()];
  if (view.outcome !== undefined) lines.push('', view.outcome);
  if (view.revision !== undefined) lines.push('', `revision ${view.revision ?? 'null'}`);
  await out.writeProse(lines.join('\n'));
  noteUnread(context, conditions.unread, `\`loopsctl workflow show ${view.workflow.id} --details\` reads them all.`);
}

export type PolicyOptions = { dryRun?: boolean; queuedContacts?: 'fail' | 'discard'; yes?: boolean };

export function destructiveBody(options: PolicyOptions) {
  return { ...(options.dryRun ? { dryRun: true } : {}), ...(options.queuedContacts === undefined ? {} : { queuedContactPolicy: options.queuedContacts }) };
}

export function contacts(count: number): string {
  return `${count} queued contact${count === 1 ? '' : 's'}`;
}

/** What a dry run or a held-back change says, and its exit code: 5 when queued contacts held it back. */
export function previewOutcome(status: string, impact: string, count: number): { outcome: string; code?: number } {
  if (status === 'dryRun') return { outcome: `Dry run: ${impact}; ${contacts(count)} would be discarded. Nothing was changed.` };
  return {
    outcome: `Not done: ${impact}, and ${contacts(count)} would be discarded. Nothing was changed.\nTo go ahead and discard them, run it again with --queued-contacts discard.`,
    code: ExitCode.rejected,
  };
}
