/**
 * The review of the emails a content_push call would change, for the person who approves it: the
 * push planned as `content push --plan --out` plans it (which sends nothing) into the proposal's
 * own directory, where the review's page (review.html) stays for the person to open while the
 * change waits, and goes with the proposal when it is swept. The question names the emails, the
 * page and the review's digest. The person's yes is for the plan itself (binding.ts), which stays
 * beside the page: approved_apply applies that plan, never a push planned again from the tree.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { sanitize } from '../../base/sanitize.js';
import type { ImpactRecord } from '../change/impact/records.js';
import { renderImpact } from '../change/impact/render.js';
import { readPlanUnder } from '../change/plan-file.js';
import { type PlanReview, reviewWords } from '../content/review/plan-review.js';
import { summaryOf } from '../content/review/words.js';
import { PLAN_KINDS } from '../plan-kinds.js';
import { type Caller, callOf } from './calls.js';
import type { Tool } from './tools.js';

/** The review a tool's answer carries: what the person approves, and where to see it. */
export interface LinkedReview {
  digest: string;
  /** The HTML page, before and after, under the config directory. */
  page?: string;
  /** `2 emails change as recipients see them (…)`. */
  summary: string;
  emails: { kind: string; name: string; path: string; change: string; changed: string[] }[];
}

/** The plan's name in the proposal's directory, and its page's. */
const PLAN = 'change.json';
export const REVIEW_PAGE = 'review.html';

export const isPush = (tool: Tool) => tool.path.join(' ') === 'content push';

/** A plan's review as a tool's answer carries it, its page where it was moved. */
export function linkedReview(review: PlanReview, page: string | undefined): LinkedReview {
  return {
    digest: review.digest,
    ...(page === undefined ? {} : { page }),
    summary: summaryOf(review),
    emails: review.emails.map(({ kind, name, path, change, changed }) => ({ kind, name, path, change, changed })),
  };
}

/**
 * The push planned into `dir`: the lines of its impact and review for the question, and the
 * review, its page kept in `dir` (the plan itself removed); or why it could not be planned.
 */
export async function plannedPush(
  caller: Caller,
  tool: Tool,
  input: Record<string, unknown>,
  dir: string,
  signal?: AbortSignal,
): Promise<{ words: string[]; review?: LinkedReview; digest?: string }> {
  const call = callOf(caller, tool, input);
  // A plan sends nothing, publishes nothing, and asks nothing.
  const { publish: _publish, yes: _yes, ...planned } = call.input;
  const ran = await caller.invoker.invoke(tool.path, { ...planned, plan: true, out: join(dir, PLAN) }, { signal, files: { ...call.files, root: dir } });
  if (ran.error !== undefined) return { words: [sanitize(`Impact and review: unknown, the push could not be planned: ${ran.error.message}`)] };
  // The plan stays in `dir`: it is what the person's yes binds (binding.ts).
  const plan = await readPlanUnder(dir, PLAN, PLAN_KINDS).catch(() => undefined);
  if (plan === undefined)
    return { words: ['No plan was written: the push holds something back (a conflict, a live workflow); see it with content_push and plan: true.'] };
  const impact = renderImpact((plan.impact ?? []) as unknown as ImpactRecord[]);
  const review = (plan as { review?: PlanReview }).review;
  if (review === undefined) return { words: impact === '' ? [] : impact.trimEnd().split('\n'), digest: plan.digest };
  const written = review.page === undefined ? undefined : join(dir, review.page.slice(review.page.lastIndexOf('/') + 1));
  const page = written === undefined ? undefined : join(dir, REVIEW_PAGE);
  if (written !== undefined) renameSync(written, page!);
  return {
    words: [...(impact === '' ? [] : impact.trimEnd().split('\n')), ...reviewWords({ ...review, ...(page === undefined ? {} : { page }) })],
    review: linkedReview(review, page),
    digest: plan.digest,
  };
}
