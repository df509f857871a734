/**
 * `loopsctl contacts import`: one create (or, with --update, one update) per record of a CSV or
 * JSONL file, through the bulk machinery of src/core/bulk.ts (journal, resume, pacing, progress).
 */
import type { Readable } from 'node:stream';
import type { ApiClient } from '../../api/client.js';
import { EMAIL_REQUIREMENT, isEmailAddress } from '../../base/email.js';
import { LocalFileError, RejectedError, UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import {
  countLines,
  type InputRecord,
  inputLines,
  journalPath,
  jsonObjectLine,
  type Outcome,
  openInput,
  type RecordContext,
  runImport,
} from '../../core/bulk.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { type CsvRow, CsvSyntaxError, csvRows } from '../../core/csv.js';
import { DigestSet, numericDigest } from '../../core/digest-set.js';
import { isStandardField, typeProblem } from '../../platform/contact-properties/typing.js';
import { formatCount } from '../../render/numbers.js';
import { shellWord } from '../../render/shell-word.js';
import { fromText, PropertyTypes, unknownPropertyHint } from '../contact-properties/typing.js';
import { createContact, findContacts, updateContact } from './client.js';
import { createProperties, excludedAddresses, type Mapping, planImport, resolveLists, targetName } from './import-plan.js';
import { columnTargets, columnWords, isPlainHeader, listNames, type PresetName, parseMaps, standardField } from './mapping.js';

type Body = Record<string, unknown>;
export type Mode = 'create' | 'update';

interface ImportOptions {
  update?: boolean;
  format?: 'csv' | 'jsonl';
  journal?: string;
  dryRun?: boolean;
  map?: string[];
  preset?: PresetName;
  createProperties?: boolean;
  listsColumn?: string;
  exclude?: string;
  excludeAs?: 'left-out' | 'unsubscribed';
}

/** What a CSV column holds: a standard field, a custom property of a type, the lists, or nothing (left out). */
interface Column {
  name: string | undefined;
  type: string | undefined;
  /** The column says "unsubscribed": read the other way round. */
  inverted?: boolean;
  lists?: boolean;
}

const NO_MAPPING: Mapping = { maps: new Map(), preset: undefined, listsColumn: undefined, planned: new Map(), lists: new Map() };

/** The CSV header: every column must be a standard field or a property of the account, once mapped. */
async function headerColumns(row: CsvRow, types: PropertyTypes, input: string, mapping: Mapping): Promise<Column[]> {
  const targets = columnTargets(row.fields, mapping.maps, mapping.preset, input);
  if (mapping.listsColumn !== undefined && !row.fields.some((raw) => raw.trim() === mapping.listsColumn))
    throw new UsageError(`${input}: --lists-column names the column "${mapping.listsColumn}", which the header does not have`);
  const names = row.fields.map((raw, index) =>
    raw.trim() === mapping.listsColumn ? undefined : targetName(raw.trim(), targets[index], mapping.preset !== undefined),
  );
  const standardOnly = names.every((name) => name === undefined || standardField(name) !== undefined);
  // The account's properties are fetched only for a file with custom columns.
  const known = standardOnly ? new Map() : await types.lookup();
  const seen = new Map<string, string>();
  return row.fields.map((raw, index) => {
    const header = raw.trim();
    if (header === mapping.listsColumn) return { name: 'mailingLists', type: undefined, lists: true };
    const target = names[index];
    if (target === undefined) return { name: undefined, type: undefined };
    const name = standardField(target) ?? target;
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      const column = (text: string, at: number) => (isPlainHeader(text) ? `"${text}"` : `column ${at + 1}`);
      throw new UsageError(
        `${input}: line 1: two columns fill ${isPlainHeader(name) ? `"${name}"` : 'one property'}: ${column(
          earlier,
          row.fields.findIndex((field) => field.trim() === earlier),
        )} and ${column(header, index)}`,
        {
          hint: 'leave one out: --map "<column>=", or map one to another property: --map "<column>=<property>"',
        },
      );
    }
    seen.set(name, header);
    if (standardField(target) !== undefined) return { name, type: name === 'subscribed' ? 'boolean' : 'string', inverted: targets[index]?.inverted };
    const type = known.get(name)?.type ?? mapping.planned.get(name);
    if (type === undefined || isStandardField(name)) {
      if (!isPlainHeader(header))
        throw new UsageError(`${input}: ${columnWords(header, index)} is not a contact property of the account`, {
          hint: 'name it as a property in the header, or leave the column out (--map "<its header>="); is the file a CSV export?',
        });
      throw new UsageError(`${input}: the column "${header}"${name === header ? '' : ` (read as ${name})`} is not a contact property of the account`, {
        hint: `${unknownPropertyHint(known, name)}; or leave the column out (--map ${shellWord(`${header}=`)}), or add --create-properties`,
      });
    }
    return { name, type };
  });
}

/**
 * How each column of the header is read, as said before anything is sent: only when a column is
 * read under another name than its own, the other way round, or left out.
 */
function columnsRead(input: string, header: readonly string[], columns: readonly Column[], planned: ReadonlyMap<string, string>): string {
  const lines = columns.map((column, index) => {
    const raw = header[index]!.trim();
    const shown = isPlainHeader(raw) ? raw : `column ${index + 1}`;
    if (column.lists === true) return { changed: true, line: `  ${shown} -> the mailing lists it names` };
    if (column.name === undefined) return { changed: true, line: `  ${shown} -> left out` };
    const inverted = column.inverted === true ? ', read the other way round (true is unsubscribed)' : '';
    const created = planned.has(column.name) ? ` (a new ${planned.get(column.name)} property)` : '';
    return { changed: column.name !== raw || inverted !== '', line: `  ${shown} -> ${column.name}${inverted}${created}` };
  });
  if (!lines.some((line) => line.changed)) return '';
  return `${input}: its columns are read as\n${lines.map((line) => line.line).join('\n')}\n`;
}

function rowRecord(row: CsvRow, columns: Column[], lists: Map<string, string>): InputRecord<Body> {
  const source = JSON.stringify(row.fields);
  if (row.fields.length > columns.length)
    return { line: row.line, source, problem: `${row.fields.length} fields, but the header names ${columns.length} columns` };
  const body: Body = {};
  for (let index = 0; index < row.fields.length; index += 1) {
    const text = row.fields[index]!;
    const { name, type, inverted, lists: isLists } = columns[index]!;
    // An empty cell sets nothing; a column left out, neither.
    if (text === '' || name === undefined) continue;
    if (isLists) {
      body.mailingLists = Object.fromEntries(listNames(text).map((list) => [lists.get(list.toLowerCase()) ?? list, true]));
      continue;
    }
    const value = fromText(type, text);
    if (value === undefined) return { line: row.line, source, problem: `${name}: "${text}" is not a ${type}` };
    body[name] = inverted === true ? !value : value;
  }
  return { line: row.line, source, body };
}

async function* csvRecords(
  input: Readable,
  types: PropertyTypes,
  name: string,
  check: RecordCheck,
  mapping: Mapping,
  say: (text: string) => void,
): AsyncGenerator<InputRecord<Body>> {
  let columns: Column[] | undefined;
  try {
    for await (const row of csvRows(input)) {
      if (columns === undefined) {
        columns = await headerColumns(row, types, name, mapping);
        if (mapping.announced !== true) say(columnsRead(name, row.fields, columns, mapping.planned));
      } else yield check(rowRecord(row, columns, mapping.lists));
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new LocalFileError(`${name}: line ${error.line}: ${error.reason}`, {
        hint: 'fix the file and run the same command again; finished records are skipped',
      });
    throw error;
  }
  if (columns === undefined)
    throw new LocalFileError(`${name}: no header row (the file is empty)`, {
      hint: 'a CSV import starts with a header naming its columns, such as email,firstName',
    });
}

/** A JSONL record: an object of contact fields, custom properties typed as the account says. */
async function jsonRecord(line: number, text: string, types: PropertyTypes): Promise<InputRecord<Body>> {
  const source = text;
  const parsed = jsonObjectLine(text);
  if ('problem' in parsed) return { line, source, problem: parsed.problem };
  const body = parsed.value as Body;
  for (const [key, field] of Object.entries(body)) {
    const problem = await fieldProblem(key, field, types);
    if (problem !== undefined) return { line, source, problem };
  }
  return { line, source, body };
}

async function fieldProblem(key: string, value: unknown, types: PropertyTypes): Promise<string | undefined> {
  if (key === 'subscribed') return typeof value === 'boolean' ? undefined : 'subscribed must be true or false';
  if (key === 'mailingLists') {
    const fits = isJsonObject(value) && Object.values(value).every((on) => typeof on === 'boolean');
    return fits ? undefined : 'mailingLists must be an object of list ids and true or false';
  }
  if (isStandardField(key)) return typeof value === 'string' ? undefined : `${key} must be a string`;
  return typeProblem(await types.lookup(), key, value);
}

async function* jsonlRecords(input: Readable, types: PropertyTypes, check: RecordCheck): AsyncGenerator<InputRecord<Body>> {
  for await (const { line, text } of inputLines(input)) {
    if (text.trim() !== '') yield check(await jsonRecord(line, text, types));
  }
}

type RecordCheck = ReturnType<typeof recordCheck>;

/**
 * Checks each record names its contact, and that no email comes twice (two rows for one contact
 * would race). Only a 52-bit digest of each email is kept, in a DigestSet: 16 MiB at most for a
 * million rows.
 */
export function recordCheck(mode: Mode): (record: InputRecord<Body>) => InputRecord<Body> {
  const seen = new DigestSet();
  return (record) => {
    const body = record.body;
    if (body === undefined) return record;
    const email = body.email;
    if (mode === 'create' && typeof email !== 'string') return { ...record, problem: 'no email (create needs one; use --update to match contacts by userId)' };
    if (email === undefined && body.userId === undefined) return { ...record, problem: 'neither email nor userId' };
    if (email !== undefined && !(typeof email === 'string' && isEmailAddress(email)))
      return { ...record, problem: `email must be ${EMAIL_REQUIREMENT}, not ${JSON.stringify(email)}` };
    if (typeof email === 'string' && !seen.add(numericDigest(email.toLowerCase()))) return { ...record, problem: `${email} appears earlier in the file` };
    return record;
  };
}

/** The mapping flags read CSV columns; with --create-properties or --lists-column, the file is read once first. */
async function importMapping(context: Uses<'out' | 'files'>, api: ApiClient, input: string, options: ImportOptions, types: PropertyTypes): Promise<Mapping> {
  const mapping: Mapping = { ...NO_MAPPING, maps: parseMaps(options.map), preset: options.preset, listsColumn: options.listsColumn };
  if (!options.createProperties && options.listsColumn === undefined) return mapping;
  const plan = await planImport(context.runtime, input, mapping, await types.lookup(), { createProperties: options.createProperties === true });
  // Every list is checked before any property is created: a wrong list stops the run with nothing changed.
  const lists = await resolveLists(api, plan.listNames, input);
  const planned: Mapping = { ...mapping, lists, planned: plan.create };
  // The header is checked as the import will read it (a column filled twice, a lists column it lacks) before anything is created, and how it is read said.
  if (plan.header !== undefined) {
    context.out.stderr.write(columnsRead(input, plan.header.fields, await headerColumns(plan.header, types, input, planned), plan.create));
    planned.announced = true;
  }
  await createProperties(api, plan.create, options.dryRun === true, (line) => context.out.stderr.write(`${line}\n`));
  return planned;
}

/** The old provider's suppressions: left out (counted as excluded), or sent as unsubscribed; `seen` counts those of the file, for a dry run. */
function exclusion(addresses: Set<string>, asUnsubscribed: boolean, check: RecordCheck, seen: { count: number }): RecordCheck {
  return (record) => {
    const checked = check(record);
    const email = checked.body?.email;
    if (typeof email !== 'string' || !addresses.has(email.toLowerCase())) return checked;
    seen.count += 1;
    return asUnsubscribed ? { ...checked, body: { ...checked.body, subscribed: false } } : checked;
  };
}

/** What the API cannot do with a suppression export, and what to do instead. */
function suppressionNote(file: string, count: number, asUnsubscribed: boolean, dryRun: boolean): string {
  const done = `${dryRun ? 'would be ' : ''}${asUnsubscribed ? 'imported as unsubscribed' : 'left out'}`;
  return (
    `${formatCount(count)} ${count === 1 ? 'address' : 'addresses'} of ${file} (the old provider's suppressions) ${done}.\n` +
    "The Loops API cannot add an address to the account's suppression list: a bounced or complaining address comes back if your app or a form sends it again.\n" +
    (asUnsubscribed
      ? 'Unsubscribed contacts get no campaigns or loops; keep the file to check new sign-ups against it.\n'
      : 'To keep a record of them in Loops, import the file again with --exclude-as unsubscribed; keep the file to check new sign-ups against it.\n')
  );
}

export const importContacts: Handler<[string], ImportOptions> = handler(['out', 'client', 'files', 'clock', 'globals'], async (context, [input], options) => {
  const mode: Mode = options.update ? 'update' : 'create';
  const format = options.format ?? (/\.(jsonl|ndjson)$/i.test(input) ? 'jsonl' : 'csv');
  const mapped = options.map !== undefined || options.preset !== undefined || options.createProperties === true || options.listsColumn !== undefined;
  if (format === 'jsonl' && mapped)
    throw new UsageError('--map, --preset, --create-properties and --lists-column read the columns of a CSV file', { hint: 'give a CSV file' });
  const types = new PropertyTypes(() => context.client());
  const api = await context.client();
  const excluded = options.exclude === undefined ? new Set<string>() : await excludedAddresses(context.runtime, options.exclude);
  const asUnsubscribed = options.excludeAs === 'unsubscribed';
  const mapping = await importMapping(context, api, input, options, types);
  const path = options.dryRun ? undefined : journalPath(input, options.journal);
  const stream = openInput(context.runtime, input);
  const inFile = { count: 0 };
  const check = exclusion(excluded, asUnsubscribed, recordCheck(mode), inFile);
  const records =
    format === 'csv' ? csvRecords(stream, types, input, check, mapping, (text) => context.out.stderr.write(text)) : jsonlRecords(stream, types, check);
  const lines = context.runtime.stderr.isTTY ? await countLines(input) : undefined;
  const total = lines === undefined ? undefined : Math.max(0, lines - (format === 'csv' ? 1 : 0));
  let matched = 0;
  const send = async (body: Body, record: RecordContext): Promise<Outcome> => {
    if (typeof body.email === 'string' && excluded.has(body.email.toLowerCase())) {
      matched += 1;
      if (!asUnsubscribed) return { status: 'excluded', message: `on the suppression list of ${options.exclude}` };
    }
    if (mode === 'update') return { status: 'updated', id: (await updateContact(api, body)).id };
    if (record.resumed) {
      // An earlier run sent this create and stopped before it heard back: look before sending again.
      const [found] = await findContacts(api, { email: body.email as string });
      if (found !== undefined) return { status: 'skipped', message: 'created by an earlier run', id: found.id };
    }
    try {
      return { status: 'created', id: (await createContact(api, body)).id };
    } catch (error) {
      if (!(error instanceof RejectedError) || error.status !== 409) throw error;
      return { status: 'failed', message: `${error.message} (use --update to change existing contacts)`, exitCode: error.exitCode };
    }
  };
  const code = await runImport(context, {
    records,
    journal: path === undefined ? undefined : { path, kind: 'contacts', input },
    statuses:
      options.exclude === undefined || asUnsubscribed ? ['created', 'updated', 'skipped', 'failed'] : ['created', 'updated', 'skipped', 'excluded', 'failed'],
    send,
    total,
  });
  if (options.exclude !== undefined)
    context.out.stderr.write(suppressionNote(options.exclude, path === undefined ? inFile.count : matched, asUnsubscribed, path === undefined));
  return code;
});
