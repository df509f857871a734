/**
 * `content check` of a whole tree, above its halves: the workflows and the audience files, each by
 * its half's rules, and the references between them (a workflow naming a segment, a property, a
 * list or an event the tree's audience files define). The halves import none of each other; this
 * module, which only `content check` loads, ties them.
 */
import { lstatSync } from 'node:fs';
import { LocalFileError } from '../../base/errors.js';
import type { LmxKind } from '../../lmx/index.js';
import { accountAudienceOf, checkAudience } from './audience/check.js';
import { readAudienceTree, treeNames } from './audience/rules.js';
import type { FileCheck } from './shared/check.js';
import { isTree } from './shared/tree.js';
import { checkContent, type TreeNamesOf } from './workflows/check.js';

/** The names a tree's audience files define, for a workflow's check; none when they cannot be read (their own check says why). */
const audienceNamesOf: TreeNamesOf = (root) => {
  try {
    return treeNames(readAudienceTree(root, false));
  } catch (fault) {
    if (fault instanceof LocalFileError) return undefined;
    throw fault;
  }
};

/** The checks of paths that are more than LMX files: the LMX and workflows they hold, and a tree's segments, groups and contact properties. */
export function checkTrees(paths: readonly string[], kind: LmxKind | undefined, env: string | undefined, accountNames: Set<string> | undefined): FileCheck[] {
  const checks = checkContent(paths, kind, env, audienceNamesOf, accountNames);
  const account = accountNames === undefined ? undefined : accountAudienceOf(accountNames);
  for (const path of paths) if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory() && isTree(path)) checks.push(...checkAudience(path, path, account));
  return checks;
}
