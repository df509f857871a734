/** What the completion scripts of every shell share: the flags of a command, one-line help text, the alphabet of an id offered, and the prefix of the functions a script defines. */
import type { CompletionOption } from './model.js';

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export const flags = (options: CompletionOption[]) => options.flatMap((option) => option.names);
export const valueFlags = (options: CompletionOption[]) => options.filter((option) => option.takesValue).flatMap((option) => option.names);
export const fileFlags = (options: CompletionOption[]) => options.filter((option) => option.takesFile).flatMap((option) => option.names);

/**
 * The one alphabet an id may have to be offered: what the API's ids use. An id is text from the
 * API (or from the cache); offered as typed, `$(…)`, backticks, `*` or `~` in it would run or
 * expand on the person's command line, so anything else is dropped, here as in `completion __ids`.
 */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export function functionPrefix(program: string): string {
  return `__${program.replace(/[^A-Za-z0-9_]/g, '_')}`;
}
