/**
 * What the state file keeps of a workflow in each account, beside what it keeps of any record (its
 * id, the digest of its files when last in step): the revision of its graph then, the node id of
 * every key, the content revision of each email, and the ids of the lists and segments it named.
 */
import { z } from '../../../base/shapes.js';
import type { ContentState } from '../shared/files.js';
import { WORKFLOWS } from '../shared/lmx-files.js';

export const syncedWorkflow = z.looseObject({
  id: z.string(),
  digest: z.string(),
  /** The workflow's revision when last in step (a stale one is a 409 on every edit). */
  workflowRevisionId: z.optional(z.nullable(z.string())),
  /** By node key, the node's id in this account. */
  nodes: z._default(z.record(z.string(), z.string()), {}),
  /** By email key (the send-email node's), the email message's content revision when last in step. */
  emails: z.optional(z.record(z.string(), z.nullable(z.string()))),
  /**
   * A push under way, or one that stopped: the digest of the files it was writing, and the revisions
   * its own writes had reached (the workflow's, and each email's it sent). The account past them is
   * someone else's change. A marker of an older loopsctl is the digest alone, and names no revision.
   */
  pushing: z.optional(
    z.union([
      z.string(),
      z.looseObject({
        digest: z.string(),
        workflowRevisionId: z.nullable(z.string()),
        emails: z._default(z.record(z.string(), z.nullable(z.string())), {}),
      }),
    ]),
  ),
});
export type SyncedWorkflow = z.infer<typeof syncedWorkflow>;

/** What a stopped push reached: the revisions its writes left, after which the account is its own doing. */
export interface Reached {
  digest: string;
  workflowRevisionId: string | null;
  /** By email key, the content revision the push's update of it left. */
  emails: Record<string, string | null>;
}

/** The marker of a push that stopped, or undefined; an older marker (a digest) names no revision, so nothing is its own. */
export function reachedOf(synced: SyncedWorkflow | undefined): Reached | undefined {
  const marker = synced?.pushing;
  if (marker === undefined || typeof marker === 'string') return undefined;
  return marker;
}

/** The workflows the state knows in an account, by path. */
export function syncedWorkflows(state: ContentState | undefined, account: string): Map<string, SyncedWorkflow> {
  const records = state?.accounts[account] ?? {};
  const found = new Map<string, SyncedWorkflow>();
  for (const [path, record] of Object.entries(records)) {
    if (!path.startsWith(`${WORKFLOWS}/`)) continue;
    const parsed = syncedWorkflow.safeParse(record);
    if (parsed.success) found.set(path, parsed.data);
  }
  return found;
}

/** Every key→id map the state holds for a workflow directory, in any account: the keys a pull keeps. */
export function knownKeys(state: ContentState | undefined, path: string, account: string): Record<string, string> {
  return syncedWorkflows(state, account).get(path)?.nodes ?? {};
}
