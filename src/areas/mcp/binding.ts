/**
 * What a person's yes binds, made before they are asked, and the run made on it. A yes is for the
 * calls the person was shown, never for a tool call to be run again later (when the account, the
 * tree or a plan file may have moved) nor for a review's digest alone:
 * - a plan, kept in the proposal's own directory (`change.json`) and bound by its digest, which
 *   covers its calls, the account and the revisions and digests they were judged on: an `apply` of
 *   a plan file (a copy of it, read once), a `content_push` (planned as `content push --plan --out`
 *   plans it) and a command that can plan (`--plan`). The run on the yes is `loopsctl apply` of that
 *   plan: its exact calls, or a conflict (exit 5) for a record changed since;
 * - the calls a command makes, held at the transport as --dry-run holds them (method, target as
 *   sent, the body's digest: src/core/bound-calls.ts): a send, a contact written, `api`. The run on
 *   the yes runs the command again, and sends those calls and no other, or is refused (exit 5)
 *   before the first that is not the one approved.
 * With either, the records that are live as the person is asked (the gate's judgement of each call,
 * src/core/gate.ts): their yes covers those, and a call of the run made on it to a record that went
 * live since is refused (exit 5), for the person to be asked again.
 */
import { join } from 'node:path';
import { ExitCode, type LoopsctlError, MismatchError, ProtectedError, RejectedError, UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import { sanitize } from '../../base/sanitize.js';
import { writeTreeFile } from '../../base/tree-writes.js';
import type { BoundCall } from '../../core/bound-calls.js';
import { plans } from '../../core/declare.js';
import type { Proposal } from '../change/approvals.js';
import type { ImpactRecord } from '../change/impact/records.js';
import { renderImpact } from '../change/impact/render.js';
import { type PlanFile, type PlannedUnit, readPlanUnder } from '../change/plan-file.js';
import { planReviewWords } from '../content/review/plan-review.js';
import { PLAN_KINDS } from '../plan-kinds.js';
import { type Caller, callOf, callTool, failed, producedValue, type ToolAnswer } from './calls.js';
import { isPush, type LinkedReview, plannedPush } from './push-review.js';
import { asks, type Tool } from './tools.js';

/** The plan a yes binds, in the proposal's directory. */
export const BOUND_PLAN = 'change.json';

export type Bound = NonNullable<Proposal['bound']>;

/** What the person is asked about: the words of what the call does, what their yes binds, and a push's review. */
export interface Binding {
  words: string[];
  bound: Bound;
  review?: LinkedReview;
}

/**
 * What a yes to the call binds, made in `dir` (the proposal's directory), with the records that are
 * live as the person is asked (`live`, which the yes covers and no other); a call that cannot be
 * bound fails here, nothing asked.
 */
export async function bindingOf(caller: Caller, tool: Tool, input: Record<string, unknown>, dir: string, signal?: AbortSignal): Promise<Binding> {
  const binding = await boundCalls(caller, tool, input, dir, signal);
  if ('calls' in binding.bound) return binding;
  return { ...binding, bound: { ...binding.bound, live: await liveOfPlan(caller, dir, signal) } };
}

/**
 * The records a plan changes that are live now: its apply run as a capture, which checks it as an
 * apply does (its account, each unit's record) and judges each unit, sending nothing.
 */
async function liveOfPlan(caller: Caller, dir: string, signal?: AbortSignal): Promise<string[]> {
  const ran = await caller.invoker.invoke(['apply'], { plan: join(dir, BOUND_PLAN) }, { signal, files: { inline: new Map(), root: dir }, capture: true });
  if (ran.error !== undefined) throw ran.error;
  return ran.live;
}

async function boundCalls(caller: Caller, tool: Tool, input: Record<string, unknown>, dir: string, signal?: AbortSignal): Promise<Binding> {
  if (tool.path.join(' ') === 'apply') return copiedPlan(caller, tool, input, dir);
  if (isPush(tool)) {
    if (input.publish === true)
      throw new UsageError('a push that publishes is two changes for a person to approve: the drafts, then each publish', {
        hint: 'push without "publish" (approved as the plan of its drafts), then publish each email with transactional_publish',
      });
    const push = await plannedPush(caller, tool, input, dir, signal);
    if (push.digest === undefined)
      throw new UsageError(`the push cannot be approved as one plan: ${push.words.join(' ')}`, {
        hint: 'settle what it holds back (content_push with plan: true shows it), then ask again',
      });
    return { words: push.words, bound: { plan: push.digest }, ...(push.review === undefined ? {} : { review: push.review }) };
  }
  // A plan never discards queued contacts: a call that does is bound by its calls, its impact planned without.
  const discards = input['queued-contacts'] === 'discard';
  if (plans(tool.spec) && !discards) {
    const planned = await plannedCall(caller, tool, input, dir, signal);
    if (planned !== undefined) return planned;
  }
  return capturedCalls(caller, tool, input, dir, signal);
}

/** A plan file the call names, read once and kept as it was in the proposal's directory: the yes is for that copy. */
async function copiedPlan(caller: Caller, tool: Tool, input: Record<string, unknown>, dir: string): Promise<Binding> {
  const plan = await readPlanUnder(caller.root, callOf(caller, tool, input).input.plan as string, PLAN_KINDS);
  writeTreeFile(dir, BOUND_PLAN, `${JSON.stringify(plan, null, 2)}\n`);
  return { words: planWords(plan), bound: { plan: plan.digest } };
}

/** What a plan holds, for the person: its digest and account, each record with the calls it makes (from the calls, not the labels), its impact and review. */
function planWords(plan: PlanFile): string[] {
  const impact = renderImpact((plan.impact ?? []) as unknown as ImpactRecord[]);
  const calls = (unit: PlannedUnit) =>
    unit.calls.map((call) => (call.op === 'request' ? `${String(call.operation)} ${String(call.path)}` : call.op)).join(', ');
  return [
    sanitize(`The plan ${plan.digest}, for ${plan.account.team}:`),
    ...plan.units.map((unit) => sanitize(`  ${unit.record}: ${calls(unit)}`)),
    ...(impact === '' ? [] : impact.trimEnd().split('\n')),
    ...planReviewWords(plan),
  ];
}

/** The call's command input and files, answering yes to what the command would ask: a run that sends nothing, for the person to be asked instead. */
function heldCall(caller: Caller, tool: Tool, input: Record<string, unknown>): ReturnType<typeof callOf> {
  const call = callOf(caller, tool, input);
  if (asks(tool)) call.input.yes = true;
  return call;
}

/** The command planned (`--plan --out`) into the proposal's directory; undefined when it writes no plan (it fails, or changes nothing). */
async function plannedCall(caller: Caller, tool: Tool, input: Record<string, unknown>, dir: string, signal?: AbortSignal): Promise<Binding | undefined> {
  const call = heldCall(caller, tool, input);
  const ran = await caller.invoker.invoke(
    tool.path,
    { ...call.input, plan: true, out: join(dir, BOUND_PLAN) },
    { signal, files: { ...call.files, root: dir } },
  );
  if (ran.error !== undefined) return undefined;
  const plan = await readPlanUnder(dir, BOUND_PLAN, PLAN_KINDS).catch(() => undefined);
  if (plan === undefined) return undefined;
  const impact = renderImpact((plan.impact ?? []) as unknown as ImpactRecord[]);
  return { words: impact === '' ? [] : impact.trimEnd().split('\n'), bound: { plan: plan.digest } };
}

/**
 * The calls the command makes, held at the transport and sent nothing; with, for a command that
 * can plan, the impact of its plan (made without discarding queued contacts, which a plan never does).
 */
async function capturedCalls(caller: Caller, tool: Tool, input: Record<string, unknown>, dir: string, signal?: AbortSignal): Promise<Binding> {
  const call = heldCall(caller, tool, input);
  const ran = await caller.invoker.invoke(tool.path, call.input, { signal, files: call.files, capture: true });
  if (ran.error !== undefined) throw ran.error;
  const sends = sendsInWords(ran.held);
  const bound = { calls: ran.held, live: ran.live };
  if (!plans(tool.spec)) return { words: sends, bound };
  const { 'queued-contacts': _discards, ...planned } = call.input;
  const impact = await caller.invoker.invoke(
    tool.path,
    { ...planned, plan: true, out: join(dir, 'impact.json') },
    { signal, files: { ...call.files, root: dir } },
  );
  const records = (producedValue(impact) as { impact?: ImpactRecord[] } | undefined)?.impact ?? [];
  const words =
    impact.error !== undefined
      ? [sanitize(`Impact: unknown, it could not be planned: ${impact.error.message}`)]
      : records.length === 0
        ? []
        : renderImpact(records).trimEnd().split('\n');
  return { words: [...sends, ...words], bound };
}

/** The requests a command makes, a line each, the same request made again (an import's rows) counted on one line. */
function sendsInWords(calls: readonly BoundCall[]): string[] {
  if (calls.length === 0) return ['It sends nothing.'];
  const counted = new Map<string, number>();
  for (const call of calls) counted.set(`${call.method} ${call.target}`, (counted.get(`${call.method} ${call.target}`) ?? 0) + 1);
  return [...counted].map(([request, count]) => sanitize(`It sends ${request}${count === 1 ? '' : `, ${count} times`}.`));
}

/** Refuses a bound plan that is no longer in the proposal's directory as the person approved it: before the approval is used, nothing sent. */
export async function checkBound(dir: string, bound: Bound): Promise<void> {
  if (!('plan' in bound)) return;
  const kept = await readPlanUnder(dir, BOUND_PLAN, PLAN_KINDS).catch(() => undefined);
  if (kept?.digest !== bound.plan)
    throw new ProtectedError('the plan kept for this change is not the one the person approved (its digest changed); nothing was sent', {
      code: 'not_approved',
      hint: 'propose the change again, for a person to approve it as it is',
    });
}

/** The change made on a person's yes: the plan they approved, applied; or the command, sending the calls they approved and no other. */
export async function runBound(
  caller: Caller,
  tool: Tool,
  input: Record<string, unknown>,
  bound: Bound,
  dir: string,
  signal?: AbortSignal,
): Promise<ToolAnswer> {
  // What was live when the person was asked, which their yes covers (none kept: none was).
  const liveAtYes = bound.live ?? [];
  if (!('plan' in bound)) return callTool(caller, tool, input, signal, true, undefined, { calls: bound.calls as BoundCall[], liveAtYes });
  await checkBound(dir, bound);
  const ran = await caller.invoker.invoke(
    ['apply'],
    { plan: join(dir, BOUND_PLAN), live: true },
    { signal, files: { inline: new Map(), root: dir }, approved: true, liveAtYes },
  );
  if (ran.error !== undefined) return failed(tool, ran.error, ran);
  const value = producedValue(ran);
  // A record changed since the plan (exit 5), or an email Guardian refused and put back (exit 1): the change was not made as approved.
  if (ran.exitCode !== ExitCode.ok) return failed(tool, notMadeAsApproved(ran.exitCode, value), ran);
  return {
    content: [{ type: 'text', text: ran.stdout }],
    structuredContent: isJsonObject(value) ? value : { data: value },
  };
}

/**
 * Why the apply of a plan approved (or proposed: `change`) did not make all of it, from its lines:
 * the conflict or Guardian's refusal it stopped at.
 */
export function notMadeAsApproved(
  exitCode: number,
  value: unknown,
  change = { what: 'the change approved', since: 'the person approved the change', again: 'for a person to approve it as it is now' },
): LoopsctlError {
  const lines = ((value as { applied?: { status: string; path: string; note?: string }[] } | undefined)?.applied ?? []).filter(
    (line) => line.status === 'conflict' || line.status === 'refused',
  );
  const said = lines.map((line) => `${line.path}: ${line.note ?? line.status}`).join('; ');
  if (exitCode === ExitCode.rejected)
    return new RejectedError(`${said || 'a record changed since the plan was made'}: ${change.what} was stopped there, and nothing after it was sent`, {
      code: 'conflict',
      hint: `the account moved since ${change.since}: propose it again, ${change.again}`,
    });
  return new MismatchError(`${said || 'the change was not made whole'}`, { hint: 'see the lines of the apply (structuredContent.output)' });
}
