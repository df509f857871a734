/**
 * Which LMX files the paths a person names hold, checked (check.ts): a file, a directory of them, or
 * a tree that a pull wrote, whose files take the kind of their directory and whose components'
 * variables are checked where they are embedded.
 */
import { lstatSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { UsageError } from '../../../base/errors.js';
import { type LmxDocument, type LmxKind, type LmxVariable, parseLmx, variablesOf } from '../../../lmx/index.js';
import { checkFile, type FileCheck, lmxFileTarget, type Target, type TreeComponents } from './check.js';
import type { NamedValues } from './env-values.js';
import { readEnvironments } from './environments.js';
import { kindOfDirectory, placeOf, readLmxSource, treeAbove } from './lmx-files.js';
import { isTree, lmxFilesUnder, recordDirectories } from './tree.js';

/**
 * Every LMX file the paths name, checked. A directory that a pull wrote (it has the state file or
 * a kind's directory) gives each file the kind of the directory it is in, and the ids of its
 * components; any other directory is searched for .lmx files. `kind` is for files the tree says
 * nothing of. Paths that name nothing to check are usage errors: nothing is checked then.
 */
export function checkPaths(paths: readonly string[], kind: LmxKind | undefined, env: string | undefined): FileCheck[] {
  const targets = paths.flatMap((path) => targetsOf(path, kind, env));
  return targets.map(checkFile);
}

function targetsOf(path: string, kind: LmxKind | undefined, env: string | undefined): Target[] {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(`${path}: ${missing ? 'no such file or directory' : (error as Error).message}`, {
      hint: missing ? 'name .lmx files or a directory that `loopsctl content pull` wrote (the default is ./loops)' : undefined,
    });
  }
  if (stats.isFile()) return [lmxFileTarget(path, kind)];
  if (!stats.isDirectory()) throw new UsageError(`${path}: not a file or a directory`);
  const targets = isTree(path) ? treeTargets(path, kind, env) : folderTargets(path, kind, env);
  if (targets.length === 0)
    throw new UsageError(`${path}: no .lmx files in it`, { hint: "pull the account's content first (`loopsctl content pull`), or name .lmx files" });
  return targets;
}

/** The LMX files of a pulled tree, each with its kind; files elsewhere in it take `kind`. */
function treeTargets(root: string, kind: LmxKind | undefined, env: string | undefined): Target[] {
  const components = treeComponents(root);
  const environments = treeEnvironments(root, env);
  // A workflow's emails are checked with their workflow (workflows/check.ts), as workflow emails.
  const workflows = join(root, 'workflows') + sep;
  return lmxFilesUnder(root, true).flatMap((file) => {
    if (file.startsWith(workflows)) return [];
    const parts = file.slice(root.length + 1).split(/[\\/]/);
    const treeKind = parts.length === 3 ? kindOfDirectory(parts[0]!) : undefined;
    return [{ file, root, kind: treeKind ?? kind, components, ...(environments === undefined ? {} : { environments }) }];
  });
}

/**
 * The LMX files of a folder: inside a tree (a record, a kind's directory, a workflow's email), each
 * with the kind its place gives and the tree's components and environments, as the tree's check
 * gives them; elsewhere, loose files of `kind`.
 */
function folderTargets(path: string, kind: LmxKind | undefined, env: string | undefined): Target[] {
  const files = lmxFilesUnder(path, true);
  const root = treeAbove(path);
  if (root === undefined) return files.map((file) => ({ file, root: path, kind }));
  const components = treeComponents(root);
  const environments = treeEnvironments(root, env);
  return files.map((file) => ({ file, root, kind: placeOf(resolve(file)).kind ?? kind, components, ...(environments === undefined ? {} : { environments }) }));
}

/**
 * The environments a tree's LMX is checked for, each with its values, to check it as it is sent
 * there: --env's alone, or every one; undefined for a tree without environments. A file with
 * problems gives none: the environments' check reports them.
 */
export function treeEnvironments(root: string, env: string | undefined): NamedValues[] | undefined {
  const { environments } = readEnvironments(root);
  if (environments === undefined) return undefined;
  return [...environments.values()].filter(({ name }) => env === undefined || name === env).map(({ name, values }) => ({ name, values }));
}

/**
 * The components a pulled tree holds, by each directory's name (`footer--cmp_1`, as an email's LMX
 * names it), the id in that name and those the state file knows them by in each account, each with
 * its body and the variables it shows (none for one that cannot be read: its own check reports it).
 */
export function treeComponents(root: string): TreeComponents {
  const components = new Map<string, { path: string; variables: LmxVariable[]; document: LmxDocument }>();
  for (const { entry, ids } of recordDirectories(root)) {
    const document = documentOfComponent(root, entry);
    const component = { path: `components/${entry}`, variables: variablesOf(document), document };
    for (const id of ids) components.set(id, component);
  }
  return components;
}

/** A component's body, or an empty one when it cannot be read (a link there, or one too large: its own check reports it). */
function documentOfComponent(root: string, entry: string): LmxDocument {
  const empty: LmxDocument = { kind: 'document', children: [] };
  let read: ReturnType<typeof readLmxSource>;
  try {
    read = readLmxSource(root, `components/${entry}/component.lmx`);
  } catch {
    return empty;
  }
  return read === undefined || 'problem' in read ? empty : parseLmx(read.source).document;
}
