/**
 * `content push` of emails, components and themes: only the records changed here since they were
 * last in step with the account, each guarded by the revision (or, for components and themes, the
 * content) it was pulled at.
 */

import type { ApiClient } from '../../../api/client.js';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import { ExitCode } from '../../../base/exit-codes.js';
import { inOneLine } from '../../../base/particulars.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../../core/explain.js';
import { YesNeededError } from '../../../core/gate.js';
import { confirm } from '../../../core/prompt.js';
import { countOf } from '../../../render/numbers.js';
import type { KeptImages } from '../../change/before-images.js';
import { watchWrites } from '../../change/watched-writes.js';
import { type Account, remember } from '../shared/account.js';
import type { EnvValues } from '../shared/env-values.js';
import { type ContentState, DEFAULT_DIRECTORY, digestOf, type EmailDirectory, newIdNote, type SyncedRecord, writeState } from '../shared/files.js';
import { accountFiles, heldAt, type LmxNames, lmxNames, madeByThePlan, nameRecords, standIn } from '../shared/lmx-names.js';
import { type RecordFiles, readRecords, writeReferenceFiles } from '../shared/record-files.js';
import { type Line, renderLines } from '../shared/render.js';
import { CONTENT, commandOf, requireState, type Scope, scopeCovers } from '../shared/scope.js';
import { standingOf } from '../shared/standing.js';
import { keepPushImages, placeOf } from './kind.js';
import { checkBeforePush, pairCandidates, reportPlan, type Step, stepFor, unresolvedStep } from './plan.js';
import { type EmailUnit, guardingRevisions, recordUnit } from './plan-unit.js';
import { noteEditedReference, noteLookalikes, ruleWords } from './push-notes.js';
import { type Applied, applyRecord, createRecord, fetchRecord, guardianCheckOf, publish, readForPush, restored, transactionalGroupIds } from './remote.js';
import { describe, followRenames, nameRemotes, syncedOf } from './sides.js';
import { staleRevision, stoppedMidRecord, writeFilledIn } from './writes.js';

export interface PushOptions {
  /** --env: the environment of the tree's environments.json pushed to. */
  env?: string;
  only?: string;
  plan?: boolean;
  force?: boolean;
  live?: boolean;
  recreate?: boolean;
  check: boolean;
  publish?: boolean;
  yes?: boolean;
  /** With --plan: the plan file to write, for `loopsctl apply`. */
  out?: string;
  /** How long the plan file may wait for its apply, in milliseconds. */
  expires?: number;
  /** With --plan: the app's source, for the sends a transactional email's new data variables would break. */
  code?: string[];
  /** With --plan: the transactional groups the push creates before the emails, which an email may name already. */
  plannedGroups?: string[];
  /** --env's values, which fill the files' `{env.NAME}` before they are compared or sent. */
  values?: EnvValues;
  /** The tree as its files are named, where that is not the tree pushed: a promotion's, named as the real tree's. */
  shown?: string;
  /** A promotion's source environment, whose content a leak is mended in. */
  from?: string;
  /** --dry-run: the tree's state file is left as it is. */
  dryRun?: boolean;
}

/** The kinds in the order a push writes them: the components and themes an email embeds before the emails. */
const PUSH_ORDER = ['components', 'themes', 'transactional', 'campaigns'] as const satisfies readonly EmailDirectory[];

/** What the state keeps, per account, of the records a push began to write and did not finish. */
type Pending = NonNullable<ContentState['pending']>[string];

/** One push under the directory's lock: the account it writes to and the state it keeps up to date. */
interface PushRun {
  context: Uses<'out'>;
  client: ApiClient;
  account: string;
  root: string;
  options: PushOptions;
  synced: Record<string, SyncedRecord>;
  pending: Pending;
  /** The account's transactional groups by name, read once the push writes a transactional email. */
  groupIds?: ReadonlyMap<string, string>;
  /** The tree's components and themes with their ids in the account: what an email's LMX is sent with. */
  names: LmxNames;
  /** Written after each record, so a run that stops leaves what it did, and what it began, recorded. */
  save(): void;
  /** What the records held before, kept for `loopsctl undo`: told where each write's answers left its record. */
  images?: KeptImages;
}

/** What the records pushed so far came to: the lines printed, and the counts the exit code follows. */
interface Tally {
  lines: Line[];
  published: string[];
  refused: number;
  notEditable: number;
  /** Emails not sent for a component or theme they name that the account lacks. */
  unresolved: number;
  /** Records not sent because their write reaches people now and the run has no --live (the write gate's judgement). */
  live: number;
}

/**
 * What a push of emails came to: its exit code, what --json prints of it (the caller prints it with
 * the workflows' and the audience's) and, with --plan, the calls it planned, whether any record was
 * held back, and the components and themes it would make (which the workflows' emails may name).
 */
export interface EmailPush {
  code: number;
  json: Record<string, unknown>;
  units?: EmailUnit[];
  held?: boolean;
  making?: string[];
}

/**
 * Pushes the emails, components and themes of the scope, under the directory's lock the caller
 * holds: the components and themes first, then the emails that name them, each email's LMX sent
 * with the ids this account has for the components and themes it names by their directories.
 */
export async function pushEmails(
  context: Uses<'out' | 'client' | 'prompts' | 'files' | 'clock' | 'config'>,
  directory: string | undefined,
  scope: Scope,
  where: Account,
  options: PushOptions,
): Promise<EmailPush> {
  const shown = directory ?? DEFAULT_DIRECTORY;
  // Read again: the audience's push before saved its own.
  const state = requireState(scope.root, shown);
  const account = remember(state, where.key, where).key;
  const client = await context.client();
  // What the emails embed goes first: a clone makes the components and themes, then the emails.
  const locals = readRecords(
    scope.root,
    PUSH_ORDER.filter((kind) => scope.kinds.includes(kind)),
    options.values,
  ).filter((local) => scopeCovers(scope, local.path));
  // A renamed folder is the record it was: its state follows the new name once this push saves.
  const lookalikes = followRenames(state, locals);
  // The tree names components and themes by their directories; an id an older pull wrote reads as its directory too.
  const names = lmxNames(scope.root, state, account);
  nameRecords(locals, names, true);
  const run = startRun(context, client, account, scope.root, state, options, names);
  // A record unchanged since it was last in step with this account costs no request, unless a push of it stopped half-way,
  // or --only named it: it is then compared with the account, to be put back if deleted or changed there.
  const candidates = locals.filter(
    (local) => scope.named.has(local.path) || run.pending[local.path] !== undefined || !heldAt(local, run.synced[local.path]?.digest),
  );
  await checkBeforePush(context, shown, scope.root, candidates, options);
  noteEditedReference(context, locals, run.synced);
  const pairs = await pairCandidates(client, candidates, run.synced);
  // A component or theme the account holds as the tree does, matched by name, is the tree's: an email names it by its id there.
  nameRemotes(pairs, names, (pair) => pair.local !== undefined && pair.synced === undefined && standingOf(pair) === 'same');
  const stepped = pairs.map((pair) => stepFor(pair, options.force === true, run.pending[pair.local!.path] !== undefined, scope.named.has(pair.local!.path)));
  // One this push makes has no id before it is made; an email naming a record the account lacks and the push does not make is not sent.
  for (const step of stepped) if (step.action === 'create') names.making(step.pair.local!.path);
  const steps = stepped.map((step) => unresolvedStep(step, names, account) ?? step);
  noteLookalikes(context, steps, lookalikes, new Set(locals.map((local) => local.path)));
  // The groups the emails are put in, by name, as the account has them now that the tree's groups were pushed.
  run.groupIds = await groupIdsFor(client, steps, options);
  // Every file that would be sent is read now: one that cannot be stops the push, or the plan, before anything is sent.
  for (const step of steps) if (step.action !== 'skip') readForPush(step.pair.local!, step.pair.remote, run.groupIds);
  if (options.plan) {
    const held = steps.some((step) => step.held !== undefined);
    // Every call is written down before the plan is printed: a record no plan file can hold stops it with nothing printed as planned.
    const units = steps.flatMap((step) => unitOf(step, options, run.groupIds, names));
    const json = await reportPlan(context, account, steps);
    return { code: held ? ExitCode.rejected : ExitCode.ok, json, units, held, making: names.makingPaths() };
  }
  const creating = steps.filter((step) => step.action === 'create');
  if (creating.length > 0) {
    await confirm(context.runtime, `Create ${creating.map((step) => describe(step.pair).path).join(', ')} in ${account}?`, options.yes);
  }
  // The journal names each record a write changes: an email's message by the email's name.
  for (const { pair } of steps) {
    if (pair.remote === undefined) continue;
    for (const id of [pair.remote.id, ...Object.values(pair.remote.messages).flatMap((message) => message?.id ?? [])])
      context.recordNames.set(id, pair.local!.name);
  }
  const tally: Tally = { lines: [], published: [], refused: 0, notEditable: 0, unresolved: 0, live: 0 };
  // What the records held before, kept for `loopsctl undo`, as an apply keeps it.
  const images = keepPushImages(context, client, { command: commandOf(context), account: where }, steps);
  run.images = images;
  try {
    for (const step of steps) await pushStep(run, step, tally);
  } finally {
    await images?.settle(doneOf(tally));
  }
  run.save();
  const reported = await reportPush(run, locals.length - steps.length, tally);
  if (images !== undefined && tally.lines.some((line) => line.status === 'updated'))
    context.out.note(`What it changed was kept as it was before: \`loopsctl undo ${images.id}\` puts it back.`);
  return reported;
}

/** The records of the steps the push wrote, with the id of each it created. */
function doneOf(tally: Tally): { record: string; id?: string }[] {
  return tally.lines.filter((line) => line.status === 'updated' || line.status === 'created').map((line) => ({ record: line.path, id: line.id }));
}

function startRun(context: Uses<'out'>, client: ApiClient, account: string, root: string, state: ContentState, options: PushOptions, names: LmxNames): PushRun {
  const synced = state.accounts[account] ?? {};
  const pending = state.pending?.[account] ?? {};
  const save = () => {
    state.accounts[account] = synced;
    const { [account]: _previous, ...others } = state.pending ?? {};
    state.pending = Object.keys(pending).length > 0 ? { ...others, [account]: pending } : others;
    if (Object.keys(state.pending).length === 0) delete state.pending;
    if (!options.dryRun) writeState(root, state);
  };
  return { context, client, account, root, options, synced, pending, names, save };
}

/**
 * The account's transactional groups by name, when the push writes a transactional email; a plan
 * counts those the push makes before the emails too, by a stand-in id no plan file holds.
 */
async function groupIdsFor(client: ApiClient, steps: Step[], options: PushOptions): Promise<Map<string, string> | undefined> {
  if (!steps.some((step) => step.action !== 'skip' && step.pair.local!.kind === 'transactional')) return undefined;
  const groupIds = await explained(transactionalGroupIds(client), CONTENT);
  for (const name of options.plan ? (options.plannedGroups ?? []) : []) if (!groupIds.has(name)) groupIds.set(name, standIn(name));
  return groupIds;
}

/**
 * A step's calls, its LMX with the account's ids; without --out, a record no plan file can hold has
 * no impact to show rather than stopping the plan. A plan file cannot hold the id of a component or
 * theme the same plan makes: the account gives it only once it is made.
 */
function unitOf(step: Step, options: PushOptions, groupIds: ReadonlyMap<string, string> | undefined, names: LmxNames): EmailUnit[] {
  try {
    if (step.action === 'skip') return [];
    const sent = accountFiles(step.pair.local!.files, names);
    if (sent.making.length > 0) throw madeByThePlan(step.pair.local!.path, sent.making);
    const unit = recordUnit({ ...step, pair: { ...step.pair, local: { ...step.pair.local!, files: sent.files } } }, options.force === true, groupIds);
    return unit === undefined ? [] : [unit];
  } catch (error) {
    if (options.out === undefined && error instanceof UsageError) return [];
    throw error;
  }
}

/** One record's step: written, finished after an earlier push stopped, or skipped; then what came of it recorded. */
async function pushStep(run: PushRun, step: Step, tally: Tally): Promise<void> {
  const { pair } = step;
  const local = pair.local!;
  const interrupted = run.pending[local.path];
  let applied: Applied;
  if (step.action !== 'skip') {
    try {
      applied = await writeStep(run, step);
    } catch (error) {
      // Its first write reaches people now (a live email uses the component, say): held back, as a live workflow is, and the rest go.
      if (!(error instanceof YesNeededError) || error.does === undefined) throw error;
      tally.live += 1;
      const note = `it ${inOneLine(error.does)}: push with --live to change it anyway; nothing of it was sent`;
      tally.lines.push({ status: 'skipped', kind: local.kind, path: local.path, name: local.name, note });
      return;
    }
  } else if (step.standing === 'same' && interrupted !== undefined) {
    // An earlier push wrote these files and stopped before it was done: finish its check.
    applied = interrupted.check ? await explained(guardianCheckOf(run.client, pair.remote!), CONTENT) : { id: pair.remote!.id, checked: [], changed: true };
  } else return skipStep(run, step, tally);
  await settleStep(run, step, applied, tally);
}

/** A record not sent: held for the person to settle, or with nothing to send. */
function skipStep(run: PushRun, step: Step, tally: Tally): void {
  const { pair } = step;
  const local = pair.local!;
  if (step.held === 'not editable' || step.held === 'unresolved') {
    if (step.held === 'not editable') tally.notEditable += 1;
    else tally.unresolved += 1;
    tally.lines.push({ status: 'refused', kind: local.kind, path: local.path, name: local.name, note: step.why });
  } else if (step.held === 'conflict') {
    tally.lines.push({ status: 'conflict', kind: local.kind, path: local.path, name: local.name, note: step.why });
  } else if (step.standing === 'missing') {
    // A campaign the account lacks: made in its app, never by a push.
    tally.lines.push({ status: 'skipped', kind: local.kind, path: local.path, name: local.name, note: step.why });
  } else {
    // The account moved on and the files did not, or both already agree: nothing to send.
    if (step.standing === 'same') run.synced[local.path] = syncedOf(pair.remote!, digestOf(local.files), pair.synced?.published);
    tally.lines.push({ status: step.standing === 'same' ? 'unchanged' : 'behind', kind: local.kind, path: local.path, name: local.name, note: step.why });
  }
}

/** A record created or updated in the account: pending from its first write, so a push that stops there is finished by the next. */
async function writeStep(run: PushRun, step: Step): Promise<Applied> {
  const { pair } = step;
  const local = pair.local!;
  const { options, pending } = run;
  const digest = digestOf(local.files);
  // Sent with the ids the account has for the components and themes its LMX names, those this push made included.
  const sent = { ...local, files: sendable(run, local) };
  // Pending from the moment its first write is sent, not before: a push that stops before then wrote nothing of it.
  const writes = watchWrites(run.client, () => {
    pending[local.path] = { digest, check: options.check };
    run.save();
  });
  const write =
    step.action === 'create'
      ? explained(createRecord(writes.client, sent, { check: options.check, groupIds: run.groupIds }), CONTENT)
      : explained(
          applyRecord(writes.client, sent, pair.remote!, {
            check: options.check,
            expectedRevisions: options.force ? undefined : guardingRevisions(step),
            groupIds: run.groupIds,
          }),
          CONTENT,
        ).catch((error: unknown) => {
          throw staleRevision(error, local);
        });
  return await write.catch((error: unknown) => {
    if (!writes.mayHaveWritten(error)) {
      // Its only write was refused, or none was sent: the account holds nothing of it.
      if (pending[local.path] !== undefined) {
        delete pending[local.path];
        run.save();
      }
      throw error;
    }
    throw stoppedMidRecord(error, local);
  });
}

/** A record's files with the account's ids in their LMX; a name the account has no id for stops the record before its first write. */
function sendable(run: PushRun, local: RecordFiles): Map<string, string> {
  const sent = accountFiles(local.files, run.names);
  const lacking = [...sent.missing.map((name) => `${name.file} names ${name.path}`), ...sent.making.map((path) => `it names ${path}`)];
  if (lacking.length > 0)
    throw new LocalFileError(`${local.path}: ${lacking.join(', ')}, which ${run.account} has no id for; nothing of it was sent`, {
      hint: 'push the component or theme first, or name one the account has',
    });
  return sent.files;
}

/** What Guardian said of a record written: refused (and put back), or taken, then published when asked. */
async function settleStep(run: PushRun, step: Step, applied: Applied, tally: Tally): Promise<void> {
  const { pair } = step;
  const local = pair.local!;
  const { client, synced, pending } = run;
  const digest = digestOf(local.files);
  const finished = step.action === 'skip' ? 'finished a push that had stopped after writing it' : undefined;
  const warnings = applied.checked.flatMap((message) => message.report?.warnings ?? []);
  const errors = applied.checked.flatMap((message) => message.report?.errors ?? []);
  if (finished !== undefined && errors.length > 0) {
    // Written unchecked by the push that stopped: the account holds it; it stays pending, and is reported again, until it passes.
    tally.refused += 1;
    synced[local.path] = syncedOf(pair.remote!, digest, pair.synced?.published);
    run.save();
    const note = `a push that stopped wrote it unchecked, and the account holds it; Guardian: ${errors.map(ruleWords).join('; ')}`;
    tally.lines.push({ status: 'refused', kind: local.kind, path: local.path, name: local.name, id: applied.id, note, rules: errors });
    return;
  }
  delete pending[local.path];
  if (restored(applied)) {
    // Putting it back made a new revision of the same content: the record stays in step with the
    // account at that revision, so the next push of the fixed files is not refused as stale.
    // A record created and then put back holds what its creation made: the files are a change to it.
    const back = pair.synced === undefined && step.action !== 'create' ? undefined : await fetchRecord(client, local.kind, applied.id);
    if (back !== undefined) synced[local.path] = syncedOf(back, pair.synced?.digest, pair.synced?.published);
    run.save();
    tally.refused += 1;
    tally.lines.push({
      status: 'refused',
      kind: local.kind,
      path: local.path,
      name: local.name,
      id: applied.id,
      note: `Guardian: ${errors.map(ruleWords).join('; ')}; put back as it was`,
      rules: errors,
    });
    return;
  }
  // A component or theme made here is named by its new id in the emails pushed after it.
  run.names.learn(local.path, applied.id);
  // Where its writes left it: their answers, where they tell it all; else read.
  const after = applied.answered ?? (await fetchRecord(client, local.kind, applied.id));
  if (applied.answered !== undefined) await run.images?.reached({ record: local.path, id: applied.id, after: placeOf(applied.answered) });
  if (after !== undefined) {
    const written = writeFilledIn(run.root, local, after.files, run.options.values);
    synced[local.path] = syncedOf(after, digestOf(new Map([...local.files, ...written])), pair.synced?.published);
  }
  run.save();
  const warned = warnings.length > 0 ? `Guardian: ${countOf(warnings.length, 'warning')}: ${warnings.map(ruleWords).join('; ')}` : undefined;
  // Why a record in step before was written again: put back after a deletion or a change in the account.
  const restoring = step.action !== 'skip' && pair.synced !== undefined ? step.why : undefined;
  const renewed = step.action === 'create' ? newIdNote(pair.synced, applied.id) : undefined;
  const note = [finished, restoring, renewed, warned].filter((part) => part !== undefined).join('; ') || undefined;
  tally.lines.push({
    status: step.action === 'create' ? 'created' : 'updated',
    kind: local.kind,
    path: local.path,
    name: local.name,
    id: applied.id,
    note,
    rules: warnings,
  });
  if (run.options.publish && local.kind === 'transactional' && applied.checked.length > 0) await publishStep(run, local, applied.id, tally);
}

async function publishStep(run: PushRun, local: RecordFiles, id: string, tally: Tally): Promise<void> {
  await explained(publish(run.client, id), CONTENT);
  tally.published.push(local.path);
  const live = await fetchRecord(run.client, local.kind, id);
  if (live !== undefined) {
    // What is live names the components and themes as the tree does.
    nameRecords([live], run.names, false);
    run.synced[local.path] = syncedOf(live, digestOf(local.files));
    // What is live changed: its copy for review follows, or diff would report it at once.
    writeReferenceFiles(run.root, { ...live, path: local.path });
  }
  run.save();
}

/** The push's lines and summary, and its document for --json; exit 5 for what the person has to settle, 1 for what Guardian refused. */
async function reportPush(run: PushRun, notCandidates: number, tally: Tally): Promise<EmailPush> {
  const { out } = run.context;
  const { lines, published, refused, notEditable, unresolved, live } = tally;
  const conflicts = lines.filter((line) => line.status === 'conflict').length;
  const json = { account: run.account, records: lines, published };
  if (!out.json) {
    await out.write(
      renderLines(
        out,
        lines.filter((line) => line.status !== 'unchanged'),
      ),
    );
    const sent = lines.filter((line) => line.status === 'updated' || line.status === 'created').length;
    const unchanged = notCandidates + lines.filter((line) => line.status === 'unchanged').length;
    out.note(
      `Pushed ${countOf(sent, 'record')} to ${run.account}${published.length > 0 ? `, published ${published.length}` : ''}; ${unchanged} unchanged${conflicts > 0 ? `, ${countOf(conflicts, 'conflict')}` : ''}${notEditable > 0 ? `, ${notEditable} not editable in the account` : ''}${unresolved > 0 ? `, ${unresolved} naming what the account lacks` : ''}${live > 0 ? `, ${live} live (--live)` : ''}${refused > 0 ? `, ${refused} refused by Guardian` : ''}.`,
    );
  }
  if (conflicts > 0 || notEditable > 0 || unresolved > 0 || live > 0) return { code: ExitCode.rejected, json };
  return { code: refused > 0 ? ExitCode.mismatch : ExitCode.ok, json };
}
