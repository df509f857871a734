/**
 * The TypeScript module `loopsctl types` writes: the account's published transactional emails
 * (ids and data variables), events (with their properties from the event patterns), contact
 * properties and mailing lists as `as const` objects, one record a line, sorted, so the same
 * account always makes the same bytes and a change shows as a changed line; and the types an
 * app's calls to the official SDK are checked with, derived from those objects.
 */
import { escapeUnsafeInJson } from '../../base/sanitize.js';
import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import type { EventPattern } from '../../platform/event-patterns/schemas.js';
import type { MailingList } from '../../platform/lists/schemas.js';
import { dataVariableVerdict, unstatedNote } from '../../platform/transactional/data-variables.js';
import type { TransactionalEmail } from '../../platform/transactional/schemas.js';
import { eventTypeDeclarations } from '../../platform/webhooks/typescript.js';

export interface TypesInput {
  transactional: TransactionalEmail[];
  /** The data-variable fallbacks of each published email's message, by the email's id. */
  dataVariablesFallbacks: Record<string, Readonly<Record<string, string | null>> | undefined>;
  eventPatterns: EventPattern[];
  contactProperties: ContactProperty[];
  mailingLists: MailingList[];
}

/** The sections of the module, each an object of entries: the unit `--check` compares by. */
export const SECTIONS = {
  transactionalEmails: 'transactional email',
  events: 'event',
  contactProperties: 'contact property',
  mailingLists: 'mailing list',
} as const;
export type Section = keyof typeof SECTIONS;

export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/**
 * A string as TypeScript, JSON, Python, Go and Ruby read it: JSON's escapes, and as \u escapes the
 * characters JSON leaves raw that a terminal or an editor acts on (DEL, C1 controls such as the
 * one-character CSI U+009B, the invisible format characters): the same string to each language,
 * and nothing a name in the account holds is written raw to a terminal, a diff or a review.
 */
export const quote = (text: string) => escapeUnsafeInJson(JSON.stringify(text));
const VALUE_TYPES = new Set(['string', 'number', 'boolean', 'date']);

/** How a key is told apart: by the record's id, then by a number. */
export interface KeyParts {
  withId: (key: string, id: string) => string;
  numbered: (key: string, number: number) => string;
}

const READABLE: KeyParts = { withId: (key, id) => `${key} (${id})`, numbered: (key, number) => `${key} #${number}` };

/** Whether a file written before names this record by this key: the key then stays the record's. */
export type Held<T> = (record: T, key: string) => boolean;

/**
 * A key that names the same record whatever else the account holds. A key no other record of the
 * kind has is its own; records sharing one are told apart by their ids (`Welcome (c1…)`), and a
 * key that would still meet another record's (a third record named `Welcome (c1…)`, two
 * properties of one key) is numbered until it meets none: unique by construction. With `held`,
 * the file written before keeps its names: a record it names by its own key or by that key with
 * its id keeps that key (an app imports it), so that a record added later whose key meets it is
 * the one told apart, and one removed leaves the others' keys as they were.
 */
export function uniqueKeys<T>(
  records: readonly T[],
  name: (record: T) => string,
  id: (record: T) => string,
  parts: KeyParts = READABLE,
  held?: Held<T>,
): string[] {
  const tally = (keys: readonly (string | undefined)[]) => {
    const counts = new Map<string | undefined, number>();
    for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts;
  };
  const claims = records.map((record) =>
    held === undefined ? undefined : [name(record), parts.withId(name(record), id(record))].find((key) => held(record, key)),
  );
  const claimed = tally(claims);
  const keys = claims.map((claim) => (claim !== undefined && claimed.get(claim) === 1 ? claim : undefined));
  const taken = new Set(keys.filter((key) => key !== undefined));
  const counts = tally(records.map(name));
  records.forEach((record, index) => {
    if (keys[index] !== undefined || counts.get(name(record)) !== 1 || taken.has(name(record))) return;
    keys[index] = name(record);
    taken.add(name(record));
  });
  const shared = records.map((record, index) => ({ record, index })).filter(({ index }) => keys[index] === undefined);
  shared.sort((a, b) => compare(name(a.record), name(b.record)) || compare(id(a.record), id(b.record)) || a.index - b.index);
  for (const { record, index } of shared) {
    const base = parts.withId(name(record), id(record));
    let key = base;
    for (let number = 2; taken.has(key); number++) key = parts.numbered(base, number);
    taken.add(key);
    keys[index] = key;
  }
  return keys as string[];
}

/** The id a module's entry holds (a mailing list's `"<id>"`, a transactional email's `{ id: "<id>", … }`), as written. */
const ENTRY_ID = /^(?:\{ id: )?("(?:[^"\\]|\\.)*")/;

/**
 * Entries by key, sorted by code unit, so that the same account always gives the same lines; a key
 * the module written before gives the record of that id (`written`, its section) stays its.
 */
function entries<T>(
  records: readonly T[],
  name: (record: T) => string,
  id: (record: T) => string,
  value: (record: T) => string,
  written?: ReadonlyMap<string, string>,
): [string, string][] {
  const held = written && ((record: T, key: string) => ENTRY_ID.exec(written.get(key) ?? '')?.[1] === quote(id(record)));
  const keys = uniqueKeys(records, name, id, READABLE, held);
  return records.map((record, index): [string, string] => [keys[index]!, value(record)]).sort(([a], [b]) => compare(a, b));
}

/** A key as the module writes it: `"__proto__"` computed, so that it is a key and never sets a prototype. */
const keyText = (key: string) => (key === '__proto__' ? `[${quote(key)}]` : quote(key));

/** Each section's entries; `written`, the sections of the module written before, keeps the keys it gives records whose names meet (an email's, a list's). */
export function sectionEntries(input: TypesInput, written?: Record<Section, Map<string, string>>): Record<Section, [string, string][]> {
  const published = input.transactional.filter((email) => email.publishedEmailMessageId !== null);
  const typeOf = (type: string) => quote(VALUE_TYPES.has(type) ? type : 'string');
  return {
    transactionalEmails: entries(
      published,
      (email) => email.name,
      (email) => email.id,
      (email) => {
        const names = (variables: readonly string[]) => `[${[...variables].sort(compare).map(quote).join(', ')}]`;
        const { optional } = dataVariableVerdict(email.dataVariables, { fallbacks: input.dataVariablesFallbacks[email.id] });
        return `{ id: ${quote(email.id)}, dataVariables: ${names(email.dataVariables)}${optional.length === 0 ? '' : `, optionalDataVariables: ${names(optional)}`} }`;
      },
      written?.transactionalEmails,
    ),
    events: entries(
      input.eventPatterns,
      (pattern) => pattern.eventName,
      (pattern) => pattern.id,
      (pattern) => {
        const properties = [...pattern.eventProperties].sort((a, b) => compare(a.name, b.name));
        return `{ properties: { ${properties.map((property) => `${keyText(property.name)}: ${typeOf(property.type)}`).join(', ')} } }`.replace('{  }', '{}');
      },
    ),
    contactProperties: entries(
      input.contactProperties,
      (property) => property.key,
      (property) => property.key,
      (property) => typeOf(property.type),
    ),
    mailingLists: entries(
      input.mailingLists,
      (list) => list.name,
      (list) => list.id,
      (list) => quote(list.id),
      written?.mailingLists,
    ),
  };
}

const HEADER = `// The Loops account's transactional emails, events, contact properties and
// mailing lists, as \`loopsctl types\` read them. Do not edit: run
// \`loopsctl types --out <this file>\` again, and \`... --check\` in CI.
`;

/** What the module says of a variable with no fallback, in the words every part of loopsctl uses. */
const UNSTATED = unstatedNote(['it']);

/** Written once, before the objects: each is made without a prototype. */
const HELPER = `
/** Records by name in an object without a prototype: any name ("constructor", "__proto__") is a key like the others. */
function withoutPrototype<T extends object>(records: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, records));
}
`;

/** The types over the objects: written once, the same for every account. */
const TYPES = `
/** A value of a property of this type, as the API takes it (a date as an ISO 8601 string or a timestamp). */
export type ValueOf<T> = T extends 'number' ? number : T extends 'boolean' ? boolean : T extends 'date' ? string | number : string;

export type TransactionalEmailName = keyof typeof transactionalEmails;
export type TransactionalId = (typeof transactionalEmails)[TransactionalEmailName]['id'];
/** The email with this id. */
export type TransactionalEmailOf<Id extends TransactionalId> = {
  [Name in TransactionalEmailName]: (typeof transactionalEmails)[Name] extends { id: Id } ? (typeof transactionalEmails)[Name] : never;
}[TransactionalEmailName];
/** The variables of the email with this id that a send may leave out: those it has a fallback for. */
export type OptionalDataVariableOf<Id extends TransactionalId> = TransactionalEmailOf<Id> extends { optionalDataVariables: readonly (infer Variable extends string)[] } ? Variable : never;
/** The variables a send must give. For each, ${UNSTATED}. */
export type RequiredDataVariableOf<Id extends TransactionalId> = Exclude<TransactionalEmailOf<Id>['dataVariables'][number], OptionalDataVariableOf<Id>>;
/** The data variables the published email with this id shows: the required ones, and the optional ones if given. */
export type DataVariables<Id extends TransactionalId> = { [Variable in RequiredDataVariableOf<Id>]: string | number } & {
  [Variable in OptionalDataVariableOf<Id>]?: string | number;
};

export type EventName = keyof typeof events;
export type EventProperties<Event extends EventName> = {
  [Property in keyof (typeof events)[Event]['properties']]?: ValueOf<(typeof events)[Event]['properties'][Property]>;
};

export type ContactPropertyName = keyof typeof contactProperties;
export type ContactProperties = { [Property in ContactPropertyName]?: ValueOf<(typeof contactProperties)[Property]> | null };

export type MailingListName = keyof typeof mailingLists;
export type MailingListId = (typeof mailingLists)[MailingListName];

/**
 * What the official SDK's \`sendTransactionalEmail\` takes: an email's id, and exactly the data variables
 * it shows (without a type argument, a union over the emails, told apart by transactionalId).
 * \`loops.sendTransactionalEmail({ ... } satisfies SendTransactionalEmailParams)\`
 */
export type SendTransactionalEmailParams<Id extends TransactionalId = TransactionalId> = Id extends TransactionalId ? {
  transactionalId: Id;
  email: string;
  addToAudience?: boolean;
  attachments?: { filename: string; contentType: string; data: string }[];
  headers?: Record<string, string>;
} & ([TransactionalEmailOf<Id>['dataVariables'][number]] extends [never]
  ? { dataVariables?: Record<string, never> }
  : [RequiredDataVariableOf<Id>] extends [never]
    ? { dataVariables?: DataVariables<Id> }
    : { dataVariables: DataVariables<Id> }) : never;

/** What the official SDK's \`sendEvent\` takes, for one event. */
export type SendEventParams<Event extends EventName = EventName> = {
  eventName: Event;
  email?: string;
  userId?: string;
  eventProperties?: EventProperties<Event>;
  contactProperties?: ContactProperties;
  mailingLists?: { [Id in MailingListId]?: boolean };
};
`;

/**
 * The platform's webhook events, the same for every account: what an app's handler receives,
 * `loopsctl/webhooks`'s own types without its `known` mark (an app that verifies by hand gets the
 * payloads as sent).
 */
const WEBHOOK_EVENTS = `
// The platform's webhook events, as their payloads arrive (loopsctl/webhooks declares the same, parsed).

${eventTypeDeclarations('LoopsWebhookEvent')}
export type LoopsWebhookEventName = LoopsWebhookEvent['eventName'];
`;

/** The module's text; `written`, the module written before, keeps the keys it gives. */
export function generateTypes(input: TypesInput, written?: string): string {
  const sections = sectionEntries(input, written === undefined ? undefined : readSections(written));
  const objects = (Object.keys(SECTIONS) as Section[]).map((section) => {
    const lines = sections[section].map(([key, value]) => `  ${keyText(key)}: ${value},`);
    return `export const ${section} = withoutPrototype({${lines.length === 0 ? '' : `\n${lines.join('\n')}\n`}} as const);`;
  });
  return `${HEADER}${HELPER}\n${objects.join('\n\n')}\n${TYPES}${WEBHOOK_EVENTS}`;
}

const SECTION_START = /^export const (\w+) = (?:withoutPrototype\()?\{$/;
const ENTRY = /^ {2}\[?("(?:[^"\\]|\\.)*")\]?: (.*),$/;

/** The entries of a module this command wrote (now or before its objects lost their prototypes), by section; undefined for a file it did not write. */
export function readSections(text: string): Record<Section, Map<string, string>> | undefined {
  if (!text.startsWith(HEADER)) return undefined;
  const found = Object.fromEntries((Object.keys(SECTIONS) as Section[]).map((section) => [section, new Map<string, string>()])) as Record<
    Section,
    Map<string, string>
  >;
  let current: Section | undefined;
  for (const line of text.split('\n')) {
    const start = SECTION_START.exec(line);
    if (start !== null && start[1]! in SECTIONS) current = start[1] as Section;
    else if (line.startsWith('}')) current = undefined;
    else if (current !== undefined) {
      const entry = ENTRY.exec(line);
      if (entry !== null) found[current].set(JSON.parse(entry[1]!) as string, entry[2]!);
    }
  }
  return found;
}

/** What differs between the file and the account, one line each: `transactional email "Welcome": changed in the account`. */
export function drift(file: Record<Section, Map<string, string>>, account: Record<Section, [string, string][]>): string[] {
  const lines: string[] = [];
  for (const section of Object.keys(SECTIONS) as Section[]) {
    const now = new Map(account[section]);
    const noun = SECTIONS[section];
    for (const [key, value] of now) {
      const before = file[section].get(key);
      if (before === undefined) lines.push(`${noun} ${quote(key)}: in the account, not in the file`);
      else if (before !== value) lines.push(`${noun} ${quote(key)}: the file has ${before}, the account ${value}`);
    }
    for (const key of file[section].keys()) if (!now.has(key)) lines.push(`${noun} ${quote(key)}: in the file, no longer in the account`);
  }
  return lines;
}
