/**
 * The account as it is now, as a content tree (`content review <dir> --against account`): a copy
 * of the directory held in memory at a temporary directory's name (HeldTree), each record that
 * differs from the account put as the account holds it (as `content diff` pairs and names them),
 * one only in the account added and one only here removed. Components and themes go with it, so each email is drawn as the account would.
 * Only what the side is read from is copied (the state file, the emails' and workflows' directories):
 * the audience's records, and anything else beside them, no reader of a side looks at.
 */
import { basename, join } from 'node:path';
import { HeldTree, heldTreesHome, holdTrees, readTreeFile, walkTree } from '../../../base/tree-files.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../../core/explain.js';
import { accountSide, diffEmails } from '../emails/diff.js';
import type { RemoteRecord } from '../emails/remote.js';
import { pathOf } from '../emails/sides.js';
import { type EnvValues, fillFile } from '../shared/env-values.js';
import type { Environment } from '../shared/environments.js';
import { type Files, KINDS, STATE_FILE } from '../shared/files.js';
import { WORKFLOWS } from '../shared/lmx-files.js';
import { CONTENT, requireState, scopeCovers, scopeOf } from '../shared/scope.js';
import { readSides, type WorkflowSide } from '../workflows/sides.js';

/**
 * The account's side of the tree at `root`, held in memory, the account's name, and the records
 * read of it; the tree's files filled with an environment's values when given, as they are sent.
 */
export async function accountTree(
  context: Uses<'client' | 'key'>,
  root: string,
  shown: string,
  only?: string,
  environment?: Environment,
): Promise<{ root: string; account: string; remove: () => void; head?: string; remotes: RemoteRecord[]; workflows: WorkflowSide[] }> {
  // A push's review reads only what the push covers, and the components and themes its emails are drawn with.
  const pushed = only === undefined ? undefined : scopeOf(root, only, true);
  const read = pushed === undefined ? undefined : new Set([...pushed.kinds, 'components', 'themes', ...(pushed.workflows ? ['workflows'] : [])]);
  const scope = scopeOf(root, read === undefined ? undefined : [...read].join(','));
  const state = requireState(scope.root, shown);
  const values = environment?.values;
  const { client, account, kinds, remotes } = await accountSide(context, scope, state, environment?.name);
  const { pairs, names } = diffEmails(scope, kinds, state, account, remotes, values);
  const workflows =
    scope.workflows && state.kinds.includes('workflows')
      ? (await explained(readSides(client, scope.root, state, account, { onlyChanged: false, scope, lmx: names, values }), CONTENT)).sides
      : [];
  const home = heldTreesHome('loopsctl-review-account-');
  const base = new HeldTree(join(home, basename(scope.root)));
  // What a push narrowed by --only writes: the account, with the records it covers as the directory has them.
  const head = pushed === undefined ? undefined : new HeldTree(join(home, 'head', basename(scope.root)));
  const trees = head === undefined ? [base] : [base, head];
  copySide(scope.root, trees, values);
  for (const tree of trees) {
    for (const pair of pairs) replaceRecord(tree, pathOf(pair), pair.local?.files, pair.remote?.files);
    for (const side of workflows) if (side.standing !== 'same') replaceRecord(tree, side.path, side.local?.files, side.account?.files);
  }
  if (pushed !== undefined && head !== undefined) {
    for (const pair of pairs) if (scopeCovers(pushed, pathOf(pair))) replaceRecord(head, pathOf(pair), pair.remote?.files, pair.local?.files);
    for (const side of workflows)
      if (side.standing !== 'same' && scopeCovers(pushed, side.path)) replaceRecord(head, side.path, side.account?.files, side.local?.files);
  }
  return { root: base.root, account, remove: holdTrees(trees), ...(head === undefined ? {} : { head: head.root }), remotes, workflows };
}

/** A copy of the side of a tree (held in memory), its files filled with an environment's values: as that environment's recipients get them. */
export function filledTree(root: string, values: EnvValues): { root: string; remove: () => void } {
  const tree = new HeldTree(join(heldTreesHome('loopsctl-review-env-'), basename(root)));
  copySide(root, [tree], values);
  return { root: tree.root, remove: holdTrees([tree]) };
}

/** The entries at the top of a tree that a side is read from. */
const SIDE_ENTRIES: ReadonlySet<string> = new Set([STATE_FILE, ...KINDS, WORKFLOWS]);

/**
 * The directory as it is, as far as a side is read from it, copied into each of `trees` in one
 * walk: links, and what is neither a file nor a directory, left out (the tree's readers refuse
 * them), each file read as the tree's readers read it, never through a link.
 */
function copySide(root: string, trees: HeldTree[], values: EnvValues | undefined): void {
  const walked = walkTree(root, ({ path }) => SIDE_ENTRIES.has(path.split('/')[0]!));
  for (const { path, kind } of walked) {
    if (!SIDE_ENTRIES.has(path.split('/')[0]!)) continue;
    const read = kind === 'file' ? readTreeFile(root, path, Number.MAX_SAFE_INTEGER) : undefined;
    const bytes = read === undefined || values === undefined ? read : Buffer.from(fillFile(path, read.toString('utf8'), values));
    for (const tree of trees)
      if (kind === 'directory') tree.addDirectory(path);
      else if (bytes !== undefined) tree.writeFile(path, bytes);
  }
}

/** A record's directory made to hold the account's files: those it has written, those only here removed. */
function replaceRecord(tree: HeldTree, path: string, here: Files | undefined, there: Files | undefined): void {
  for (const name of here?.keys() ?? []) if (there?.has(name) !== true) tree.removeFile(`${path}/${name}`);
  for (const [name, data] of there ?? []) tree.writeFile(`${path}/${name}`, data);
}
