/**
 * Where text that does not parse breaks, said by its line and column alone. A parser's own message
 * quotes the text around the fault (JSON.parse: `Unexpected token 'A', "AKIA…" is not valid JSON`;
 * yaml: the whole line under a caret), and a file that is not what it should be may hold anything:
 * a committed `loops.check.yaml -> ../.aws/credentials`, a snapshot file that is someone's key.
 * So what loopsctl says of text it could not parse never shows any of it.
 */

export interface TextPosition {
  line: number;
  column: number;
}

/** The line and column (both from 1) of an offset in the text. */
export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const LITERALS = ['true', 'false', 'null'];

const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** How a token's scan ended: where the token ends, or the offset of its first fault. */
type Scanned = { end: number } | { fault: number };

/** The string that opens at `at`: where it ends (past its closing quote), or its first fault. */
function scanString(text: string, at: number): Scanned {
  for (let index = at + 1; index < text.length; ) {
    const char = text.charCodeAt(index);
    if (char === 0x22) return { end: index + 1 };
    if (char < 0x20) return { fault: index };
    if (char !== 0x5c) {
      index++;
      continue;
    }
    ESCAPE.lastIndex = index;
    const sequence = ESCAPE.exec(text);
    if (sequence === null) {
      // The fault is the character that is no escape, or the first of `\uXXXX` that is no hex digit.
      let fault = index + 1;
      if (text[fault] === 'u') for (fault++; fault < text.length && /[0-9a-fA-F]/.test(text[fault]!); ) fault++;
      return { fault };
    }
    index += sequence[0].length;
  }
  return { fault: text.length };
}

const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/** The number that starts at `at`: where it ends, or its first fault. */
function scanNumber(text: string, at: number): Scanned {
  let index = at;
  if (text[index] === '-') index++;
  const digits = () => {
    const start = index;
    while (isDigit(text[index])) index++;
    return index > start;
  };
  if (text[index] === '0') index++;
  else if (!digits()) return { fault: index };
  if (text[index] === '.') {
    index++;
    if (!digits()) return { fault: index };
  }
  if (text[index] === 'e' || text[index] === 'E') {
    index++;
    if (text[index] === '+' || text[index] === '-') index++;
    if (!digits()) return { fault: index };
  }
  return { end: index };
}

/** What the scanner expects next. */
type Expecting = 'value' | 'value or ]' | 'key or }' | 'key' | ':' | ', or end';

/**
 * The first offset of the text that JSON's grammar (RFC 8259) refuses, the text's length when it
 * ends too early, or undefined when it is JSON. One pass with a stack of its own: nesting as deep
 * as the text goes never deepens the call stack.
 */
export function jsonFaultOffset(text: string): number | undefined {
  const open: string[] = [];
  let expecting: Expecting = 'value';
  let at = 0;
  for (;;) {
    while (at < text.length && WHITESPACE.has(text[at]!)) at++;
    if (at === text.length) return expecting === ', or end' && open.length === 0 ? undefined : at;
    const char = text[at]!;
    if (expecting === ', or end') {
      const closer = open.at(-1);
      if (char === ',' && closer !== undefined) expecting = closer === '}' ? 'key' : 'value';
      else if (char === closer) open.pop();
      else return at;
      at++;
      continue;
    }
    if (expecting === ':') {
      if (char !== ':') return at;
      at++;
      expecting = 'value';
      continue;
    }
    if (expecting === 'key or }' || expecting === 'key') {
      if (char === '}' && expecting === 'key or }') {
        open.pop();
        at++;
        expecting = ', or end';
        continue;
      }
      if (char !== '"') return at;
      const key = scanString(text, at);
      if ('fault' in key) return key.fault;
      at = key.end;
      expecting = ':';
      continue;
    }
    if (char === ']' && expecting === 'value or ]') {
      open.pop();
      at++;
      expecting = ', or end';
      continue;
    }
    if (char === '[' || char === '{') {
      open.push(char === '[' ? ']' : '}');
      at++;
      expecting = char === '[' ? 'value or ]' : 'key or }';
      continue;
    }
    if (char === '"') {
      const string = scanString(text, at);
      if ('fault' in string) return string.fault;
      at = string.end;
      expecting = ', or end';
      continue;
    }
    const literal = LITERALS.find((word) => word[0] === char);
    if (literal !== undefined) {
      // A word cut short (`tru1`) is refused where it stops being the word.
      let matched = 0;
      while (matched < literal.length && text[at + matched] === literal[matched]) matched++;
      if (matched < literal.length) return at + matched;
      at += literal.length;
      expecting = ', or end';
      continue;
    }
    const number = char === '-' || isDigit(char) ? scanNumber(text, at) : { fault: at };
    if ('fault' in number) return number.fault;
    at = number.end;
    expecting = ', or end';
  }
}

/** Where text that is not JSON breaks: a line and column, and whether it ends before its JSON does. */
export function jsonFaultAt(text: string): TextPosition & { early: boolean } {
  // A byte order mark, which JSON allows a reader to skip, is one column of the first line.
  const offset = jsonFaultOffset(text.replace(/^\uFEFF/, '')) ?? 0;
  return { ...positionAt(text, offset), early: offset >= text.replace(/^\uFEFF/, '').length };
}

/** Why text is not JSON, in words that quote none of it: `not valid JSON at line 2, column 5`. */
export function jsonFault(text: string): string {
  if (text.trim() === '') return 'not valid JSON (it is empty)';
  const { line, column, early } = jsonFaultAt(text);
  return `not valid JSON ${early ? '(it ends too early) ' : ''}at line ${line}, column ${column}`;
}

/**
 * Why the yaml package refused a text, in words that quote none of it: its error's code (a fixed
 * name such as BAD_INDENT, unlike its message, which quotes the line) and, given the text, where.
 */
export function yamlFault(error: unknown, text?: string): string {
  const { code, pos } = error as { code?: unknown; pos?: [number, number] };
  const what = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code.toLowerCase().replaceAll('_', ' ')})` : '';
  if (text === undefined || pos === undefined) return `not valid YAML${what}`;
  const { line, column } = positionAt(text, pos[0]);
  return `not valid YAML${what} at line ${line}, column ${column}`;
}

/**
 * A parsed YAML document's value, or why it has none: the yaml package refuses to expand aliases
 * past a bound (a "billion laughs" of nested aliases would fill memory) by throwing, which is the
 * text's fault, not loopsctl's.
 */
export function yamlValue(document: { toJS(): unknown }): { value: unknown } | { fault: string } {
  try {
    return { value: document.toJS() };
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message))
      return { fault: 'not usable YAML: its aliases expand past what loopsctl reads (each alias may be used at most about 100 times)' };
    throw error;
  }
}
