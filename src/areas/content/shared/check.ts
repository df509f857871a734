/**
 * LMX files checked against the specification, offline: what kind of email each is the body of
 * (from where a pull put it), and the problems of each, with Gmail's clip of the HTML it renders
 * to. Which files a path names is check-paths.ts: reading a tree's JSON files takes zod, which a
 * check of .lmx files (this module) never loads.
 */
import { dirname, relative } from 'node:path';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import {
  checkLmx,
  elementsOf,
  gmailClipProblem,
  LineIndex,
  type LmxDocument,
  type LmxKind,
  type LmxProblem,
  type LmxVariable,
  NAMESPACES_OF_KIND,
  refusesBody,
} from '../../../lmx/index.js';
import type { QaImpact } from '../../../lmx/qa/index.js';
import { renderLmx } from '../../../lmx/render/index.js';
import { type EnvValues, fillLmxTracked, type NamedValues, OPENING } from './env-values.js';
import { placeOf, readLmxSource } from './lmx-files.js';

/** A problem of a checked file: LMX's, or a workflow file's, whose rules are the graph's; an accessibility rule's has its impact. */
export type CheckProblem = Omit<LmxProblem, 'rule'> & { rule: string; impact?: QaImpact };

/** One file's findings. */
export interface FileCheck {
  /** As the person named it, or joined to the directory they named. */
  file: string;
  /** Undefined when neither the tree nor --kind says: variables' namespaces were not checked. */
  kind?: LmxKind;
  /** The source, for showing the lines problems are on; undefined when it could not be read. */
  source?: string;
  errors: CheckProblem[];
  warnings: CheckProblem[];
}

/** A file's findings as `--json` prints them (`content check`, and a push that refuses to send them). */
export function checkRecord(file: FileCheck) {
  const problem = ({ line, column, rule, impact, message, fix }: CheckProblem) => ({
    line,
    column,
    rule,
    ...(impact === undefined ? {} : { impact }),
    message,
    fix,
  });
  return { file: file.file, kind: file.kind ?? null, errors: file.errors.map(problem), warnings: file.warnings.map(problem) };
}

/** The components of a pulled tree, by every name an email may know them by (their directory, their ids), with the variables each shows and its body. */
export type TreeComponents = ReadonlyMap<string, { path: string; variables: LmxVariable[]; document: LmxDocument }>;

/** A file to check and what is known of it. */
export interface Target {
  file: string;
  /** The directory the person named (or the file's own), under which no link is followed. */
  root: string;
  kind?: LmxKind;
  components?: TreeComponents;
  /** The environments the LMX is checked for, each filling its placeholders as it is sent there. */
  environments?: readonly NamedValues[];
}

/**
 * A source checked: its problems split into errors and warnings. With the tree's components, a
 * <Component> naming none of them is a warning, and one whose variables the email's kind does
 * not take is an error, as the platform refuses a component change that would put them there.
 * With environments, the source is checked filled with each one's values, as it is sent there: a
 * problem some environments' values make and others' do not names the environments it is in.
 */
export function checkSource(
  file: string,
  source: string,
  kind: LmxKind | undefined,
  components?: TreeComponents,
  environments?: readonly NamedValues[],
): FileCheck {
  const each = environments === undefined || environments.length === 0 || !source.includes(OPENING) ? [undefined] : environments;
  const found = new Map<string, { problem: LmxProblem; in: string[] }>();
  for (const environment of each)
    for (const problem of filledProblems(source, kind, components, environment?.values)) {
      const key = `${problem.offset} ${problem.rule} ${problem.message}`;
      const known = found.get(key) ?? { problem, in: [] };
      known.in.push(environment?.name ?? '');
      found.set(key, known);
    }
  const problems = [...found.values()].map(({ problem, in: names }) =>
    names.length === each.length ? problem : { ...problem, message: `${problem.message} (in ${names.join(', ')})` },
  );
  problems.sort((a, b) => a.offset - b.offset);
  return {
    file,
    kind,
    source,
    errors: problems.filter(refusesBody),
    warnings: problems.filter((problem) => problem.severity === 'warning'),
  };
}

/** The problems of a source filled with an environment's values (or as written, without), each where it is written. */
function filledProblems(source: string, kind: LmxKind | undefined, components: TreeComponents | undefined, values: EnvValues | undefined): LmxProblem[] {
  const filled = values === undefined ? undefined : fillLmxTracked(source, values);
  const checked = filled?.text ?? source;
  const { document, problems: found } = checkLmx(checked, { kind, componentIds: components === undefined ? undefined : new Set(components.keys()) });
  if (components !== undefined && kind !== undefined && kind !== 'component') found.push(...embeddedVariables(document, kind, components));
  const clip = found.some((problem) => problem.rule === 'too-large') ? undefined : gmailClipProblem(renderedBytes(document, kind, components));
  if (clip !== undefined) found.push(clip);
  if (filled === undefined) return found;
  const lines = new LineIndex(source);
  return found.flatMap((problem) => writtenProblem(problem, source, filled.written, lines));
}

/**
 * A problem of the filled source at its place in the source as written; none for a placeholder no
 * environment fills, which LMX reads as a variable it does not know: the environments' check names it.
 */
function writtenProblem(problem: LmxProblem, source: string, written: (offset: number) => number, lines: LineIndex): LmxProblem[] {
  const offset = written(problem.offset);
  if (problem.rule === 'variable-syntax' && source.startsWith(OPENING, offset)) return [];
  return [{ ...problem, ...lines.at(offset) }];
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
export function checkFile(target: Target): FileCheck {
  const { file, kind } = target;
  const decoded = readLmxSource(target.root, relative(target.root, file));
  if (decoded === undefined) throw new LocalFileError(`${file}: removed while it was checked`);
  if ('problem' in decoded) return { file, kind, errors: [decoded.problem], warnings: [] };
  return checkSource(file, decoded.source, kind, target.components, target.environments);
}

/**
 * An .lmx file named on its own, with the kind of email the path says it is, when it says: a pull puts
 * it at <tree>/<kind>/<record>/<file>.lmx. Otherwise `kind`.
 */
export function lmxFileTarget(path: string, kind: LmxKind | undefined): Target {
  if (!path.endsWith('.lmx')) throw new UsageError(`${path}: not an .lmx file`, { hint: 'name LMX files (.lmx), or a directory of them' });
  return { file: path, root: dirname(path), kind: placeOf(path).kind ?? kind };
}
