/**
 * A tree's workflows beside the account's, as diff and push read them: each directory's file
 * parsed, the account's workflow as a pull would write it (with the state's keys), and how the
 * two stand since they were last in step.
 */
import type { ApiClient } from '../../../api/client.js';
import { everyItem } from '../../../api/client.js';
import { settled } from '../../../api/concurrency.js';
import { LocalFileError, NotFoundError } from '../../../base/errors.js';
import { WORKFLOW_FILE, type WorkflowFile } from '../../../platform/workflows/file.js';
import { directoryId, parseWorkflowFile } from '../../../platform/workflows/file-text.js';
import { workflows as workflowList } from '../../workflows/client.js';
import type { EnvValues } from '../shared/env-values.js';
import { type ContentState, digestOf, type Files } from '../shared/files.js';
import { WORKFLOWS } from '../shared/lmx-files.js';
import { heldAt, type LmxNames, lmxNames, type NamedFiles, nameRecords } from '../shared/lmx-names.js';
import { narrowed, type Scope, scopeCovers } from '../shared/scope.js';
import { readWorkflows } from '../shared/workflow-files.js';
import { pairWorkflows, type WorkflowPair } from './pull.js';
import { type AccountNames, assignKeys, fetchNames, fetchWorkflow, type RemoteWorkflow, workflowFileOf, workflowFilesOf } from './remote.js';
import { reachedOf, syncedWorkflows } from './state.js';

export type WorkflowStanding = 'same' | 'local' | 'remote' | 'conflict' | 'missing' | 'only-remote';

export interface WorkflowSide extends WorkflowPair {
  standing: WorkflowStanding;
  /** The file, parsed; undefined for a workflow only in the account. */
  file?: WorkflowFile;
  /** The account's workflow as files (its emails' LMX in the tree's names, `withIds` as the account holds it) and as a file, with the keys of its nodes by id. */
  account?: { files: Files; withIds?: Files; file: WorkflowFile; keys: Map<string, string> };
}

/** How a workflow stands: what changed here, in the account, or both, since the state last saw them in step. */
function standingOf(pair: WorkflowPair, here: NamedFiles | undefined, there: NamedFiles | undefined, keys?: Map<string, string>): WorkflowStanding {
  if (here === undefined) return 'only-remote';
  if (there === undefined) return 'missing';
  const local = digestOf(here.files);
  const remote = digestOf(there.files);
  if (local === remote) return 'same';
  const synced = pair.synced;
  if (synced === undefined) return 'conflict';
  // A state an older pull kept holds the digest of the files with ids in their LMX.
  const changedThere = !heldAt(there, synced.digest) && !ownWrites(pair, local, keys);
  const changedHere = !heldAt(here, synced.digest);
  if (changedHere && changedThere) return 'conflict';
  return changedHere ? 'local' : 'remote';
}

/**
 * Whether what the account holds is exactly what a push from here wrote before it stopped: the
 * same files being pushed, and the account at the revisions its writes reached. A revision past
 * them (a teammate's edit in the app after the push stopped) is not the push's, and is a conflict.
 */
function ownWrites(pair: WorkflowPair, local: string, keys: Map<string, string> | undefined): boolean {
  const reached = reachedOf(pair.synced);
  const remote = pair.remote;
  if (reached === undefined || remote === undefined || keys === undefined || reached.digest !== local) return false;
  if (remote.revision !== reached.workflowRevisionId) return false;
  const pulled = pair.synced?.emails ?? {};
  return [...remote.messages].every(([nodeId, message]) => {
    const key = keys.get(nodeId);
    if (key === undefined) return false;
    if (Object.hasOwn(reached.emails, key)) return reached.emails[key] === message.contentRevisionId;
    // The email of a node the push made and had not yet written: the graph's revision above tells whether that node is its own.
    return !Object.hasOwn(pulled, key) || pulled[key] === message.contentRevisionId;
  });
}

/**
 * The tree's workflows and the account's. `onlyChanged` reads from the account only the
 * workflows whose files changed since they were last in step (a push's business), rather than all.
 * Their emails' LMX is compared in the tree's names of components and themes (`lmx`, else the state's).
 */
export async function readSides(
  client: ApiClient,
  root: string,
  state: ContentState,
  account: string,
  { onlyChanged, scope, lmx = lmxNames(root, state, account), values }: { onlyChanged: boolean; scope?: Scope; lmx?: LmxNames; values?: EnvValues },
): Promise<{ sides: WorkflowSide[]; names: AccountNames; lmx: LmxNames }> {
  const synced = syncedWorkflows(state, account);
  // Narrowed by --only to some directories: those alone, each read from the account, changed here or not.
  const locals = readWorkflows(root, values).filter((local) => scope === undefined || scopeCovers(scope, local.path));
  nameRecords(locals, lmx, true);
  const named = (path: string) => scope?.named.has(path) === true;
  const files = new Map(
    locals.map((local) => [
      local.path,
      parseWorkflowFile(`${root}/${local.path}/${WORKFLOW_FILE}`, local.files.get(WORKFLOW_FILE) ?? missing(root, local.path)),
    ]),
  );
  const changed = onlyChanged
    ? locals.filter((local) => {
        const known = synced.get(local.path);
        return named(local.path) || known === undefined || !heldAt(local, known.digest) || known.pushing !== undefined;
      })
    : locals;
  const [remotes, names] = await Promise.all([accountWorkflows(client, changed, synced, onlyChanged), fetchNames(client)]);
  const pairs = pairWorkflows(remotes, changed, synced, (local) => files.get(local.path)?.name).filter(
    (pair) => (!onlyChanged || pair.local !== undefined) && (scope === undefined || pair.local !== undefined || !narrowed(scope, WORKFLOWS)),
  );
  const sides = pairs.map((pair): WorkflowSide => {
    const file = pair.local === undefined ? undefined : files.get(pair.local.path);
    if (pair.remote === undefined) return { ...pair, file, standing: standingOf(pair, pair.local, undefined) };
    const keys = assignKeys(pair.remote, pair.synced?.nodes ?? {}, names);
    // An experiment's paths in the tree's order, which the platform gives no meaning: no difference to diff or push.
    const accountSide: NonNullable<WorkflowSide['account']> = {
      files: workflowFilesOf(pair.remote, keys, names, file),
      file: workflowFileOf(pair.remote, keys, names, file),
      keys,
    };
    nameRecords([accountSide], lmx, false);
    return { ...pair, file, account: accountSide, standing: standingOf(pair, pair.local, accountSide, keys) };
  });
  return { sides, names, lmx };
}

function missing(root: string, path: string): never {
  throw new LocalFileError(`${root}/${path}/${WORKFLOW_FILE} is missing`, { hint: 'each workflow directory holds its workflow.yaml; restore it from git' });
}

/** The account's workflows that may pair with these directories: every one, or those they name and any of the same name. */
async function accountWorkflows(
  client: ApiClient,
  locals: { path: string }[],
  synced: ReturnType<typeof syncedWorkflows>,
  onlyChanged: boolean,
): Promise<RemoteWorkflow[]> {
  const summaries = await everyItem(client, workflowList);
  const known = (local: { path: string }) => summaries.find((summary) => synced.get(local.path)?.id === summary.id || directoryId(local.path) === summary.id);
  // A directory with no id the account knows pairs by name, so then every workflow is read.
  const unmatched = locals.some((local) => known(local) === undefined);
  const reading = !onlyChanged || unmatched ? summaries : summaries.filter((summary) => locals.some((local) => known(local) === summary));
  const found = await settled(reading, async (summary) => {
    try {
      return await fetchWorkflow(client, summary.id);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  });
  return found.filter((remote) => remote !== undefined);
}
