/**
 * `content check` of a tree's environments: environments.json itself (a file with problems stops
 * the check, exit 2), then every email file's placeholders against each environment, or against
 * --env's alone with the other environments' values written out (env-check.ts).
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { readTreeFile } from '../../base/tree-files.js';
import { LMX_MAX_BYTES } from '../../lmx/index.js';
import { WORKFLOW_FILE } from '../../platform/workflows/file.js';
import { fileOf, readAudience } from './audience/files.js';
import type { FileCheck } from './shared/check.js';
import { checkEnvFiles, type WrittenFile, writtenEmailFiles } from './shared/env-check.js';
import { ENVIRONMENTS_FILE, requireEnvironments } from './shared/environments.js';
import { type EmailDirectory, KINDS } from './shared/files.js';
import { environmentsRootOf, shownRootOf } from './shared/lmx-files.js';
import { placeInTree } from './shared/tree.js';

/** A file of a tree named alone, as the LMX check read it (never through a link, at most what the API takes). */
function textOf(path: string): string {
  const place = placeInTree(resolve(path));
  return readTreeFile(place.root, place.path, LMX_MAX_BYTES)?.toString('utf8') ?? '';
}

/** Every kind of a tree, for its check as a whole. */
const WHOLE_TREE = { kinds: KINDS, workflows: true, audience: true };

/**
 * The files of a tree a push to an environment sends, as written, of what a run covers: the
 * emails' and the workflows' (env-check.ts), and the audience's segments, groups and contact
 * properties, which it sends as written (lists and event patterns are never sent).
 */
export function sentFiles(
  root: string,
  shown: string,
  scope: { kinds: readonly EmailDirectory[]; workflows: boolean; audience: boolean },
  covers: (path: string) => boolean,
): WrittenFile[] {
  const audience = scope.audience
    ? readAudience(root)
        .filter((record) => record.kind !== 'lists' && record.kind !== 'event-patterns')
        .map((record) => ({ file: join(shown, fileOf(record)), text: textAt(root, fileOf(record)), filled: false }))
    : [];
  return [...writtenEmailFiles(root, shown, scope.kinds, scope.workflows, covers), ...audience];
}

/** A file of the tree as written, never through a link, at most what the API takes of LMX (the audience's files are far smaller). */
function textAt(root: string, path: string): string {
  return readTreeFile(root, path, LMX_MAX_BYTES)?.toString('utf8') ?? '';
}

/** The checks of the paths' trees that have environments, each file with a problem once. */
export function environmentChecks(paths: readonly string[], env: string | undefined): FileCheck[] {
  const checks: FileCheck[] = [];
  for (const path of paths) {
    const root = environmentsRootOf(path);
    if (root === undefined) continue;
    const environments = requireEnvironments(root);
    if (environments === undefined) continue;
    const target = env === undefined ? undefined : environments.get(env);
    if (env !== undefined && target === undefined)
      throw new UsageError(`--env: unknown environment "${env}"; ${ENVIRONMENTS_FILE} names ${[...environments.keys()].join(', ')}`);
    for (const check of checkEnvFiles(namedFiles(path, root), environments, target)) if (!checks.some((known) => known.file === check.file)) checks.push(check);
  }
  return checks;
}

/**
 * The files of the tree at `root` a path names, as written: the whole tree, an .lmx file named
 * alone, or what a push sends of a folder or file inside it (a record, a kind's directory, a
 * workflow), shown under the path as it was named.
 */
function namedFiles(named: string, root: string): WrittenFile[] {
  if (root === named) return sentFiles(root, named, WHOLE_TREE, () => true);
  if (extname(named) === '.lmx' && lstatSync(named).isFile()) return [{ file: named, text: textOf(named), filled: true }];
  // A workflow's graph names its workflow, emails and all, as its check takes it.
  const path = basename(named) === WORKFLOW_FILE ? dirname(named) : named;
  const inside = relative(root, resolve(path)).split(sep).join('/');
  // A record or workflow the path is, holds, or is inside of; then only the files under the path.
  const covers = (record: string) => record === inside || record.startsWith(`${inside}/`) || inside.startsWith(`${record}/`);
  const under = join(path);
  return sentFiles(root, shownRootOf(path, root), WHOLE_TREE, covers).filter(({ file }) => file === under || file.startsWith(under + sep));
}
