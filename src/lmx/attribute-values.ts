/**
 * What is wrong with an LMX attribute's value for the type the specification gives it: colours,
 * numbers in their range, enums, booleans, URLs an email can follow, column widths and the
 * values of <Style />. validate.ts places each problem in the document.
 */
import type { LmxAttribute } from './parse.js';
import type { LmxSeverity } from './problems.js';
import { IMAGE_SCHEMES, LINK_SCHEMES, type LmxAttributeSpec, type LmxTagSpec, schemeOf } from './tags.js';

/** Column widths: comma-separated percentages. */
export const WIDTHS = /^\s*\d+(\.\d+)?\s*(,\s*\d+(\.\d+)?\s*)*$/;

const IMAGE_ATTRIBUTES = new Set(['src', 'dynamicSrc']);

export type ValueProblem = { message: string; fix: string; severity?: LmxSeverity };

const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** What is wrong with an attribute's value for its type, if anything. */
export function valueProblem(spec: LmxAttributeSpec, attribute: LmxAttribute, tag: LmxTagSpec): ValueProblem | undefined {
  const value = attribute.value;
  switch (spec.type) {
    case 'color':
      return HEX_COLOR.test(value) ? undefined : { message: 'not a hex colour', fix: 'write a 3- or 6-digit hex colour such as #f00 or #ff0000' };
    case 'number':
      return numberProblem(value, spec.min, spec.max, spec.unit);
    case 'enum':
      return spec.values.includes(value)
        ? undefined
        : { message: `not one of ${spec.values.join(', ')}`, fix: `write one of ${spec.values.map((option) => `"${option}"`).join(', ')}` };
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : { message: 'not a boolean', fix: 'write "true" or "false"' };
    case 'url':
      return urlProblem(attribute, IMAGE_ATTRIBUTES.has(attribute.name) && tag.name === 'Image' ? IMAGE_SCHEMES : LINK_SCHEMES);
    case 'widths':
      return WIDTHS.test(value) ? undefined : { message: 'not comma-separated percentages', fix: 'write one percentage per column, such as widths="40,60"' };
    case 'style':
      return styleProblem(spec.of, value);
    case 'string':
      return undefined;
  }
}

/**
 * The specification types <Style />'s attributes as "string / number", and the platform's export
 * of a default-theme email leaves its colours empty: an empty value is unset (the theme's is
 * used), and one a renderer cannot use is a warning, never an error; it is left out of the CSS.
 */
function styleProblem(of: 'colour' | 'number' | 'text', value: string): ValueProblem | undefined {
  if (value.trim() === '') return undefined;
  if (of === 'colour' && !HEX_COLOR.test(value))
    return { severity: 'warning', message: "not a hex colour: the theme's is used", fix: 'write a hex colour such as #ffffff, or leave it empty' };
  if (of === 'number' && !NUMBER.test(value))
    return { severity: 'warning', message: "not a number: the theme's is used", fix: 'write a number, such as "16", or leave it empty' };
  return undefined;
}

function numberProblem(value: string, min: number | undefined, max: number | undefined, unit: string | undefined): ValueProblem | undefined {
  const number = NUMBER.test(value) ? Number(value) : undefined;
  if (number !== undefined && (min === undefined || number >= min) && (max === undefined || number <= max)) return undefined;
  const range = min !== undefined && max !== undefined ? `from ${min} to ${max}` : min !== undefined ? `of ${min} or more` : '';
  const fix = `write a number${range === '' ? '' : ` ${range}`}${unit === undefined ? '' : ` (${unit})`}, such as "${min ?? 0}"`;
  if (number === undefined) return { message: `not a number${/px|%$/.test(value) ? ' (write it without a unit)' : ''}`, fix };
  return { message: `out of range: it must be ${range}`, fix };
}

/** Braces the parser reads as a variable; at the start of a value's text, one it could not read. */
const MISWRITTEN_VARIABLE = /^\{[A-Za-z_][^\s{}<>&"']*\}/;

/** A URL: empty is an error, a scheme an email cannot follow is an error, no scheme at all a warning. */
function urlProblem(attribute: LmxAttribute, schemes: ReadonlySet<string>): ValueProblem | undefined {
  const first = attribute.parts[0];
  // A value that starts with a variable is filled at send time: nothing to check before it.
  if (first?.kind === 'variable') return undefined;
  const fixed = first?.value.trim() ?? '';
  if (fixed === '') return attribute.parts.length > 1 ? undefined : { message: 'empty', fix: 'write a full URL, such as "https://example.com"' };
  const scheme = schemeOf(fixed);
  // A variable written wrongly ({firstName}, {DATA_VARIABLE:x}) is reported as one (variable-syntax): no relative URL to warn of.
  if (scheme === undefined && MISWRITTEN_VARIABLE.test(fixed)) return undefined;
  if (scheme === undefined)
    return { severity: 'warning', message: 'not a full URL; email clients cannot follow a relative one', fix: 'write the whole URL, starting with https://' };
  if (!schemes.has(scheme)) return { message: `${scheme}: URLs do not work in email`, fix: `use ${[...schemes].map((name) => `${name}:`).join(', ')}` };
  // Mail clients that load images over a secure connection only (and a page served over https) show an insecure one broken.
  if (scheme === 'http' && schemes === IMAGE_SCHEMES)
    return {
      severity: 'warning',
      message: 'an image over http://, which some mail clients do not load',
      fix: 'serve the image over https:// (or upload it to the account’s storage)',
    };
  return undefined;
}
