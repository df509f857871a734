/**
 * Python, Ruby, Go and PHP read with a tokenizer rather than a parser: strings (Python's triple
 * quotes and prefixes, Go's backquotes), identifiers and punctuation, comments left out. A key
 * that names a send's part (`transactional_id=`, `"transactionalId":`, `eventName =>`) followed by
 * a string is a use; `data_variables` and `mailing_lists` followed by a literal map give its keys.
 * The keys of one call or literal belong together: the data variables go with the transactional
 * id of the same brackets, whichever comes first.
 */
import { extname } from 'node:path';
import type { CodeUse } from './uses.js';
import { KEYS, normalKey } from './uses.js';

interface Token {
  type: 'string' | 'word' | 'punct';
  value: string;
  line: number;
  column: number;
}

const LINE_COMMENT: Record<string, string[]> = { '.py': ['#'], '.rb': ['#'], '.go': ['//'], '.php': ['//', '#'] };
const BLOCK_COMMENTS: Record<string, boolean> = { '.go': true, '.php': true };

/** The tokens of a source, in order. Unclosed strings and comments end at the end of the text. */
export function tokenize(text: string, extension: string): Token[] {
  const tokens: Token[] = [];
  const lineComments = LINE_COMMENT[extension] ?? ['#'];
  let line = 1;
  let lineStart = 0;
  let index = 0;
  // A Python string's prefix (f"…", rb'…'), where the string's token starts.
  let prefixColumn: number | undefined;
  const advance = (to: number) => {
    for (let at = index; at < to && at < text.length; at++) {
      if (text[at] === '\n') {
        line++;
        lineStart = at + 1;
      }
    }
    index = to;
  };
  while (index < text.length) {
    const char = text[index]!;
    const column = index - lineStart + 1;
    if (/\s/.test(char)) {
      advance(index + 1);
    } else if (lineComments.some((start) => text.startsWith(start, index))) {
      const end = text.indexOf('\n', index);
      advance(end === -1 ? text.length : end);
    } else if (BLOCK_COMMENTS[extension] && text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      advance(end === -1 ? text.length : end + 2);
    } else if (char === '"' || char === "'" || char === '`') {
      const startLine = line;
      const triple = extension === '.py' && text.startsWith(char.repeat(3), index);
      const quote = triple ? char.repeat(3) : char;
      let at = index + quote.length;
      let value = '';
      while (at < text.length && !text.startsWith(quote, at)) {
        if (text[at] === '\\' && char !== '`') {
          value += text[at + 1] ?? '';
          at += 2;
        } else {
          value += text[at];
          at++;
        }
      }
      tokens.push({ type: 'string', value, line: startLine, column: prefixColumn ?? column });
      prefixColumn = undefined;
      advance(Math.min(at + quote.length, text.length));
    } else if (/[\p{L}_$]/u.test(char)) {
      let at = index + 1;
      while (at < text.length && /[\p{L}\p{N}_$]/u.test(text[at]!)) at++;
      // A Python string prefix (f"…", rb'…') is part of the string that follows.
      const word = text.slice(index, at);
      if (extension === '.py' && /^[rbfuRBFU]{1,2}$/.test(word) && (text[at] === '"' || text[at] === "'")) {
        prefixColumn = column;
        advance(at);
        continue;
      }
      tokens.push({ type: 'word', value: word, line, column });
      advance(at);
    } else {
      const pair = text.slice(index, index + 2);
      const value = pair === '=>' || pair === '::' ? pair : char;
      tokens.push({ type: 'punct', value, line, column });
      advance(index + value.length);
    }
  }
  return tokens;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const ASSIGN = new Set(['=', ':', '=>']);

/** The token is a key naming one of the send's parts, followed by what assigns it: its value's index. */
function valueIndex(tokens: Token[], at: number): number | undefined {
  const token = tokens[at]!;
  if (token.type === 'punct') return undefined;
  const next = tokens[at + 1];
  // Ruby's `transactional_id: "…"` and `:transactional_id => "…"` alike.
  if (next?.type === 'punct' && ASSIGN.has(next.value)) return at + 2;
  return undefined;
}

/** The string keys of a literal map starting at `open`: `{"firstName": …}`, `array('a' => …)`, Go's `map[string]any{…}`, Ruby's `{ first_name: … }`. */
function mapKeys(tokens: Token[], start: number): { keys: Token[]; end: number } | undefined {
  let open = start;
  // Go writes the map's type first; PHP may write array( … ).
  while (open < tokens.length && open < start + 8 && !(tokens[open]!.type === 'punct' && tokens[open]!.value in OPENERS)) open++;
  const opener = tokens[open];
  if (opener === undefined || !(opener.value in OPENERS)) return undefined;
  if (opener.value === '[' && tokens[open + 1]?.value === 'string') {
    // Go's map[string]T: skip the type to its braces.
    return mapKeys(tokens, open + 3);
  }
  const keys: Token[] = [];
  let depth = 0;
  for (let at = open; at < tokens.length; at++) {
    const token = tokens[at]!;
    if (token.type === 'punct' && token.value in OPENERS) depth++;
    else if (token.type === 'punct' && Object.values(OPENERS).includes(token.value)) {
      depth--;
      if (depth === 0) return { keys, end: at };
    } else if (depth === 1 && (token.type === 'string' || token.type === 'word') && valueIndex(tokens, at) !== undefined) {
      const previous = tokens[at - 1];
      // A key starts an entry: after the opener or a comma.
      if (previous !== undefined && (previous.value === ',' || previous.value in OPENERS)) keys.push(token);
    }
  }
  return { keys, end: tokens.length };
}

/** The uses in one file of Python, Ruby, Go or PHP. */
export function tokenUses(file: string, text: string): CodeUse[] {
  const tokens = tokenize(text, extname(file));
  const uses: CodeUse[] = [];
  const at = (token: Token) => ({ file, line: token.line, column: token.column });
  // Per open bracket: the transactional use made in it, and the data variables given in it.
  const groups: { send?: CodeUse; variables?: string[] }[] = [{}];
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type === 'punct') {
      if (token.value in OPENERS) groups.push({});
      else if (Object.values(OPENERS).includes(token.value) && groups.length > 1) {
        const group = groups.pop()!;
        if (group.send !== undefined && group.variables !== undefined) group.send.dataVariables = group.variables;
      }
      continue;
    }
    const value = valueIndex(tokens, index);
    if (value === undefined) continue;
    const key = normalKey(token.value.replace(/^:/, ''));
    const target = tokens[value];
    const group = groups.at(-1)!;
    if ((key === KEYS.transactional || key === KEYS.event) && target?.type === 'string') {
      const found: CodeUse = { kind: key === KEYS.event ? 'event' : 'transactional', value: target.value, ...at(target) };
      uses.push(found);
      if (found.kind === 'transactional') group.send = found;
    } else if (key === KEYS.dataVariables || key === KEYS.lists) {
      const map = mapKeys(tokens, value);
      if (map === undefined) continue;
      if (key === KEYS.lists) for (const list of map.keys) uses.push({ kind: 'list', value: list.value, ...at(list) });
      else group.variables = map.keys.map((variable) => variable.value);
    }
  }
  return uses;
}
