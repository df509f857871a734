/**
 * `content check` of the audience half: each file's shape and the references between the records
 * (a filter's properties and their types, a name given twice), offline; with `--account`, what
 * only the account can say too: a list or event pattern it lacks, a property it types otherwise.
 */
import { join } from 'node:path';
import type { CheckProblem, FileCheck } from '../shared/check.js';
import { fileOf } from './files.js';
import type { AudienceProblem, AudienceTree } from './rules.js';
import { readAudienceTree } from './rules.js';

/** The account's names as the workflows' check reads them (`list:…`, `event:…`, `property:key:type`), for the audience's own. */
export function accountAudienceOf(names: ReadonlySet<string>): AccountAudience {
  const account: AccountAudience = { lists: new Set(), events: new Set(), properties: new Map() };
  for (const name of names) {
    const [kind, ...rest] = name.split(':');
    if (kind === 'list') account.lists.add(rest.join(':'));
    else if (kind === 'event') account.events.add(rest.join(':'));
    else if (kind === 'property' && rest.length >= 2) account.properties.set(rest[0]!, rest.slice(1).join(':'));
  }
  return account;
}

/** What the account holds, as `content check --account` reads it. */
export interface AccountAudience {
  lists: Set<string>;
  events: Set<string>;
  /** Each contact property's type, by key. */
  properties: Map<string, string>;
}

/** The problems only the account can tell of. */
function accountProblems(tree: AudienceTree, account: AccountAudience): AudienceProblem[] {
  const problems: AudienceProblem[] = [];
  const lacking = (file: string, noun: string, todo: string) => (name: string) =>
    problems.push({ file, field: '', severity: 'error', rule: 'reference', message: `the ${noun} "${name}" is not in the account`, fix: todo });
  for (const name of tree.lists ?? [])
    if (!account.lists.has(name)) lacking('lists.json', 'mailing list', 'create it in the app (Audience, Lists): the API cannot')(name);
  for (const name of tree.events ?? [])
    if (!account.events.has(name)) lacking('event-patterns.json', 'event pattern', `send "${name}" once so that the account has its pattern`)(name);
  for (const property of tree.properties?.values() ?? []) {
    const type = account.properties.get(property.key);
    if (type !== undefined && type !== property.type)
      problems.push({
        file: 'contact-properties.json',
        field: property.key,
        severity: 'error',
        rule: 'property-type',
        message: `"${property.key}" is a ${type} property in the account, and ${property.type} here: the API cannot change a property's type`,
        fix: 'write the type the account has, or add a property under a new key',
      });
  }
  return problems;
}

/** The audience files of a tree checked: a FileCheck per file with problems, as the LMX files' are printed. */
export function checkAudience(root: string, shown: string, account?: AccountAudience): FileCheck[] {
  const tree = readAudienceTree(root);
  const problems = [...tree.problems, ...(account === undefined ? [] : accountProblems(tree, account))];
  const byFile = new Map<string, CheckProblem[]>();
  for (const problem of problems) {
    const placed: CheckProblem = {
      severity: problem.severity,
      rule: problem.rule,
      message: problem.field === '' ? problem.message : `${problem.field}: ${problem.message}`,
      fix: problem.fix,
      line: problem.line ?? 1,
      column: problem.column ?? 1,
      offset: 0,
    };
    byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), placed]);
  }
  // The audience's files, and the emails' that name what the audience holds (a transactional email's group) where one has a problem.
  const files = [...new Set([...tree.records.map(fileOf), ...byFile.keys()])];
  return files.map((file) => {
    const found = byFile.get(file) ?? [];
    // The source is not kept: a file that does not parse is never quoted.
    return {
      file: join(shown, file),
      errors: found.filter((problem) => problem.severity === 'error'),
      warnings: found.filter((problem) => problem.severity === 'warning'),
    };
  });
}
