/**
 * `content push` of the audience half, before anything else of the tree: the contact properties,
 * then the segments, then the groups, so that a workflow or an email pushed after finds what it
 * names. What the API cannot do is said and never sent; a mailing list or event pattern a workflow
 * names that the account lacks stops the push, with nothing sent, until it is made in the app.
 */
import type { ApiClient } from '../../../api/client.js';
import { UsageError } from '../../../base/errors.js';
import { ExitCode } from '../../../base/exit-codes.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../../core/explain.js';
import { confirm } from '../../../core/prompt.js';
import { countOf } from '../../../render/numbers.js';
import type { RequestUnit } from '../../change/request-calls.js';
import { keepSyncedAudience, type SyncedAudience, syncedAudienceOf } from '../shared/audience-state.js';
import { type ContentState, digestOf, writeState } from '../shared/files.js';
import { type Line, renderLines } from '../shared/render.js';
import { CONTENT } from '../shared/scope.js';
import { audienceDiff } from './diff.js';
import { readAudience } from './files.js';
import { type AppStep, type AudienceSide, type AudienceTask, appSteps, pairAudience, planAudience, taskFile } from './plan.js';
import { syncedAudience } from './pull.js';
import { type AudienceWrite, fetchAudience, sendWrite } from './remote.js';
import type { AudienceProblem } from './rules.js';
import { readAudienceSides } from './sides.js';
import { audienceUnits } from './units.js';

export interface AudiencePushOptions {
  plan?: boolean;
  force?: boolean;
  yes?: boolean;
  /** Whether the run pushes workflows too: the lists and events they name must be there first. */
  workflows: boolean;
  /** Under --dry-run: the tree's state is left as it is, as the account is. */
  dryRun?: boolean;
}

/** What the audience push came to: its exit code, whether the rest of the push may go on, its lines, and what is left to do in the app. */
export interface AudiencePushed {
  code: number;
  /** A list or event pattern a workflow names is missing: nothing may be sent, and the workflows cannot be planned. */
  blocked: boolean;
  /** The segments the push creates, which the workflows' plan may name before they exist. */
  newSegments: string[];
  /** The transactional groups the push creates, which the emails' plan may name before they exist. */
  newGroups: string[];
  lines: Line[];
  json: Record<string, unknown>;
  /** Steps in the app that nothing of this push waits for, but the tree names. */
  leftToDo: string[];
  /** Under --plan, its writes as a plan file holds them, first of the plan's units. */
  units: RequestUnit[];
  /** A record held for a conflict, or a step the app must take first: a plan file of the push would not be the whole change. */
  held: boolean;
}

/** One write in the words of the plan: the API's operation and what it sets. */
export function describeWrite(write: AudienceWrite): string {
  switch (write.op) {
    case 'createContactProperty':
      return `${write.op} ${write.name} (${write.type})`;
    case 'createAudienceSegment':
      return `${write.op} "${write.name}"`;
    case 'createTransactionalGroup':
    case 'createCampaignGroup':
      return `${write.op} "${write.body.name}"`;
    default:
      return `${write.op} ${Object.entries(write.body)
        .map(([field, value]) => `${field}=${JSON.stringify(value)}`)
        .join(' ')}`;
  }
}

const VERBS = { create: 'would create', update: 'would update', skip: 'would skip' } as const;

/** Whether a task is anything to say: a write, a refusal, or a record that differs. */
const worthSaying = (task: AudienceTask) =>
  task.writes.length > 0 || task.cannot.length > 0 || task.held === true || task.app !== undefined || task.side.standing !== 'same';

function planText(tasks: AudienceTask[], steps: AppStep[]): string {
  const blocks = tasks.filter(worthSaying).map((task) => {
    const heading = `# ${task.side.path}: ${task.cannot.length > 0 && task.writes.length === 0 ? 'cannot be pushed' : VERBS[task.action]}${task.why === undefined ? '' : ` (${task.why})`}`;
    const lines = [
      ...task.writes.map((write, index) => `  ${index + 1}. ${describeWrite(write)}`),
      ...task.cannot.map((cannot) => `  ! ${cannot}`),
      ...(task.app === undefined ? [] : [`  - left to do by hand: ${task.app}`]),
    ];
    const patch = task.action === 'skip' && task.cannot.length === 0 ? '' : audienceDiff(task.side);
    return `${heading}\n${lines.length > 0 ? `${lines.join('\n')}\n` : ''}${patch}`;
  });
  const blocking = steps.filter((step) => step.blocks);
  if (blocking.length > 0)
    blocks.push(
      `# in the app first: the push cannot go on before\n${blocking.map((step) => `  - ${step.todo} (named in ${step.where.join(', ')})`).join('\n')}\n`,
    );
  return blocks.join('');
}

function jsonOf(tasks: AudienceTask[], steps: AppStep[]) {
  return {
    plan: tasks.filter(worthSaying).map((task) => ({
      path: task.side.path,
      kind: task.side.kind,
      name: task.side.name,
      standing: task.side.standing,
      action: task.action,
      ...(task.why === undefined ? {} : { why: task.why }),
      calls: task.writes,
      cannot: task.cannot,
      ...(task.app === undefined ? {} : { inTheApp: task.app }),
      patch: audienceDiff(task.side),
    })),
    inTheApp: steps.map(({ what, where, blocks, todo }) => ({ what, where, blocks, todo })),
  };
}

/** The ids of records the state knows in the account (each record's, each workflow node's): a filter naming one of them names this account's. */
function idsKnownIn(state: ContentState, account: string): Set<string> {
  const ids = new Set<string>();
  for (const record of Object.values(state.accounts[account] ?? {})) {
    ids.add(record.id);
    const nodes = (record as { nodes?: unknown }).nodes;
    if (typeof nodes === 'object' && nodes !== null) for (const id of Object.values(nodes)) if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

/** The tree's errors stop the push before anything is sent, each named by its file and field. */
function refuseProblems(problems: AudienceProblem[]): void {
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length === 0) return;
  const at = (problem: AudienceProblem) => `${problem.file}${problem.line === undefined ? '' : `:${problem.line}:${problem.column}`}`;
  throw new UsageError(
    `${errors.map((problem) => `${at(problem)}: ${problem.field === '' ? '' : `${problem.field}: `}${problem.message}`).join('; ')}; nothing was sent`,
    {
      hint: '`loopsctl content check` names each problem and what to write instead',
    },
  );
}

export async function pushAudience(
  context: Uses<'out' | 'prompts'>,
  client: ApiClient,
  root: string,
  state: ContentState,
  account: string,
  options: AudiencePushOptions,
): Promise<AudiencePushed> {
  const { out } = context;
  const { tree, remotes, sides } = await readAudienceSides(client, root, state, account);
  refuseProblems(tree.problems);
  const tasks = planAudience(sides, tree, options.force === true, idsKnownIn(state, account));
  const steps = appSteps(tree, remotes, options.workflows);
  const blocked = steps.some((step) => step.blocks);
  const unsettled = tasks.some((task) => task.cannot.length > 0 || task.held === true);
  const leftToDo = [
    ...steps.filter((step) => !step.blocks).map((step) => `${step.todo} (named in ${step.where.join(', ')})`),
    ...tasks.flatMap((task) => (task.app === undefined ? [] : [`${task.app} (${taskFile(task)})`])),
  ];
  const json = jsonOf(tasks, steps);
  const newSegments = tasks.flatMap((task) => task.writes.flatMap((write) => (write.op === 'createAudienceSegment' ? [write.name] : [])));
  const newGroups = tasks.flatMap((task) => task.writes.flatMap((write) => (write.op === 'createTransactionalGroup' ? [write.body.name] : [])));
  if (options.plan || blocked) {
    // A push that cannot go on says only what to do in the app; a plan says all it would do.
    if (!out.json) {
      const text = planText(options.plan ? tasks : [], steps);
      if (text !== '') await out.write(text);
    }
    if (blocked && !options.plan)
      out.note(`Nothing was sent: ${countOf(steps.filter((step) => step.blocks).length, 'step')} to take in the app first (above), then push again.`);
    else noteUnsettled(out, tasks, true);
    // A push that cannot go on plans no writes: its plan file would not be the whole change.
    const units = await audienceUnits(client, blocked ? [] : tasks.flatMap((task) => task.writes));
    const held = blocked || tasks.some((task) => task.held === true);
    return { code: blocked || unsettled ? ExitCode.rejected : ExitCode.ok, blocked, newSegments, newGroups, lines: [], json, leftToDo, units, held };
  }
  const sending = tasks.filter((task) => task.writes.length > 0);
  const creating = sending.filter((task) => task.action === 'create' || task.writes.some((write) => write.op.startsWith('create')));
  if (creating.length > 0) await confirm(context.runtime, `Create ${creating.map(taskFile).join(', ')} in ${account}?`, options.yes);
  const synced = syncedAudienceOf(state, account);
  const lines: Line[] = [];
  for (const task of sending) {
    let id: string | undefined;
    for (const write of task.writes) id = (await sendWrite(client, write)) ?? id;
    const local = task.side.local!;
    // In step with what was sent, until the account's own rendition is read back below.
    synced[local.path] = { ...(id === undefined ? (synced[local.path] ?? {}) : { id }), digest: digestOf(local.files) } as SyncedAudience;
    keepSyncedAudience(state, account, synced);
    if (!options.dryRun) writeState(root, state);
    lines.push({
      status: task.action === 'create' ? 'created' : 'updated',
      kind: task.side.kind,
      path: local.path,
      name: task.side.name,
      ...(id === undefined ? {} : { id }),
      note: task.writes.map(describeWrite).join('; '),
    });
  }
  for (const task of tasks) {
    if (task.cannot.length > 0)
      lines.push({ status: 'refused', kind: task.side.kind, path: task.side.path, name: task.side.name, note: task.cannot.join('; ') });
    else if (task.held) lines.push({ status: 'conflict', kind: task.side.kind, path: task.side.path, name: task.side.name, note: task.why });
    else if (task.app !== undefined)
      lines.push({ status: 'skipped', kind: task.side.kind, path: task.side.path, name: task.side.name, note: `left to do by hand: ${task.app}` });
  }
  // Read back only when something was written: otherwise the sides read first are what the account holds.
  const after = sending.length === 0 ? sides : pairAudience(tree.records, await fetchAudience(client), synced, tree.fields);
  settle(after, synced, new Set(sending.map((task) => task.side.path)));
  keepSyncedAudience(state, account, synced);
  if (!options.dryRun) writeState(root, state);
  noteUnsettled(out, tasks, false);
  return {
    code: unsettled ? ExitCode.rejected : ExitCode.ok,
    blocked: false,
    newSegments,
    newGroups,
    lines,
    json: { ...json, records: lines },
    leftToDo,
    units: [],
    held: false,
  };
}

/** Why the push ends with exit 5: the records it could not make as the files say, or found changed in the account. */
function noteUnsettled(out: Uses<'out'>['out'], tasks: readonly AudienceTask[], plan: boolean): void {
  const refused = tasks.filter((task) => task.cannot.length > 0).length;
  const held = tasks.filter((task) => task.cannot.length === 0 && task.held === true).length;
  if (refused + held === 0) return;
  const what = [
    refused === 0 ? undefined : `${countOf(refused, 'audience record')} the API cannot make as the files say`,
    held === 0 ? undefined : `${countOf(held, 'audience record')} changed in the account too`,
  ].filter(Boolean);
  out.note(`${plan ? 'The push would leave' : 'Not pushed'}: ${what.join(', ')} (each line says why and what to do).`);
}

/**
 * Each record the account holds as the files say, and each one written (at the account's own
 * rendition of it, read back after the writes), is in step: a diff right after finds nothing, or
 * says honestly where the account took the files otherwise.
 */
function settle(sides: AudienceSide[], synced: Record<string, SyncedAudience>, written: ReadonlySet<string>): void {
  for (const side of sides) {
    if (side.local === undefined || side.remote === undefined) continue;
    if (side.standing === 'same' || written.has(side.path)) synced[side.path] = syncedAudience(side.remote);
  }
}

/**
 * The audience half of a push, when the run covers it and the tree holds it (or a pull brought it):
 * its lines printed as it ends, or, when it stops the push, its document under --json.
 */
export async function pushAudienceFirst(
  context: Uses<'out' | 'prompts'>,
  client: ApiClient,
  scope: { root: string; audience: boolean; workflows: boolean },
  state: ContentState,
  account: string,
  options: Omit<AudiencePushOptions, 'workflows'>,
): Promise<AudiencePushed | undefined> {
  if (!scope.audience || (state.audience === undefined && readAudience(scope.root).length === 0)) return undefined;
  const pushed = await explained(pushAudience(context, client, scope.root, state, account, { ...options, workflows: scope.workflows }), CONTENT);
  const { out } = context;
  if (pushed.blocked && !options.plan && out.json) await out.writeJson({ account, audience: pushed.json });
  else if (!out.json && pushed.lines.length > 0) await out.write(renderLines(out, pushed.lines));
  return pushed;
}

/** What the other halves of a clone leave to the app: the tree's campaigns, and what the API cannot set of each workflow written. */
export interface ByHand {
  campaigns: string[];
  workflows: string[];
  /** The command that publishes the transactional emails the push left as drafts, as the person runs it for this account. */
  publish: string;
}

/**
 * What is left to do by hand once a push of the audience is done: the lists and event patterns the
 * tree names that the account lacks, and, after a push to an account this tree was never in step
 * with (a clone), the campaigns (which a push never creates), publishing what was made as drafts,
 * what the API cannot set of a workflow (its emoji), and the sending domain, which the API cannot set.
 */
export function leftToDo(audience: AudiencePushed | undefined, fresh: boolean, byHand: ByHand): string[] {
  // A push of some kinds alone (--only components) is no clone.
  if (audience === undefined) return [];
  return [
    ...audience.leftToDo,
    ...(fresh
      ? [
          ...(byHand.campaigns.length > 0
            ? [`make in the app the campaigns this account is to send (a push never creates one): ${byHand.campaigns.join(', ')}`]
            : []),
          `publish the transactional emails pushed as drafts (${byHand.publish}, or in the app)`,
          ...byHand.workflows,
          'review and publish the workflows made as drafts, in the app (the API cannot start one)',
          'set up the sending domain in the app (Settings, Domain): the API neither reads nor sets it',
        ]
      : []),
  ];
}

export function noteLeftToDo(context: Uses<'out'>, steps: string[]): void {
  if (steps.length === 0 || context.out.json) return;
  context.out.note('Left to do by hand:');
  steps.forEach((step, index) => context.out.note(`  ${index + 1}. ${step}`));
}
