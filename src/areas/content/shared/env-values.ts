/**
 * `{env.NAME}` in a tree's files: a value of the environment a command is for, filled by loopsctl
 * and never sent to the platform as written. Filling escapes the value for its place, so that a
 * value can only ever be text: in LMX every character markup reads (`<`, `&`, both quotes) is an
 * entity, in text and in an attribute's value alike, so no value adds an element or an attribute;
 * in a JSON file it is a string's content, escaped as JSON escapes it.
 */
import type { Files } from './files.js';

/** An environment's values, by name. */
export type EnvValues = Readonly<Record<string, string>>;

/** An environment's values under the environment's name: a check fills a file with each environment's in turn. */
export interface NamedValues {
  name: string;
  values: EnvValues;
}

/** A placeholder as written: `{env.appUrl}`. */
const PLACEHOLDER = /\{env\.([A-Za-z0-9_-]+)\}/g;

/** What opens a placeholder: anything written so that is one, or a mistake in one. */
export const OPENING = '{env.';

export interface Placeholder {
  name: string;
  offset: number;
  /** As written, `{env.appUrl}`. */
  written: string;
}

/** The placeholders a text holds, in order. */
export function placeholdersIn(text: string): Placeholder[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => ({ name: match[1]!, offset: match.index, written: match[0] }));
}

/** The offsets of each `{env.` that does not open a placeholder as written (`{env.app url}`, one never closed). */
export function strayOpeningsIn(text: string): number[] {
  const placed = new Set(placeholdersIn(text).map((placeholder) => placeholder.offset));
  const stray: number[] = [];
  for (let at = text.indexOf(OPENING); at >= 0; at = text.indexOf(OPENING, at + 1)) if (!placed.has(at)) stray.push(at);
  return stray;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** A value as LMX text or an attribute's value: XML's five named references, which LMX reads in both places. */
export function escapeForLmx(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** A value as the inside of a JSON string. */
function escapeForJson(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}

/** The text with each placeholder whose name has a value filled, escaped by `escape`; a name without one stays as written (the check names it). */
function filled(text: string, values: EnvValues, escaped: (value: string) => string): string {
  if (!text.includes(OPENING)) return text;
  return text.replace(PLACEHOLDER, (written, name: string) => (Object.hasOwn(values, name) ? escaped(values[name]!) : written));
}

/** An LMX source with its placeholders filled. */
export function fillLmx(source: string, values: EnvValues): string {
  return filled(source, values, escapeForLmx);
}

/** A JSON file's text with its placeholders filled, each inside the string it is written in. */
export function fillJson(text: string, values: EnvValues): string {
  return filled(text, values, escapeForJson);
}

/** Whether loopsctl fills a file's placeholders, by its name: an email's LMX and its fields (JSON). */
export const fillsIn = (name: string): boolean => name.endsWith('.lmx') || name.endsWith('.json');

/** A file's text filled as its name says it is read: LMX or JSON; another file is left as it is. */
export function fillFile(name: string, text: string, values: EnvValues): string {
  if (!fillsIn(name)) return text;
  return name.endsWith('.lmx') ? fillLmx(text, values) : fillJson(text, values);
}

/** A record's files, filled; the same map when none holds a placeholder. */
export function fillFiles(files: Files, values: EnvValues): Files {
  if (![...files.values()].some((text) => text.includes(OPENING))) return files;
  return new Map([...files].map(([name, text]) => [name, fillFile(name, text, values)]));
}

/**
 * An LMX source filled, with the way back from an offset in the filled text to the one written: a
 * check reads the filled source (so an address is checked as an address) and says where the
 * problem is in the file as written, a problem inside a value at its placeholder.
 */
export function fillLmxTracked(source: string, values: EnvValues): { text: string; written: (offset: number) => number } {
  // Each value's place in the filled text, and its placeholder's in the source.
  const spans: { from: number; to: number; at: number; end: number }[] = [];
  let text = '';
  let last = 0;
  for (const { name, offset, written } of placeholdersIn(source)) {
    if (!Object.hasOwn(values, name)) continue;
    text += source.slice(last, offset);
    const value = escapeForLmx(values[name]!);
    spans.push({ from: text.length, to: text.length + value.length, at: offset, end: offset + written.length });
    text += value;
    last = offset + written.length;
  }
  text += source.slice(last);
  const written = (offset: number): number => {
    let shift = 0;
    for (const span of spans) {
      if (offset < span.from) break;
      if (offset < span.to) return span.at;
      shift = span.end - span.to;
    }
    return offset + shift;
  };
  return { text, written };
}

/** Values shorter than this are never taken for a placeholder's: `1` or `on` stand for themselves too. */
export const SHORTEST_VALUE = 4;

/** Whether the text at [from, to) is written whole: not the middle of a longer word, number or id. */
export function standsAlone(text: string, from: number, to: number): boolean {
  const word = /[A-Za-z0-9]/;
  return !(word.test(text[from] ?? '') && word.test(text[from - 1] ?? '')) && !(word.test(text[to - 1] ?? '') && word.test(text[to] ?? ''));
}

/** A value written in an account's file, and the names it could stand for when more than one has it. */
export interface SharedValue {
  value: string;
  names: string[];
}

/**
 * The inverse of filling, for a pull: each value written whole in the account's files becomes its
 * placeholder again, longest first (a value that holds another is its own). A value two names
 * share is left as written and listed, never guessed; one under 4 characters is left as written.
 */
export function unfillFiles(files: Files, values: EnvValues): { files: Files; shared: SharedValue[] } {
  const byValue = new Map<string, string[]>();
  for (const [name, value] of Object.entries(values)) if (value.length >= SHORTEST_VALUE) byValue.set(value, [...(byValue.get(value) ?? []), name]);
  const shared = [...byValue].filter(([, names]) => names.length > 1).map(([value, names]) => ({ value, names }));
  const single = [...byValue].filter(([, names]) => names.length === 1).sort(([a], [b]) => b.length - a.length);
  const found = new Set<string>();
  const mapped = new Map(
    [...files].map(([name, text]) => {
      const escaped = name.endsWith('.lmx') ? escapeForLmx : name.endsWith('.json') ? escapeForJson : undefined;
      if (escaped === undefined) return [name, text];
      for (const { value } of shared) if (text.includes(escaped(value))) found.add(value);
      return [
        name,
        unfilled(
          text,
          single.map(([value, [placeholder]]) => [escaped(value), placeholder!]),
        ),
      ];
    }),
  );
  return { files: mapped, shared: shared.filter(({ value }) => found.has(value)) };
}

/** The text with each written value, longest first, made its placeholder where it stands whole. */
function unfilled(text: string, written: readonly (readonly [string, string])[]): string {
  let result = text;
  for (const [value, name] of written) {
    let out = '';
    let last = 0;
    for (let at = result.indexOf(value); at >= 0; at = result.indexOf(value, at + value.length)) {
      if (!standsAlone(result, at, at + value.length)) continue;
      out += `${result.slice(last, at)}{env.${name}}`;
      last = at + value.length;
    }
    result = out + result.slice(last);
  }
  return result;
}
