/** `content pull`: the account's content into files, never over local edits unasked. */
import { countOf } from '../../../render/numbers.js';
import { AuthError, LocalFileError } from '../../../base/errors.js';
import { handler, type Handler, type Uses } from '../../../core/capabilities.js';
import { explained, explainError } from '../../explain.js';
import { DEFAULT_DIRECTORY, lockDirectory, readState, recordPath, writeState, type ContentState, type Kind, type SyncedRecord } from '../files.js';
import { holdsRecords, readRecords, writeRecord } from './files.js';
import { resolveAccount, whereOf } from '../account.js';
import { renderLines, type Line } from '../render.js';
import { fetchAll, followRenames, pairRecords, standingOf, syncedOf, type Pair } from './sides.js';
import { CONTENT, missingState, ONLY_CHOICES, scopeCovers, scopeOf, type Scope } from '../scope.js';
import { WORKFLOWS } from '../lmx-files.js';
import { applyPull, preparePull, type PreparedPull } from '../workflows/pull.js';

function emptyState(kinds: Kind[]): ContentState {
  return { format: 1, kinds, accounts: {} };
}

interface PullOptions {
  only?: string;
  force?: boolean;
}

export const pull: Handler<[string | undefined], PullOptions> = handler(['out', 'client', 'key', 'files'], async (context, [directory], options) => {
  const scope = scopeOf(directory, options.only);
  const release = lockDirectory(scope.root);
  try {
    await pullLocked(context, scope, directory ?? DEFAULT_DIRECTORY, options);
  } finally {
    release();
  }
});

async function pullLocked(context: Uses<'out' | 'client' | 'key'>, scope: Scope, shown: string, options: PullOptions): Promise<void> {
  const client = await context.client();
  const found = readState(scope.root, shown);
  const state = found ?? emptyState(scope.kinds);
  const [{ key: account }, remotes] = await Promise.all([
    explained(
      whereOf(context, client).then((where) => resolveAccount(client, state, where)),
      CONTENT,
    ),
    fetchAll(client, scope.kinds),
  ]);
  const workflows = scope.workflows ? await workflowsToPull(context, preparePull(client, scope.root, found, account), options.only !== undefined) : undefined;
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
  state.kinds = ONLY_CHOICES.filter((kind) => state.kinds.includes(kind) || (kind === WORKFLOWS ? workflows !== undefined : scope.kinds.includes(kind)));
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

/**
 * The workflows a pull reads. A team without the workflow API (the API answers 401 for it) pulls
 * its content without them, saying so, unless --only asked for them.
 */
async function workflowsToPull(context: Uses<'out'>, reading: Promise<PreparedPull>, asked: boolean): Promise<PreparedPull | undefined> {
  try {
    return await reading;
  } catch (error) {
    if (asked || !(error instanceof AuthError)) throw explainError(error, CONTENT);
    context.out.note(`Workflows not pulled: ${error.message}.`);
    return undefined;
  }
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
