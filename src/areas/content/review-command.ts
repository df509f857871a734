/**
 * `content review`: a change shown as the people who get its emails will see it, before it is
 * applied. Both sides are content trees read by one reader (review/sides.ts): the base a git ref
 * holds (--base), the account as it is (--against account) or what a plan was made against (a
 * plan file); the head the working tree or what the plan writes. What differs is the review.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AuthError, RateLimitError, UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { PREVIEWS_PER_DAY } from '../../platform/email-messages/previews.js';
import { styleFor } from '../../render/style.js';
import { renderTable } from '../../render/table.js';
import { wrapLines } from '../../render/wrap.js';
import type { ImpactRecord } from '../change/impact/records.js';
import type { PlanKinds } from '../change/kinds.js';
import { compareSides, type Review, reviewJson } from './review/compare.js';
import type { PlanReview } from './review/plan-review.js';
import type { PreviewsReport } from './review/send-previews.js';
import { readSide, unusedChangedComponents } from './review/sides.js';
import { NO_CHANGE, reviewMarkdown, reviewSlack, summaryOf, whatChanged } from './review/words.js';
import type { QaRules } from './shared/check-qa.js';
import { chooseEnvironment } from './shared/environment-choice.js';
import type { Environment } from './shared/environments.js';
import { DEFAULT_DIRECTORY } from './shared/files.js';
import { isTree } from './shared/tree.js';

export interface ReviewOptions {
  env?: string;
  base?: string;
  against?: string;
  out?: string;
  format?: 'text' | 'markdown' | 'slack';
  allowNetwork?: boolean;
  allowPrivateLinks?: boolean;
  screenshots?: boolean;
  code?: string[];
  rules?: string;
  sendPreviews?: string;
  yes?: boolean;
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
  /** A plan's impact, as it was written into the plan. */
  impact?: ImpactRecord[];
  /** The environment whose values fill the sides, when the tree has environments and one was chosen. */
  environment?: Environment;
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

async function sidesOf(
  context: Uses<'client' | 'key' | 'files' | 'out'>,
  source: string | undefined,
  options: ReviewOptions,
  kinds: () => Promise<PlanKinds>,
): Promise<Sides> {
  if (options.base !== undefined && options.against !== undefined)
    throw new UsageError('--base and --against each name the side to compare with: give one', {
      hint: 'a pull request: --base main; the account: --against account',
    });
  if (source?.endsWith('.json') && options.base === undefined && options.against === undefined) return planSides(context, source, kinds);
  if (options.base !== undefined) {
    const head = contentTree(source);
    const { treeAtRef } = await import('./review/git-base.js');
    const base = treeAtRef(head, options.base);
    // For an environment (--env), both sides as its recipients get them; previews go to the run's environment, filled as it sends them.
    const environment =
      options.env === undefined && options.sendPreviews === undefined ? undefined : (await chooseEnvironment(context, head, options.env))?.environment;
    const sides = { base: base.root, head, baseLabel: `${options.base} (${base.commit.slice(0, 7)})`, headLabel: 'the working tree', remove: base.remove };
    return environment === undefined ? sides : await filledSides(sides, environment);
  }
  if (options.against === 'account') {
    const head = contentTree(source);
    const environment = (await chooseEnvironment(context, head, options.env))?.environment;
    const { accountTree } = await import('./review/account-base.js');
    const base = await accountTree(context, head, source ?? DEFAULT_DIRECTORY, undefined, environment);
    const sides = { base: base.root, head, baseLabel: `the account ${base.account}`, headLabel: 'the working tree', remove: base.remove };
    return environment === undefined ? sides : await filledSides(sides, environment, false);
  }
  throw new UsageError('say what the change is compared with', {
    hint: 'a pull request: `loopsctl content review loops --base main`; the account: `--against account`; a plan: `loopsctl content review change.json`',
  });
}

/** The sides filled with an environment's values (the base too, unless it is the account's, filled already), each copy removed with them. */
async function filledSides(sides: Sides, environment: Environment, base = true): Promise<Sides> {
  const { filledTree } = await import('./review/account-base.js');
  const head = filledTree(sides.head, environment.values);
  const filledBase = base ? filledTree(sides.base, environment.values) : undefined;
  return {
    ...sides,
    base: filledBase?.root ?? sides.base,
    head: head.root,
    headLabel: `${sides.headLabel} for ${environment.name}`,
    environment,
    remove: () => {
      head.remove();
      filledBase?.remove();
      sides.remove();
    },
  };
}

/**
 * A plan's two sides, as it carries them: refused when it was edited (its digest), or when the key
 * at hand reaches another account than the one it was made for (exit 11). Without a key the plan
 * is reviewed as it is, and the account is checked when it is applied.
 */
async function planSides(context: Uses<'client' | 'key' | 'files' | 'out'>, file: string, kinds: () => Promise<PlanKinds>): Promise<Sides> {
  const { readPlan } = await import('../change/plan-file.js');
  const { planTrees, reviewOfPlan } = await import('./review/plan-review.js');
  const plan = await readPlan(context, file, await kinds());
  const planned = reviewOfPlan(plan, file);
  try {
    await context.credentials();
    const { refuseReviewInAnotherAccount } = await import('../change/account.js');
    await refuseReviewInAnotherAccount(context, await context.client(), file, plan.account);
  } catch (error) {
    if (!(error instanceof AuthError && error.code === 'no_key')) throw error;
  }
  const trees = planTrees(planned);
  return {
    base: trees.base,
    head: trees.head,
    baseLabel: `the account ${plan.account.team}`,
    headLabel: `the plan ${file}`,
    remove: trees.remove,
    planned,
    impact: (plan.impact ?? []) as unknown as ImpactRecord[],
  };
}

/** The review of a change, its sides read (the qa findings ruled by the rules file, if any) and removed. */
export async function reviewOf(sides: Sides, rules?: QaRules): Promise<Review> {
  try {
    const [before, after] = await Promise.all([readSide(sides.base, rules), readSide(sides.head, rules)]);
    const unusedComponents = await unusedChangedComponents(sides.base, sides.head, [...before.values(), ...after.values()]);
    return { ...compareSides(before, after), unusedComponents };
  } finally {
    sides.remove();
  }
}

/** `content review`, with the change cycle's kinds handed in (they read content's halves), for the review of a plan. */
export const reviewWith = (kinds: () => Promise<PlanKinds>): Handler<[string | undefined], ReviewOptions> =>
  handler(
    ['out', 'files', 'client', 'outside', 'key', 'programs', 'prompts', 'clock', 'env'],
    async (context, [source], options) => {
      if (options.sendPreviews !== undefined && source?.endsWith('.json') === true)
        throw new UsageError('--send-previews compares the account with the directory reviewed: give the directory, not a plan', {
          hint: 'push the change, then: loopsctl content review loops --base origin/main --send-previews you@example.com',
        });
      if (options.screenshots === true && options.out === undefined)
        throw new UsageError('--screenshots draws the pictures into the page --out writes: name it', {
          hint: 'loopsctl content review loops --base main --out review.html --screenshots',
        });
      // The browser is found before anything is read: without one, the refusal says what to install.
      const chromium = options.screenshots === true ? (await import('./review/chromium.js')).findChromium(context.env) : undefined;
      // The rules file `content check` reads (--rules, else loops.check.yaml here or in ./loops), read before anything else is.
      const files = context.runtime.files;
      const rules = await (await import('./shared/check-qa.js')).readQaRules(options.rules, files === undefined ? '.' : files.root);
      const sides = await sidesOf(context, source, options, kinds);
      const { baseLabel, headLabel } = sides;
      const drawn = await reviewOf(sides, rules);
      // A plan's review counts the emails it left alone, which it does not carry.
      const { planned } = sides;
      const counted = planned === undefined ? drawn : { ...drawn, unchanged: planned.unchanged };
      const result = options.code === undefined ? counted : await withSends(counted, options.code);
      if (planned !== undefined && result.digest !== planned.digest)
        context.out.note(
          `This loopsctl draws the plan's emails otherwise than the one that wrote it did (review digest ${result.digest}, planned ${planned.digest}): an approval is for the planned digest.`,
        );
      if (options.out !== undefined) await writeReviewPages(context, result, { ...options, impact: sides.impact }, `${baseLabel} → ${headLabel}`, chromium);
      // The previews compare the account with the working tree (filled with the environment's values, as a push sends it).
      const head = { root: sides.environment === undefined ? sides.head : resolve(source ?? DEFAULT_DIRECTORY), shown: source ?? DEFAULT_DIRECTORY };
      const to = options.sendPreviews;
      const previews =
        to === undefined
          ? undefined
          : await (await import('./review/send-previews.js')).sendPreviews(context, result, head, to, options.yes, sides.environment);
      if (previews !== undefined && !context.out.json) sayPreviews(context, previews);
      await show(context, result, options, `${baseLabel} → ${headLabel}`, previews);
      if (previews !== undefined && previews.notSent.length > 0)
        throw new RateLimitError(
          `the daily preview limit is reached: sent ${previews.sent.length} of ${previews.sent.length + previews.notSent.length} previews`,
          {
            hint: `each team can send ${PREVIEWS_PER_DAY} previews a day: review again tomorrow to send the rest`,
          },
        );
    },
    { chooseAccount: environmentOfReview },
  );

/**
 * The environment whose account a review reads (--against account, --send-previews) or whose
 * values fill it (--env), taken before the run picks its key: the key, its profile and its
 * address are then that environment's alike. A plan's review reads the plan's account.
 */
async function environmentOfReview(context: Uses<'key'>, [source]: [string | undefined], options: ReviewOptions): Promise<void> {
  if (source?.endsWith('.json') === true || (options.env === undefined && options.against !== 'account' && options.sendPreviews === undefined)) return;
  await chooseEnvironment(context, contentTree(source), options.env);
}

/** The review with each transactional email's sends in the app's source, as `check --code` finds them. */
async function withSends(review: Review, code: string[]): Promise<Review> {
  const [{ scanCode }, { withCallSites }] = await Promise.all([import('../../app-code/scan.js'), import('./review/call-sites.js')]);
  return withCallSites(review, scanCode(code).uses);
}

/**
 * The HTML page (or pages, past EMAILS_PER_PAGE emails) written where --out names, with the
 * screenshots when a browser is given. With --allow-network, the emails' images are fetched by
 * loopsctl through its fetcher for outside addresses, for the browser that draws the screenshots
 * and into the page alike, each once: an address it refuses is listed, and not loaded.
 */
async function writeReviewPages(
  context: Uses<'files' | 'out' | 'programs' | 'client' | 'outside'>,
  result: Review,
  options: ReviewOptions & { impact?: ImpactRecord[] },
  between: string,
  chromium: string | undefined,
): Promise<void> {
  const [{ writePages }, { OutsideImages }] = await Promise.all([import('./review/page.js'), import('../../api/outside-images.js')]);
  const refused: string[] = [];
  const images =
    options.allowNetwork === true
      ? new OutsideImages({ ...context.outsideSettings(), allowPrivate: options.allowPrivateLinks === true }, (address, why) =>
          refused.push(`${sanitize(address)}: ${why}`),
        )
      : undefined;
  const load = images === undefined ? undefined : (address: string) => images.load(address);
  try {
    const pictures = chromium === undefined ? undefined : await (await import('./review/screenshots.js')).screenshotsOf(result, chromium, context.env, load);
    const files = await writePages(context, result, options.out!, {
      between,
      ...(load === undefined ? {} : { load }),
      ...(pictures === undefined ? {} : { pictures }),
      ...(options.impact === undefined ? {} : { impact: options.impact }),
    });
    context.out.note(`Wrote the review to ${files.length === 1 ? files[0] : `${files.length} pages: ${files.join(', ')}`}.`);
  } finally {
    await images?.close();
    for (const line of refused) context.out.note(`Not loaded in the review: ${line} (--allow-private-links loads it).`);
  }
}

/** What --send-previews sent and did not, each email in a line. */
function sayPreviews(context: Uses<'out'>, report: PreviewsReport): void {
  for (const email of report.sent) context.out.note(`Sent a preview of ${sanitize(email.name)} (${email.path}) to ${report.address}.`);
  for (const email of [...report.skipped, ...report.notSent]) context.out.note(`Not sent: ${sanitize(email.name)} (${email.path}): ${email.reason}.`);
}

async function show(context: Uses<'out'>, result: Review, options: ReviewOptions, between: string, previews?: PreviewsReport): Promise<void> {
  const { out } = context;
  if (out.json) return out.writeJson({ ...reviewJson(result), ...(previews === undefined ? {} : { previews }) });
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
  const findings = newFindings(out, result);
  if (findings !== '') await out.write(findings);
  const { callSiteWords } = await import('./review/call-sites.js');
  for (const email of result.emails)
    for (const site of email.callSites ?? []) if (site.missing.length + site.noLongerUsed.length > 0) out.note(`${email.name}: sent at ${callSiteWords(site)}`);
  out.note(`${summaryOf(result)} (${between})`);
  out.note(`Review digest ${result.digest}.`);
}

/**
 * The findings of `content check` (the LMX rules, and the qa rules: contrast, link text, spam
 * risk…) that the change brings, under the email they are in, in 80 columns at most (a CI log
 * reads as well as a terminal). Empty when it brings none.
 */
function newFindings(out: Uses<'out'>['out'], result: Review): string {
  const style = styleFor(out);
  const width = Math.min(out.columns, 80);
  const lines: string[] = [];
  for (const email of result.emails) {
    if (email.findings.appeared.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(...wrapLines(style.bold(`${sanitize(email.name)} (${email.path})`), width));
    for (const finding of email.findings.appeared) {
      const impact = finding.impact === undefined ? '' : ` (${finding.impact})`;
      const said = `${finding.severity === 'error' ? style.red('error') : style.yellow('warning')}${impact} ${finding.rule}: ${sanitize(finding.message)}`;
      lines.push(...wrapLines(said, width - 4).map((line, index) => `${index === 0 ? '  ' : '    '}${line}`));
    }
  }
  return lines.length === 0 ? '' : `\nNew findings of \`content check\`:\n${lines.join('\n')}\n`;
}
