/**
 * The review a plan carries (`content push --plan --out change.json`): the emails it changes, the
 * review's digest, where its page was written, and both sides' files (the emails it lists, the
 * components and themes they are drawn with, their workflows' files), so that
 * `content review change.json` draws the same review from the plan alone, offline, and an
 * approval names exactly what it approves. It is part of what the plan's own digest covers: a
 * plan whose review was edited is refused as any edited plan is.
 */
import { join } from 'node:path';
import { UsageError } from '../../../base/errors.js';
import { sanitize } from '../../../base/sanitize.js';
import { z } from '../../../base/shapes.js';
import { HeldTree, heldTreesHome, holdTrees, readTreeFile, treeEntries, treeEntryKind } from '../../../base/tree-files.js';
import { STATE_FILE } from '../shared/files.js';
import type { Review } from './compare.js';
import { whatChanged } from './words.js';

/** A side's files by path in the tree. */
const sideFiles = z.record(z.string(), z.string());

export const planReview = z.looseObject({
  digest: z.string(),
  /** The HTML page written beside the plan, as --out named it. */
  page: z.optional(z.string()),
  unchanged: z.number(),
  emails: z.array(z.looseObject({ kind: z.string(), name: z.string(), path: z.string(), change: z.string(), changed: z.array(z.string()) })),
  sides: z.looseObject({ before: sideFiles, after: sideFiles }),
});
export type PlanReview = z.infer<typeof planReview>;

/** The most a side file may be: the API takes no more LMX than this, and a record's other files are smaller. */
const MAX_FILE_BYTES = 1024 * 1024;

/** Every regular file under a directory of the tree, by its path from the root; links left out. */
function filesUnder(root: string, path: string, into: Record<string, string>): void {
  const kind = treeEntryKind(root, path);
  if (kind === 'file') {
    const bytes = readTreeFile(root, path, MAX_FILE_BYTES);
    if (bytes !== undefined) into[path] = bytes.toString('utf8');
    return;
  }
  if (kind !== 'directory') return;
  for (const entry of treeEntries(root, path)) if (!entry.name.startsWith('.')) filesUnder(root, `${path}/${entry.name}`, into);
}

/** What a side needs to draw the emails listed: their directories, their workflows' files, every component and theme, and the state that names them. */
function sideOf(root: string, paths: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const path of ['components', 'themes', STATE_FILE]) filesUnder(root, path, files);
  for (const path of paths) {
    const record = path.startsWith('workflows/') ? path.split('/').slice(0, 2).join('/') : path;
    if (record !== path) filesUnder(root, `${record}/workflow.yaml`, files);
    // A record's own files (its name, its fields) and its email's.
    filesUnder(root, record.startsWith('workflows/') ? path : record, files);
  }
  return files;
}

/** The review as a plan carries it. */
export function reviewForPlan(review: Review, before: string, after: string, page: string | undefined): PlanReview {
  const paths = review.emails.map((email) => email.path);
  return {
    digest: review.digest,
    ...(page === undefined ? {} : { page }),
    unchanged: review.unchanged,
    emails: review.emails.map((email) => ({ kind: email.kind, name: email.name, path: email.path, change: email.change, changed: email.changed })),
    sides: { before: sideOf(before, paths), after: sideOf(after, paths) },
  };
}

/** The review a plan file holds, or a refusal that says how to make one that does. */
export function reviewOfPlan(plan: object, file: string): PlanReview {
  const parsed = planReview.safeParse((plan as { review?: unknown }).review);
  if (!parsed.success)
    throw new UsageError(`${file} holds no review: it was written by a loopsctl that did not review plans, or by another command`, {
      hint: 'write the plan again with `loopsctl content push --plan --out <file>`',
    });
  return parsed.data;
}

/** Both sides of a plan's review as trees held in memory (HeldTree), for the reader of any side. */
export function planTrees(review: PlanReview): { base: string; head: string; remove: () => void } {
  const home = heldTreesHome('loopsctl-review-plan-');
  const treeOf = (side: string, files: Record<string, string>) => {
    const tree = new HeldTree(join(home, side, 'loops'));
    for (const [path, text] of Object.entries(files)) {
      // Paths are the plan's, checked: none may leave its side's directory.
      if (path.startsWith('/') || path.split('/').some((part) => part === '..' || part === '' || part === '.'))
        throw new UsageError(`the plan's review names a file outside its tree: ${sanitize(path)}`, { hint: 'write the plan again' });
      tree.writeFile(path, text);
    }
    return tree;
  };
  const [base, head] = [treeOf('before', review.sides.before), treeOf('after', review.sides.after)];
  return { base: base.root, head: head.root, remove: holdTrees([base, head]) };
}

/** The lines an approval question gives a plan's review: the emails it changes, where the page is, and the digest approved. */
export function reviewWords(review: PlanReview): string[] {
  if (review.emails.length === 0) return [`The review (digest ${review.digest}): no email changes as recipients see it.`];
  const shown = review.emails.slice(0, 20).map((email) => `  ${email.change} ${email.kind} "${email.name}": ${whatChanged(email)}`);
  const more = review.emails.length - shown.length;
  return [
    `It changes ${review.emails.length === 1 ? '1 email as recipients see it' : `${review.emails.length} emails as recipients see them`} (review digest ${review.digest}):`,
    ...shown,
    ...(more > 0 ? [`  and ${more} more`] : []),
    review.page === undefined
      ? 'See them before and after: `loopsctl content review <plan file> --out review.html`.'
      : `See them before and after in ${review.page}.`,
  ].map((line) => sanitize(line));
}

/** The review lines of a plan already read: none for a plan that carries no review (an older one, another command's). */
export function planReviewWords(plan: object): string[] {
  const parsed = planReview.safeParse((plan as { review?: unknown }).review);
  return parsed.success ? reviewWords(parsed.data) : [];
}
