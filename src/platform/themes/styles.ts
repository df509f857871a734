/**
 * Theme styles as a create or update sends them: from a JSON file and from `--style key=value`,
 * each key checked against the styles the API knows and each value against its kind, so a typo
 * is refused (with the close matches) before anything is sent.
 */
import { LocalFileError, UsageError } from '../../base/errors.js';
import { isJsonObject } from '../../base/json-object.js';
import { suggestionHint } from '../../base/suggest.js';
import { isStyleName, THEME_STYLES } from './style-names.js';

export type StylesRequest = Record<string, string | number>;

const KNOWN = Object.keys(THEME_STYLES);

/** Why a style cannot be sent, or undefined when it can. */
export function styleProblem(key: string, value: unknown): { message: string; hint: string } | undefined {
  if (!isStyleName(key)) return { message: `"${key}" is not a theme style`, hint: suggestionHint(key, KNOWN) };
  const kind = THEME_STYLES[key];
  const fits = kind === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === 'string';
  const expected = kind === 'number' ? 'a number' : kind === 'colour' ? 'a colour, as a hex code such as "#0057ff"' : 'a string';
  if (!fits || (kind === 'colour' && !isColour(value as string))) {
    return { message: `${key} takes ${expected}, not ${JSON.stringify(value)}`, hint: 'see the styles and their kinds with `loopsctl themes create --help`' };
  }
  return undefined;
}

/** A colour as the API's themes hold them: a hex code (#rgb, #rgba, #rrggbb, #rrggbbaa), or transparent. */
function isColour(value: string): boolean {
  return /^#(?:[\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})$/i.test(value) || value === 'transparent';
}

/**
 * The styles of a file: a styles object, or a theme as `loopsctl themes get --json` prints it (its
 * `styles` are taken).
 */
export function stylesFromFile(source: string, value: unknown): StylesRequest {
  if (!isJsonObject(value)) throw new LocalFileError(`${source}: the styles must be a JSON object of style names and values`);
  const styles = isJsonObject(value.styles) && typeof value.name === 'string' ? value.styles : value;
  for (const [key, field] of Object.entries(styles)) {
    const problem = styleProblem(key, field);
    if (problem !== undefined) throw new LocalFileError(`${source}: ${problem.message}`, { code: 'invalid_style', hint: problem.hint });
  }
  return styles as StylesRequest;
}

/** One `--style key=value`: numbers for sizes, the text as given for colours and fonts. */
function styleAssignment(text: string): [string, string | number] {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new UsageError(`--style "${text}": expected <style>=<value>`, { hint: 'for example --style buttonBodyColor=#0057ff' });
  const key = text.slice(0, equals).trim();
  const raw = text.slice(equals + 1);
  // A size that is not a number stays text, so the error quotes what was typed.
  const number = Number(raw);
  const value = isStyleName(key) && THEME_STYLES[key] === 'number' && raw.trim() !== '' && Number.isFinite(number) ? number : raw;
  const problem = styleProblem(key, value);
  if (problem !== undefined) throw new UsageError(`--style ${text}: ${problem.message}`, { code: 'invalid_style', hint: problem.hint });
  return [key, value];
}

/** The styles of `--style` options, each checked; undefined when there are none. */
export function collectStyles(assignments: string[]): StylesRequest | undefined {
  return assignments.length === 0 ? undefined : Object.fromEntries(assignments.map(styleAssignment));
}
