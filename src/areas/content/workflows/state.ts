/**
 * What the state file keeps of a workflow in each account, beside what it keeps of any record (its
 * id, the digest of its files when last in step): the revision of its graph then, the node id of
 * every key, the content revision of each email, and the ids of the lists and segments it named.
 */
import { z } from '../../../base/shapes.js';
import type { ContentState } from '../files.js';
import { WORKFLOWS } from '../lmx-files.js';

export const syncedWorkflow = z.looseObject({
  id: z.string(),
  digest: z.string(),
  /** The workflow's revision when last in step (a stale one is a 409 on every edit). */
  workflowRevisionId: z.string().nullable().optional(),
  /** By node key, the node's id in this account. */
  nodes: z.record(z.string(), z.string()).default({}),
  /** By email key (the send-email node's), the email message's content revision when last in step. */
  emails: z.record(z.string(), z.string().nullable()).optional(),
});
export type SyncedWorkflow = z.infer<typeof syncedWorkflow>;

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
