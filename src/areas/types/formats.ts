/**
 * `loopsctl types --format json|env|py|go|rb`: the ids an app needs, per environment. Each record's
 * key is its name's slug (`password-reset`, what a content tree's directory of it starts with),
 * the same in every account where the record has the same name, so staging's file and
 * production's differ only in their values; records whose slugs meet are told apart by their ids.
 * Every value is written as its language reads a string (JSON's escapes, which Python and Go read
 * alike; Ruby's with `#` escaped, which would interpolate; env values in single quotes, as dotenv
 * loaders read them without expansion). One record a line, in code-unit order of the keys.
 */
import { slugOf } from '../../platform/words.js';
import { dataVariableVerdict } from '../../platform/transactional/data-variables.js';
import { LocalFileError } from '../../base/errors.js';
import { compare, generateTypes, quote, type TypesInput, uniqueKeys } from './generate.js';

export const FORMATS = ['ts', 'json', 'env', 'py', 'go', 'rb'] as const;
export type Format = (typeof FORMATS)[number];

interface Keyed {
  /** The record's key: its slug, or its slug with its id when another record's slug is the same. */
  key: string;
  id: string;
}

/** The transactional emails an app can send, and the mailing lists, each with a key. */
interface Ids {
  transactional: (Keyed & { dataVariables: string[]; optionalDataVariables: string[] })[];
  lists: Keyed[];
}

const SLUG_PARTS = { withId: (key: string, id: string) => `${key}--${id}`, numbered: (key: string, number: number) => `${key}--${number}` };

function keyed<T>(records: readonly T[], name: (record: T) => string, id: (record: T) => string): (Keyed & { record: T })[] {
  const keys = uniqueKeys(records, (record) => slugOf(name(record)), id, SLUG_PARTS);
  return records.map((record, index) => ({ key: keys[index]!, id: id(record), record })).sort((a, b) => compare(a.key, b.key));
}

function idsOf(input: TypesInput): Ids {
  const published = input.transactional.filter((email) => email.publishedEmailMessageId !== null);
  return {
    transactional: keyed(
      published,
      (email) => email.name,
      (email) => email.id,
    ).map(({ key, id, record }) => ({
      key,
      id,
      dataVariables: [...record.dataVariables].sort(compare),
      optionalDataVariables: dataVariableVerdict(record.dataVariables, { fallbacks: input.dataVariablesFallbacks[record.id] }).optional.sort(compare),
    })),
    lists: keyed(
      input.mailingLists,
      (list) => list.name,
      (list) => list.id,
    ).map(({ key, id }) => ({ key, id })),
  };
}

/** A string as Python, Go and Ruby read it: JSON's escapes, and the two line separators escaped too, which JSON leaves raw and editors break lines at. */
const literal = (value: string) => quote(value).replace(/[\u2028\u2029]/g, (separator) => `\\u${separator.charCodeAt(0).toString(16)}`);

/** A key as a constant's name: `password-reset--c1` → `PASSWORD_RESET__C1`. */
const upperSnake = (key: string) => key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
/** A key as Go's exported name: `password-reset` → `PasswordReset`. */
const camel = (key: string) =>
  key
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * Constant names, one per record, that must differ after a key became a name (`a-b` and `a_b`
 * both give `A_B`): keys are unique, their names are checked.
 */
function names(ids: Ids, name: (kind: 'TX' | 'LIST', key: string) => string): { tx: string[]; lists: string[] } {
  const tx = ids.transactional.map((email) => name('TX', email.key));
  const lists = ids.lists.map((list) => name('LIST', list.key));
  const seen = new Map<string, string>();
  for (const [index, constant] of [...tx, ...lists].entries()) {
    const key = index < tx.length ? ids.transactional[index]!.key : ids.lists[index - tx.length]!.key;
    const before = seen.get(constant);
    if (before !== undefined)
      throw new LocalFileError(`the keys "${before}" and "${key}" both become ${constant}`, {
        hint: 'rename one of the records in the app, or use --format json',
      });
    seen.set(constant, key);
  }
  return { tx, lists };
}

const HEADER = (comment: string) =>
  [
    `The Loops account's published transactional emails and mailing lists, as \`loopsctl types\` read them.`,
    'Do not edit: run it again, and `... --check` in CI.',
  ]
    .map((line) => `${comment} ${line}`)
    .join('\n');

function json(ids: Ids): string {
  const transactionalEmails = Object.fromEntries(
    ids.transactional.map(({ key, id, dataVariables, optionalDataVariables }) => [key, { id, dataVariables, optionalDataVariables }]),
  );
  const mailingLists = Object.fromEntries(ids.lists.map(({ key, id }) => [key, id]));
  // One record a line: a change in the account shows as a changed line.
  const section = (records: Record<string, unknown>) =>
    `{${Object.entries(records)
      .map(([key, value]) => `\n    ${quote(key)}: ${JSON.stringify(value)}`)
      .join(',')}${Object.keys(records).length === 0 ? '' : '\n  '}}`;
  return `{\n  "transactionalEmails": ${section(transactionalEmails)},\n  "mailingLists": ${section(mailingLists)}\n}\n`;
}

/** A dotenv value: single quotes, read as they stand (no expansion); a value that cannot be so written is refused. */
function envValue(value: string, key: string): string {
  if (/['\n\r]/.test(value)) throw new LocalFileError(`the id of "${key}" cannot be written in an env file: ${quote(value)}`, { hint: 'use --format json' });
  return `'${value}'`;
}

function env(ids: Ids): string {
  const { tx, lists } = names(ids, (kind, key) => `LOOPS_${kind}_${upperSnake(key)}`);
  const lines = [
    ...ids.transactional.map((email, index) => `${tx[index]}=${envValue(email.id, email.key)}`),
    ...ids.lists.map((list, index) => `${lists[index]}=${envValue(list.id, list.key)}`),
  ];
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

function python(ids: Ids): string {
  const { tx, lists } = names(ids, (kind, key) => `${kind}_${upperSnake(key)}`);
  const lines = [
    ...ids.transactional.map((email, index) => `${tx[index]} = ${literal(email.id)}`),
    ...ids.lists.map((list, index) => `${lists[index]} = ${literal(list.id)}`),
    '',
    '# Each published email by key: its id, its data variables, and those a send may leave out (it has a fallback for them).',
    'TRANSACTIONAL_EMAILS = {',
    ...ids.transactional.map(
      (email) =>
        `    ${literal(email.key)}: {"id": ${literal(email.id)}, "data_variables": [${email.dataVariables.map(literal).join(', ')}], "optional_data_variables": [${email.optionalDataVariables.map(literal).join(', ')}]},`,
    ),
    '}',
  ];
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

function go(ids: Ids): string {
  const { tx, lists } = names(ids, (kind, key) => `${kind === 'TX' ? 'Tx' : 'List'}${camel(key)}`);
  const constants = [
    ...ids.transactional.map((email, index) => `\t${tx[index]} = ${literal(email.id)}`),
    ...ids.lists.map((list, index) => `\t${lists[index]} = ${literal(list.id)}`),
  ];
  const body = constants.length === 0 ? '' : `\nconst (\n${constants.join('\n')}\n)\n`;
  return `${HEADER('//')}\npackage loops\n${body}`;
}

/** A Ruby string: JSON's escapes, which Ruby's double quotes read alike, and `#` escaped so that nothing interpolates. */
const rubyString = (value: string) => literal(value).replace(/#/g, '\\#');

function ruby(ids: Ids): string {
  const { tx, lists } = names(ids, (kind, key) => `${kind}_${upperSnake(key)}`);
  const lines = [
    ...ids.transactional.map((email, index) => `  ${tx[index]} = ${rubyString(email.id)}.freeze`),
    ...ids.lists.map((list, index) => `  ${lists[index]} = ${rubyString(list.id)}.freeze`),
  ];
  return `${HEADER('#')}\nmodule Loops\n${lines.join('\n')}${lines.length === 0 ? '' : '\n'}end\n`;
}

/** The file for a format. */
export function generateFormat(format: Format, input: TypesInput): string {
  if (format === 'ts') return generateTypes(input);
  const ids = idsOf(input);
  return { json, env, py: python, go, rb: ruby }[format](ids);
}

/** What differs between a file of a format other than TypeScript and the account: the lines of each, one record a line. */
export function lineDrift(written: string, now: string): string[] {
  const before = new Set(written.split('\n'));
  const after = new Set(now.split('\n'));
  return [
    ...[...before].filter((line) => line.trim() !== '' && !after.has(line)).map((line) => `in the file, not the account: ${line.trim()}`),
    ...[...after].filter((line) => line.trim() !== '' && !before.has(line)).map((line) => `in the account, not the file: ${line.trim()}`),
  ];
}
