/**
 * `loopsctl contacts import`: one create (or, with --update, one update) per record of a CSV or
 * JSONL file, through the bulk machinery of src/core/bulk.ts (journal, resume, pacing, progress).
 */
import type { Readable } from 'node:stream';
import { LocalFileError, RejectedError, UsageError } from '../../base/errors.js';
import {
  countLines,
  inputLines,
  journalPath,
  jsonObjectLine,
  openInput,
  runImport,
  type InputRecord,
  type Outcome,
  type RecordContext,
} from '../../core/bulk.js';
import { DigestSet, numericDigest } from '../../core/digest-set.js';
import { csvRows, CsvSyntaxError, type CsvRow } from '../../core/csv.js';
import { EMAIL_REQUIREMENT, isEmailAddress } from '../../base/email.js';
import { handler, type Handler } from '../../core/capabilities.js';
import { fromText, PropertyTypes, unknownPropertyHint } from '../contact-properties/typing.js';
import { isStandardField, STANDARD_FIELDS, typeProblem } from '../../platform/contact-properties/typing.js';
import { createContact, findContacts, updateContact } from './client.js';

type Body = Record<string, unknown>;
export type Mode = 'create' | 'update';

interface ImportOptions {
  update?: boolean;
  format?: 'csv' | 'jsonl';
  journal?: string;
  dryRun?: boolean;
}

/** What a CSV column holds: a standard field, or a custom property of a type. */
interface Column {
  name: string;
  type: string | undefined;
}

/** The CSV header: every column must be a standard field or a property of the account. */
async function headerColumns(row: CsvRow, types: PropertyTypes, input: string): Promise<Column[]> {
  const standardOnly = row.fields.every((raw) => isStandardField(raw.trim()));
  // The account's properties are fetched only for a file with custom columns.
  const known = standardOnly ? new Map() : await types.lookup();
  const seen = new Set<string>();
  return row.fields.map((raw) => {
    const header = raw.trim();
    const standard = STANDARD_FIELDS.find((field) => field !== 'mailingLists' && field.toLowerCase() === header.toLowerCase());
    const name = standard ?? header;
    if (seen.has(name)) throw new UsageError(`${input}: the column "${name}" appears twice in the header`);
    seen.add(name);
    if (standard !== undefined) return { name, type: standard === 'subscribed' ? 'boolean' : 'string' };
    const property = known.get(name);
    if (property === undefined || isStandardField(name)) {
      throw new UsageError(`${input}: the column "${header}" is not a contact property of the account`, {
        hint: `${unknownPropertyHint(known, header)}; or remove the column`,
      });
    }
    return { name, type: property.type };
  });
}

function rowRecord(row: CsvRow, columns: Column[]): InputRecord<Body> {
  const source = JSON.stringify(row.fields);
  if (row.fields.length > columns.length)
    return { line: row.line, source, problem: `${row.fields.length} fields, but the header names ${columns.length} columns` };
  const body: Body = {};
  for (let index = 0; index < row.fields.length; index += 1) {
    const text = row.fields[index]!;
    // An empty cell sets nothing.
    if (text === '') continue;
    const { name, type } = columns[index]!;
    const value = fromText(type, text);
    if (value === undefined) return { line: row.line, source, problem: `${name}: "${text}" is not a ${type}` };
    body[name] = value;
  }
  return { line: row.line, source, body };
}

async function* csvRecords(input: Readable, types: PropertyTypes, name: string, check: RecordCheck): AsyncGenerator<InputRecord<Body>> {
  let columns: Column[] | undefined;
  try {
    for await (const row of csvRows(input)) {
      if (columns === undefined) columns = await headerColumns(row, types, name);
      else yield check(rowRecord(row, columns));
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
    const fits = typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((on) => typeof on === 'boolean');
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

export const importContacts: Handler<[string], ImportOptions> = handler(['out', 'client', 'files', 'clock'], async (context, [input], options) => {
  const mode: Mode = options.update ? 'update' : 'create';
  const format = options.format ?? (/\.(jsonl|ndjson)$/i.test(input) ? 'jsonl' : 'csv');
  const path = options.dryRun ? undefined : journalPath(input, options.journal);
  const stream = openInput(context.runtime, input);
  const types = new PropertyTypes(() => context.client());
  const check = recordCheck(mode);
  const records = format === 'csv' ? csvRecords(stream, types, input, check) : jsonlRecords(stream, types, check);
  const lines = context.runtime.stderr.isTTY ? await countLines(input) : undefined;
  const total = lines === undefined ? undefined : Math.max(0, lines - (format === 'csv' ? 1 : 0));
  const api = await context.client();
  const send = async (body: Body, record: RecordContext): Promise<Outcome> => {
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
  return runImport(context, {
    records,
    journal: path === undefined ? undefined : { path, kind: 'contacts', input },
    statuses: ['created', 'updated', 'skipped', 'failed'],
    send,
    total,
  });
});
