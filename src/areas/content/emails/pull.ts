/** `content pull` of emails, components and themes: the account's records into files, never over local edits unasked. */

import { type EnvValues, type SharedValue, unfillFiles } from '../shared/env-values.js';
import { type ContentState, type EmailDirectory, recordPath, type SyncedRecord } from '../shared/files.js';
import { type LmxNames, lmxNames, nameRecords } from '../shared/lmx-names.js';
import { readRecords, writeRecord } from '../shared/record-files.js';
import type { Line } from '../shared/render.js';
import { standingOf } from '../shared/standing.js';
import type { RemoteRecord } from './remote.js';
import { followRenames, nameRemotes, type Pair, pairRecords, syncedOf } from './sides.js';

/** The emails, components and themes a pull would write: each local record paired with the account's, and those edited here. */
export interface PreparedEmailPull {
  pairs: Pair[];
  /** Local records the pull would overwrite: changed here, or in conflict. */
  edited: Pair[];
  /** The tree's components and themes with their ids in the account, for the workflows' LMX too. */
  names: LmxNames;
}

/**
 * Pairs the tree's records of the kinds asked for with the account's. A renamed folder is the
 * record it was: the state follows the new name before the records are paired.
 */
export function prepareEmailPull(
  root: string,
  kinds: readonly EmailDirectory[],
  state: ContentState,
  account: string,
  remotes: RemoteRecord[],
  values?: EnvValues,
): PreparedEmailPull {
  const locals = readRecords(root, kinds, values);
  followRenames(state, locals);
  // The account's ids in LMX are written as the tree's directories, of the records it holds and of those this pull writes.
  const names = lmxNames(root, state, account);
  nameRecords(locals, names, true);
  const pairs = pairRecords(locals, remotes, state.accounts[account] ?? {});
  nameRemotes(pairs, names, () => true);
  // Local edits are never overwritten unasked: nothing is written while one stands in the way.
  const edited = pairs.filter((pair) => pair.local !== undefined && pair.remote !== undefined && ['local', 'conflict'].includes(standingOf(pair)));
  return { pairs, edited, names };
}

/**
 * Writes the account's records into the tree, an environment's values made placeholders again
 * when given: the lines to print, what the state keeps of each, by path, and the values left as
 * written because two names share them.
 */
export function applyEmailPull(
  root: string,
  { pairs }: PreparedEmailPull,
  values?: EnvValues,
): { lines: Line[]; records: Record<string, SyncedRecord>; shared: SharedValue[] } {
  const lines: Line[] = [];
  const kept: Record<string, SyncedRecord> = {};
  const shared: SharedValue[] = [];
  for (const pair of pairs) {
    const { local, remote } = pair;
    if (remote === undefined) {
      // Gone from the account, or never there: the files stay as the person left them.
      if (local !== undefined && pair.synced !== undefined)
        lines.push({ status: 'gone', kind: local.kind, path: local.path, name: local.name, note: 'no longer in the account; files left as they are' });
      continue;
    }
    const path = local?.path ?? recordPath(remote.kind, remote.name, remote.id);
    // Files that name components or themes by id (an older pull's) are written anew with their names.
    const unchanged =
      local !== undefined &&
      local.withIds === undefined &&
      [...remote.files].every(([file, text]) => local.files.get(file) === text) &&
      local.files.size === remote.files.size;
    if (!unchanged) {
      const written = values === undefined ? { files: remote.files, shared: [] } : unfillFiles(remote.files, values);
      shared.push(...written.shared);
      writeRecord(root, { ...remote, files: written.files, path });
    }
    kept[path] = syncedOf(remote);
    lines.push({ status: local === undefined ? 'added' : unchanged ? 'unchanged' : 'updated', kind: remote.kind, path, name: remote.name, id: remote.id });
  }
  return { lines, records: kept, shared };
}

/**
 * What to do about local changes a pull would overwrite. Pushing them is offered only when a push
 * would send them: one that changed in the account too is a conflict a push skips.
 */
export function pullRefusalHint(edited: Pair[]): string {
  const conflicts = edited.filter((pair) => standingOf(pair) === 'conflict');
  if (conflicts.length === 0) {
    return "see them with `loopsctl content diff`, push them with `loopsctl content push`, or pull with --force to take the account's side";
  }
  const paths = conflicts.map((pair) => pair.local!.path).join(', ');
  const why = conflicts.every((pair) => pair.synced === undefined)
    ? `${paths} ${conflicts.length === 1 ? 'was' : 'were'} never pulled from the account's record of the same name`
    : `${paths} changed in the account too`;
  return `${why}, so a push would skip ${conflicts.length === 1 ? 'it' : 'them'} as a conflict: see the changes with \`loopsctl content diff\`, keep them aside (commit or stash them), pull with --force and merge them back; or push with --force to replace the account's side`;
}
