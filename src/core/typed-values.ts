/**
 * Typed `name=value` flags (--prop, --contact-prop, --var), as httpie writes them: `name=value`
 * is a string, `name:=<json>` a JSON value (a number, true, false or null). And JSON objects of
 * such values read from a file or stdin (--props-file, --vars-file).
 */

import { LocalFileError, UsageError } from '../base/errors.js';
import { readJsonInput } from './input.js';
import type { InputSource } from './runtime.js';

/** What a flag's values may be: scalars only (properties), or any JSON (data variables may be arrays). */
export type Allowed = 'scalar' | 'json';

/** One `name=value` or `name:=<json>`, checked; the error names the flag. */
export function parseAssignment(flag: string, raw: string, allowed: Allowed): [string, unknown] {
  const equals = raw.indexOf('=');
  if (equals < 0) throw new UsageError(`${flag} "${raw}": expected name=value (a string) or name:=<json> (a number, true, false or null)`);
  const typed = equals > 0 && raw[equals - 1] === ':';
  const name = raw.slice(0, typed ? equals - 1 : equals);
  if (name.trim() === '') throw new UsageError(`${flag} "${raw}": the name before = is empty`);
  const text = raw.slice(equals + 1);
  if (!typed) return [name, text];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} ${name}:=${text}: the value after := is not valid JSON`, {
      hint: `write ${name}:=42, ${name}:=true or ${name}:=null, or ${name}=${text} for a string`,
    });
  }
  checkValue(flag, name, value, allowed);
  return [name, value];
}

/** Every assignment of a repeatable flag as one object; a later one wins over an earlier one. */
export function parseAssignments(flag: string, raws: string[] | undefined, allowed: Allowed): Record<string, unknown> {
  return Object.fromEntries((raws ?? []).map((raw) => parseAssignment(flag, raw, allowed)));
}

function checkValue(flag: string, name: string, value: unknown, allowed: Allowed): void {
  if (allowed === 'scalar' && typeof value === 'object' && value !== null) {
    throw new UsageError(`${flag} ${name}: the value must be a string, a number, true, false or null, not ${Array.isArray(value) ? 'an array' : 'an object'}`);
  }
}

/** A JSON object from a file, or from stdin when the name is "-". */
export async function readJsonObject(runtime: InputSource, file: string, flag: string, allowed: Allowed): Promise<Record<string, unknown>> {
  const { value } = await readJsonInput(runtime, file, `${flag} JSON`, 'give a JSON object, such as {"plan": "pro", "seats": 3}');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LocalFileError(`${flag}: ${file === '-' ? 'stdin' : `"${file}"`} must hold a JSON object`, {
      hint: 'give a JSON object, such as {"plan": "pro", "seats": 3}',
    });
  }
  for (const [name, field] of Object.entries(value)) checkValue(flag, name, field, allowed);
  return value as Record<string, unknown>;
}

/** A file's object, then the flags over it. */
export async function typedValues(
  runtime: InputSource,
  flags: { flag: string; raws?: string[]; fileFlag: string; file?: string; allowed: Allowed },
): Promise<Record<string, unknown>> {
  const fromFile = flags.file === undefined ? {} : await readJsonObject(runtime, flags.file, flags.fileFlag, flags.allowed);
  return { ...fromFile, ...parseAssignments(flags.flag, flags.raws, flags.allowed) };
}
