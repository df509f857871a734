/**
 * `content pull` of workflows: each workflow of the account written to
 * `workflows/<slug>--<id>/`, its nodes under the keys the state keeps for them, so that a second
 * pull changes no key and no file. Read first, then written: a pull that would overwrite a local
 * edit writes nothing (the caller refuses it with the other kinds' edits).
 */
import type { ApiClient } from '../../../api/client.js';
import { LocalFileError } from '../../../base/errors.js';
import { WORKFLOW_FILE, type WorkflowFile } from '../../../platform/workflows/file.js';
import { directoryId, parseWorkflowFile } from '../../../platform/workflows/file-text.js';
import { type EnvValues, type SharedValue, unfillFiles } from '../shared/env-values.js';
import { type ContentState, digestOf, type Files, recordPath, type SyncedRecord } from '../shared/files.js';
import { WORKFLOWS } from '../shared/lmx-files.js';
import { heldAt, type LmxNames, nameRecords } from '../shared/lmx-names.js';
import type { Line } from '../shared/render.js';
import { readWorkflows, type WorkflowFiles, writeWorkflow } from '../shared/workflow-files.js';
import { referencesOf } from './check.js';
import { type AccountNames, assignKeys, fetchNames, fetchWorkflows, type RemoteWorkflow, referenceNamesOf, workflowFileOf, workflowFilesOf } from './remote.js';
import { type SyncedWorkflow, syncedWorkflows } from './state.js';

/** A workflow of the account beside the directory that holds it, if any. */
export interface WorkflowPair {
  remote?: RemoteWorkflow;
  local?: WorkflowFiles;
  synced?: SyncedWorkflow;
  /** Where the workflow's files are, or go. */
  path: string;
}

/**
 * The account's workflows paired with the directories: by the id the state keeps for a directory in
 * this account, else by the id its name ends in (a tree pulled from this account), else by name
 * (a tree from another account). Directories no workflow matches come last, without a remote.
 */
export function pairWorkflows(
  remotes: RemoteWorkflow[],
  locals: WorkflowFiles[],
  synced: Map<string, SyncedWorkflow>,
  nameOf: (local: WorkflowFiles) => string | undefined,
): WorkflowPair[] {
  const byId = new Map(remotes.map((remote) => [remote.id, remote]));
  const claimed = new Set<string>();
  const pairs: WorkflowPair[] = [];
  const take = (local: WorkflowFiles, remote: RemoteWorkflow | undefined) => {
    if (remote !== undefined) claimed.add(remote.id);
    pairs.push({ local, remote, synced: synced.get(local.path), path: local.path });
  };
  const unmatched: WorkflowFiles[] = [];
  for (const local of locals) {
    const id = synced.get(local.path)?.id ?? directoryId(local.path);
    const remote = id === undefined ? undefined : byId.get(id);
    if (remote !== undefined && !claimed.has(remote.id)) take(local, remote);
    else unmatched.push(local);
  }
  for (const local of unmatched) {
    const name = nameOf(local);
    const named = remotes.filter((remote) => !claimed.has(remote.id) && remote.name === name);
    take(local, named.length === 1 && synced.get(local.path) === undefined ? named[0] : undefined);
  }
  for (const remote of remotes) if (!claimed.has(remote.id)) pairs.push({ remote, path: recordPath(WORKFLOWS, remote.name, remote.id) });
  return pairs;
}

/** A pull of the workflows, read and ready to write. */
export interface PreparedPull {
  pairs: (WorkflowPair & { files?: Files; keys?: Map<string, string>; names?: string[] })[];
  /** Directories edited since the last pull whose workflow the account holds: a pull without --force overwrites none. */
  edited: string[];
}

/** The workflows a pull would write, their emails' LMX in the tree's names of components and themes (`lmx`). */
export async function preparePull(
  client: ApiClient,
  root: string,
  state: ContentState | undefined,
  account: string,
  lmx: LmxNames,
  values?: EnvValues,
): Promise<PreparedPull> {
  const [remotes, names] = await Promise.all([fetchWorkflows(client), fetchNames(client)]);
  const synced = syncedWorkflows(state, account);
  const locals = readWorkflows(root, values);
  nameRecords(locals, lmx, true);
  const pairs = pairWorkflows(remotes, locals, synced, () => undefined).map((pair) => withFiles(root, pair, names, lmx));
  const edited = pairs
    .filter((pair) => pair.local !== undefined && pair.files !== undefined)
    .filter((pair) => digestOf(pair.local!.files) !== digestOf(pair.files!) && !heldAt(pair.local!, pair.synced?.digest))
    .map((pair) => pair.path);
  return { pairs, edited };
}

type PulledPair = PreparedPull['pairs'][number];

function withFiles(root: string, pair: WorkflowPair, names: AccountNames, lmx: LmxNames): PulledPair {
  if (pair.remote === undefined) return pair;
  const keys = assignKeys(pair.remote, pair.synced?.nodes ?? {}, names);
  // The tree's own order of an experiment's paths is kept: the platform gives it no meaning.
  const like = pair.local === undefined ? undefined : treeFileOf(root, pair.local);
  const pulled = { files: workflowFilesOf(pair.remote, keys, names, like) };
  nameRecords([pulled], lmx, false);
  return { ...pair, keys, files: pulled.files, names: resolvedNames(pair.remote, keys, names) };
}

/** The tree's workflow file, parsed; undefined when there is none or it does not parse (the pull writes the account's). */
function treeFileOf(root: string, local: WorkflowFiles): WorkflowFile | undefined {
  const text = local.files.get(WORKFLOW_FILE);
  if (text === undefined) return undefined;
  try {
    return parseWorkflowFile(`${root}/${local.path}/${WORKFLOW_FILE}`, text);
  } catch (fault) {
    if (fault instanceof LocalFileError) return undefined;
    throw fault;
  }
}

/**
 * The references of the workflow's file that the account resolved, so that an offline check knows
 * them, each property's with its type (`property:plan:string`), which its trigger's operators depend on.
 */
export function resolvedNames(remote: RemoteWorkflow, keys: Map<string, string>, names: AccountNames): string[] {
  const known = referenceNamesOf(names);
  return referencesOf(workflowFileOf(remote, keys, names))
    .filter((reference) => known.has(reference))
    .flatMap((reference) => {
      const type = reference.startsWith('property:') ? names.properties.get(reference.slice('property:'.length)) : undefined;
      return type === undefined ? [reference] : [reference, `${reference}:${type}`];
    });
}

/** What the state keeps of a workflow in step with the account. */
export function syncedOf(remote: RemoteWorkflow, keys: Map<string, string>, files: Files, names: string[]): SyncedRecord & SyncedWorkflow {
  const emails = Object.fromEntries([...remote.messages].map(([nodeId, message]) => [keys.get(nodeId)!, message.contentRevisionId]));
  return {
    id: remote.id,
    digest: digestOf(files),
    workflowRevisionId: remote.revision,
    nodes: Object.fromEntries([...keys].map(([id, key]) => [key, id]).sort(([a], [b]) => (a! < b! ? -1 : 1))),
    ...(Object.keys(emails).length === 0 ? {} : { emails }),
    ...(names.length === 0 ? {} : { names }),
  };
}

/**
 * Writes what a prepared pull read, its emails' values of an environment made placeholders again
 * when given; returns a line per workflow, the state's records of them, and the values left as
 * written because two names share them.
 */
export function applyPull(
  root: string,
  prepared: PreparedPull,
  values?: EnvValues,
): { lines: Line[]; records: Record<string, SyncedRecord>; shared: SharedValue[] } {
  const lines: Line[] = [];
  const records: Record<string, SyncedRecord> = {};
  const shared: SharedValue[] = [];
  for (const pair of prepared.pairs) {
    const { remote, local, files, keys } = pair;
    if (remote === undefined || files === undefined || keys === undefined) {
      if (local !== undefined && pair.synced !== undefined)
        lines.push({ status: 'gone', kind: WORKFLOWS, path: pair.path, name: pair.path, note: 'no longer in the account; files left as they are' });
      continue;
    }
    // Files whose emails name components or themes by id (an older pull's) are written anew with their names.
    const unchanged = local !== undefined && local.withIds === undefined && digestOf(local.files) === digestOf(files) && local.files.size === files.size;
    if (!unchanged) {
      const written = values === undefined ? { files, shared: [] } : unfillFiles(files, values);
      shared.push(...written.shared);
      writeWorkflow(root, pair.path, written.files);
    }
    records[pair.path] = syncedOf(remote, keys, files, pair.names ?? []);
    lines.push({
      status: local === undefined ? 'added' : unchanged ? 'unchanged' : 'updated',
      kind: WORKFLOWS,
      path: pair.path,
      name: remote.name,
      id: remote.id,
    });
  }
  return { lines, records, shared };
}
