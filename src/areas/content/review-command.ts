/**
 * `content review`: a change shown as the people who get its emails will see it, before it is
 * applied. Both sides are content trees read by one reader (review/sides.ts): the base a git ref
 * holds (--base), the account as it is (--against account) or what a plan was made against (a
 * plan file); the head the working tree or what the plan writes. What differs is the review.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuthError, ProtectedError, UsageError } from '../../base/errors.js';
import { handler, type Handler, type Uses } from '../../core/capabilities.js';
import { renderTable } from '../../render/table.js';
import { DEFAULT_DIRECTORY } from './files.js';
import { isTree } from './tree.js';
import { compareSides, reviewJson, type Review } from './review/compare.js';
import type { PlanReview } from './review/plan-review.js';
import { readSide, unusedChangedComponents } from './review/sides.js';
import { NO_CHANGE, reviewMarkdown, reviewSlack, summaryOf, whatChanged } from './review/words.js';

export interface ReviewOptions {
  base?: string;
  against?: string;
  out?: string;
  format?: 'text' | 'markdown' | 'slack';
  allowNetwork?: boolean;
}

/** Two trees to compare, and what to remove once they are read. */
export interface Sides {
  base: string;
  head: string;
  /** Said in the review: `main (3f2a1c9)`, `the account acme`. */
  baseLabel: string;
  headLabel: string;
  remove: () => void;
  /** A plan's review as it was written into the plan. */
  planned?: PlanReview;
}

/** The working tree named, refused unless `content pull` (or convert) laid it out. */
function contentTree(directory: string | undefined): string {
  const root = resolve(directory ?? DEFAULT_DIRECTORY);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new UsageError(`${root} is not a directory`, { hint: 'name the content directory `content pull` wrote (default ./loops)' });
  if (!isTree(root))
    throw new UsageError(`${root} holds no pulled content: no loopsctl-state.json nor a kind's directory (transactional/, campaigns/, workflows/)`, {
      hint: 'name the directory `content pull` wrote, or pull it first: `loopsctl content pull`',
    });
  return root;
}

async function sidesOf(context: Uses<'client' | 'key' | 'files' | 'out'>, source: string | undefined, options: ReviewOptions): Promise<Sides> {
  if (options.base !== undefined && options.against !== undefined)
    throw new UsageError('--base and --against each name the side to compare with: give one', {
      hint: 'a pull request: --base main; the account: --against account',
    });
  if (source?.endsWith('.json') && options.base === undefined && options.against === undefined) return planSides(context, source);
  if (options.base !== undefined) {
    const head = contentTree(source);
    const { treeAtRef } = await import('./review/git-base.js');
    const base = treeAtRef(head, options.base);
    return { base: base.root, head, baseLabel: `${options.base} (${base.commit.slice(0, 7)})`, headLabel: 'the working tree', remove: base.remove };
  }
  if (options.against === 'account') {
    const head = contentTree(source);
    const { accountTree } = await import('./review/account-base.js');
    const base = await accountTree(context, head, source ?? DEFAULT_DIRECTORY);
    return { base: base.root, head, baseLabel: `the account ${base.account}`, headLabel: 'the working tree', remove: base.remove };
  }
  throw new UsageError('say what the change is compared with', {
    hint: 'a pull request: `loopsctl content review loops --base main`; the account: `--against account`; a plan: `loopsctl content review change.json`',
  });
}

/**
 * A plan's two sides, as it carries them: refused when it was edited (its digest), or when the key
 * at hand reaches another account than the one it was made for (exit 11). Without a key the plan
 * is reviewed as it is, and the account is checked when it is applied.
 */
async function planSides(context: Uses<'client' | 'key' | 'files' | 'out'>, file: string): Promise<Sides> {
  const { readPlan } = await import('../change/plan-file.js');
  const { planTrees, reviewOfPlan } = await import('./review/plan-review.js');
  const plan = await readPlan(context, file, (await import('./kinds.js')).PLAN_KINDS);
  const planned = reviewOfPlan(plan, file);
  try {
    await context.credentials();
    const { whereOf } = await import('../change/account.js');
    const where = await whereOf(context, await context.client());
    if (where.team !== plan.account.team || where.baseUrl !== plan.account.baseUrl)
      throw new ProtectedError(
        `${file} is a plan for ${plan.account.team} at ${plan.account.baseUrl}, and this key reaches ${where.team} at ${where.baseUrl}`,
        {
          hint: `review it with the key it was planned with (profile ${plan.account.profile}), or with none`,
        },
      );
  } catch (error) {
    if (!(error instanceof AuthError && error.code === 'no_key')) throw error;
  }
  const trees = planTrees(planned);
  return { base: trees.base, head: trees.head, baseLabel: `the account ${plan.account.team}`, headLabel: `the plan ${file}`, remove: trees.remove, planned };
}

/** The review of a change, its sides read and removed. */
export async function reviewOf(sides: Sides): Promise<Review> {
  try {
    const [before, after] = await Promise.all([readSide(sides.base), readSide(sides.head)]);
    const unusedComponents = await unusedChangedComponents(sides.base, sides.head, [...before.values(), ...after.values()]);
    return { ...compareSides(before, after), unusedComponents };
  } finally {
    sides.remove();
  }
}

export const review: Handler<[string | undefined], ReviewOptions> = handler(['out', 'files', 'client', 'key'], async (context, [source], options) => {
  const sides = await sidesOf(context, source, options);
  const { baseLabel, headLabel } = sides;
  const drawn = await reviewOf(sides);
  // A plan's review counts the emails it left alone, which it does not carry.
  const { planned } = sides;
  const result = planned === undefined ? drawn : { ...drawn, unchanged: planned.unchanged };
  if (planned !== undefined && result.digest !== planned.digest)
    context.out.note(
      `This loopsctl draws the plan's emails otherwise than the one that wrote it did (review digest ${result.digest}, planned ${planned.digest}): an approval is for the planned digest.`,
    );
  if (options.out !== undefined) await writeReviewPages(context, result, options, `${baseLabel} → ${headLabel}`);
  await show(context, result, options, `${baseLabel} → ${headLabel}`);
});

/** The HTML page (or pages, past EMAILS_PER_PAGE emails) written where --out names. */
async function writeReviewPages(context: Uses<'files' | 'out'>, result: Review, options: ReviewOptions, between: string): Promise<void> {
  const { writePages } = await import('./review/page.js');
  const files = await writePages(context, result, options.out!, { allowNetwork: options.allowNetwork === true, between });
  context.out.note(`Wrote the review to ${files.length === 1 ? files[0] : `${files.length} pages: ${files.join(', ')}`}.`);
}

async function show(context: Uses<'out'>, result: Review, options: ReviewOptions, between: string): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson(reviewJson(result));
  if (options.format === 'markdown') return out.write(reviewMarkdown(result, options.out));
  if (options.format === 'slack') return out.write(`${JSON.stringify(reviewSlack(result, options.out), null, 2)}\n`);
  for (const component of result.unusedComponents ?? []) out.note(`${component} changed, and no email embeds it: no recipient sees that change.`);
  if (result.emails.length === 0) {
    out.note(`${NO_CHANGE} (${between}; ${result.unchanged} emails drawn the same.)`);
    return;
  }
  await out.write(
    renderTable(
      out,
      [{ header: 'CHANGE' }, { header: 'KIND' }, { header: 'EMAIL' }, { header: 'WHAT CHANGED', prose: true }],
      result.emails.map((email) => [email.change, email.kind, `${email.name} (${email.path})`, whatChanged(email)]),
    ),
  );
  out.note(`${summaryOf(result)} (${between})`);
  out.note(`Review digest ${result.digest}.`);
}
