/**
 * `loopsctl types --format json|env|py|go|rb`: the ids an app needs, per environment, and the
 * events and contact properties it sends. Each record's key is the same in every account: a
 * transactional email's is its directory's name in the content tree (`password-reset`, without the
 * `--<id>` a pull ends it with) where a tree is at hand, else its name's slug, which is what a pull
 * names the directory; a list's and an event's are their names' slugs, a property's its key's
 * (`firstName` → `first-name`). Staging's file and production's then differ only in their values;
 * records whose keys meet are told apart by what names them in every account (`nameDigest`), and the
 * file written before keeps the names it gives (`heldIn`), which an app imports. Every value is written as its language reads
 * a string (JSON's escapes, which Python and Go read alike; Ruby's with `#` escaped, which would
 * interpolate; env values in single quotes, as dotenv loaders and the shell read them without
 * expansion). One record a line, in code-unit order of the keys. Python and Go have types, and
 * their files typed helpers for the sends too (pythonHelpers, goHelpers); Ruby has none, and its
 * file constants only.
 */
import { LocalFileError } from '../../base/errors.js';
import { escapeUnsafeInJson } from '../../base/sanitize.js';
import { EVENT_SEND } from '../../platform/events/resource.js';
import { requestLine } from '../../platform/operation-row.js';
import type { ConstantName } from '../../platform/record-kinds.js';
import { TRANSACTIONAL_SEND } from '../../platform/transactional/resource.js';
import { generateTypes, quote, type TypesInput, uniqueKeys } from './generate.js';
import { type HeldKey, type Ids, idsOf, type Keyed, nameDigest, type TreeKeys } from './ids.js';

export const FORMATS = ['ts', 'json', 'env', 'py', 'go', 'rb'] as const;
export type Format = (typeof FORMATS)[number];

/** A key as a constant's name: `password-reset--c1` → `PASSWORD_RESET__C1`. */
const upperSnake = (key: string) => key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
/** A key as Go's exported name: `password-reset` → `PasswordReset`. */
const camel = (key: string) =>
  key
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** The constant names of each kind's records, in the order of `ids`. */
interface Names {
  tx: string[];
  lists: string[];
  events: string[];
  contactProperties: string[];
}

/** A way of naming a record in a format: its constant, or one of the helpers written for it (none for this kind: undefined). */
type Naming = (kind: ConstantName, key: string) => string | undefined;

/** How a format declares each record's constant: its name, from the record's key, and its line, which holds the value. */
interface Declaring {
  name: (kind: ConstantName, key: string) => string;
  line: (constant: string, value: string) => string;
}

/** A constant's line as compared with the file written before: without the indent, and one space before its `=` (Go aligns them). */
const declared = (line: string) => line.trim().replace(/^(\w+) +=/, '$1 =');

/**
 * The keys the file written before in this format gives its records: a record whose constant, by
 * this key, is declared there with its value. Every line of the file is a candidate, so a file
 * of another format, or not written by loopsctl, keeps none.
 */
function heldIn(written: string, declaring: Declaring): HeldKey {
  const lines = new Set(written.split('\n').map(declared));
  return (kind, key, value) => lines.has(declared(declaring.line(declaring.name(kind, key), value)));
}

/**
 * The names of a format's records, one list per naming (its constants, then each helper's), that
 * must all differ after a key became a name (`a-b` and `a_b`, two directories of the tree, both
 * give `A_B`; a helper's `TxABData` may meet another record's constant): keys are unique, every
 * name a format declares is checked against every other, and two that meet stop the command
 * naming both records.
 */
function names(ids: Ids, ...namings: Naming[]): Names[] {
  const kinds: [ConstantName, Keyed[]][] = [
    ['TX', ids.transactional],
    ['LIST', ids.lists],
    ['EVENT', ids.events],
    ['CONTACT_PROPERTY', ids.contactProperties],
  ];
  const seen = new Map<string, Keyed>();
  return namings.map((name) => {
    const [tx, lists, events, contactProperties] = kinds.map(([kind, records]) =>
      records.map((record) => {
        const constant = name(kind, record.key);
        if (constant === undefined) return '';
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
  });
}

const HEADER = (comment: string) =>
  [
    `The Loops account's published transactional emails, mailing lists, events and contact properties, as \`loopsctl types\` read them.`,
    'Do not edit: run it again, and `... --check` in CI.',
  ]
    .map((line) => `${comment} ${line}`)
    .join('\n');

interface Constant {
  constant: string;
  value: string;
  kind: ConstantName;
  record: Keyed;
}

/**
 * Every record's constant and value, kind by kind (an email's and a list's id, an event's and a
 * property's name), and the names of the helpers `helpers` name, checked with the constants.
 */
function constantsOf(ids: Ids, name: Naming, ...helpers: Naming[]): { constants: Constant[]; names: Names[] } {
  const all = names(ids, name, ...helpers);
  const constant = all[0]!;
  return {
    constants: [
      ...ids.transactional.map((record, index) => ({ constant: constant.tx[index]!, value: record.id, kind: 'TX' as const, record })),
      ...ids.lists.map((record, index) => ({ constant: constant.lists[index]!, value: record.id, kind: 'LIST' as const, record })),
      ...ids.events.map((record, index) => ({ constant: constant.events[index]!, value: record.name, kind: 'EVENT' as const, record })),
      ...ids.contactProperties.map((record, index) => ({
        constant: constant.contactProperties[index]!,
        value: record.name,
        kind: 'CONTACT_PROPERTY' as const,
        record,
      })),
    ],
    names: all,
  };
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
  // The values as JSON writes them, with what it leaves raw that a terminal acts on escaped (quote()).
  return escapeUnsafeInJson(
    `{\n${Object.entries(sections)
      .map(([name, entries]) => `  ${quote(name)}: ${section(entries)}`)
      .join(',\n')}\n}\n`,
  );
}

/**
 * What a dotenv value in single quotes cannot hold: they are read as they stand, to the next quote,
 * on one line, with no escapes; so neither a control character nor an invisible format character,
 * which would reach a terminal or an editor raw.
 */
const NOT_IN_ENV = /['\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;

const ENV: Declaring = { name: (kind, key) => `LOOPS_${kind}_${upperSnake(key)}`, line: (constant, value) => `${constant}='${value}'` };

/**
 * A dotenv line per record, its value in single quotes (no expansion). An id that cannot be so
 * written is refused; an event or property whose name cannot is left out, a comment saying so.
 */
function env(ids: Ids): string {
  const lines = constantsOf(ids, ENV.name).constants.map(({ constant, value, kind, record }) => {
    if (!NOT_IN_ENV.test(value)) return ENV.line(constant, value);
    if (kind === 'TX' || kind === 'LIST')
      throw new LocalFileError(`the id of ${record.label} cannot be written in an env file: ${quote(value)}`, { hint: 'use --format json' });
    return `# ${constant} left out: its name holds a quote, a line break or another control character, which an env file cannot (--format json has it)`;
  });
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

/** What a Python type checker takes for a value of a property of this type (a date: an ISO 8601 string or a timestamp), and for a data variable's. */
const PYTHON_TYPES: Record<string, string> = { string: 'str', number: 'float', boolean: 'bool', date: 'str | int' };
const PYTHON_VARIABLE = 'str | float';

/** A TypedDict in the functional form, which takes any key (`class`, `first-name`) as a string. */
const typedDict = (name: string, fields: [string, string][], total = true) =>
  `${name} = TypedDict(${quote(name)}, {${fields.map(([key, type]) => `${quote(key)}: ${type}`).join(', ')}}${total ? '' : ', total=False'})`;

/**
 * The typed helpers of the Python module (3.11 or later, for `NotRequired`): a TypedDict of each
 * email's data variables (optional ones `NotRequired`, as the TypeScript module decides them) and
 * a function that gives a send's keyword arguments, so that a type checker (mypy, pyright) refuses
 * a missing or misspelt variable; the same for each event's properties (all optional); and the
 * contact properties with their types. One record a line, so that `--check` names what changed.
 */
function pythonHelpers(ids: Ids, [constant, classes, functions]: Names[]): string[] {
  const send = (name: string, fields: string, comment: string) => ['', `# ${comment}`, `${name} = TypedDict(${quote(name)}, {${fields}})`];
  return [
    ...send(
      'TransactionalSend',
      '"transactional_id": str, "email": str, "data_variables": Mapping[str, object]',
      "The keyword arguments of a transactional send, in the SDKs' snake_case: each email's function below gives them.",
    ),
    ...send(
      'EventSend',
      '"event_name": str, "email": str, "event_properties": Mapping[str, object]',
      "The keyword arguments of an event send, in the SDKs' snake_case: each event's function below gives them.",
    ),
    '',
    '# The contact properties by their keys in the API, with their types (None clears one).',
    typedDict(
      'ContactProperties',
      ids.contactProperties.map((property) => [property.name, `${PYTHON_TYPES[property.type]} | None`]),
      false,
    ),
    ...ids.transactional.flatMap((email, index) => {
      const optional = new Set(email.optionalDataVariables);
      const required = email.dataVariables.some((variable) => !optional.has(variable));
      const type = classes!.tx[index]!;
      return [
        '',
        typedDict(
          type,
          email.dataVariables.map((variable) => [variable, optional.has(variable) ? `NotRequired[${PYTHON_VARIABLE}]` : PYTHON_VARIABLE]),
        ),
        `def ${functions!.tx[index]}(email: str, data_variables: ${required ? type : `${type} | None = None`}) -> TransactionalSend:`,
        `    return {"transactional_id": ${constant!.tx[index]}, "email": email, "data_variables": data_variables${required ? '' : ' or {}'}}`,
      ];
    }),
    ...ids.events.flatMap((event, index) => {
      const type = classes!.events[index]!;
      return [
        '',
        typedDict(
          type,
          event.properties.map(([property, kind]) => [property, PYTHON_TYPES[kind]!]),
          false,
        ),
        `def ${functions!.events[index]}(email: str, event_properties: ${type} | None = None) -> EventSend:`,
        `    return {"event_name": ${constant!.events[index]}, "email": email, "event_properties": event_properties or {}}`,
      ];
    }),
  ];
}

/** The Python helpers' names: a class `TxPasswordResetData` or `EventTrialStartedProperties`, as Go names its structs, and a function `tx_password_reset`, the constant's name in lower case. */
const PYTHON_CLASS: Naming = (kind, key) => (kind === 'TX' ? `Tx${camel(key)}Data` : kind === 'EVENT' ? `Event${camel(key)}Properties` : undefined);
const PYTHON_FUNCTION: Naming = (kind, key) => (kind === 'TX' || kind === 'EVENT' ? `${kind}_${upperSnake(key)}`.toLowerCase() : undefined);

const PYTHON: Declaring = { name: (kind, key) => `${kind}_${upperSnake(key)}`, line: (constant, value) => `${constant} = ${quote(value)}` };

function python(ids: Ids): string {
  const dict = (value: Record<string, unknown>) =>
    `{${Object.entries(value)
      .map(([key, entry]) => `${quote(key)}: ${pythonValue(entry)}`)
      .join(', ')}}`;
  const pythonValue = (value: unknown): string =>
    typeof value === 'string' ? quote(value) : Array.isArray(value) ? `[${value.map(pythonValue).join(', ')}]` : dict(value as Record<string, unknown>);
  const table = (comment: string, name: string, entries: [string, Record<string, unknown>][]) => [
    '',
    `# ${comment}`,
    `${name} = {`,
    ...entries.map(([key, value]) => `    ${quote(key)}: ${dict(value)},`),
    '}',
  ];
  const { constants, names: helperNames } = constantsOf(ids, PYTHON.name, PYTHON_CLASS, PYTHON_FUNCTION);
  const lines = [
    'from collections.abc import Mapping',
    'from typing import NotRequired, TypedDict',
    '',
    ...constants.map(({ constant, value }) => PYTHON.line(constant, value)),
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
    ...pythonHelpers(ids, helperNames),
  ];
  return `${HEADER('#')}\n${lines.join('\n')}\n`;
}

const GO_PREFIX: Record<ConstantName, string> = { TX: 'Tx', LIST: 'List', EVENT: 'Event', CONTACT_PROPERTY: 'ContactProperty' };

/** A name encoding/json takes in a struct tag (its isValidTag): letters, digits and these marks; a field of any other name is left out. */
const JSON_TAG = /^(?:[\p{L}\p{Nd}]|[!#$%&()*+\-./:;<=>?@[\]^_{|}~ ])+$/u;
/** A property's value in Go: a pointer, so that a zero or false is sent and nil left out (a date: an ISO 8601 string). */
const GO_TYPES: Record<string, string> = { string: '*string', number: '*float64', boolean: '*bool', date: '*string' };
const GO_STRUCT: Naming = (kind, key) => (kind === 'TX' ? `Tx${camel(key)}Data` : kind === 'EVENT' ? `Event${camel(key)}Properties` : undefined);
/** A field's exported name: `resetUrl` → `ResetUrl`; never `Payload`, the method's. */
const goField = (name: string) => {
  const field = /^[A-Z]/.test(camel(name)) ? camel(name) : `V${camel(name)}`;
  return field === 'Payload' ? 'PayloadValue' : field;
};

/**
 * A struct of these fields (a name in the API, its Go type, whether a send may leave it out), as
 * gofmt lays it out, after comments naming those a json tag cannot hold. Fields whose names meet
 * (`first_name`, `firstName`) are told apart by a digest of the name, as keys are.
 */
function goStruct(name: string, comment: string, entries: [string, string, boolean][]): string[] {
  const usable = entries.filter(([field]) => JSON_TAG.test(field));
  const fieldNames = uniqueKeys(
    usable,
    ([field]) => goField(field),
    ([field]) => nameDigest(field),
    {
      withId: (key, digest) => `${key}_${digest}`,
      numbered: (key, number) => `${key}_${number}`,
    },
  );
  const fields = usable.map(([field, type, omit], index) => [fieldNames[index]!, type, `\`json:"${field}${omit ? ',omitempty' : ''}"\``] as const);
  const width = (column: 0 | 1) => Math.max(...fields.map((field) => field[column].length));
  return [
    '',
    `// ${name} ${comment}`,
    ...entries.filter(([field]) => !JSON_TAG.test(field)).map(([field]) => `// ${quote(field)} is left out: a json tag cannot hold its name.`),
    ...(fields.length === 0
      ? [`type ${name} struct{}`]
      : [`type ${name} struct {`, ...fields.map(([field, type, tag]) => `\t${field.padEnd(width(0))} ${type.padEnd(width(1))} ${tag}`), '}']),
  ];
}

const GO_SENDS = `
// SendTransactionalPayload is the body of a transactional send (${requestLine(TRANSACTIONAL_SEND.operations.sendTransactionalEmail)}), as json.Marshal writes it.
type SendTransactionalPayload struct {
\tTransactionalID string \`json:"transactionalId"\`
\tEmail           string \`json:"email"\`
\tDataVariables   any    \`json:"dataVariables"\`
}

// SendEventPayload is the body of an event send (${requestLine(EVENT_SEND.operations.sendEvent)}); the contact properties it sets are written beside its fields.
type SendEventPayload struct {
\tEventName       string \`json:"eventName"\`
\tEmail           string \`json:"email"\`
\tEventProperties any    \`json:"eventProperties"\`
\t*ContactProperties
}`;

/**
 * The typed helpers of the Go package: a struct of each email's data variables with json tags
 * (those a send may leave out `omitempty`) whose `Payload(email)` gives the send's body, so that
 * the compiler refuses a misspelt variable; the same for each event's properties; and the contact
 * properties with their types, which an event's payload may carry.
 */
function goHelpers(ids: Ids, [constant, structs]: Names[]): string {
  const payload = (struct: string, type: string, sent: string, fields: string) => [
    '',
    `// Payload is the body of a send of ${sent} to email.`,
    `func (d ${struct}) Payload(email string) ${type} {`,
    `\treturn ${type}{${fields}}`,
    '}',
  ];
  return [
    GO_SENDS,
    ...goStruct(
      'ContactProperties',
      'holds the contact properties by their keys in the API; a nil one is left out.',
      ids.contactProperties.map((property) => [property.name, GO_TYPES[property.type]!, true]),
    ),
    ...ids.transactional.flatMap((email, index) => {
      const optional = new Set(email.optionalDataVariables);
      const struct = structs!.tx[index]!;
      return [
        ...goStruct(
          struct,
          `holds the data variables of ${constant!.tx[index]}; those with omitempty may be left out.`,
          email.dataVariables.map((variable) => [variable, 'string', optional.has(variable)]),
        ),
        ...payload(struct, 'SendTransactionalPayload', constant!.tx[index]!, `TransactionalID: ${constant!.tx[index]}, Email: email, DataVariables: d`),
      ];
    }),
    ...ids.events.flatMap((event, index) => {
      const struct = structs!.events[index]!;
      return [
        ...goStruct(
          struct,
          `holds the properties of ${constant!.events[index]}; a nil one is left out.`,
          event.properties.map(([property, type]) => [property, GO_TYPES[type]!, true]),
        ),
        ...payload(struct, 'SendEventPayload', constant!.events[index]!, `EventName: ${constant!.events[index]}, Email: email, EventProperties: d`),
      ];
    }),
  ]
    .join('\n')
    .concat('\n');
}

const GO: Declaring = { name: (kind, key) => `${GO_PREFIX[kind]}${camel(key)}`, line: (constant, value) => `\t${constant} = ${quote(value)}` };

function go(ids: Ids): string {
  const { constants, names: helperNames } = constantsOf(ids, GO.name, GO_STRUCT);
  // As gofmt aligns them, so that the file is as `gofmt -l` wants it.
  const width = Math.max(0, ...constants.map(({ constant }) => constant.length));
  const lines = constants.map(({ constant, value }) => GO.line(constant.padEnd(width), value));
  const body = lines.length === 0 ? '' : `\nconst (\n${lines.join('\n')}\n)\n`;
  return `${HEADER('//')}\npackage loops\n${body}${goHelpers(ids, helperNames)}`;
}

/** A Ruby string: quote()'s escapes, which Ruby's double quotes read alike, and `#` escaped so that nothing interpolates. */
const rubyString = (value: string) => quote(value).replace(/#/g, '\\#');

const RUBY: Declaring = { name: PYTHON.name, line: (constant, value) => `  ${constant} = ${rubyString(value)}.freeze` };

function ruby(ids: Ids): string {
  const lines = constantsOf(ids, RUBY.name).constants.map(({ constant, value }) => RUBY.line(constant, value));
  return `${HEADER('#')}\nmodule Loops\n${lines.join('\n')}${lines.length === 0 ? '' : '\n'}end\n`;
}

/** A json file's entries' values as their constants would hold them, by section and key: what the file written before keeps. */
function heldInJson(written: string): HeldKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(written);
  } catch {
    return () => false;
  }
  const sections: Record<ConstantName, [string, string]> = {
    TX: ['transactionalEmails', 'id'],
    LIST: ['mailingLists', ''],
    EVENT: ['events', 'name'],
    CONTACT_PROPERTY: ['contactProperties', 'key'],
  };
  const own = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  return (kind, key, value) => {
    const [section, field] = sections[kind];
    const entry = own(own(parsed, section), key);
    return (field === '' ? entry : own(entry, field)) === value;
  };
}

const DECLARING: Record<Exclude<Format, 'ts' | 'json'>, Declaring> = { env: ENV, py: PYTHON, go: GO, rb: RUBY };

/**
 * The file for a format; `tree` keys the transactional emails a content tree holds by their
 * directories' names, and `written`, the file written before, keeps the keys it gives records.
 */
export function generateFormat(format: Format, input: TypesInput, tree: TreeKeys = new Map(), written?: string): string {
  if (format === 'ts') return generateTypes(input, written);
  const held = written === undefined ? undefined : format === 'json' ? heldInJson(written) : heldIn(written, DECLARING[format]);
  const ids = idsOf(input, tree, held);
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
