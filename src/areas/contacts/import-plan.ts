/**
 * What `contacts import` settles before the first contact is sent, for an export from another
 * provider: the properties its columns need (created with --create-properties, typed from the
 * values seen), the lists its lists column names (each one the account has), and the addresses
 * of the old provider's suppression export (--exclude).
 */
import type { ApiClient } from '../../api/client.js';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { openInput } from '../../core/bulk.js';
import { type CsvRow, CsvSyntaxError, csvRows } from '../../core/csv.js';
import type { Runtime } from '../../core/runtime.js';
import type { ContactProperty, PropertyType } from '../../platform/contact-properties/schemas.js';
import { camelCaseName, PROPERTY_NAME, RESERVED_PROPERTY_NAMES } from '../../platform/contact-properties/typing.js';
import { shellWord } from '../../render/shell-word.js';
import { createContactProperty } from '../contact-properties/client.js';
import { MailingListNames } from '../lists/names.js';
import {
  columnTargets,
  columnWords,
  emailColumn,
  headerWords,
  isPlainHeader,
  listNames,
  type PresetName,
  standardField,
  type Target,
  TypeGuess,
} from './mapping.js';

/** How the header's columns are read: the flags that map them, and what the plan settled. */
export interface Mapping {
  maps: Map<string, Target>;
  preset: PresetName | undefined;
  listsColumn: string | undefined;
  /** Properties created (or, in a dry run, to be created) for the file's columns. */
  planned: Map<string, PropertyType>;
  /** List names and ids (lower case) to the list's id. */
  lists: Map<string, string>;
  /** Whether how the columns are read has been said already (before the properties were created). */
  announced?: boolean;
}

/**
 * A column's field or property as the mapping names it; undefined when the column is left out. A
 * column no flag or preset names is read by its own name, made camelCase when it is words joined
 * by separators (`loyalty_tier`, `loyalty-tier`, `Loyalty Tier` are `loyaltyTier`). One word keeps
 * its case (`Plan` is no `plan`: a property's name counts case), but in a provider's export, whose
 * columns are its own spelling of names (SendGrid's `CITY`, Brevo's `SMS`), it is made camelCase too.
 */
export function targetName(column: string, target: Target | undefined, fromProvider = false): string | undefined {
  if (target !== undefined) return target.name;
  const standard = standardField(column);
  if (standard !== undefined) return standard;
  if (PROPERTY_NAME.test(column) || (!fromProvider && !/[\p{L}\p{N}][\s_-]+[\p{L}\p{N}]/u.test(column))) return column;
  const camel = camelCaseName(column);
  return camel === '' ? column : (standardField(camel) ?? camel);
}

async function* rowsOf(runtime: Pick<Runtime, 'stdin'>, file: string): AsyncGenerator<CsvRow> {
  try {
    yield* csvRows(openInput(runtime, file));
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new LocalFileError(`${file}: line ${error.line}: ${error.reason}`);
    throw error;
  }
}

/**
 * Reads the file once before anything is sent: the values of each column that would need a new
 * property (for its type), and every list its lists column names. Needs a file, not stdin.
 */
export async function planImport(
  runtime: Pick<Runtime, 'stdin'>,
  input: string,
  mapping: Mapping,
  known: Map<string, ContactProperty>,
  options: { createProperties: boolean },
): Promise<{ header: CsvRow | undefined; create: Map<string, PropertyType>; listNames: Map<string, number> }> {
  if (input === '-') throw new UsageError('--create-properties and --lists-column read the file before the import: give a file, not stdin');
  const guesses = new Map<number, { header: string; name: string; guess: TypeGuess }>();
  const lists = new Map<string, number>();
  let listsIndex = -1;
  let header: CsvRow | undefined;
  for await (const row of rowsOf(runtime, input)) {
    if (header === undefined) {
      header = row;
      const targets = columnTargets(row.fields, mapping.maps, mapping.preset, input);
      listsIndex = row.fields.findIndex((raw) => raw.trim() === mapping.listsColumn);
      row.fields.forEach((raw, index) => {
        const name = targetName(raw.trim(), targets[index], mapping.preset !== undefined);
        if (index === listsIndex || name === undefined || standardField(name) !== undefined || known.has(name)) return;
        if (options.createProperties) guesses.set(index, { header: raw.trim(), name: propertyName(raw.trim(), name, index, input), guess: new TypeGuess() });
      });
      continue;
    }
    for (const [index, { guess }] of guesses) guess.add(row.fields[index] ?? '', row.line);
    if (listsIndex >= 0) for (const name of listNames(row.fields[listsIndex] ?? '')) if (!lists.has(name)) lists.set(name, row.line);
  }
  for (const [index, { header: column, name, guess }] of guesses) {
    const kinds = guess.mixed;
    if (kinds === undefined) continue;
    const [first, second] = kinds;
    const quoted = (value: string) => (isPlainHeader(value) ? ` ("${value}")` : '');
    throw new UsageError(
      `${input}: line ${second!.line}: ${columnWords(column, index)} holds ${first!.kind} (line ${first!.line}${quoted(first!.value)}) and ${second!.kind} here${quoted(second!.value)}: a new property ${name} takes one type`,
      {
        hint: `fix the cells; or create ${name} yourself with the type it should have (loopsctl contact-properties create --name ${name} --type string), whose values are then checked row by row; or leave the column out: --map ${shellWord(`${isPlainHeader(column) ? column : '<its header>'}=`)}`,
      },
    );
  }
  const create = new Map([...guesses.values()].map(({ name, guess }) => [name, guess.type]));
  return { header, create, listNames: lists };
}

/** A column that would become a new property must be named as the API takes one, once made camelCase. */
function propertyName(column: string, name: string, index: number, input: string): string {
  if (PROPERTY_NAME.test(name) && !RESERVED_PROPERTY_NAMES.has(name)) return name;
  const header = isPlainHeader(column) ? column : '<its header>';
  const made = name === column || !isPlainHeader(name) ? '' : ` (made ${name}${RESERVED_PROPERTY_NAMES.has(name) ? ', a name Loops keeps for itself' : ''})`;
  throw new UsageError(`${input}: ${columnWords(column, index)}${made} cannot be a property name (camelCase, such as planName)`, {
    hint: `map it: --map ${shellWord(`${header}=someName`)}, or leave it out: --map ${shellWord(`${header}=`)}`,
  });
}

/** The id of each list the lists column names (by the name as written, lower case); one the account does not have is a usage error naming its first line. */
export async function resolveLists(api: ApiClient, names: Map<string, number>, input: string): Promise<Map<string, string>> {
  const resolved = new Map<string, string>();
  const lists = new MailingListNames(async () => api);
  for (const [name, line] of names) resolved.set(name.toLowerCase(), await lists.idOf(name, `${input}: line ${line}`));
  return resolved;
}

/** Creates the properties the file needs, or in a dry run says which it would; either way on stderr, before any contact. */
export async function createProperties(api: ApiClient, create: Map<string, PropertyType>, dryRun: boolean, say: (line: string) => void): Promise<void> {
  for (const [name, type] of create) {
    if (dryRun) {
      say(`would create the contact property ${name} (${type})`);
      continue;
    }
    await createContactProperty(api, { name, type });
    say(`created the contact property ${name} (${type})`);
  }
}

/** The addresses of a suppression export (lower case), from its email column, found by its common names. */
export async function excludedAddresses(runtime: Pick<Runtime, 'stdin'>, file: string): Promise<Set<string>> {
  const addresses = new Set<string>();
  let column: number | undefined;
  for await (const row of rowsOf(runtime, file)) {
    if (column === undefined) {
      column = emailColumn(row.fields);
      if (column < 0)
        throw new UsageError(`${file}: no email column in the header (${headerWords(row.fields)})`, {
          hint: 'the suppression file needs a column named email, Email Address, EmailAddress, address or recipient',
        });
      continue;
    }
    const email = row.fields[column]?.trim().toLowerCase();
    if (email) addresses.add(email);
  }
  if (column === undefined) throw new LocalFileError(`${file}: no header row (the file is empty)`);
  return addresses;
}
