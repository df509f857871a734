/** `content pull`: the account's content into files, workflows and emails alike, never over local edits unasked. */

import { AuthError, LocalFileError } from '../../base/errors.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { explainError, explained } from '../../core/explain.js';
import { countOf } from '../../render/numbers.js';
import { whereOf } from '../change/account.js';
import { applyAudiencePull, prepareAudiencePull } from './audience/pull.js';
import { applyEmailPull, prepareEmailPull, pullRefusalHint } from './emails/pull.js';
import { fetchAll } from './emails/sides.js';
import { resolveAccount } from './shared/account.js';
import { chooseEnvironment, environmentAccount } from './shared/environment-choice.js';
import type { Environment } from './shared/environments.js';
import { type ContentState, DEFAULT_DIRECTORY, type EmailDirectory, lockDirectory, readState, writeState } from './shared/files.js';
import { WORKFLOWS } from './shared/lmx-files.js';
import { holdsRecords } from './shared/record-files.js';
import { renderLines } from './shared/render.js';
import { AUDIENCE, CONTENT, missingState, ONLY_CHOICES, type Scope, scopeCovers, scopeOf } from './shared/scope.js';
import { applyPull, type PreparedPull, preparePull } from './workflows/pull.js';

/** The kinds the state lists as held: the audience half is known by the state's own part for it. */
const KINDS_HELD = ONLY_CHOICES.filter((kind) => kind !== AUDIENCE);

function emptyState(kinds: EmailDirectory[]): ContentState {
  return { format: 1, kinds, accounts: {} };
}

interface PullOptions {
  env?: string;
  only?: string;
  force?: boolean;
}

export const pull: Handler<[string | undefined], PullOptions> = handler(
  ['out', 'client', 'key', 'files'],
  async (context, [directory], options) => {
    const scope = scopeOf(directory, options.only);
    // The environment pulled from: its profile is the account, and its values fill the files compared with it.
    const environment = (await chooseEnvironment(context, scope.root, options.env))?.environment;
    const release = lockDirectory(scope.root);
    try {
      await pullLocked(context, scope, directory ?? DEFAULT_DIRECTORY, options, environment);
    } finally {
      release();
    }
  },
  { chooseAccount: environmentAccount(([directory]) => scopeOf(directory, undefined).root) },
);

async function pullLocked(
  context: Uses<'out' | 'client' | 'key'>,
  scope: Scope,
  shown: string,
  options: PullOptions,
  environment: Environment | undefined,
): Promise<void> {
  const values = environment?.values;
  const client = await context.client();
  const found = readState(scope.root, shown);
  const state = found ?? emptyState(scope.kinds);
  const [{ key: account }, remotes] = await Promise.all([
    explained(
      whereOf(context, client).then((where) => resolveAccount(client, state, where, environment?.name)),
      CONTENT,
    ),
    fetchAll(client, scope.kinds),
  ]);
  // The emails first: the components and themes they pair give the workflows' emails their names too.
  const emails = prepareEmailPull(scope.root, scope.kinds, state, account, remotes, values);
  const workflows = scope.workflows
    ? await workflowsToPull(context, preparePull(client, scope.root, found, account, emails.names, values), options.only !== undefined)
    : undefined;
  const audience = scope.audience ? await explained(prepareAudiencePull(client, scope.root, found, account), CONTENT) : undefined;
  const synced = state.accounts[account] ?? {};
  const editedPaths = [...emails.edited.map((pair) => pair.local!.path), ...(workflows?.edited ?? []), ...(audience?.edited ?? [])];
  if (editedPaths.length > 0 && !options.force) {
    // Without the state, files that differ from the account cannot be told apart from local edits.
    if (found === undefined && holdsRecords(scope.root)) throw missingState(scope.root, shown);
    throw new LocalFileError(
      `pulling would overwrite local changes in ${editedPaths.length === 1 ? '' : `${editedPaths.length} records: `}${editedPaths.join(', ')}`,
      { hint: pullRefusalHint(emails.edited) },
    );
  }
  const { lines, records: kept, shared } = applyEmailPull(scope.root, emails, values);
  // Records of kinds this pull did not cover keep what the state knew of them.
  for (const [path, record] of Object.entries(synced)) if (!scopeCovers(scope, path)) kept[path] = record;
  if (workflows !== undefined) {
    const pulled = applyPull(scope.root, workflows, values);
    lines.push(...pulled.lines);
    shared.push(...pulled.shared);
    Object.assign(kept, pulled.records);
  }
  state.accounts[account] = kept;
  if (audience !== undefined) lines.push(...applyAudiencePull(scope.root, state, account, audience));
  state.kinds = KINDS_HELD.filter((kind) => state.kinds.includes(kind) || (kind === WORKFLOWS ? workflows !== undefined : scope.kinds.includes(kind)));
  writeState(scope.root, state);
  const { out } = context;
  // A value two names share could stand for either: it stays as the account holds it, and is said.
  const sharedValues = [...new Map(shared.map((entry) => [entry.value, entry])).values()];
  for (const { value, names } of sharedValues)
    out.note(`"${value}" is the value of ${names.map((name) => `{env.${name}}`).join(' and ')} in ${environment!.name}: left as written.`);
  if (out.json) return out.writeJson({ account, directory: scope.root, records: lines, ...(environment === undefined ? {} : { shared: sharedValues }) });
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
