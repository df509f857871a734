/**
 * The fields of `loopsctl api`, written as `gh api` takes them. `-f key=value` is always a string;
 * `-F key=value` is typed: true, false and null become JSON literals, a number becomes a number,
 * `@file` the file's contents (`@-` standard input). `key[]=v` appends to an array (`key[]` alone is
 * an empty array), `a[b]=v` sets a field of a nested object, and `a[][b]=v` fills objects in an
 * array, a new object starting where a field repeats. A body gets the fields as JSON; a GET sends
 * them as query parameters, keys as written.
 */
import { UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';

export interface Field {
  /** The key as written: `name`, `labels[]`, `a[b]`. */
  key: string;
  /** Its parts: the name, then what each pair of brackets holds ('' for `[]`). */
  path: string[];
  value: unknown;
}

/** `key[]` alone: the array exists, with nothing added to it. */
const EMPTY_ARRAY = Symbol('empty array');

/** A key: a name, then any number of bracketed parts. */
const KEY = /^([^[\]=]+)((?:\[[^[\]]*\])*)$/;

/** A JSON number, as -F turns it into one. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Reads one field. `readFile` gives the contents of an `@file` value (`-` for standard input);
 * `flag` names the option in messages.
 */
export async function parseField(text: string, typed: boolean, readFile: (path: string) => Promise<string>): Promise<Field> {
  const flag = typed ? '-F' : '-f';
  const equals = text.indexOf('=');
  const key = equals === -1 ? text : text.slice(0, equals);
  const match = KEY.exec(key);
  if (match === null) {
    throw new UsageError(`${flag} "${key}": not a field name`, { hint: 'write key=value, key[]=value for arrays or a[b]=value for nested objects' });
  }
  const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
  if (equals === -1) {
    if (typed && path.at(-1) === '') return { key, path, value: EMPTY_ARRAY };
    throw new UsageError(`${flag} "${key}": no value`, { hint: `write ${key}=value${typed ? `, or ${key}[] for an empty array` : ''}` });
  }
  const raw = text.slice(equals + 1);
  return { key, path, value: typed ? await typedValue(raw, readFile) : raw };
}

async function typedValue(raw: string, readFile: (path: string) => Promise<string>): Promise<unknown> {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (raw.startsWith('@')) return readFile(raw.slice(1));
  // A number JavaScript would round stays the string it was written as.
  if (NUMBER.test(raw) && (/[.eE]/.test(raw) || Number.isSafeInteger(Number(raw)))) return Number(raw);
  return raw;
}

/** The fields as a JSON body, in the order given. */
export function bodyOf(fields: Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) insert(body, field);
  return body;
}

/** The fields as query parameters: keys as written, values as text (null as nothing). */
export function queryOf(fields: Field[]): URLSearchParams {
  const query = new URLSearchParams();
  for (const { key, value } of fields) {
    if (value !== EMPTY_ARRAY) query.append(key, value === null ? '' : String(value));
  }
  return query;
}

type Container = Record<string, unknown> | unknown[];

function insert(body: Record<string, unknown>, { key, path, value }: Field): void {
  const conflict = () =>
    new UsageError(`field "${key}" does not fit with the fields before it`, { hint: 'a key is either a value, an object (a[b]) or an array (a[])' });
  let container: Container = body;
  for (let index = 0; index < path.length; index += 1) {
    const part = path[index]!;
    const last = index === path.length - 1;
    const next = path[index + 1];
    if (Array.isArray(container)) {
      // Only `[]` leads into an array.
      if (part !== '') throw conflict();
      if (last) {
        if (value !== EMPTY_ARRAY) container.push(value);
        return;
      }
      if (next === '') throw new UsageError(`field "${key}": arrays of arrays are not supported`);
      // `a[][name]`: the array's last object, unless that already has the field; then a new one.
      const current: unknown = container.at(-1);
      const fieldRepeats = index + 1 === path.length - 1 && isJsonObject(current) && next! in current;
      if (isJsonObject(current) && !fieldRepeats) {
        container = current;
      } else {
        const fresh: Record<string, unknown> = {};
        container.push(fresh);
        container = fresh;
      }
      continue;
    }
    if (part === '') throw conflict();
    if (last) {
      container[part] = value;
      return;
    }
    const existing = container[part];
    const wanted = next === '' ? 'array' : 'object';
    if (existing === undefined) {
      container = container[part] = wanted === 'array' ? [] : {};
    } else if (wanted === 'array' ? Array.isArray(existing) : isJsonObject(existing)) {
      container = existing as Container;
    } else {
      throw conflict();
    }
  }
}
