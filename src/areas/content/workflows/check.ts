/**
 * `content check` of workflow files, offline: each workflow.yaml's shape and graph by the
 * platform's rules (src/platform/workflows/file.ts), the emails its send-email nodes name, each
 * email's LMX as a workflow email (the `contact` and `event` namespaces), and the names it refers
 * to in the account (warnings offline, errors when the check reads the account). Each problem is
 * placed where it is written (the node's key in the file) and says what to write instead, as LMX
 * problems do.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jsonFault } from '../../../base/parse-faults.js';
import { readTreeFile } from '../../../base/tree-files.js';
import type { LmxKind } from '../../../lmx/index.js';
import { LMX_MAX_BYTES } from '../../../lmx/index.js';
import { PROPERTY_TYPES } from '../../../platform/contact-properties/schemas.js';
import { EMAIL_PATH, type FileNode, WORKFLOW_FILE, type WorkflowFile } from '../../../platform/workflows/file.js';
import { type Placer, readWorkflowText } from '../../../platform/workflows/file-text.js';
import { type PropertyTypes, type WorkflowProblem, workflowProblems } from '../../../platform/workflows/rules.js';
import { type CheckProblem, checkSource, type FileCheck, type TreeComponents } from '../shared/check.js';
import { checkPaths, treeComponents, treeEnvironments } from '../shared/check-paths.js';
import type { NamedValues } from '../shared/env-values.js';
import { readState } from '../shared/files.js';
import { WORKFLOWS } from '../shared/lmx-files.js';
import { messageFields } from '../shared/message-fields.js';
import { isTree } from '../shared/tree.js';

/**
 * The names a tree's audience files define, as the reference rule writes them (`segment:Dormant`),
 * and the kinds the tree is the authority on; none when they cannot be read. The audience half
 * reads them: the check of the whole tree (tree-check.ts) hands them in.
 */
export type TreeNamesOf = (root: string) => { names: Set<string>; defines: Set<string> } | undefined;

/** Whether a path names a workflow: its workflow.yaml, or the directory that holds one. */
export function isWorkflowPath(path: string): boolean {
  if (basename(path) === WORKFLOW_FILE) return true;
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat?.isDirectory() === true && existsSync(join(path, WORKFLOW_FILE));
}

/** The workflow directories a path names: one workflow, or every one of a tree. */
export function workflowDirectoriesOf(path: string): string[] {
  if (basename(path) === WORKFLOW_FILE) return [dirname(path)];
  if (isWorkflowPath(path)) return [path];
  const under = join(path, WORKFLOWS);
  if (lstatSync(under, { throwIfNoEntry: false })?.isDirectory() !== true) return [];
  return readdirSync(under)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((entry) => join(under, entry))
    .filter((directory) => lstatSync(directory).isDirectory() && existsSync(join(directory, WORKFLOW_FILE)));
}

function placed(place: Placer, problem: WorkflowProblem & { field?: string }): CheckProblem {
  const where = problem.key === undefined ? '' : `node "${problem.key}": `;
  return { severity: problem.severity, rule: problem.rule, message: `${where}${problem.message}`, fix: problem.fix, ...place(problem) };
}

/** The names (lists, segments, events, properties) the state saw resolved in some account, for this directory. */
function knownNames(root: string | undefined, path: string): Set<string> {
  const names = new Set<string>();
  if (root === undefined) return names;
  let state;
  try {
    state = readState(root);
  } catch {
    return names;
  }
  for (const records of Object.values(state?.accounts ?? {})) {
    const record = records[path] as { names?: unknown } | undefined;
    if (Array.isArray(record?.names)) for (const name of record.names) if (typeof name === 'string') names.add(name);
  }
  return names;
}

/**
 * The contact properties' types the names record (`property:plan:string`); a property whose type
 * is not known (an offline check no pull has told) is 'unknown', and the reference rule speaks of
 * one the account lacks.
 */
function propertyTypesOf(known: Set<string>): PropertyTypes {
  return (key) => PROPERTY_TYPES.find((type) => known.has(`property:${key}:${type}`)) ?? 'unknown';
}

/**
 * What a workflow refers to by name, which only the account can confirm, each with the key of the
 * first node that names it (none for the mailing list): `segment:Paying customers`,
 * `event:trial_started`, `property:plan` (a contact property an audience filter's condition or a
 * contact-property trigger names).
 */
export function referencesAt(file: WorkflowFile): Map<string, string | undefined> {
  const references = new Map<string, string | undefined>();
  const add = (reference: string, key?: string) => {
    if (!references.has(reference)) references.set(reference, key);
  };
  if (typeof file.mailingList === 'string') add(`list:${file.mailingList}`);
  for (const [key, node] of Object.entries(file.nodes)) {
    if (typeof node.segment === 'string') add(`segment:${node.segment}`, key);
    if (node.type === 'EventTrigger' && typeof node.eventName === 'string') add(`event:${node.eventName}`, key);
    for (const property of propertiesOf(node)) add(`property:${property}`, key);
  }
  return references;
}

/** The contact properties a node names: each audience filter condition's `key`, a contact-property trigger's. */
function propertiesOf(node: FileNode): string[] {
  const conditions = (node.audienceFilter as { conditions?: unknown } | undefined)?.conditions;
  const keys = Array.isArray(conditions) ? conditions.map((condition) => (condition as { key?: unknown } | null)?.key) : [];
  if (node.type === 'ContactPropertyTrigger') keys.push((node.contactPropertyQuery as { key?: unknown } | null | undefined)?.key);
  return keys.filter((key): key is string => typeof key === 'string' && key !== '');
}

export function referencesOf(file: WorkflowFile): string[] {
  return [...referencesAt(file).keys()].sort();
}

/** Each kind of reference: what it is called, why it must exist, and what to write instead. */
const REFERENCE_KINDS: Record<string, { noun: string; why: string; fix: (name: string) => string }> = {
  list: {
    noun: 'mailing list',
    why: 'a push looks it up by name',
    fix: (name) => `name a mailing list of the account (loopsctl lists list), or create one named "${name}" in the app`,
  },
  segment: {
    noun: 'segment',
    why: 'a push looks it up by name',
    fix: (name) => `name a segment of the account (loopsctl segments list), or create one named "${name}" in the app`,
  },
  event: {
    noun: 'event pattern',
    why: 'the trigger waits for an event the account has never had',
    fix: (name) => `name an event the account has a pattern of (loopsctl event-patterns list), or send "${name}" once so that it has one`,
  },
  property: {
    noun: 'contact property',
    why: 'a condition on a property the account lacks matches no contact',
    fix: (name) =>
      `name a contact property of the account (loopsctl contact-properties list), or create it: loopsctl contact-properties create --name ${name} --type string`,
  },
};

/**
 * The references the account lacks: with the account's names (`content check --account`) an error
 * each, else a warning for each one no pull of this directory saw in an account.
 */
function referenceProblems(
  file: WorkflowFile,
  known: Set<string>,
  account: boolean,
  treeDefines?: ReadonlySet<string>,
): (WorkflowProblem & { field?: string })[] {
  const problems: (WorkflowProblem & { field?: string })[] = [];
  for (const [reference, key] of referencesAt(file)) {
    if (known.has(reference)) continue;
    const kind = reference.slice(0, reference.indexOf(':'));
    const name = reference.slice(reference.indexOf(':') + 1);
    const { noun, why, fix } = REFERENCE_KINDS[kind]!;
    // The tree defines its segments and contact properties: one it lacks is a mistake offline too.
    const inTree = !account && treeDefines?.has(kind) === true;
    const where = account
      ? 'is not in the account'
      : inTree
        ? `is not in this tree (${kind === 'segment' ? 'segments/' : 'contact-properties.json'})`
        : 'was not seen in an account this directory was pulled from';
    problems.push({
      severity: account || inTree ? 'error' : 'warning',
      key,
      field: key === undefined ? 'mailingList' : undefined,
      rule: 'reference',
      message: `the ${noun} "${name}" ${where}: ${why}`,
      fix: fix(name),
    });
  }
  return problems;
}

/**
 * One workflow directory checked: its workflow.yaml, then each email it names. `shown` is the
 * directory as the person named it; `root` the tree it is in, when it is in one, and `treeNamesOf`
 * what its audience files define; `accountNames` the account's names (referenceNamesOf) when the
 * check reads the account.
 */
export function checkWorkflowDirectory(
  directory: string,
  shown: string,
  root: string | undefined,
  components: TreeComponents | undefined,
  treeNamesOf: TreeNamesOf,
  accountNames?: Set<string>,
  environments?: readonly NamedValues[],
): FileCheck[] {
  const fileShown = join(shown, WORKFLOW_FILE);
  const source = readTreeFile(directory, WORKFLOW_FILE, LMX_MAX_BYTES)!.toString('utf8');
  const read = readWorkflowText(source);
  const result: FileCheck = { file: fileShown, errors: [], warnings: [] };
  const textProblems: CheckProblem[] = read.problems.map((problem) => ({ severity: 'error', ...problem }));
  // A file that does not parse may be anything (a key committed where the workflow goes): its problems show no line of it.
  if (read.problems.some((problem) => problem.rule !== 'shape')) return [finish(result, textProblems)];
  result.source = source;
  if (read.file === undefined) return [finish(result, textProblems)];
  const { file, place } = read;
  const problems: CheckProblem[] = [];
  const path = root === undefined ? undefined : `${WORKFLOWS}/${basename(directory)}`;
  // The segments and properties the tree defines (a push creates them first), and the lists and events it says the account has.
  const tree = root === undefined ? undefined : treeNamesOf(root);
  const treeKnown = [...(tree?.names ?? [])].filter((name) => accountNames === undefined || /^(segment|property):/.test(name));
  const known = new Set([...(accountNames ?? (path === undefined ? [] : knownNames(root, path))), ...treeKnown]);
  for (const problem of workflowProblems(file, propertyTypesOf(known))) problems.push(placed(place, problem));
  for (const problem of referenceProblems(file, known, accountNames !== undefined, tree?.defines)) problems.push(placed(place, problem));
  const emails: FileCheck[] = [];
  for (const [key, node] of Object.entries(file.nodes)) {
    if (node.type !== 'SendEmailAction' || typeof node.email !== 'string' || !EMAIL_PATH.test(node.email)) continue;
    emails.push(...checkEmail(directory, shown, node.email, key, components, environments, (problem) => problems.push(placed(place, problem))));
  }
  return [finish(result, problems), ...emails];
}

/** A send-email node's email: both files there, the fields readable, the LMX a workflow email's. */
function checkEmail(
  directory: string,
  shown: string,
  email: string,
  key: string,
  components: TreeComponents | undefined,
  environments: readonly NamedValues[] | undefined,
  missing: (problem: WorkflowProblem) => void,
): FileCheck[] {
  const lmx = `${dirname(email)}/email.lmx`;
  // Read as the tree's files are, never through a link.
  const [fieldsText, lmxText] = [email, lmx].map((file) => readTreeFile(directory, file, LMX_MAX_BYTES)?.toString('utf8'));
  const absent = [fieldsText === undefined ? email : undefined, lmxText === undefined ? lmx : undefined].filter((file) => file !== undefined);
  if (fieldsText === undefined || lmxText === undefined) {
    missing({
      severity: 'error',
      key,
      rule: 'email-file',
      message: `${absent.join(' and ')} ${absent.length === 1 ? 'is' : 'are'} missing`,
      fix: `write ${dirname(email)}/email.json (subject, previewText, fromName, fromEmail, replyToEmail) and email.lmx`,
    });
    return [];
  }
  const checks: FileCheck[] = [];
  let fieldsProblem: string | undefined;
  try {
    const result = messageFields.safeParse(JSON.parse(fieldsText));
    if (!result.success) fieldsProblem = `${result.error.issues[0]!.path.join('.')}: ${result.error.issues[0]!.message}`;
  } catch {
    fieldsProblem = jsonFault(fieldsText);
  }
  if (fieldsProblem !== undefined) {
    missing({
      severity: 'error',
      key,
      rule: 'email-fields',
      message: `${email}: ${fieldsProblem}`,
      fix: 'write the fields of an email message: subject, previewText, fromName, fromEmail, replyToEmail',
    });
  }
  checks.push(checkSource(join(shown, lmx), lmxText, 'workflow', components, environments));
  return checks;
}

function finish(check: FileCheck, problems: CheckProblem[]): FileCheck {
  problems.sort((a, b) => a.offset - b.offset);
  return {
    ...check,
    errors: problems.filter((problem) => problem.severity === 'error'),
    warnings: problems.filter((problem) => problem.severity === 'warning'),
  };
}

/**
 * What `content check` checks of the paths: the LMX files as before, and the workflows they name
 * or hold (a tree's `workflows/`, a workflow's directory, its workflow.yaml).
 */
export function checkContent(
  paths: readonly string[],
  kind: LmxKind | undefined,
  env: string | undefined,
  treeNamesOf: TreeNamesOf,
  accountNames?: Set<string>,
): FileCheck[] {
  const checks: FileCheck[] = [];
  for (const path of paths) {
    if (isWorkflowPath(path)) {
      const directory = basename(path) === WORKFLOW_FILE ? dirname(path) : path;
      const root = dirname(dirname(directory));
      const tree = basename(dirname(directory)) === WORKFLOWS && isTree(root) ? root : undefined;
      checks.push(
        ...checkWorkflowDirectory(
          directory,
          directory,
          tree,
          tree === undefined ? undefined : treeComponents(tree),
          treeNamesOf,
          accountNames,
          tree === undefined ? undefined : treeEnvironments(tree, env),
        ),
      );
      continue;
    }
    const tree = lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true && isTree(path);
    const workflows = tree ? workflowDirectoriesOf(path) : [];
    // A tree with workflows, or segments and groups, and no other email has nothing for the LMX part to check, which is no mistake.
    if ((workflows.length === 0 && !(tree && hasAudience(path))) || hasOtherLmx(path)) checks.push(...checkPaths([path], kind, env));
    const components = tree ? treeComponents(path) : undefined;
    const environments = tree ? treeEnvironments(path, env) : undefined;
    for (const directory of workflows) checks.push(...checkWorkflowDirectory(directory, directory, path, components, treeNamesOf, accountNames, environments));
  }
  return checks;
}

function hasAudience(root: string): boolean {
  return ['segments', 'groups', 'contact-properties.json', 'lists.json', 'event-patterns.json'].some((name) => existsSync(join(root, name)));
}

function hasOtherLmx(root: string): boolean {
  return ['transactional', 'campaigns', 'components'].some((kind) => existsSync(join(root, kind)));
}
