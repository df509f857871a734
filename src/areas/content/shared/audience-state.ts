/**
 * What the root of a content tree knows of its audience half: the kinds of record it holds, the id
 * a pulled directory's name ends in, and what the state file keeps of each record per account. The
 * account's view, the LMX names and the rendering read them beside the audience half itself.
 */
import { z } from '../../../base/shapes.js';
import type { DirectoryOf } from '../../../platform/record-kinds.js';
import type { ContentState } from './files.js';

/** The kinds of record the audience half of the tree holds, each where it lives in the tree (platform/record-kinds.ts). */
export type AudienceKind = DirectoryOf<'audience'>;

/** The id a pulled directory's name ends in (`dormant--<id>`), or undefined for one named otherwise. */
export function directoryIdOf(path: string): string | undefined {
  const folder = path.slice(path.lastIndexOf('/') + 1);
  const at = folder.lastIndexOf('--');
  if (at < 0 || at + 2 === folder.length) return undefined;
  try {
    return decodeURIComponent(folder.slice(at + 2));
  } catch {
    return undefined;
  }
}

/** What the state keeps of an audience record in one account: its id (none for the single files), and its files' digest when last in step. */
const syncedAudience = z.looseObject({
  id: z.optional(z.string()),
  digest: z.string(),
  /** The contact properties' keys the account had when last in step: one of them gone from the file was removed here. */
  keys: z.optional(z.array(z.string())),
  /** For lists.json and event-patterns.json: the id of each by its name. */
  ids: z.optional(z.record(z.string(), z.string())),
});
export type SyncedAudience = z.infer<typeof syncedAudience>;

const audienceState = z.record(z.string(), z.record(z.string(), syncedAudience));

/** The audience records the state knows in an account, by path; a state without them knows none. */
export function syncedAudienceOf(state: ContentState | undefined, account: string): Record<string, SyncedAudience> {
  const parsed = audienceState.safeParse(state?.audience ?? {});
  return parsed.success ? { ...(parsed.data[account] ?? {}) } : {};
}

/** Keeps what the state knows of the audience records of an account, written with the state. */
export function keepSyncedAudience(state: ContentState, account: string, records: Record<string, SyncedAudience>): void {
  const all = audienceState.safeParse(state.audience ?? {});
  const sorted = Object.fromEntries(Object.entries(records).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  state.audience = { ...(all.success ? all.data : {}), [account]: sorted };
}
