/** `content check`: the LMX specification's rules on files and workflows' rules, offline unless --account. */
import { lstatSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ApiClient } from '../../api/client.js';
import { UsageError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import type { LmxKind } from '../../lmx/index.js';
import { impactCounts, type QaImpact, reaches } from '../../lmx/qa/finding.js';
import { countOf } from '../../render/numbers.js';
import type { Output } from '../../render/output.js';
import { checkFile, checkRecord, type FileCheck, lmxFileTarget } from './shared/check.js';
import type { TreeCache } from './shared/email-view.js';
import { DEFAULT_DIRECTORY, environmentsRootOf, placeOf } from './shared/lmx-files.js';
import { renderChecks } from './shared/render.js';
import { lacksSubject, noSubjectProblem } from './shared/subject.js';

interface CheckOptions {
  env?: string;
  kind?: LmxKind;
  strict?: boolean;
  account?: boolean;
  rules?: string;
  html?: string;
  severity?: QaImpact;
}

/** The line `--html` fails at without --severity: the field's usual one. */
const HTML_SEVERITY: QaImpact = 'serious';

/**
 * With a severity line, an accessibility finding at it or worse is an error (exit 1); without one,
 * a tree's findings stay what they were, warnings unless the rules file raises them.
 */
function applySeverity(file: FileCheck, line: QaImpact | undefined): void {
  if (line === undefined) return;
  const failing = file.warnings.filter((problem) => problem.impact !== undefined && reaches(problem.impact, line));
  file.warnings = file.warnings.filter((problem) => !failing.includes(problem));
  file.errors.push(...failing.map((problem) => ({ ...problem, severity: 'error' as const })));
  file.errors.sort((a, b) => a.offset - b.offset);
}

/** `Accessibility: 1 critical, 2 serious, 0 moderate, 1 mild.`, when there are any. */
function impactsLine(checks: readonly FileCheck[]): string | undefined {
  const problems = checks.flatMap((file) => [...file.errors, ...file.warnings]);
  return problems.some((problem) => problem.impact !== undefined) ? `Accessibility: ${impactCounts(problems)}.` : undefined;
}

/** An .lmx file, which holds no workflow: checked without the workflows' YAML parser and rules. */
function isLmxFile(path: string): boolean {
  return extname(path) === '.lmx' && isFile(path);
}

/** A regular file, not a link to one. */
function isFile(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** The checks of the paths: LMX files alone by the LMX rules, anything else (a tree, a workflow) with the workflows too. */
async function checksOf(
  paths: readonly string[],
  kind: LmxKind | undefined,
  env: string | undefined,
  accountNames: Set<string> | undefined,
): Promise<FileCheck[]> {
  if (paths.every(isLmxFile)) {
    // A file of a tree with environments is checked filled, as it is sent to each (or to --env's).
    const environmentsOf = paths.some(hasEnvironments) ? (await import('./shared/check-paths.js')).treeEnvironments : undefined;
    return paths.map((path) => {
      const root = placeOf(resolve(path)).root;
      const environments = root === undefined ? undefined : environmentsOf?.(root, env);
      return checkFile({ ...lmxFileTarget(path, kind), ...(environments === undefined ? {} : { environments }) });
    });
  }
  return (await import('./tree-check.js')).checkTrees(paths, kind, env, accountNames);
}

/** Whether a path is a tree with environments, or a folder or file inside one. */
const hasEnvironments = (path: string): boolean => environmentsRootOf(path) !== undefined;

/** Problems found by another check, each with the file's others: a file none of the checks had is added. */
function addChecks(checks: FileCheck[], more: readonly FileCheck[]): void {
  for (const check of more) {
    const same = checks.find((file) => file.file === check.file);
    if (same === undefined) checks.push(check);
    else {
      same.source ??= check.source;
      same.errors.push(...check.errors);
      same.errors.sort((a, b) => a.offset - b.offset);
    }
  }
}

/** The names a workflow may refer to, as the account holds them. */
async function readAccountNames(client: ApiClient): Promise<Set<string>> {
  const { fetchNames, referenceNamesOf } = await import('./workflows/remote.js');
  return referenceNamesOf(await fetchNames(client));
}

/** `content check`: the LMX specification's rules on files, offline; exit 1 on errors (--strict: warnings too). */
export const check: Handler<[string[]], CheckOptions> = handler(
  ['out', 'client', 'files', 'key'],
  async (context, [paths], options) => {
    if (options.html !== undefined) {
      if (paths.length > 0) throw new UsageError('--html judges captured HTML alone', { hint: 'check LMX paths and captured HTML in two runs' });
      // Ruled by the rules file as the LMX's findings are: a capture is a loose file, no record's.
      const { readQaRules } = await import('./shared/check-qa.js');
      const expected = await readQaRules(options.rules, context.runtime.files === undefined ? '.' : context.runtime.files.root);
      const checks = await (await import('./check-html-command.js')).checkHtmlCaptures(options.html, expected);
      for (const file of checks) applySeverity(file, options.severity ?? HTML_SEVERITY);
      return report(context.out, checks, options.strict);
    }
    const files = context.runtime.files;
    // What a recipient meets, offline: accessibility, and spam risk once it adds up, ruled by the rules file.
    const { qaProblems, readQaRules } = await import('./shared/check-qa.js');
    const expected = await readQaRules(options.rules, files === undefined ? '.' : files.root);
    // Only --account reads the account (four read calls); without it the check needs no key and loads no API area.
    const accountNames = options.account ? await readAccountNames(await context.client()) : undefined;
    const named = paths.length === 0 ? [DEFAULT_DIRECTORY] : paths;
    const checks = await checksOf(named, options.kind, options.env, accountNames);
    // A tree with environments: its placeholders against each environment (or --env's), and another's values written out.
    const environments = named.some(hasEnvironments) ? await import('./env-checks.js') : undefined;
    if (environments !== undefined) addChecks(checks, environments.environmentChecks(named, options.env));
    else if (options.env !== undefined)
      throw new UsageError(`--env ${options.env}: no environments.json where the paths are`, {
        hint: 'name the content directory whose environments.json names it',
      });
    // A tree's theme, components and subjects are read for a tree; .lmx files named alone load none of its readers.
    const tree = paths.length > 0 && paths.every(isLmxFile) ? undefined : await import('./shared/email-view.js');
    const records = expected === undefined ? undefined : await import('./shared/tree.js');
    const cache: TreeCache = new Map();
    for (const file of checks) {
      if (!file.file.endsWith('.lmx')) continue;
      // A tree whose files cannot be read is drawn without them: the other checks name what is wrong there.
      const context = tree === undefined ? undefined : await tree.treeContext(file.file, cache).catch(() => undefined);
      const record = records?.recordOfFile(file.file);
      const found = qaProblems(file, context, expected === undefined ? undefined : { expected, ...(record === undefined ? {} : { record }) });
      file.errors.push(...found.filter((problem) => problem.severity === 'error'));
      file.warnings.push(...found.filter((problem) => problem.severity === 'warning'));
      // An email's body whose fields file is there and gives no subject: the platform sends it so.
      const fields = `${basename(file.file, '.lmx')}.json`;
      if (
        context !== undefined &&
        file.kind !== undefined &&
        file.kind !== 'component' &&
        lacksSubject(context.fields.subject) &&
        isFile(join(dirname(file.file), fields))
      )
        file.warnings.push(noSubjectProblem(fields));
      file.errors.sort((a, b) => a.offset - b.offset);
      file.warnings.sort((a, b) => a.offset - b.offset);
      applySeverity(file, options.severity);
    }
    return report(context.out, checks, options.strict);
  },
  { chooseAccount: accountOfEnvironment },
);

/** The checks printed (or --json), the summary on stderr, and the exit code: 1 on errors (with --strict, on warnings too). */
async function report(out: Output, checks: FileCheck[], strict: boolean | undefined): Promise<number> {
  const errors = checks.reduce((sum, file) => sum + file.errors.length, 0);
  const warnings = checks.reduce((sum, file) => sum + file.warnings.length, 0);
  if (out.json) await out.writeJson(checks.map(checkRecord));
  else {
    const text = renderChecks(out, checks);
    if (text !== '') await out.write(text);
    // The files the errors and warnings are in, all of them: a warning in a file without errors is in a file too.
    const withProblems = checks.filter((file) => file.errors.length > 0 || file.warnings.length > 0).length;
    out.note(
      `Checked ${countOf(checks.length, 'file')}: ${countOf(errors, 'error')}, ${countOf(warnings, 'warning')}${withProblems > 0 ? ` in ${countOf(withProblems, 'file')}` : ''}.`,
    );
    const unkinded = checks.filter((file) => file.kind === undefined && file.file.endsWith('.lmx')).length;
    if (unkinded > 0)
      out.note(`${countOf(unkinded, 'file')} outside a pulled tree: their variables' namespaces were not checked; say the kind of email with --kind.`);
    const impacts = impactsLine(checks);
    if (impacts !== undefined) out.note(impacts);
  }
  return errors > 0 || (strict && warnings > 0) ? ExitCode.mismatch : ExitCode.ok;
}
/**
 * With --account and --env, the account read is that environment's (its profile and team), taken
 * before the run picks its key; the environments of the tree the first path is in, or is.
 */
async function accountOfEnvironment(context: Uses<'key'>, [paths]: [string[]], options: CheckOptions): Promise<void> {
  if (!options.account || options.env === undefined) return;
  const path = paths[0] ?? DEFAULT_DIRECTORY;
  const { chooseEnvironment } = await import('./shared/environment-choice.js');
  await chooseEnvironment(context, environmentsRootOf(path) ?? (isFile(path) ? dirname(resolve(path)) : path), options.env);
}
