/** What the `content` commands do: pull an account's content into files, diff them, push them back. */
import { countOf } from '../../render/numbers.js';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { InterruptedError, LocalFileError, LoopsctlError, MismatchError, ProtectedError, RejectedError, UsageError, withDetails } from '../../base/errors.js';
import type { ApiClient } from '../../api/client.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { ExitCode } from '../../base/exit-codes.js';
import { confirm } from '../../core/prompt.js';
import { explained } from '../explain.js';
import {
  DEFAULT_DIRECTORY,
  digestOf,
  holdsRecords,
  referenceDigestOf,
  KINDS,
  lockDirectory,
  readRecords,
  REFERENCE_FILES,
  writeReferenceFiles,
  readState,
  recordPath,
  STATE_FILE,
  writeRecord,
  writeRecordFiles,
  writeState,
  type ContentState,
  type Files,
  type Kind,
  type RecordFiles,
  type SyncedRecord,
} from './files.js';
import {
  applyRecord,
  readForPush,
  guardianCheckOf,
  createRecord,
  fetchKind,
  fetchRecord,
  publish,
  restored,
  settled,
  teamName,
  type Applied,
  type RemoteRecord,
} from './remote.js';
import { recordDiff, renderChecks, renderLines, type Line } from './render.js';
import { checkSource, treeComponents, type CheckProblem, type FileCheck } from './check.js';
import { LMX_KIND_OF } from './tree.js';
import { WORKFLOWS } from './workflows/files.js';
import { applyPull, preparePull } from './workflows/pull.js';
import { checkContent } from './workflows/check.js';
import { diffWorkflows } from './workflows/diff.js';
import { pushWorkflows } from './workflows/push.js';
import type { LmxKind } from '../../lmx/index.js';

interface Scope {
  root: string;
  kinds: Kind[];
  /** Whether the run covers the workflows (`workflows/`), which are not records of the content API. */
  workflows: boolean;
}

/** What --only takes: the content kinds, and workflows. */
const ONLY_CHOICES = [...KINDS, WORKFLOWS] as const;

/** The directory and the kinds a run is about: --only narrows them. */
function scopeOf(directory: string | undefined, only: string | undefined): Scope {
  const kinds =
    only === undefined
      ? [...ONLY_CHOICES]
      : only
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean);
  for (const kind of kinds) {
    if (!(ONLY_CHOICES as readonly string[]).includes(kind))
      throw new UsageError(`--only: unknown kind "${kind}"`, { hint: `choose from ${ONLY_CHOICES.join(', ')}` });
  }
  if (kinds.length === 0) throw new UsageError('--only needs at least one kind', { hint: `choose from ${ONLY_CHOICES.join(', ')}` });
  return {
    root: resolve(directory ?? DEFAULT_DIRECTORY),
    kinds: kinds.filter((kind): kind is Kind => kind !== WORKFLOWS),
    workflows: kinds.includes(WORKFLOWS),
  };
}

const CONTENT = { contentApi: true } as const;

/** The account's records of the kinds asked for, each kind listed side by side. */
async function fetchAll(client: ApiClient, kinds: readonly Kind[]): Promise<RemoteRecord[]> {
  return (await Promise.all(kinds.map((kind) => explained(fetchKind(client, kind), CONTENT)))).flat();
}

/** Local and account records paired: by the id the state keeps for this account, else by name. */
interface Pair {
  local?: RecordFiles;
  remote?: RemoteRecord;
  synced?: SyncedRecord;
  /** Local and remote share a name, but only one remote record may have it. */
  ambiguous?: boolean;
}

function pairRecords(locals: RecordFiles[], remotes: RemoteRecord[], synced: Record<string, SyncedRecord>): Pair[] {
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
    const named = remotes.filter((remote) => remote.kind === pair.local!.kind && remote.name === pair.local!.name && !claimed.has(remote));
    if (named.length > 1) pair.ambiguous = true;
    else if (named.length === 1) {
      pair.remote = named[0];
      claimed.add(named[0]!);
    }
  }
  for (const remote of remotes) if (!claimed.has(remote) && !pairs.some((pair) => pair.remote === remote)) pairs.push({ remote });
  return pairs;
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
function followRenames(state: ContentState, locals: RecordFiles[]): Map<string, string> {
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

/** How a pair stands. */
type Standing = 'same' | 'local' | 'remote' | 'conflict' | 'missing' | 'only-remote' | 'ambiguous';

function standingOf(pair: Pair): Standing {
  const { local, remote, synced } = pair;
  if (local === undefined) return 'only-remote';
  if (pair.ambiguous) return 'ambiguous';
  if (remote === undefined) return 'missing';
  const here = digestOf(local.files);
  const there = digestOf(remote.files);
  if (here === there) return 'same';
  // Never in step with this account: the account's content was never seen, so it is not replaced unasked.
  if (synced === undefined) return 'conflict';
  const changedHere = here !== synced.digest;
  const changedThere = there !== synced.digest;
  if (changedHere && changedThere) return 'conflict';
  return changedHere ? 'local' : 'remote';
}

/**
 * What the state keeps of a record in step with the account. `published` is the digest of the
 * published files as last written here (a pull, a push that published): a push leaves it as it
 * was, since it does not write those files.
 */
function syncedOf(remote: RemoteRecord, digest = digestOf(remote.files), published = referenceDigestOf(remote.files)): SyncedRecord {
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

function emptyState(kinds: Kind[]): ContentState {
  return { format: 1, kinds, accounts: {} };
}

// ---------------------------------------------------------------------------------------------

interface PullOptions {
  only?: string;
  force?: boolean;
}

export const pull: Handler<[string | undefined], PullOptions> = async (context, [directory], options) => {
  const scope = scopeOf(directory, options.only);
  const release = lockDirectory(scope.root);
  try {
    await pullLocked(context, scope, directory ?? DEFAULT_DIRECTORY, options);
  } finally {
    release();
  }
};

async function pullLocked(context: CommandContext, scope: Scope, shown: string, options: PullOptions): Promise<void> {
  const client = await context.client();
  const [account, remotes] = await Promise.all([explained(teamName(client), CONTENT), fetchAll(client, scope.kinds)]);
  const found = readState(scope.root, shown);
  const workflows = scope.workflows ? await explained(preparePull(client, scope.root, found, account), CONTENT) : undefined;
  const state = found ?? emptyState(scope.kinds);
  const locals = readRecords(scope.root, scope.kinds);
  followRenames(state, locals);
  const synced = state.accounts[account] ?? {};
  const pairs = pairRecords(locals, remotes, synced);
  // Local edits are never overwritten unasked: nothing is written while one stands in the way.
  const edited = pairs.filter((pair) => pair.local !== undefined && pair.remote !== undefined && ['local', 'conflict'].includes(standingOf(pair)));
  const editedPaths = [...edited.map((pair) => pair.local!.path), ...(workflows?.edited ?? [])];
  if (editedPaths.length > 0 && !options.force) {
    // Without the state, files that differ from the account cannot be told apart from local edits.
    if (found === undefined && holdsRecords(scope.root)) throw missingState(scope.root, shown);
    throw new LocalFileError(
      `pulling would overwrite local changes in ${editedPaths.length === 1 ? '' : `${editedPaths.length} records: `}${editedPaths.join(', ')}`,
      { hint: pullRefusalHint(edited) },
    );
  }
  const lines: Line[] = [];
  const kept: Record<string, SyncedRecord> = {};
  for (const pair of pairs) {
    const { local, remote } = pair;
    if (remote === undefined) {
      // Gone from the account, or never there: the files stay as the person left them.
      if (local !== undefined && pair.synced !== undefined)
        lines.push({ status: 'gone', kind: local.kind, path: local.path, name: local.name, note: 'no longer in the account; files left as they are' });
      continue;
    }
    const path = local?.path ?? recordPath(remote.kind, remote.name, remote.id);
    const unchanged =
      local !== undefined && [...remote.files].every(([file, text]) => local.files.get(file) === text) && local.files.size === remote.files.size;
    if (!unchanged) writeRecord(scope.root, { ...remote, path });
    kept[path] = syncedOf(remote);
    lines.push({ status: local === undefined ? 'added' : unchanged ? 'unchanged' : 'updated', kind: remote.kind, path, name: remote.name, id: remote.id });
  }
  // Records of kinds this pull did not cover keep what the state knew of them.
  for (const [path, record] of Object.entries(synced)) if (!scopeCovers(scope, path)) kept[path] = record;
  if (workflows !== undefined) {
    const pulled = applyPull(scope.root, workflows);
    lines.push(...pulled.lines);
    Object.assign(kept, pulled.records);
  }
  state.accounts[account] = kept;
  state.kinds = ONLY_CHOICES.filter((kind) => state.kinds.includes(kind) || scope.kinds.includes(kind as Kind) || (kind === WORKFLOWS && scope.workflows));
  writeState(scope.root, state);
  const { out } = context;
  if (out.json) return out.writeJson({ account, directory: scope.root, records: lines });
  await out.write(
    renderLines(
      out,
      lines.filter((line) => line.status !== 'unchanged'),
    ),
  );
  out.note(
    `Pulled ${countOf(lines.filter((line) => line.status !== 'gone').length, 'record')} from ${account} into ${scope.root} (${lines.filter((line) => line.status === 'unchanged').length} unchanged).`,
  );
}

/** Whether a record path is of a kind the run covers. */
function scopeCovers(scope: Scope, path: string): boolean {
  return scope.kinds.some((kind) => path.startsWith(`${kind}/`)) || (scope.workflows && path.startsWith(`${WORKFLOWS}/`));
}

/**
 * What to do about local changes a pull would overwrite. Pushing them is offered only when a push
 * would send them: one that changed in the account too is a conflict a push skips.
 */
function pullRefusalHint(edited: Pair[]): string {
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

// ---------------------------------------------------------------------------------------------

interface DiffOptions {
  only?: string;
}

/** `content diff`: per record, what differs between the files and the account; exit 1 when anything does. */
export const diff: Handler<[string | undefined], DiffOptions> = async (context, [directory], options) => {
  const scope = scopeOf(directory, options.only);
  const state = requireState(scope.root, directory ?? DEFAULT_DIRECTORY);
  const kinds = scope.kinds.filter((kind) => state.kinds.includes(kind));
  const client = await context.client();
  const [account, remotes] = await Promise.all([explained(teamName(client), CONTENT), fetchAll(client, kinds)]);
  const locals = readRecords(scope.root, kinds);
  followRenames(state, locals);
  const pairs = pairRecords(locals, remotes, state.accounts[account] ?? {});
  const differing = pairs.map((pair) => ({ pair, standing: standingOf(pair) })).filter(({ standing, pair }) => standing !== 'same' || referenceDiffers(pair));
  const workflows = scope.workflows ? await explained(diffWorkflows(client, scope.root, state, account), CONTENT) : [];
  const count = differing.length + workflows.length;
  const { out } = context;
  if (out.json) {
    await out.writeJson({
      account,
      records: [
        ...differing.map(({ pair, standing }) => ({ ...describe(pair), standing, patch: recordDiff(pair.remote?.files, pair.local?.files, pathOf(pair)) })),
        ...workflows.map(({ text, ...workflow }) => ({ ...workflow, patch: text })),
      ],
    });
  } else {
    const text = [
      ...differing.map(({ pair, standing }) => `${headline(pair, standing)}\n${recordDiff(pair.remote?.files, pair.local?.files, pathOf(pair))}`),
      ...workflows.map((workflow) => `# ${workflow.path}: ${STANDING_WORDS[workflow.standing]}\n${workflow.text}`),
    ].join('\n');
    if (text !== '') await out.write(text);
    out.note(
      count === 0
        ? `${scope.root} and ${account} hold the same content.`
        : `${countOf(count, 'record')} ${count === 1 ? 'differs' : 'differ'} between ${scope.root} and ${account}.`,
    );
  }
  return count === 0 ? ExitCode.ok : ExitCode.mismatch;
};

/** A transactional email's published files, kept for review, may differ while the draft does not. */
function referenceDiffers(pair: Pair): boolean {
  const { local, remote } = pair;
  if (local === undefined || remote === undefined) return false;
  return ['published.json', 'published.lmx'].some((file) => local.files.get(file) !== remote.files.get(file));
}

function pathOf(pair: Pair): string {
  return pair.local?.path ?? recordPath(pair.remote!.kind, pair.remote!.name, pair.remote!.id);
}

function describe(pair: Pair): { path: string; kind: Kind; name: string; id?: string } {
  const record = (pair.local ?? pair.remote)!;
  return { path: pathOf(pair), kind: record.kind, name: record.name, ...(pair.remote === undefined ? {} : { id: pair.remote.id }) };
}

const STANDING_WORDS: Record<Standing, string> = {
  same: 'the same',
  local: 'changed here',
  remote: 'changed in the account since the last pull',
  conflict: 'changed here and in the account',
  missing: 'not in the account',
  'only-remote': 'only in the account',
  ambiguous: 'several records in the account have this name',
};

function headline(pair: Pair, standing: Standing): string {
  const words = standing === 'same' ? 'published version differs' : STANDING_WORDS[standing];
  return `# ${pathOf(pair)}: ${words}`;
}

function requireState(root: string, shown: string): ContentState {
  const state = readState(root, shown);
  if (state !== undefined) return state;
  if (holdsRecords(root)) throw missingState(root, shown);
  throw new LocalFileError(`${root} holds no pulled content`, { hint: `pull it first: \`loopsctl content pull ${shown}\`` });
}

/** Record directories without the state file that says which record each is and what it held: the file was lost. */
function missingState(root: string, shown: string): LocalFileError {
  const file = join(shown, STATE_FILE);
  return new LocalFileError(`${join(root, STATE_FILE)} is missing, though ${root} holds pulled records`, {
    hint: `restore it from git: \`git checkout ${file}\` (it records which record each directory is, and what it held when last in step with the account); to start afresh, move the record directories aside and pull again`,
  });
}

// ---------------------------------------------------------------------------------------------

interface PushOptions {
  only?: string;
  plan?: boolean;
  force?: boolean;
  live?: boolean;
  recreate?: boolean;
  check: boolean;
  publish?: boolean;
  yes?: boolean;
}

interface Step {
  pair: Pair;
  standing: Standing;
  /** What the push does with it. */
  action: 'update' | 'create' | 'skip';
  why?: string;
  /** A skip the person has to settle: the push and its plan exit 5 for it. */
  held?: 'conflict' | 'not editable';
}

/**
 * `content push`: only the records changed here since they were last in step with the account,
 * each guarded by the revision (or, for components and themes, the content) it was pulled at.
 */
export const push: Handler<[string | undefined], PushOptions> = async (context, [directory], options) => {
  const scope = scopeOf(directory, options.only);
  // Says what to do when nothing was pulled here, before anything is locked.
  requireState(scope.root, directory ?? DEFAULT_DIRECTORY);
  const release = lockDirectory(scope.root);
  try {
    const code = scope.kinds.length > 0 ? await pushLocked(context, directory, scope, options) : ExitCode.ok;
    if (!scope.workflows) return code;
    const state = requireState(scope.root, directory ?? DEFAULT_DIRECTORY);
    const client = await context.client();
    const account = await explained(teamName(client), CONTENT);
    return Math.max(code, await explained(pushWorkflows(context, client, scope.root, state, account, options), CONTENT));
  } finally {
    release();
  }
};

async function pushLocked(context: CommandContext, directory: string | undefined, scope: Scope, options: PushOptions): Promise<number> {
  const state = requireState(scope.root, directory ?? DEFAULT_DIRECTORY);
  const client = await context.client();
  const account = await explained(teamName(client), CONTENT);
  const locals = readRecords(scope.root, scope.kinds);
  // A renamed folder is the record it was: its state follows the new name once this push saves.
  const lookalikes = followRenames(state, locals);
  const synced = state.accounts[account] ?? {};
  const pending = state.pending?.[account] ?? {};
  // Written after each record, so a run that stops leaves what it did, and what it began, recorded.
  const save = () => {
    state.accounts[account] = synced;
    const { [account]: _previous, ...others } = state.pending ?? {};
    state.pending = Object.keys(pending).length > 0 ? { ...others, [account]: pending } : others;
    if (Object.keys(state.pending).length === 0) delete state.pending;
    writeState(scope.root, state);
  };
  // A record unchanged since it was last in step with this account costs no request, unless a push of it stopped half-way.
  const candidates = locals.filter(
    (local) => pending[local.path] !== undefined || synced[local.path] === undefined || digestOf(local.files) !== synced[local.path]!.digest,
  );
  if (options.check) await checkBeforePush(context, directory ?? DEFAULT_DIRECTORY, scope.root, candidates, options.plan === true);
  // The published files are what is live, kept for review: an edit to them is never sent, which the push says.
  const editedReference = locals.filter((local) => {
    const published = synced[local.path]?.published;
    return published !== undefined && referenceDigestOf(local.files) !== published;
  });
  if (editedReference.length > 0) {
    context.out.note(
      `Published files edited in ${editedReference.map((local) => local.path).join(', ')}: published.* show what is live, are written anew by every pull and never pushed; edit draft.* and push with --publish.`,
    );
  }
  const here = new Set(locals.map((local) => local.path));
  const steps = (await pairCandidates(client, candidates, synced)).map((pair) =>
    stepFor(pair, options.force === true, pending[pair.local!.path] !== undefined),
  );
  for (const step of steps) {
    const was = lookalikes.get(step.pair.local!.path);
    if (was !== undefined && step.standing !== 'same') context.out.note(`${lookalikeNote(step.pair.local!.path, was, here)}.`);
  }
  const creating = steps.filter((step) => step.action === 'create');
  // Every file that would be sent is read now: one that cannot be stops the push, or the plan, before anything is sent.
  for (const step of steps) if (step.action !== 'skip') readForPush(step.pair.local!);
  const { out } = context;
  if (options.plan) {
    await reportPlan(context, account, steps);
    return steps.some((step) => step.held !== undefined) ? ExitCode.rejected : ExitCode.ok;
  }
  if (creating.length > 0) {
    await confirm(context.runtime, `Create ${creating.map((step) => describe(step.pair).path).join(', ')} in ${account}?`, options.yes);
  }
  const lines: Line[] = [];
  const published: string[] = [];
  let refused = 0;
  let notEditable = 0;
  for (const step of steps) {
    const { pair } = step;
    const local = pair.local!;
    const digest = digestOf(local.files);
    const interrupted = pending[local.path];
    let applied: Applied | undefined;
    if (step.action === 'skip') {
      if (step.standing === 'same' && interrupted !== undefined) {
        // An earlier push wrote these files and stopped before it was done: finish its check.
        applied = interrupted.check ? await explained(guardianCheckOf(client, pair.remote!), CONTENT) : { id: pair.remote!.id, checked: [], changed: true };
      } else {
        if (step.held === 'not editable') {
          notEditable += 1;
          lines.push({ status: 'refused', kind: local.kind, path: local.path, name: local.name, note: step.why });
        } else if (step.held === 'conflict') {
          lines.push({ status: 'conflict', kind: local.kind, path: local.path, name: local.name, note: step.why });
        } else {
          // The account moved on and the files did not, or both already agree: nothing to send.
          if (step.standing === 'same') synced[local.path] = syncedOf(pair.remote!, digest, pair.synced?.published);
          lines.push({ status: step.standing === 'same' ? 'unchanged' : 'behind', kind: local.kind, path: local.path, name: local.name, note: step.why });
        }
        continue;
      }
    } else {
      // Pending from the moment its first write is sent, not before: a push that stops before then wrote nothing of it.
      const writes = watchWrites(client, () => {
        pending[local.path] = { digest, check: options.check };
        save();
      });
      const write =
        step.action === 'create'
          ? explained(createRecord(writes.client, local, { check: options.check }), CONTENT)
          : explained(
              applyRecord(writes.client, local, pair.remote!, {
                check: options.check,
                expectedRevisions: options.force ? undefined : pair.synced?.revisions,
              }),
              CONTENT,
            ).catch((error: unknown) => {
              throw staleRevision(error, local);
            });
      applied = await write.catch((error: unknown) => {
        if (!writes.mayHaveWritten(error)) {
          // Its only write was refused, or none was sent: the account holds nothing of it.
          if (pending[local.path] !== undefined) {
            delete pending[local.path];
            save();
          }
          throw error;
        }
        throw stoppedMidRecord(error, local);
      });
    }
    const finished = step.action === 'skip' ? 'finished a push that had stopped after writing it' : undefined;
    if (applied === undefined) {
      delete pending[local.path];
      save();
      lines.push({
        status: 'skipped',
        kind: local.kind,
        path: local.path,
        name: local.name,
        note: 'campaigns are made in the app of each account; not created',
      });
      continue;
    }
    const warnings = applied.checked.flatMap((message) => message.report?.warnings ?? []);
    const errors = applied.checked.flatMap((message) => message.report?.errors ?? []);
    if (finished !== undefined && errors.length > 0) {
      // Written unchecked by the push that stopped: the account holds it; it stays pending, and is reported again, until it passes.
      refused += 1;
      synced[local.path] = syncedOf(pair.remote!, digest, pair.synced?.published);
      save();
      const note = `a push that stopped wrote it unchecked, and the account holds it; Guardian: ${errors.map((rule) => rule.title).join('; ')}`;
      lines.push({ status: 'refused', kind: local.kind, path: local.path, name: local.name, id: applied.id, note, rules: errors });
      continue;
    }
    delete pending[local.path];
    if (restored(applied)) {
      // Putting it back made a new revision of the same content: the record stays in step with the
      // account at that revision, so the next push of the fixed files is not refused as stale.
      // A record created and then put back holds what its creation made: the files are a change to it.
      const back = pair.synced === undefined && step.action !== 'create' ? undefined : await fetchRecord(client, local.kind, applied.id);
      if (back !== undefined) synced[local.path] = syncedOf(back, pair.synced?.digest, pair.synced?.published);
      save();
      refused += 1;
      lines.push({
        status: 'refused',
        kind: local.kind,
        path: local.path,
        name: local.name,
        id: applied.id,
        note: `Guardian: ${errors.map((rule) => rule.title).join('; ')}; put back as it was`,
        rules: errors,
      });
      continue;
    }
    const after = await fetchRecord(client, local.kind, applied.id);
    if (after !== undefined) {
      // Files written by hand (a new record's, a field left out) come back with the fields the account
      // filled in and in its JSON layout: written anew as a pull writes them, they stay in step with it.
      const filled = filledIn(local.files, after.files);
      if (filled.size > 0) writeRecordFiles(scope.root, local.path, filled);
      synced[local.path] = syncedOf(after, digestOf(new Map([...local.files, ...filled])), pair.synced?.published);
    }
    save();
    const warned = warnings.length > 0 ? `Guardian: ${countOf(warnings.length, 'warning')}: ${warnings.map((rule) => rule.title).join('; ')}` : undefined;
    const note = [finished, warned].filter((part) => part !== undefined).join('; ') || undefined;
    lines.push({
      status: step.action === 'create' ? 'created' : 'updated',
      kind: local.kind,
      path: local.path,
      name: local.name,
      id: applied.id,
      note,
      rules: warnings,
    });
    if (options.publish && local.kind === 'transactional' && applied.checked.length > 0) {
      await explained(publish(client, applied.id), CONTENT);
      published.push(local.path);
      const live = await fetchRecord(client, local.kind, applied.id);
      if (live !== undefined) {
        synced[local.path] = syncedOf(live, digest);
        // What is live changed: its copy for review follows, or diff would report it at once.
        writeReferenceFiles(scope.root, { ...live, path: local.path });
      }
      save();
    }
  }
  save();
  const conflicts = lines.filter((line) => line.status === 'conflict').length;
  if (out.json) await out.writeJson({ account, records: lines, published });
  else {
    await out.write(
      renderLines(
        out,
        lines.filter((line) => line.status !== 'unchanged'),
      ),
    );
    const sent = lines.filter((line) => line.status === 'updated' || line.status === 'created').length;
    const unchanged = locals.length - steps.length + lines.filter((line) => line.status === 'unchanged').length;
    out.note(
      `Pushed ${countOf(sent, 'record')} to ${account}${published.length > 0 ? `, published ${published.length}` : ''}; ${unchanged} unchanged${conflicts > 0 ? `, ${countOf(conflicts, 'conflict')}` : ''}${notEditable > 0 ? `, ${notEditable} not editable in the account` : ''}${refused > 0 ? `, ${refused} refused by Guardian` : ''}.`,
    );
  }
  if (conflicts > 0 || notEditable > 0) return ExitCode.rejected;
  return refused > 0 ? ExitCode.mismatch : ExitCode.ok;
}

/**
 * The JSON files of a record as the account holds them after a push, where they say all that the
 * local file said (every field of it, with the same value) and more or in another layout: the
 * defaults the account filled in, its two-space JSON. A file that differs in anything it said is
 * left out: the account did not take it as written, and the files keep what the person wrote.
 */
function filledIn(local: Files, account: Files): Files {
  const filled: Files = new Map();
  for (const [name, text] of account) {
    const mine = local.get(name);
    if (REFERENCE_FILES.has(name) || !name.endsWith('.json') || mine === text) continue;
    if (mine === undefined || saysNoMoreThan(mine, text)) filled.set(name, text);
  }
  return filled;
}

function saysNoMoreThan(mine: string, theirs: string): boolean {
  try {
    const a: unknown = JSON.parse(mine);
    const b: unknown = JSON.parse(theirs);
    const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
    return isObject(a) && isObject(b) && Object.entries(a).every(([key, value]) => Object.hasOwn(b, key) && isDeepStrictEqual(value, b[key]));
  } catch {
    return false;
  }
}

/** The LMX of the records a push would send, checked first: nothing is sent while one has errors; warnings are listed. */
async function checkBeforePush(context: CommandContext, shown: string, root: string, records: RecordFiles[], plan: boolean): Promise<void> {
  const components = treeComponents(root);
  const checks = records.flatMap((record) =>
    [...record.files]
      .filter(([name]) => name.endsWith('.lmx') && !REFERENCE_FILES.has(name))
      .map(([name, source]) => checkSource(join(shown, record.path, name), source, LMX_KIND_OF[record.kind], components)),
  );
  const failing = checks.filter((file) => file.errors.length > 0);
  const { out } = context;
  if (failing.length === 0) {
    const warned = checks.filter((file) => file.warnings.length > 0);
    if (warned.length > 0)
      out.note(
        `LMX warnings in ${countOf(warned.length, 'file')}, ${plan ? 'which a push sends' : 'sent'} anyway: ${warned.map((file) => file.file).join(', ')} (see \`loopsctl content check\`).`,
      );
    return;
  }
  if (out.json) await out.writeJson(failing.map(checkRecord));
  else
    await out.write(
      renderChecks(
        out,
        failing.map((file) => ({ ...file, warnings: [] })),
      ),
    );
  const errors = failing.reduce((sum, file) => sum + file.errors.length, 0);
  throw new MismatchError(`${countOf(errors, 'LMX error')} in ${countOf(failing.length, 'file')}; nothing was sent`, {
    hint: 'the API refuses LMX that does not compile: fix the files (`loopsctl content check` shows every problem) and push again',
  });
}

/** The account's side of each changed record: by its known id, else by name among its kind. */
async function pairCandidates(client: ApiClient, candidates: RecordFiles[], synced: Record<string, SyncedRecord>): Promise<Pair[]> {
  const known = candidates.filter((local) => synced[local.path] !== undefined);
  const byId = await settled(known, (local) => explained(fetchRecord(client, local.kind, synced[local.path]!.id), CONTENT));
  const unknownKinds = [...new Set(candidates.filter((local) => synced[local.path] === undefined).map((local) => local.kind))];
  const listed = await fetchAll(client, unknownKinds);
  const remotes = [...byId.filter((remote): remote is RemoteRecord => remote !== undefined), ...listed];
  // Only the candidates: the account's other records are not this push's business.
  return pairRecords(candidates, remotes, synced).filter((pair) => pair.local !== undefined);
}

/**
 * A folder that ends in the id of another the state knows, and was not taken for a rename of it
 * (that folder is still here, or several new ones claim it): what to say of it, since a copy is
 * created, or matched by name, as a record of its own.
 */
function lookalikeNote(path: string, was: string, here: ReadonlySet<string>): string {
  return here.has(was)
    ? `${path} ends in the id of ${was}, which is still here: it is not taken for that record but pushed as a record of its own; to rename ${was}, remove the old folder`
    : `${path} ends in the id of ${was}, as another new folder does: neither is taken for that record; rename all but one back to ${was}, or name the copies without that id`;
}

function stepFor(pair: Pair, force: boolean, interrupted: boolean): Step {
  const standing = standingOf(pair);
  // Not sent at all, --force or not: the API would refuse it, and the records after it still go.
  if (pair.remote?.locked !== undefined && (standing === 'local' || standing === 'conflict'))
    return { pair, standing, action: 'skip', why: pair.remote.locked, held: 'not editable' };
  switch (standing) {
    case 'local':
      return { pair, standing, action: 'update' };
    case 'missing':
      return { pair, standing, action: 'create', why: pair.synced === undefined ? 'not in the account yet' : 'deleted in the account since the last pull' };
    case 'conflict':
      if (force) return { pair, standing, action: 'update', why: 'taking the local side (--force)' };
      return {
        pair,
        standing,
        action: 'skip',
        held: 'conflict',
        why:
          pair.synced === undefined && interrupted
            ? 'an earlier push from here began to create it and stopped half-way: push with --force to finish it'
            : pair.synced === undefined
              ? "the account has a record of this name that these files were never pulled from: pull with --force to take the account's side (keep your changes aside first), or push with --force to replace it"
              : 'changed in the account since the last pull: pull with --force into a clean checkout and merge, or push with --force to take the local side',
      };
    case 'ambiguous':
      return {
        pair,
        standing,
        action: 'skip',
        held: 'conflict',
        why: 'several records in the account have this name: rename them in the app so that one matches',
      };
    default:
      return { pair, standing, action: 'skip', why: standing === 'remote' ? 'changed in the account only; pull to update the files' : undefined };
  }
}

async function reportPlan(context: CommandContext, account: string, steps: Step[]): Promise<void> {
  const { out } = context;
  const planned = steps.filter((step) => step.standing !== 'same');
  if (out.json) {
    await out.writeJson({
      account,
      plan: planned.map((step) => ({
        ...describe(step.pair),
        action: step.action,
        standing: step.standing,
        why: step.why,
        patch: recordDiff(step.pair.remote?.files, step.pair.local?.files, pathOf(step.pair)),
      })),
    });
    return;
  }
  const verbs = { update: 'would update', create: 'would create', skip: 'would skip' } as const;
  const text = planned
    .map(
      (step) =>
        `# ${pathOf(step.pair)}: ${verbs[step.action]}${step.why === undefined ? '' : ` (${step.why})`}\n${step.action === 'skip' ? '' : recordDiff(step.pair.remote?.files, step.pair.local?.files, pathOf(step.pair))}`,
    )
    .join('\n');
  if (text !== '') await out.write(text);
  out.note(
    `Plan for ${account}: ${planned.filter((step) => step.action !== 'skip').length} to send, ${planned.filter((step) => step.action === 'skip').length} skipped; nothing was sent.`,
  );
}

/** The client a record is written through, and what it saw of the writes sent on it. */
interface WatchedWrites {
  client: ApiClient;
  /** Whether the account may hold part of what was sent, now that the record's writing failed with this error. */
  mayHaveWritten(error: unknown): boolean;
}

/**
 * The client, seen through: `first` runs just before the first request that changes the account
 * is sent. A record is pending (the next push checks what it wrote) from that moment only.
 */
function watchWrites(client: ApiClient, first: () => void): WatchedWrites {
  let sent = 0;
  let answered = 0;
  const watched = Object.create(client) as ApiClient;
  watched.answer = async (req, schema) => {
    const writing = req.method !== 'GET';
    if (writing && sent++ === 0) first();
    const answer = await client.answer(req, schema);
    if (writing) answered += 1;
    return answer;
  };
  return {
    client: watched,
    mayHaveWritten(error) {
      if (sent === 0) return false;
      if (answered > 0) return true;
      // The only write was refused (a 4xx, a read-only profile, the team check): it changed nothing.
      const refused = error instanceof ProtectedError || (error instanceof LoopsctlError && error.status !== undefined && error.status < 500);
      return !refused;
    },
  };
}

/**
 * A failure while a record was being written, after a write was sent (a 5xx, a lost connection,
 * a refusal of a later write): the account may hold part of it, which the next push sees to.
 */
function stoppedMidRecord(error: unknown, local: RecordFiles): unknown {
  if (!(error instanceof LoopsctlError) || error instanceof InterruptedError) return error;
  return withDetails(error, {
    message: error.message.startsWith(`${local.path}: `) ? error.message : `${local.path}: ${error.message}`,
    hint: `${error.hint === undefined ? '' : `${error.hint}; `}the next \`loopsctl content push\` checks what this one wrote of it`,
  });
}

/** A 409 on a message update: the account moved on since the read, or a campaign is no longer a draft. */
function staleRevision(error: unknown, local: RecordFiles): unknown {
  if (error instanceof RejectedError && error.status === 409) {
    return new RejectedError(`${local.path}: ${error.message}`, {
      status: error.status,
      code: error.code,
      cause: error,
      hint: 'a campaign can be edited only while it is a draft; otherwise the record changed in the account while it was being pushed: run `loopsctl content diff` to see what moved',
    });
  }
  return error;
}

// ---------------------------------------------------------------------------------------------

interface CheckOptions {
  kind?: LmxKind;
  strict?: boolean;
}

/** `content check`: the LMX specification's rules on files, offline; exit 1 on errors (--strict: warnings too). */
export const check: Handler<[string[]], CheckOptions> = async (context, [paths], options) => {
  const checks = checkContent(paths.length === 0 ? [DEFAULT_DIRECTORY] : paths, options.kind);
  const errors = checks.reduce((sum, file) => sum + file.errors.length, 0);
  const warnings = checks.reduce((sum, file) => sum + file.warnings.length, 0);
  const { out } = context;
  if (out.json) await out.writeJson(checks.map(checkRecord));
  else {
    const text = renderChecks(out, checks);
    if (text !== '') await out.write(text);
    const failing = checks.filter((file) => file.errors.length > 0 || (options.strict && file.warnings.length > 0)).length;
    out.note(
      `Checked ${countOf(checks.length, 'file')}: ${countOf(errors, 'error')}, ${countOf(warnings, 'warning')}${failing > 0 ? ` in ${countOf(failing, 'file')}` : ''}.`,
    );
    const unkinded = checks.filter((file) => file.kind === undefined && file.file.endsWith('.lmx')).length;
    if (unkinded > 0)
      out.note(`${countOf(unkinded, 'file')} outside a pulled tree: their variables' namespaces were not checked; say the kind of email with --kind.`);
  }
  return errors > 0 || (options.strict && warnings > 0) ? ExitCode.mismatch : ExitCode.ok;
};

/** A file's findings as `--json` prints them. */
function checkRecord(file: FileCheck) {
  const problem = ({ line, column, rule, message, fix }: CheckProblem) => ({ line, column, rule, message, fix });
  return { file: file.file, kind: file.kind ?? null, errors: file.errors.map(problem), warnings: file.warnings.map(problem) };
}
