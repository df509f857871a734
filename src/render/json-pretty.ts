/**
 * JSON text for a person at a terminal: indented and coloured, from the text itself rather than from
 * parsed values, so numbers keep the digits they were sent with (1.0, 12345678901234567890).
 * Strings stay JSON-escaped; DEL and C1 characters, which JSON leaves raw, are escaped as well.
 */
import { escapeControls } from '../base/body-preview.js';
import { escapeInvisible } from '../base/sanitize.js';
import type { Style } from './style.js';

/** One JSON token: a string, a number or literal, or punctuation. */
const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\],:]|[^\s{}[\],:"]+/gy;
const WHITESPACE = /\s*/y;

/** The text indented by two spaces per level and coloured, or undefined when it is not JSON. */
export function prettyJson(text: string, style: Style): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  let result = '';
  // The open objects and arrays, innermost last: a string right after '{' or ',' in an object is a key.
  const open: string[] = [];
  let previous = '';
  const newline = () => `\n${'  '.repeat(open.length)}`;
  for (const token of tokens(text)) {
    if (token === '}' || token === ']') {
      open.pop();
      // An empty object or array stays on one line: {} and [].
      result += previous === '{' || previous === '[' ? token : `${newline()}${token}`;
    } else if (token === ',') {
      result += `,${newline()}`;
    } else if (token === ':') {
      result += ': ';
    } else {
      if (previous === '{' || previous === '[') result += newline();
      if (token === '{' || token === '[') {
        open.push(token);
        result += token;
      } else {
        const key = open.at(-1) === '{' && (previous === '{' || previous === ',');
        result += paint(token, style, key);
      }
    }
    previous = token;
  }
  return result;
}

function* tokens(text: string): Generator<string> {
  TOKEN.lastIndex = 0;
  WHITESPACE.lastIndex = 0;
  for (;;) {
    WHITESPACE.exec(text);
    TOKEN.lastIndex = WHITESPACE.lastIndex;
    const match = TOKEN.exec(text);
    if (match === null) return;
    WHITESPACE.lastIndex = TOKEN.lastIndex;
    yield match[0];
  }
}

/** Colours as `gh` and `jq` use them: keys blue, strings green, true and false yellow, null grey. */
function paint(token: string, style: Style, key: boolean): string {
  if (token.startsWith('"')) {
    const safe = escapeInvisible(token.replace(/[\u007f-\u009f]/g, escapeControls));
    return key ? style.blue.bold(safe) : style.green(safe);
  }
  if (token === 'null') return style.gray(token);
  if (token === 'true' || token === 'false') return style.yellow(token);
  return token;
}
