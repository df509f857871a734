/**
 * The account as it is now, as a content tree (`content review <dir> --against account`): a copy
 * of the directory in a temporary one, each record that differs from the account put as the
 * account holds it (as `content diff` pairs and names them), one only in the account added and one
 * only here removed. Components and themes go with it, so each email is drawn as the account would.
 */
import { cpSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { removeTreeFile, writeTreeFiles } from '../../../base/tree-files.js';
import type { Uses } from '../../../core/capabilities.js';
import { explained } from '../../explain.js';
import { accountSide, diffEmails } from '../emails/diff.js';
import type { RemoteRecord } from '../emails/remote.js';
import { pathOf } from '../emails/sides.js';
import type { Files } from '../files.js';
import { CONTENT, requireState, scopeCovers, scopeOf } from '../scope.js';
import { readSides, type WorkflowSide } from '../workflows/sides.js';

/** The account's side of the tree at `root`, in a temporary directory, the account's name, and the records read of it. */
export async function accountTree(
  context: Uses<'client' | 'key'>,
  root: string,
  shown: string,
  only?: string,
): Promise<{ root: string; account: string; remove: () => void; head?: string; remotes: RemoteRecord[]; workflows: WorkflowSide[] }> {
  // A push's review reads only what the push covers, and the components and themes its emails are drawn with.
  const pushed = only === undefined ? undefined : scopeOf(root, only, true);
  const read = pushed === undefined ? undefined : new Set([...pushed.kinds, 'components', 'themes', ...(pushed.workflows ? ['workflows'] : [])]);
  const scope = scopeOf(root, read === undefined ? undefined : [...read].join(','));
  const state = requireState(scope.root, shown);
  const { client, account, kinds, remotes } = await accountSide(context, scope, state);
  const { pairs, names } = diffEmails(scope, kinds, state, account, remotes);
  const workflows =
    scope.workflows && state.kinds.includes('workflows')
      ? (await explained(readSides(client, scope.root, state, account, { onlyChanged: false, scope, lmx: names }), CONTENT)).sides
      : [];
  const home = mkdtempSync(join(tmpdir(), 'loopsctl-review-account-'));
  const remove = () => rmSync(home, { recursive: true, force: true });
  try {
    const base = join(home, basename(scope.root));
    // The directory as it is, links left out (the tree's readers refuse them), then the account's side of what differs.
    cpSync(scope.root, base, { recursive: true, filter: (source) => !lstatSync(source).isSymbolicLink() });
    for (const pair of pairs) replaceRecord(base, pathOf(pair), pair.local?.files, pair.remote?.files);
    for (const side of workflows) if (side.standing !== 'same') replaceRecord(base, side.path, side.local?.files, side.account?.files);
    if (pushed === undefined) return { root: base, account, remove, remotes, workflows };
    // What a push narrowed by --only writes: the account, with the records it covers as the directory has them.
    const head = join(home, 'head', basename(scope.root));
    cpSync(base, head, { recursive: true });
    for (const pair of pairs) if (scopeCovers(pushed, pathOf(pair))) replaceRecord(head, pathOf(pair), pair.remote?.files, pair.local?.files);
    for (const side of workflows)
      if (side.standing !== 'same' && scopeCovers(pushed, side.path)) replaceRecord(head, side.path, side.account?.files, side.local?.files);
    return { root: base, account, remove, head, remotes, workflows };
  } catch (error) {
    remove();
    throw error;
  }
}

/** A record's directory made to hold the account's files: those it has written, those only here removed. */
function replaceRecord(root: string, path: string, here: Files | undefined, there: Files | undefined): void {
  for (const name of here?.keys() ?? []) if (there?.has(name) !== true) removeTreeFile(root, `${path}/${name}`);
  writeTreeFiles(root, path, there ?? []);
}
