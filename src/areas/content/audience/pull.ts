/**
 * `content pull` of the audience half: the account's segments, groups, custom contact properties,
 * mailing lists and event patterns written as files, the ids kept in the state alone. Read first,
 * then written: a pull that would overwrite a local edit writes nothing (the caller refuses it
 * with the other kinds' edits).
 */
import type { ApiClient } from '../../../api/client.js';
import { keepSyncedAudience, type SyncedAudience } from '../shared/audience-state.js';
import { type ContentState, digestOf } from '../shared/files.js';
import type { Line } from '../shared/render.js';
import { writeAudienceRecord } from './files.js';
import type { AudienceSide } from './plan.js';
import type { RemoteAudience } from './remote.js';
import { readAudienceSides } from './sides.js';

export interface PreparedAudiencePull {
  sides: AudienceSide[];
  /** Files edited here since the last pull whose record the account holds: a pull without --force overwrites none. */
  edited: string[];
}

export async function prepareAudiencePull(client: ApiClient, root: string, state: ContentState | undefined, account: string): Promise<PreparedAudiencePull> {
  const { sides } = await readAudienceSides(client, root, state, account);
  const edited = sides
    .filter((side) => side.local !== undefined && side.remote !== undefined && ['local', 'conflict'].includes(side.standing))
    .map((side) => side.path);
  return { sides, edited };
}

/** What the state keeps of a record in step with the account. */
export function syncedAudience(remote: RemoteAudience): SyncedAudience {
  return {
    ...(remote.id === undefined ? {} : { id: remote.id }),
    digest: digestOf(remote.files),
    ...(remote.properties === undefined ? {} : { keys: [...remote.properties.keys()].sort() }),
    ...(remote.ids === undefined ? {} : { ids: remote.ids }),
  };
}

/** Writes what a prepared pull read, and keeps the ids in the state; returns a line per record. */
export function applyAudiencePull(root: string, state: ContentState, account: string, prepared: PreparedAudiencePull): Line[] {
  const lines: Line[] = [];
  const records: Record<string, SyncedAudience> = {};
  for (const side of prepared.sides) {
    const { local, remote } = side;
    if (remote === undefined) {
      if (local !== undefined && side.synced !== undefined)
        lines.push({ status: 'gone', kind: side.kind, path: side.path, name: side.name, note: 'no longer in the account; files left as they are' });
      continue;
    }
    const path = local?.path ?? remote.path;
    const unchanged = local !== undefined && digestOf(local.files) === digestOf(remote.files);
    if (!unchanged) writeAudienceRecord(root, { ...remote, path });
    records[path] = syncedAudience(remote);
    lines.push({
      status: local === undefined ? 'added' : unchanged ? 'unchanged' : 'updated',
      kind: side.kind,
      path,
      name: remote.name,
      ...(remote.id === undefined ? {} : { id: remote.id }),
    });
  }
  keepSyncedAudience(state, account, records);
  return lines;
}
