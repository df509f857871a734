/**
 * `loopsctl types --format json|env|py|go|rb`: the ids an app needs, per environment, and the
 * events and contact properties it sends. Each record's key is the same in every account: a
 * transactional email's is its directory's name in the content tree (`password-reset`, without the
 * `--<id>` a pull ends it with) where a tree is at hand, else its name's slug, which is what a pull
 * names the directory; a list's and an event's are their names' slugs, a property's its key's
 * (`firstName` → `first-name`). Staging's file and production's then differ only in their values;
 * records whose keys meet are told apart by what names them in every account (`nameDigest`). Every value is written as its language reads
 * a string (JSON's escapes, which Python and Go read alike; Ruby's with `#` escaped, which would
 * interpolate; env values in single quotes, as dotenv loaders and the shell read them without
 * expansion). One record a line, in code-unit order of the keys.
 */
import { createHash } from 'node:crypto';
import { slugOf } from '../../platform/words.js';
import { dataVariableVerdict } from '../../platform/transactional/data-variables.js';
import { LocalFileError } from '../../base/errors.js';
import { compare, generateTypes, quote, type TypesInput, uniqueKeys } from './generate.js';

export const FORMATS = ['ts', 'json', 'env', 'py', 'go', 'rb'] as const;
export type Format = (typeof FORMATS)[number];

interface Keyed {
  /** The record's key: its tree directory's name or slug, with its id when another record's is the same. */
  key: string;
  id: string;
  /** The record as a person knows it, for a message that must name it: `transactional email "Welcome" (c1…)`. */
  label: string;
}

/** A name (an event's, a property's) by key, with what its language needs of it. */
interface Named extends Keyed {
  /** The name itself: the value of its constant. */
  name: string;
}

/** The transactional emails an app can send, the mailing lists, the events and the contact properties, each with a key. */
interface Ids {
  transactional: (Keyed & { dataVariables: string[]; optionalDataVariables: string[] })[];
  lists: Keyed[];
  events: (Named & { properties: [string, string][] })[];
  contactProperties: (Named & { type: string })[];
}

/** Each transactional email's key from the content tree, by its id in any account the tree was pulled from or pushed to. */
export type TreeKeys = ReadonlyMap<string, string>;

const SLUG_PARTS = { withId: (key: string, id: string) => `${key}--${id}`, numbered: (key: string, number: number) => `${key}--${number}` };

/**
 * What tells apart records whose keys meet, the same in every account: a list and an event are the
 * same record in every account by their names (a push matches lists by name; an app sends an
 * event by it), so a short digest of the exact name (`trial-started--4b1c0e2a`), where their ids
 * would differ from account to account. A transactional email is matched by nothing but its id
 * outside the tree (two may have one name): its id, which a directory of the tree replaces.
 */
const nameDigest = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 8);

function keyed<T>(
  records: readonly T[],
  name: (record: T) => string,
  id: (record: T) => string,
  label: (record: T) => string,
  apart: (record: T) => string = id,
): (Keyed & { record: T })[] {
  const keys = uniqueKeys(records, name, apart, SLUG_PARTS);
  return records.map((record, index) => ({ key: keys[index]!, id: id(record), label: label(record), record })).sort((a, b) => compare(a.key, b.key));
}

/** A property key's words apart before it is slugged: `firstName` → `first-name`. */
const keySlug = (key: string) => slugOf(key.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
const VALUE_TYPES = new Set(['string', 'number', 'boolean', 'date']);

function idsOf(input: TypesInput, tree: TreeKeys): Ids {
  const published = input.transactional.filter((email) => email.publishedEmailMessageId !== null);
  return {
    transactional: keyed(
      published,
      (email) => tree.get(email.id) ?? slugOf(email.name),
      (email) => email.id,
      (email) => `transactional email ${quote(email.name)} (${email.id})`,
    ).map(({ key, id, label, record }) => ({
      key,
      id,
      label,
      dataVariables: [...record.dataVariables].sort(compare),
      optionalDataVariables: dataVariableVerdict(record.dataVariables, { fallbacks: input.dataVariablesFallbacks[record.id] }).optional.sort(compare),
    })),
    lists: keyed(
      input.mailingLists,
      (list) => slugOf(list.name),
      (list) => list.id,
      (list) => `mailing list ${quote(list.name)} (${list.id})`,
      (list) => nameDigest(list.name),
    ).map(({ key, id, label }) => ({ key, id, label })),
    events: keyed(
      input.eventPatterns,
      (pattern) => slugOf(pattern.eventName),
      (pattern) => pattern.id,
      (pattern) => `event ${quote(pattern.eventName)}`,
      (pattern) => nameDigest(pattern.eventName),
    ).map(({ key, id, label, record }) => ({
      key,
      id,
      label,
      name: record.eventName,
      properties: record.eventProperties
        .map((property): [string, string] => [property.name, VALUE_TYPES.has(property.type) ? property.type : 'string'])
        .sort(([a], [b]) => compare(a, b)),
    })),
    contactProperties: keyed(
      input.contactProperties,
      (property) => keySlug(property.key),
      (property) => property.key,
      (property) => `contact property ${quote(property.key)}`,
    ).map(({ key, id, label, record }) => ({ key, id, label, name: record.key, type: VALUE_TYPES.has(record.type) ? record.type : 'string' })),
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

type Kind = 'TX' | 'LIST' | 'EVENT' | 'CONTACT_PROPERTY';

/** The constant names of each kind's records, in the order of `ids`. */
interface Names {
  tx: string[];
  lists: string[];
  events: string[];
  contactProperties: string[];
}

/**
 * Constant names, one per record, that must differ after a key became a name (`a-b` and `a_b`,
 * two directories of the tree, both give `A_B`): keys are unique, their names are checked, and two
 * that meet stop the command naming both records.
 */
function names(ids: Ids, name: (kind: Kind, key: string) => string): Names {
  const kinds: [Kind, Keyed[]][] = [
    ['TX', ids.transactional],
    ['LIST', ids.lists],
    ['EVENT', ids.events],
    ['CONTACT_PROPERTY', ids.contactProperties],
  ];
  const seen = new Map<string, Keyed>();
  const [tx, lists, events, contactProperties] = kinds.map(([kind, records]) =>
    records.map((record) => {
      const constant = name(kind, record.key);
      const before = seen.get(constant);
      if (before !== undefined)
        throw new LocalFileError(`${before.label} and ${record.label} both become ${constant} (keys "${before.key}" and "${record.key}")`, {
          hint: 'rename one of them (in the app, or its directory in the content tree), or use --format json, whose keys are written as they are',
        });
      seen.set(constant, record);
      return constant;
    }),
  );
  return { tx: tx!, lists: lists!, events: events!, contactProperties: contactProperties! };
}

const HEADER = (comment: string) =>
  [
    `The Loops account's published transactional emails, mailing lists, events and contact properties, as \`loopsctl types\` read them.`,
    'Do not edit: run it again, and `... --check` in CI.',
  ]
    .map((line) => `${comment} ${line}`)
    .join('\n');

/** Every record's constant and value, kind by kind: an email's and a list's id, an event's and a property's name. */
function constantsOf(ids: Ids, name: (kind: Kind, key: string) => string): { constant: string; value: string; kind: Kind; record: Keyed }[] {
  const constant = names(ids, name);
  return [
    ...ids.transactional.map((record, index) => ({ constant: constant.tx[index]!, value: record.id, kind: 'TX' as const, record })),
    ...ids.lists.map((record, index) => ({ constant: constant.lists[index]!, value: record.id, kind: 'LIST' as const, record })),
    ...ids.events.map((record, index) => ({ constant: constant.events[index]!, value: record.name, kind: 'EVENT' as const, record })),
    ...ids.contactProperties.map((record, index) => ({
      constant: constant.contactProperties[index]!,
      value: record.name,
      kind: 'CONTACT_PROPERTY' as const,
      record,
    })),
  ];
}

const eventEntry = (event: Ids['events'][number]) => ({ name: event.name, properties: Object.fromEntries(event.properties) });
const propertyEntry = (property: Ids['contactProperties'][number]) => ({ key: property.name, type: property.type });

function json(ids: Ids): string {
  // One record a line: a change in the account shows as a changed line.
  const section = (entries: [string, unknown][]) =>
    `{${entries.map(([key, value]) => `\n    ${quote(key)}: ${JSON.stringify(value)}`).join(',')}${entries.length === 0 ? '' : '\n  '}}`;
  const sections = {
    transactionalEmails: ids.transactional.map(({ key, id, dataVariables, optionalDataVariables }) => [key, { id, dataVariables, optionalDataVariables }]),
    mailingLists: ids.lists.map(({ key, id }) => [key, id]),
    events: ids.events.map((event) => [event.key, eventEntry(event)]),
    contactProperties: ids.contactProperties.map((property) => [property.key, propertyEntry(property)]),
  } satisfies Record<string, [string, unknown][]>;
  return `{\n${Object.entries(sections)
    .map(([name, entries]) => `  ${quote(name)}: ${section(entries)}`)
    .join(',\n')}\n}\n`;
}

/** What a dotenv value in single quotes cannot hold: they are read as they stand, to the next quote, on one line. */
const NOT_IN_ENV = /['\n\r\u2028\u2029]/;

/**
 * A dotenv line per record, its value in single quotes (no expansion). An id that cannot be so
 * written is refused; an event or property whose name cannot is left out, a comment saying so.
 */
function env(ids: Ids): string {
  const lines = constantsOf(ids, (kind, key) => `LOOPS_${kind}_${upperSnake(key)}`).map(({ constant, value, kind, record }) => {
    if (!NOT_IN_ENV.test(value)) return `${constant}='${value}'`;
    if (kind === 'TX' || kind === 'LIST')
      throw new LocalFileError(`the id of ${record.label} cannot be written in an env file: ${quote(value)}`, { hint: 'use --format json' });
    return `# ${constant} left out: its name holds a quote or a line break, which an env file cannot (--format json has it)`;
  });
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

function python(ids: Ids): string {
  const dict = (value: Record<string, unknown>) =>
    `{${Object.entries(value)
      .map(([key, entry]) => `${literal(key)}: ${pythonValue(entry)}`)
      .join(', ')}}`;
  const pythonValue = (value: unknown): string =>
    typeof value === 'string' ? literal(value) : Array.isArray(value) ? `[${value.map(pythonValue).join(', ')}]` : dict(value as Record<string, unknown>);
  const table = (comment: string, name: string, entries: [string, Record<string, unknown>][]) => [
    '',
    `# ${comment}`,
    `${name} = {`,
    ...entries.map(([key, value]) => `    ${literal(key)}: ${dict(value)},`),
    '}',
  ];
  const lines = [
    ...constantsOf(ids, (kind, key) => `${kind}_${upperSnake(key)}`).map(({ constant, value }) => `${constant} = ${literal(value)}`),
    ...table(
      'Each published email by key: its id, its data variables, and those a send may leave out (it has a fallback for them).',
      'TRANSACTIONAL_EMAILS',
      ids.transactional.map((email) => [
        email.key,
        { id: email.id, data_variables: email.dataVariables, optional_data_variables: email.optionalDataVariables },
      ]),
    ),
    ...table(
      'Each event by key: its name, and its properties with their types.',
      'EVENTS',
      ids.events.map((event) => [event.key, eventEntry(event)]),
    ),
    ...table(
      'Each contact property by key: its key in the API, and its type.',
      'CONTACT_PROPERTIES',
      ids.contactProperties.map((property) => [property.key, propertyEntry(property)]),
    ),
  ];
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

const GO_PREFIX: Record<Kind, string> = { TX: 'Tx', LIST: 'List', EVENT: 'Event', CONTACT_PROPERTY: 'ContactProperty' };

function go(ids: Ids): string {
  const constants = constantsOf(ids, (kind, key) => `${GO_PREFIX[kind]}${camel(key)}`).map(({ constant, value }) => `\t${constant} = ${literal(value)}`);
  const body = constants.length === 0 ? '' : `\nconst (\n${constants.join('\n')}\n)\n`;
  return `${HEADER('//')}\npackage loops\n${body}`;
}

/** A Ruby string: JSON's escapes, which Ruby's double quotes read alike, and `#` escaped so that nothing interpolates. */
const rubyString = (value: string) => literal(value).replace(/#/g, '\\#');

function ruby(ids: Ids): string {
  const lines = constantsOf(ids, (kind, key) => `${kind}_${upperSnake(key)}`).map(({ constant, value }) => `  ${constant} = ${rubyString(value)}.freeze`);
  return `${HEADER('#')}\nmodule Loops\n${lines.join('\n')}${lines.length === 0 ? '' : '\n'}end\n`;
}

/** The file for a format; `tree` keys the transactional emails a content tree holds by their directories' names. */
export function generateFormat(format: Format, input: TypesInput, tree: TreeKeys = new Map()): string {
  if (format === 'ts') return generateTypes(input);
  const ids = idsOf(input, tree);
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
