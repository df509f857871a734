/**
 * Looks at the text of a JSON answer before or beside JSON.parse: how deeply it nests, and whether
 * it holds integers that JSON.parse would round. Both scans skip the contents of strings, where
 * brackets and digits are only characters.
 */

/** Arrays and objects nested deeper than this are refused; no answer of the API nests past a dozen. */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** The index of the quote that closes the string whose content starts at `start`. */
function closingQuote(text: string, start: number): number {
  // indexOf finds the next quote natively, far faster than a loop over every character of a long
  // string; a quote is escaped when an odd number of backslashes stands right before it.
  for (let index = text.indexOf('"', start); index !== -1; index = text.indexOf('"', index + 1)) {
    let backslashes = 0;
    while (index - backslashes > start && text.charCodeAt(index - backslashes - 1) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return index;
  }
  return text.length;
}

/** Whether arrays and objects nest deeper than `limit` anywhere in the text; stops as soon as they do. */
export function jsonNestingExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  // Nesting past the limit takes more opening brackets than a text this short holds.
  if (text.length <= limit) return false;
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) index = closingQuote(text, index + 1);
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      depth += 1;
      if (depth > limit) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth -= 1;
  }
  return false;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** Digits, sign, point and exponent: everything a JSON number token can hold. */
const NUMBER_CHAR = /[-+.eE0-9]/;
const PLAIN_INTEGER = /^-?\d+$/;
/** 2^53 has 16 digits; an integer with fewer is always safe. */
const SAFE_DIGITS = 15;
/** SAFE_DIGITS + 1 digits in a row: where an unsafe integer may stand (or a long string of digits). */
const LONG_DIGIT_RUN = /\d{16}/;

/** Where each integer beyond ±Number.MAX_SAFE_INTEGER stands in the text, outside strings. */
function* unsafeIntegers(text: string): Generator<[start: number, end: number]> {
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      index = closingQuote(text, index + 1);
      continue;
    }
    if (char !== MINUS && (char < ZERO || char > NINE)) continue;
    let end = index + 1;
    while (end < text.length && NUMBER_CHAR.test(text[end]!)) end += 1;
    const token = text.slice(index, end);
    if (token.replace('-', '').length > SAFE_DIGITS && PLAIN_INTEGER.test(token)) {
      const value = BigInt(token);
      if (value > MAX_SAFE || value < -MAX_SAFE) yield [index, end];
    }
    index = end - 1;
  }
}

/**
 * Whether the text holds an integer (digits only, no fraction or exponent) beyond
 * ±Number.MAX_SAFE_INTEGER, which JSON.parse would round to a nearby number.
 */
export function hasUnsafeIntegers(text: string): boolean {
  return LONG_DIGIT_RUN.test(text) && !unsafeIntegers(text).next().done;
}

/**
 * JSON.parse, except that an integer beyond ±2^53 becomes a marked string (NUL, "int:", its digits)
 * instead of a rounded number, which formatJson writes back as the digits the API sent.
 */
export function parseJsonKeepingIntegers(text: string): unknown {
  // An integer JSON.parse would round has 16 digits or more: a text without such a run has none.
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  let rewritten = '';
  let from = 0;
  for (const [start, end] of unsafeIntegers(text)) {
    // In JSON text, the marker's NUL is written as an escape.
    rewritten += `${text.slice(from, start)}"\\u0000int:${text.slice(start, end)}"`;
    from = end;
  }
  return JSON.parse(from === 0 ? text : rewritten + text.slice(from));
}
