/**
 * The TypeScript module `loopsctl types` writes: the account's published transactional emails
 * (ids and data variables), events (with their properties from the event patterns), contact
 * properties and mailing lists as `as const` objects, one record a line, sorted, so the same
 * account always makes the same bytes and a change shows as a changed line; and the types an
 * app's calls to the official SDK are checked with, derived from those objects.
 */
import type { ContactProperty } from '../../platform/contact-properties/schemas.js';
import type { EventPattern } from '../../platform/event-patterns/schemas.js';
import type { MailingList } from '../../platform/lists/schemas.js';
import type { TransactionalEmail } from '../../platform/transactional/schemas.js';

export interface TypesInput {
  transactional: TransactionalEmail[];
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

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const quote = (text: string) => JSON.stringify(text);
const VALUE_TYPES = new Set(['string', 'number', 'boolean', 'date']);

/** Entries by key, sorted; a name two records share gets each one's id after it, so no key is lost. */
function entries<T>(records: readonly T[], name: (record: T) => string, id: (record: T) => string, value: (record: T) => string): [string, string][] {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(name(record), (counts.get(name(record)) ?? 0) + 1);
  return records
    .map((record): [string, string] => [counts.get(name(record))! > 1 ? `${name(record)} (${id(record)})` : name(record), value(record)])
    .sort(([a], [b]) => compare(a, b));
}

export function sectionEntries(input: TypesInput): Record<Section, [string, string][]> {
  const published = input.transactional.filter((email) => email.publishedEmailMessageId !== null);
  const typeOf = (type: string) => quote(VALUE_TYPES.has(type) ? type : 'string');
  return {
    transactionalEmails: entries(
      published,
      (email) => email.name,
      (email) => email.id,
      (email) => `{ id: ${quote(email.id)}, dataVariables: [${[...email.dataVariables].sort(compare).map(quote).join(', ')}] }`,
    ),
    events: entries(
      input.eventPatterns,
      (pattern) => pattern.eventName,
      (pattern) => pattern.id,
      (pattern) => {
        const properties = [...pattern.eventProperties].sort((a, b) => compare(a.name, b.name));
        return `{ properties: { ${properties.map((property) => `${quote(property.name)}: ${typeOf(property.type)}`).join(', ')} } }`.replace('{  }', '{}');
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
    ),
  };
}

const HEADER = `// The Loops account's transactional emails, events, contact properties and
// mailing lists, as \`loopsctl types\` read them. Do not edit: run
// \`loopsctl types --out <this file>\` again, and \`... --check\` in CI.
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
/** The data variables the published email with this id shows, every one of them. */
export type DataVariables<Id extends TransactionalId> = { [Variable in TransactionalEmailOf<Id>['dataVariables'][number]]: string | number };

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
} & ([TransactionalEmailOf<Id>['dataVariables'][number]] extends [never] ? { dataVariables?: Record<string, never> } : { dataVariables: DataVariables<Id> }) : never;

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

/** The module's text. */
export function generateTypes(input: TypesInput): string {
  const sections = sectionEntries(input);
  const objects = (Object.keys(SECTIONS) as Section[]).map((section) => {
    const lines = sections[section].map(([key, value]) => `  ${quote(key)}: ${value},`);
    return lines.length === 0 ? `export const ${section} = {} as const;` : `export const ${section} = {\n${lines.join('\n')}\n} as const;`;
  });
  return `${HEADER}\n${objects.join('\n\n')}\n${TYPES}`;
}

/** The entries of a module this command wrote, by section; undefined for a file it did not write. */
export function readSections(text: string): Record<Section, Map<string, string>> | undefined {
  if (!text.startsWith(HEADER)) return undefined;
  const found = Object.fromEntries((Object.keys(SECTIONS) as Section[]).map((section) => [section, new Map<string, string>()])) as Record<
    Section,
    Map<string, string>
  >;
  let current: Section | undefined;
  for (const line of text.split('\n')) {
    const start = /^export const (\w+) = \{$/.exec(line);
    if (start !== null && start[1]! in SECTIONS) current = start[1] as Section;
    else if (line === '} as const;') current = undefined;
    else if (current !== undefined) {
      const entry = /^ {2}("(?:[^"\\]|\\.)*"): (.*),$/.exec(line);
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
