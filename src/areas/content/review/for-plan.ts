/**
 * The review `content push --plan --out change.json` writes into its plan: the account as it is
 * (the plan's base) against what the push writes (the records --only covers, as the directory has
 * them), and its page beside the plan (change.review.html), which an approval names.
 */
import type { Uses } from '../../../core/capabilities.js';
import type { ImpactRecord } from '../../change/impact/records.js';
import type { Environment } from '../shared/environments.js';
import { accountTree } from './account-base.js';
import { compareSides } from './compare.js';
import { writePages } from './page.js';
import { type PlanReview, reviewForPlan } from './plan-review.js';
import { readSide } from './sides.js';

/** Where a plan's review page is written: beside it, `change.json` -> `change.review.html`. */
export function pageBesidePlan(plan: string): string {
  return plan.endsWith('.json') ? `${plan.slice(0, -'.json'.length)}.review.html` : `${plan}.review.html`;
}

/** The review of what a push would write, its page written beside the plan; the review as the plan carries it. */
export async function reviewForPush(
  context: Uses<'client' | 'key' | 'files'>,
  root: string,
  shown: string,
  only: string | undefined,
  plan: string,
  impact?: readonly ImpactRecord[],
  environment?: Environment,
): Promise<PlanReview> {
  const sides = await accountTree(context, root, shown, only ?? 'transactional,campaigns,components,themes,workflows', environment);
  try {
    const head = sides.head!;
    const review = compareSides(await readSide(sides.root), await readSide(head));
    const page = pageBesidePlan(plan);
    // What the plan does to people, a needs --live among it, above the emails as `content review --plan` shows it.
    await writePages(context, review, page, { between: `the account ${sides.account} → the plan ${plan}`, ...(impact === undefined ? {} : { impact }) });
    return reviewForPlan(review, sides.root, head, page);
  } finally {
    sides.remove();
  }
}
