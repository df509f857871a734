/**
 * `content push` of workflows: for each workflow changed here, the edit script (plan.ts) played
 * against the account one call at a time, each with the revision the previous one returned. A
 * workflow the account changed meanwhile is a conflict (nothing of it written; --force takes the
 * local side); one that is not a draft is refused without --live; a new directory becomes a new
 * draft. The state is saved after every call, with the id of every node made, so that a push that
 * stops is finished by the next one, which plans again from what the account then holds.
 */

import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from '../../../api/client.js';
import { MismatchError, UsageError } from '../../../base/errors.js';
import type { Uses } from '../../../core/capabilities.js';
import { confirm } from '../../../core/prompt.js';
import type { WorkflowFile } from '../../../platform/workflows/file.js';
import { workflowProblems } from '../../../platform/workflows/rules.js';
import { countOf } from '../../../render/numbers.js';
import type { Output } from '../../../render/output.js';
import type { AccountWhere } from '../../change/account.js';
import type { PlannedUnit } from '../../change/plan-file.js';
import * as api from '../../workflows/client.js';
import { checkSource } from '../shared/check.js';
import type { EnvValues } from '../shared/env-values.js';
import { type ContentState, digestOf, type Files, newIdNote, type SyncedRecord, writeState } from '../shared/files.js';
import { accountFiles, type LmxNames, lackingWords, madeByThePlan, nameRecords, standIn } from '../shared/lmx-names.js';
import { type Line, renderLines } from '../shared/render.js';
import { commandOf, type Scope } from '../shared/scope.js';
import { writeWorkflow } from '../shared/workflow-files.js';
import { Executor } from './executor.js';
import { keepWorkflowPushImages } from './kind.js';
import { describeStep, planWorkflow, type WorkflowPlan } from './plan.js';
import { workflowUnit } from './plan-unit.js';
import { resolvedNames, syncedOf } from './pull.js';
import { type AccountNames, assignKeys, fetchWorkflow, type RemoteWorkflow, workflowFileOf, workflowFilesOf } from './remote.js';
import { readSides, type WorkflowSide } from './sides.js';

export interface WorkflowPushOptions {
  plan?: boolean;
  force?: boolean;
  live?: boolean;
  recreate?: boolean;
  yes?: boolean;
  /** A plan file is written: the plan's calls are kept. */
  out?: string;
  /** In a plan: the segments the push creates before the workflows, which they may name. */
  plannedSegments?: string[];
  /** In a plan: the components and themes the push makes before the workflows, which their emails may name. */
  making?: string[];
  /** The values of the environment pushed to, which fill the emails' `{env.NAME}`. */
  values?: EnvValues;
  /** Under --dry-run: the tree's state is left as it is, as the account is. */
  dryRun?: boolean;
}

/** What a push does with one workflow. */
interface Task {
  side: WorkflowSide;
  file: WorkflowFile;
  action: 'update' | 'create' | 'recreate' | 'skip';
  plan?: WorkflowPlan;
  why?: string;
  held?: 'conflict' | 'live' | 'impossible' | 'unresolved';
  /** The files as the account takes them: the emails' LMX with its ids for the components and themes they name. */
  sent?: Files;
}

/** The blank draft the API makes (a blank trigger leading to an exit), under the file's keys for them. */
function blankOf(file: WorkflowFile): WorkflowFile {
  const exit = Object.entries(file.nodes).find(([, node]) => node.type === 'ExitAction')?.[0] ?? 'exit';
  return {
    name: file.name,
    description: '',
    mailingList: null,
    root: file.root,
    nodes: { [file.root]: { type: 'BlankTrigger', next: [exit] }, [exit]: { type: 'ExitAction', next: [] } },
  };
}

/** The email keys whose files differ between the account and the tree. */
function emailsChanged(side: WorkflowSide, blank: boolean): Set<string> {
  const local = side.local!.files;
  const account = blank ? new Map<string, string>() : (side.account?.files ?? new Map<string, string>());
  const changed = new Set<string>();
  for (const name of local.keys()) {
    const match = /^emails\/([^/]+)\/email\.(json|lmx)$/.exec(name);
    if (match !== null && local.get(name) !== account.get(name)) changed.add(match[1]!);
  }
  return changed;
}

function taskOf(side: WorkflowSide, options: WorkflowPushOptions, named: boolean): Task | undefined {
  const file = side.file!;
  if (side.standing === 'same' || (side.standing === 'remote' && !named)) return undefined;
  if (side.standing === 'missing')
    return {
      side,
      file,
      action: 'create',
      plan: planWorkflow(blankOf(file), file, emailsChanged(side, true)),
      why:
        side.synced === undefined
          ? 'not in the account: created as a draft'
          : `deleted in the account since the last pull (${side.synced.id}): created anew as a draft`,
    };
  const account = side.account!;
  if (side.standing === 'remote' && !options.force)
    return {
      side,
      file,
      action: 'skip',
      held: 'conflict',
      why: "changed in the account since the last pull: push it with --force to put the files' version back, or pull to keep the account's",
    };
  if (side.standing === 'conflict' && !options.force) {
    return {
      side,
      file,
      action: 'skip',
      held: 'conflict',
      why:
        side.synced === undefined
          ? 'the account has a workflow of this name that these files were never pulled from: pull with --force to take its side, or push with --force'
          : 'changed in the account since the last pull: pull with --force into a clean checkout and merge, or push with --force to take the local side',
    };
  }
  const status = side.remote!.graph.status ?? 'Draft';
  if (status !== 'Draft' && !options.live) {
    return {
      side,
      file,
      action: 'skip',
      held: 'live',
      why:
        status === 'Sending'
          ? `the workflow is ${status}: contacts move through it; push with --live to change it anyway, or pause it in the app (${side.remote!.graph.url ?? 'its page'})`
          : `the workflow is ${status}: contacts are held in it and go on from where they wait when it resumes; push with --live to change it anyway`,
    };
  }
  const plan = planWorkflow(account.file, file, emailsChanged(side, false));
  if (plan.impossible.length === 0)
    return {
      side,
      file,
      action: 'update',
      plan,
      why:
        side.standing === 'conflict'
          ? 'taking the local side (--force)'
          : side.standing === 'remote'
            ? "put back as the files have it, over the account's change (--force)"
            : undefined,
    };
  if (options.recreate)
    return {
      side,
      file,
      action: 'recreate',
      plan: planWorkflow(blankOf(file), file, emailsChanged(side, true)),
      why: 'built as a new draft (--recreate); the old one is left as it is',
    };
  return {
    side,
    file,
    action: 'skip',
    held: 'impossible',
    plan,
    why: `no edit script gets there (${plan.impossible.join('; ')}): push with --recreate to build it as a new draft`,
  };
}

/** The LMX of every email a push would send, checked as workflow email first: the API refuses LMX that does not compile. */
function checkEmails(tasks: Task[]): void {
  const failing = tasks.flatMap((task) =>
    (task.plan?.steps ?? []).flatMap((step) => {
      if (step.op !== 'updateEmailMessage' || task.action === 'skip') return [];
      const lmx = step.email.replace(/email\.json$/, 'email.lmx');
      const check = checkSource(`${task.side.path}/${lmx}`, task.side.local!.files.get(lmx) ?? '', 'workflow');
      return check.errors.length > 0 ? [check.file] : [];
    }),
  );
  if (failing.length > 0) {
    throw new MismatchError(`LMX errors in ${failing.join(', ')}; nothing was sent`, {
      hint: '`loopsctl content check` shows every problem and what to write instead',
    });
  }
}

/**
 * A task with its files as the account takes them: each component and theme its emails name by
 * directory, as the id the account has for it. One naming a record the account lacks, which the
 * push did not make, is skipped, naming the file and the record; a plan file cannot hold the id of
 * one the same plan makes.
 */
function sendableTask(task: Task, lmx: LmxNames, account: string, options: WorkflowPushOptions): Task {
  if (task.action === 'skip') return task;
  const { files, missing, making } = accountFiles(task.side.local!.files, lmx);
  if (missing.length > 0) return { ...task, action: 'skip', held: 'unresolved', why: lackingWords(missing, account) };
  if (making.length > 0 && options.out !== undefined) throw madeByThePlan(task.side.path, making);
  return { ...task, sent: files };
}

/** Every name the plans refer to, found in the account: one that is not stops the push before anything is sent. */
function resolveNames(tasks: Task[], names: AccountNames): { lists: Map<string, string>; segments: Map<string, string> } {
  const byName = (ids: Map<string, string>) => new Map([...ids].map(([id, name]) => [name, id]));
  const lists = byName(names.lists);
  const segments = byName(names.segments);
  const unknown: string[] = [];
  for (const task of tasks) {
    for (const step of task.plan?.steps ?? []) {
      if (step.op === 'changeWorkflowMailingList' && step.mailingList !== null && !lists.has(step.mailingList))
        unknown.push(`${task.side.path}: mailing list "${step.mailingList}"`);
      if (step.op === 'updateWorkflowNode' && typeof step.payload.segment === 'string' && !segments.has(step.payload.segment))
        unknown.push(`${task.side.path}: segment "${step.payload.segment}" (${step.key})`);
    }
    if ((task.action === 'create' || task.action === 'recreate') && typeof task.file.mailingList === 'string' && !lists.has(task.file.mailingList))
      unknown.push(`${task.side.path}: mailing list "${task.file.mailingList}"`);
  }
  if (unknown.length > 0) {
    throw new UsageError(`the account has no ${[...new Set(unknown)].join(', ')}; nothing was sent`, {
      hint: 'references are matched by name, never guessed: create them in the account, or name ones it has in the workflow files',
    });
  }
  return { lists, segments };
}

/**
 * Pushes the tree's changed workflows; returns the exit code (5 when one was held back). The
 * state is saved through `save` after every call.
 */
export async function pushWorkflows(
  context: Uses<'out' | 'prompts' | 'config' | 'clock' | 'client'>,
  client: ApiClient,
  scope: Scope,
  state: ContentState,
  account: string,
  options: WorkflowPushOptions,
  where: AccountWhere,
): Promise<{ code: number; json: Record<string, unknown>; units?: PlannedUnit[]; leftInApp?: string[] }> {
  const { out } = context;
  const { root } = scope;
  const { sides, names, lmx } = await readSides(client, root, state, account, { onlyChanged: true, scope, values: options.values });
  for (const name of options.plannedSegments ?? []) names.segments.set(standIn(name), name);
  for (const path of options.making ?? []) lmx.making(path);
  refuseBroken(sides);
  const tasks = sides
    .filter((side) => side.local !== undefined)
    .flatMap((side) => taskOf(side, options, scope.named.has(side.path)) ?? [])
    .map((task) => sendableTask(task, lmx, account, options));
  checkEmails(tasks);
  const resolved = resolveNames(tasks, names);
  if (options.plan) {
    // Without --out, only what a plan file can hold: the impact of the edits of workflows the account has.
    const units = tasks.flatMap((task) =>
      options.out === undefined && task.action !== 'update' ? [] : (workflowUnit(sentSide(task), task.action, task.plan, resolved) ?? []),
    );
    return { ...(await presentPlan(out, tasks, state, account)), units };
  }
  const records = (state.accounts[account] ??= {});
  const save = () => (options.dryRun ? undefined : writeState(root, state));
  const lines: Line[] = [];
  const drafts: string[] = [];
  // What the API could not set of each workflow written, for the one list a push ends with.
  const leftInApp: string[] = [];
  // What each workflow held before, kept for `loopsctl undo`, as an apply keeps it.
  const updating = tasks.filter((task) => task.action === 'update').map((task) => task.side);
  const images = keepWorkflowPushImages(context, client, { command: commandOf(context), account: where }, updating);
  for (const task of tasks) {
    const { side } = task;
    if (task.action === 'skip') {
      lines.push(skippedLine(task));
      continue;
    }
    const creating = task.action !== 'update';
    if (creating) await confirm(context.runtime, `Create the workflow ${task.file.name} in ${account} as a draft?`, options.yes);
    const run = creating
      ? await createDraft(client, task.file, resolved.lists)
      : { id: side.remote!.id, revision: side.remote!.revision, keys: new Map([...side.account!.keys].map(([id, key]) => [key, id])) };
    const localDigest = digestOf(side.local!.files);
    const executor = new Executor(
      client,
      run.id,
      run.revision,
      run.keys,
      resolved,
      task.sent ?? side.local!.files,
      creating ? {} : (side.synced?.emails ?? {}),
      options,
      context,
    );
    // The marker names the revisions this push's own writes reached: the account past them is someone else's edit.
    const record = (): SyncedRecord =>
      ({
        ...(records[side.path] ?? {}),
        id: run.id,
        digest: records[side.path]?.digest ?? '',
        nodes: Object.fromEntries([...run.keys].sort()),
        pushing: { digest: localDigest, ...executor.reached() },
      }) as SyncedRecord;
    records[side.path] = record();
    save();
    for (const step of task.plan!.steps) {
      await executor.apply(step);
      records[side.path] = record();
      save();
    }
    const after = await settle(client, root, state, account, task, run, names, lmx);
    save();
    drafts.push(after.graph.url ?? after.id);
    const left = task.plan!.leftInApp;
    if (left.length > 0) leftInApp.push(`set in the app, in ${side.path}: ${left.join('; ')}`);
    lines.push({
      status: creating ? 'created' : 'updated',
      kind: 'workflows',
      path: side.path,
      name: task.file.name,
      id: run.id,
      note:
        [task.why, newIdNote(side.synced, run.id), left.length > 0 ? `left to set in the app: ${left.join('; ')}` : undefined].filter(Boolean).join('; ') ||
        undefined,
    });
  }
  // A push stopped by a failure leaves its workflows unsettled: `undo` takes back only what it knows was done.
  await images?.settle(lines.filter((line) => line.status === 'updated').map((line) => ({ record: line.path })));
  if (!out.json) await reportPush(out, lines, drafts, lines.some((line) => line.status === 'updated') ? images?.id : undefined);
  const held = lines.some((line) => line.status === 'conflict' || line.status === 'skipped' || line.status === 'refused');
  return { code: held ? 5 : 0, json: { account, records: lines, drafts }, leftInApp };
}

/** A workflow not sent, and why: a conflict, one naming what the account lacks (refused), or one held back otherwise. */
function skippedLine(task: Task): Line {
  const status = task.held === 'conflict' ? 'conflict' : task.held === 'unresolved' ? 'refused' : 'skipped';
  return { status, kind: 'workflows', path: task.side.path, name: task.file.name, id: task.side.remote?.id, note: task.why };
}

/** A task's side with its files as the account takes them, as a plan file holds them. */
function sentSide(task: Task): WorkflowSide {
  return task.sent === undefined ? task.side : { ...task.side, local: { ...task.side.local!, files: task.sent } };
}

/** A workflow whose graph breaks the rule book is never pushed, nor anything beside it. */
function refuseBroken(sides: readonly WorkflowSide[]): void {
  const broken = sides.filter((side) => side.file !== undefined && workflowProblems(side.file).some((problem) => problem.severity === 'error'));
  if (broken.length === 0) return;
  throw new UsageError(
    `${broken.map((side) => side.path).join(', ')} break${broken.length === 1 ? 's' : ''} the rules of a workflow's graph; nothing was sent`,
    {
      hint: '`loopsctl content check` names each problem and what to write instead',
    },
  );
}

/** The plan's scripts and how many workflows they change; 5 when one is held back. */
async function presentPlan(out: Output, tasks: Task[], state: ContentState, account: string): Promise<{ code: number; json: Record<string, unknown> }> {
  const held = tasks.filter((task) => task.held !== undefined).length;
  if (!out.json) {
    await out.write(tasks.map((task) => planText(task, state, account)).join(''));
    out.note(`Workflows for ${account}: ${countOf(tasks.length - held, 'workflow')} to change, ${held} skipped.`);
  }
  return { code: held > 0 ? 5 : 0, json: { account, plan: tasks.map((task) => planJson(task)) } };
}

/** The push's lines, the drafts to publish from the app, and what was held back. */
async function reportPush(out: Output, lines: Line[], drafts: string[], kept: string | undefined): Promise<void> {
  const text = renderLines(out, lines);
  if (text !== '') await out.write(text);
  if (drafts.length > 0)
    out.note(`Pushed ${countOf(drafts.length, 'workflow')}; a push never publishes: review and publish from the app: ${drafts.join(', ')}`);
  if (kept !== undefined) out.note(`What it changed in workflows was kept as it was before: \`loopsctl undo ${kept}\` puts it back.`);
  const conflicts = lines.filter((line) => line.status === 'conflict').length;
  const skipped = lines.filter((line) => line.status === 'skipped' || line.status === 'refused').length;
  if (conflicts + skipped === 0) return;
  const held = [conflicts > 0 ? countOf(conflicts, 'workflow conflict') : '', skipped > 0 ? `${countOf(skipped, 'workflow')} skipped` : ''];
  out.note(`Not pushed: ${held.filter(Boolean).join(', ')}; nothing of them was written (each line says why).`);
}

/**
 * The workflow as the account holds it after a push, recorded in the state as in step; a file
 * written by hand (a new workflow's) is written anew as a pull writes it, with what the account
 * filled in (its status, an empty emoji), when it says no more than the account holds.
 */
async function settle(
  client: ApiClient,
  root: string,
  state: ContentState,
  account: string,
  task: Task,
  run: { id: string; keys: Map<string, string> },
  names: AccountNames,
  lmx: LmxNames,
): Promise<RemoteWorkflow> {
  const { side } = task;
  const after = await fetchWorkflow(client, run.id);
  const keys = assignKeys(after, Object.fromEntries(run.keys), names);
  // Its emails' LMX as the tree names the components and themes.
  const held = { files: workflowFilesOf(after, keys, names, task.file) };
  nameRecords([held], lmx, false);
  const { files } = held;
  const emailsSame = [...files].every(([name, text]) => !name.startsWith('emails/') || sameEmailFile(side.local!.files.get(name), text));
  // Only a file no account has written: a tree pulled from another account keeps that account's layout.
  const pulledElsewhere = Object.entries(state.accounts).some(([team, known]) => team !== account && known[side.path] !== undefined);
  // A tree whose emails hold placeholders keeps them: the account's filled values are not written over them.
  if (!pulledElsewhere && emailsSame && side.local!.written === undefined && saysNoMore(task.file, workflowFileOf(after, keys, names, task.file)))
    writeWorkflow(root, side.path, files);
  state.accounts[account]![side.path] = syncedOf(after, keys, files, resolvedNames(after, keys, names));
  return after;
}

/** A workflow's plan as --json prints it: the steps as the API's operations, by node key. */
function planJson(task: Task) {
  return {
    path: task.side.path,
    kind: 'workflows',
    name: task.file.name,
    ...(task.side.remote === undefined ? {} : { id: task.side.remote.id, status: task.side.remote.graph.status }),
    action: task.action,
    why: task.why,
    steps: task.action === 'skip' ? [] : (task.plan?.steps ?? []),
    leftInApp: task.plan?.leftInApp ?? [],
  };
}

/** An email's file as the account holds it says what the local one says: the same LMX, every field given with its value. */
function sameEmailFile(local: string | undefined, account: string): boolean {
  if (local === undefined || local === account) return local !== undefined;
  try {
    const mine = JSON.parse(local) as Record<string, unknown>;
    const theirs = JSON.parse(account) as Record<string, unknown>;
    return typeof mine === 'object' && mine !== null && Object.entries(mine).every(([field, value]) => isDeepStrictEqual(theirs[field], value));
  } catch {
    return false;
  }
}

/**
 * Whether the account's workflow says all the file says: the same graph, and each field the file
 * gives, as a plan from the account to the file finds nothing to do (a field the file leaves out,
 * such as a new experiment's `experimentType`, or `audienceFilter: null` for none, is no difference).
 */
function saysNoMore(local: WorkflowFile, account: WorkflowFile): boolean {
  if (local.root !== account.root) return false;
  const plan = planWorkflow(account, local, new Set());
  return plan.steps.length === 0 && plan.impossible.length === 0 && plan.leftInApp.length === 0;
}

/** A new draft with the file's name, description and list: the blank trigger and exit, under the file's keys. */
async function createDraft(client: ApiClient, file: WorkflowFile, lists: Map<string, string>) {
  const listId = typeof file.mailingList === 'string' ? lists.get(file.mailingList) : undefined;
  const created = await api.createWorkflow(client, {
    name: file.name,
    ...(file.description ? { description: file.description } : {}),
    ...(listId === undefined ? {} : { mailingListId: listId }),
  });
  const blank = blankOf(file);
  const exitKey = Object.keys(blank.nodes).find((key) => key !== blank.root)!;
  const keys = new Map<string, string>();
  for (const [id, node] of Object.entries(created.nodes)) keys.set(id === created.rootNodeId ? blank.root : node.typeName === 'ExitAction' ? exitKey : id, id);
  return { id: created.id, revision: created.workflowRevisionId ?? null, keys };
}

function planText(task: Task, state: ContentState, account: string): string {
  const { side } = task;
  const verbs = { update: 'would update', create: 'would create as a draft', recreate: 'would build as a new draft', skip: 'would skip' } as const;
  const status = side.remote?.graph.status;
  let text = `# ${side.path}: ${verbs[task.action]}${status !== undefined && status !== 'Draft' ? ` (${status}: live)` : ''}${task.why === undefined ? '' : ` (${task.why})`}\n`;
  if (task.action === 'skip' || task.plan === undefined) return text;
  const emails = (state.accounts[account]?.[side.path] as { emails?: Record<string, string | null> } | undefined)?.emails ?? {};
  for (const [index, step] of task.plan.steps.entries()) text += `  ${index + 1}. ${describeStep(step, (key) => emails[key])}\n`;
  if (task.plan.leftInApp.length > 0) text += `  left to set in the app: ${task.plan.leftInApp.join('; ')}\n`;
  return text;
}
