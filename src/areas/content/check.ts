/**
 * LMX files checked against the specification, offline: which files a path names, what kind of
 * email each is the body of (from where a pull put it), and the problems of each, with Gmail's
 * clip of the HTML it renders to.
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, relative } from 'node:path';
import { LocalFileError, UsageError } from '../../base/errors.js';
import {
  checkLmx,
  elementsOf,
  gmailClipProblem,
  NAMESPACES_OF_KIND,
  parseLmx,
  variablesOf,
  type LmxDocument,
  type LmxKind,
  type LmxProblem,
  type LmxVariable,
} from '../../lmx/index.js';
import { renderLmx } from '../../lmx/render.js';
import { componentDirectories, isTree, kindOfDirectory, lmxFilesUnder, readLmxSource } from './tree.js';

/** One file's findings. */
export interface FileCheck {
  /** As the person named it, or joined to the directory they named. */
  file: string;
  /** Undefined when neither the tree nor --kind says: variables' namespaces were not checked. */
  kind?: LmxKind;
  /** The source, for showing the lines problems are on; undefined when it could not be read. */
  source?: string;
  errors: LmxProblem[];
  warnings: LmxProblem[];
}

/** A file's findings as `--json` prints them (`content check`, and a push that refuses to send them). */
export function checkRecord(file: FileCheck) {
  const problem = ({ line, column, rule, message, fix }: LmxProblem) => ({ line, column, rule, message, fix });
  return { file: file.file, kind: file.kind ?? null, errors: file.errors.map(problem), warnings: file.warnings.map(problem) };
}

/** The components of a pulled tree, by every id they are known by, with the variables each shows and its body. */
export type TreeComponents = ReadonlyMap<string, { path: string; variables: LmxVariable[]; document: LmxDocument }>;

/** A file to check and what is known of it. */
interface Target {
  file: string;
  /** The directory the person named (or the file's own), under which no link is followed. */
  root: string;
  kind?: LmxKind;
  components?: TreeComponents;
}

/**
 * A source checked: its problems split into errors and warnings. With the tree's components, a
 * <Component> naming none of them is a warning, and one whose variables the email's kind does
 * not take is an error, as the platform refuses a component change that would put them there.
 */
export function checkSource(file: string, source: string, kind: LmxKind | undefined, components?: TreeComponents): FileCheck {
  const { document, problems } = checkLmx(source, { kind, componentIds: components === undefined ? undefined : new Set(components.keys()) });
  if (components !== undefined && kind !== undefined && kind !== 'component') problems.push(...embeddedVariables(document, kind, components));
  const clip = problems.some((problem) => problem.rule === 'too-large') ? undefined : gmailClipProblem(renderedBytes(document, kind, components));
  if (clip !== undefined) problems.push(clip);
  problems.sort((a, b) => a.offset - b.offset);
  return {
    file,
    kind,
    source,
    errors: problems.filter((problem) => problem.severity === 'error'),
    warnings: problems.filter((problem) => problem.severity === 'warning'),
  };
}

/** The size of the HTML the email renders to, with the tree's components in it: what Gmail measures. */
function renderedBytes(document: LmxDocument, kind: LmxKind | undefined, components: TreeComponents | undefined): number {
  const bodies = new Map([...(components ?? [])].map(([id, component]) => [id, component.document]));
  return Buffer.byteLength(renderLmx(document, { components: bodies, componentBody: kind === 'component' }).html);
}

function embeddedVariables(document: LmxDocument, kind: LmxKind, components: TreeComponents): LmxProblem[] {
  const problems: LmxProblem[] = [];
  for (const element of elementsOf(document)) {
    if (element.name !== 'Component') continue;
    const id = element.attributes.find((attribute) => attribute.name === 'componentId');
    const component = id === undefined ? undefined : components.get(id.value);
    if (id === undefined || component === undefined) continue;
    const refused = component.variables.filter((variable) => !NAMESPACES_OF_KIND[kind].includes(variable.namespace));
    if (refused.length === 0) continue;
    const { line, column, offset } = id.position;
    problems.push({
      severity: 'error',
      rule: 'variable-namespace',
      message: `the component ${component.path} shows ${refused.map((variable) => variable.source).join(', ')}, which ${kind === 'campaign' ? 'a campaign' : `a ${kind} email`} does not take`,
      fix: `take ${refused.length === 1 ? 'it' : 'them'} out of the component, or embed a component without ${refused.length === 1 ? 'it' : 'them'}`,
      line,
      column,
      offset,
    });
  }
  return problems;
}

/** A file checked; one larger than the API takes is not read whole, one that is not UTF-8 is reported. */
function checkFile(target: Target): FileCheck {
  const { file, kind } = target;
  const decoded = readLmxSource(target.root, relative(target.root, file));
  if (decoded === undefined) throw new LocalFileError(`${file}: removed while it was checked`);
  if ('problem' in decoded) return { file, kind, errors: [decoded.problem], warnings: [] };
  return checkSource(file, decoded.source, kind, target.components);
}

/**
 * Every LMX file the paths name, checked. A directory that a pull wrote (it has the state file or
 * a kind's directory) gives each file the kind of the directory it is in, and the ids of its
 * components; any other directory is searched for .lmx files. `kind` is for files the tree says
 * nothing of. Paths that name nothing to check are usage errors: nothing is checked then.
 */
export function checkPaths(paths: readonly string[], kind: LmxKind | undefined): FileCheck[] {
  const targets = paths.flatMap((path) => targetsOf(path, kind));
  return targets.map(checkFile);
}

function targetsOf(path: string, kind: LmxKind | undefined): Target[] {
  let stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(`${path}: ${missing ? 'no such file or directory' : (error as Error).message}`, {
      hint: missing ? 'name .lmx files or a directory that `loopsctl content pull` wrote (the default is ./loops)' : undefined,
    });
  }
  if (stats.isFile()) {
    if (!path.endsWith('.lmx')) throw new UsageError(`${path}: not an .lmx file`, { hint: 'name LMX files (.lmx), or a directory of them' });
    // The path alone says where a pull put it: <tree>/<kind>/<record>/<file>.lmx.
    const treeKind = kindOfDirectory(basename(dirname(dirname(path))));
    return [{ file: path, root: dirname(path), kind: treeKind ?? kind }];
  }
  if (!stats.isDirectory()) throw new UsageError(`${path}: not a file or a directory`);
  const targets = isTree(path) ? treeTargets(path, kind) : lmxFilesUnder(path, true).map((file) => ({ file, root: path, kind }));
  if (targets.length === 0)
    throw new UsageError(`${path}: no .lmx files in it`, { hint: "pull the account's content first (`loopsctl content pull`), or name .lmx files" });
  return targets;
}

/** The LMX files of a pulled tree, each with its kind; files elsewhere in it take `kind`. */
function treeTargets(root: string, kind: LmxKind | undefined): Target[] {
  const components = treeComponents(root);
  return lmxFilesUnder(root, true).map((file) => {
    const parts = file.slice(root.length + 1).split(/[\\/]/);
    const treeKind = parts.length === 3 ? kindOfDirectory(parts[0]!) : undefined;
    return { file, root, kind: treeKind ?? kind, components };
  });
}

/**
 * The components a pulled tree holds, by the id in each directory's name
 * (`components/footer--cmp_1`) and those the state file knows them by in each account, each with
 * its body and the variables it shows (none for one that cannot be read: its own check reports it).
 */
export function treeComponents(root: string): TreeComponents {
  const components = new Map<string, { path: string; variables: LmxVariable[]; document: LmxDocument }>();
  for (const { entry, ids } of componentDirectories(root)) {
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
