/**
 * The emails' sides, as `content pull`, `diff` and `push` see them: the account's records paired
 * with the local ones, how each pair stands, and the state a pull leaves.
 */
import type { ApiClient } from '../../../api/client.js';
import { explained } from '../../../core/explain.js';
import { namesakes } from '../../change/namesakes.js';
import { type ContentState, digestOf, type EmailDirectory, recordPath, type SyncedRecord } from '../shared/files.js';
import { type LmxNames, nameRecords } from '../shared/lmx-names.js';
import { type RecordFiles, referenceDigestOf } from '../shared/record-files.js';
import { CONTENT } from '../shared/scope.js';
import { fetchKind, type RemoteRecord } from './remote.js';

/** The account's records of the kinds asked for, each kind listed side by side. */
export async function fetchAll(client: ApiClient, kinds: readonly EmailDirectory[]): Promise<RemoteRecord[]> {
  return (await Promise.all(kinds.map((kind) => explained(fetchKind(client, kind), CONTENT)))).flat();
}

/** Local and account records paired: by the id the state keeps for this account, else by name. */
export interface Pair {
  local?: RecordFiles;
  remote?: RemoteRecord;
  synced?: SyncedRecord;
  /** Local and remote share a name, but only one remote record may have it. */
  ambiguous?: boolean;
}

export function pairRecords(locals: RecordFiles[], remotes: RemoteRecord[], synced: Record<string, SyncedRecord>): Pair[] {
  const byId = new Map(remotes.map((remote) => [`${remote.kind}/${remote.id}`, remote]));
  const claimed = new Set<RemoteRecord>();
  const pairs: Pair[] = locals.map((local) => {
    const known = synced[local.path];
    const remote = known === undefined ? undefined : byId.get(`${local.kind}/${known.id}`);
    if (remote !== undefined) claimed.add(remote);
    return { local, remote, synced: known };
  });
  for (const pair of pairs) {
    if (pair.remote !== undefined || pair.synced !== undefined) continue;
    const named = namesakes(remotes, pair.local!).filter((remote) => !claimed.has(remote));
    if (named.length > 1) pair.ambiguous = true;
    else if (named.length === 1) {
      pair.remote = named[0];
      claimed.add(named[0]!);
    }
  }
  for (const remote of remotes) if (!claimed.has(remote) && !pairs.some((pair) => pair.remote === remote)) pairs.push({ remote });
  return pairs;
}

/**
 * The account's LMX in the tree's names (shared/lmx-names.ts), once the ids of the components and themes
 * paired here that `learn` takes as the tree's are learnt: a record only in the account is learnt
 * under the directory a pull would write it to.
 */
export function nameRemotes(pairs: readonly Pair[], names: LmxNames, learn: (pair: Pair) => boolean): void {
  for (const pair of pairs) {
    const kind = pair.remote?.kind;
    if ((kind === 'components' || kind === 'themes') && learn(pair)) names.learn(pathOf(pair), pair.remote!.id);
  }
  nameRecords(
    pairs.flatMap((pair) => (pair.remote === undefined ? [] : [pair.remote])),
    names,
    false,
  );
}

/** The id a pulled folder's name ends in (`welcome--<id>`): undefined for a folder named otherwise (`invoice`). */
function folderId(path: string): string | undefined {
  const folder = path.slice(path.indexOf('/') + 1);
  const at = folder.lastIndexOf('--');
  return at < 0 || at + 2 === folder.length ? undefined : folder.slice(at + 2);
}

/**
 * Record folders renamed since the state last saw them. A pull names each folder after its record
 * and ends the name in the record's id, so a folder the state does not know, whose name ends in
 * the id of a folder the state knows that is gone (`welcome--<id>` renamed `hello--<id>`), is that
 * record: the state's entries for it, in every account, follow the new name. When two new folders
 * end in the same id (a copy), or the old folder is still there, neither is taken for it.
 */
export function followRenames(state: ContentState, locals: RecordFiles[]): Map<string, string> {
  const here = new Set(locals.map((local) => local.path));
  const known = new Set(Object.values(state.accounts).flatMap((records) => Object.keys(records)));
  const claims = new Map<string, string[]>();
  /** New folders that end in the id of a known one but are not taken for it: by new path, the known one. */
  const lookalikes = new Map<string, string>();
  for (const local of locals) {
    const id = folderId(local.path);
    if (known.has(local.path) || id === undefined) continue;
    const was = [...known].filter((path) => path.startsWith(`${local.kind}/`) && folderId(path) === id);
    if (was.length === 1 && !here.has(was[0]!)) claims.set(was[0]!, [...(claims.get(was[0]!) ?? []), local.path]);
    else if (was.length > 0) lookalikes.set(local.path, was[0]!);
  }
  const move = <T>(records: Record<string, T>, from: string, to: string) => {
    if (records[from] === undefined) return;
    records[to] = records[from];
    delete records[from];
  };
  for (const [from, to] of claims) {
    if (to.length !== 1) {
      for (const path of to) lookalikes.set(path, from);
      continue;
    }
    for (const records of Object.values(state.accounts)) move(records, from, to[0]!);
    for (const records of Object.values(state.pending ?? {})) move(records, from, to[0]!);
  }
  return lookalikes;
}

/**
 * What the state keeps of a record in step with the account. `published` is the digest of the
 * published files as last written here (a pull, a push that published): a push leaves it as it
 * was, since it does not write those files.
 */
export function syncedOf(remote: RemoteRecord, digest = digestOf(remote.files), published = referenceDigestOf(remote.files)): SyncedRecord {
  const revisions = Object.fromEntries(
    Object.entries(remote.messages).flatMap(([prefix, message]) =>
      message === undefined || prefix === 'published' ? [] : [[prefix, message.contentRevisionId]],
    ),
  );
  return {
    id: remote.id,
    digest,
    ...(Object.keys(revisions).length === 0 ? {} : { revisions }),
    ...(published === undefined ? {} : { published }),
  };
}

export function pathOf(pair: Pair): string {
  return pair.local?.path ?? recordPath(pair.remote!.kind, pair.remote!.name, pair.remote!.id);
}

export function describe(pair: Pair): { path: string; kind: EmailDirectory; name: string; id?: string } {
  const record = (pair.local ?? pair.remote)!;
  return { path: pathOf(pair), kind: record.kind, name: record.name, ...(pair.remote === undefined ? {} : { id: pair.remote.id }) };
}
