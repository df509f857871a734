/**
 * Python, Ruby, Go and PHP read with a tokenizer rather than a parser: strings (Python's triple
 * quotes and prefixes, Go's backquotes), identifiers and punctuation, comments left out. A key
 * that names a send's part (`transactional_id=`, `"transactionalId":`, `eventName =>`) followed by
 * a string is a use; `data_variables` and `mailing_lists` followed by a literal map give its keys.
 * The keys of one call or literal belong together: the data variables go with the transactional
 * id of the same brackets, whichever comes first.
 *
 * Both passes are linear in the text and neither recurses: each character is read once by the
 * tokenizer, each token once by the pass that finds the uses, and the brackets open at once are a
 * stack in an array (a repository's file may be written to defeat a scanner). A file's tokens are
 * bounded too: past MAX_TOKENS the rest is left unread, and the scan says where it stopped.
 */
import { extname } from 'node:path';
import type { CodeUse, FileScan, ScanSteps } from './uses.js';
import { KEYS, normalKey } from './uses.js';

interface Token {
  type: 'string' | 'word' | 'punct';
  value: string;
  line: number;
  column: number;
}

/** Tokens read of one file at most: far more than a hand-written source holds (2 MB of code is some 400,000). */
export const MAX_TOKENS = 1_000_000;

const LINE_COMMENT: Record<string, string[]> = { '.py': ['#'], '.rb': ['#'], '.go': ['//'], '.php': ['//', '#'] };
const BLOCK_COMMENTS: Record<string, boolean> = { '.go': true, '.php': true };
const WORD = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
const SPACE = /\s/;
const NEWLINE = 10;

/** Where the identifier starting at `index` ends; -1 when none starts there. */
function wordEnd(text: string, index: number): number {
  WORD.lastIndex = index;
  return WORD.test(text) ? WORD.lastIndex : -1;
}

interface Tokenized {
  tokens: Token[];
  /** Where reading stopped, when the file holds more than MAX_TOKENS. */
  stoppedAt?: { line: number; column: number };
}

/** The tokens of a source, in order. Unclosed strings and comments end at the end of the text. */
export function tokenize(text: string, extension: string, steps: ScanSteps = { count: 0 }, limit = MAX_TOKENS): Tokenized {
  const tokens: Token[] = [];
  const lineComments = LINE_COMMENT[extension] ?? ['#'];
  let line = 1;
  let lineStart = 0;
  let index = 0;
  // A Python string's prefix (f"…", rb'…'), where the string's token starts.
  let prefixColumn: number | undefined;
  /** Moves to `to`, counting the lines passed: every character is passed once. */
  const advance = (to: number) => {
    const end = Math.min(to, text.length);
    steps.count += end - index;
    for (let at = index; at < end; at++) {
      if (text.charCodeAt(at) === NEWLINE) {
        line++;
        lineStart = at + 1;
      }
    }
    index = end;
  };
  while (index < text.length) {
    if (tokens.length >= limit) return { tokens, stoppedAt: { line, column: index - lineStart + 1 } };
    const char = text[index]!;
    const column = index - lineStart + 1;
    if (SPACE.test(char)) {
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
      advance(at + quote.length);
    } else if (wordEnd(text, index) !== -1) {
      const at = wordEnd(text, index);
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
  return { tokens };
}

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);
const ASSIGN = new Set(['=', ':', '=>']);
/** A literal map's opener stands this many tokens after its key's `=` at most (Go writes `map[string]any` first, PHP `array(`). */
const MAP_REACH = 8;

const isPunct = (token: Token | undefined, among: ReadonlySet<string>) => token?.type === 'punct' && among.has(token.value);

/** The token is a key followed by what assigns it: its value's index. */
function valueIndex(tokens: Token[], at: number): number | undefined {
  const token = tokens[at]!;
  if (token.type === 'punct') return undefined;
  // Ruby's `transactional_id: "…"` and `:transactional_id => "…"` alike.
  return isPunct(tokens[at + 1], ASSIGN) ? at + 2 : undefined;
}

/** A literal map being read: `data_variables={…}` or `mailing_lists => […]`, with the brackets it was given in. */
interface MapRead {
  kind: 'variables' | 'lists';
  owner: Bracket;
  keys: string[];
}

/** An open bracket: the transactional use made in it, the data variables given in it, and the map it opens, if it does. */
interface Bracket {
  send?: CodeUse;
  variables?: string[];
  map?: MapRead;
}

/** The uses in one file of Python, Ruby, Go or PHP. `steps` counts the work done: characters and tokens read. */
export function tokenUses(file: string, text: string, steps: ScanSteps = { count: 0 }, limit = MAX_TOKENS): FileScan {
  const { tokens, stoppedAt } = tokenize(text, extname(file), steps, limit);
  const uses: CodeUse[] = [];
  const at = (token: Token) => ({ file, line: token.line, column: token.column });
  const brackets: Bracket[] = [{}];
  // A map key seen, its opener not yet: where the opener may stand.
  let awaited: { kind: MapRead['kind']; owner: Bracket; from: number; to: number } | undefined;
  for (let index = 0; index < tokens.length; index++) {
    steps.count++;
    const token = tokens[index]!;
    if (awaited !== undefined && index > awaited.to) awaited = undefined;
    if (isPunct(token, OPENERS)) {
      const opened: Bracket = {};
      if (awaited !== undefined && index >= awaited.from) {
        // Go's map[string]T: the type's brackets are not the map's; its braces follow.
        if (token.value === '[' && tokens[index + 1]?.value === 'string') awaited = { ...awaited, from: index + 3, to: index + 3 + MAP_REACH - 1 };
        else {
          opened.map = { kind: awaited.kind, owner: awaited.owner, keys: [] };
          awaited = undefined;
        }
      }
      brackets.push(opened);
      continue;
    }
    if (isPunct(token, CLOSERS)) {
      if (brackets.length > 1) {
        const closed = brackets.pop()!;
        if (closed.map?.kind === 'variables') closed.map.owner.variables = closed.map.keys;
        if (closed.send !== undefined && closed.variables !== undefined) closed.send.dataVariables = closed.variables;
      }
      continue;
    }
    const value = valueIndex(tokens, index);
    if (value === undefined) continue;
    const bracket = brackets.at(-1)!;
    // A key of the map this bracket opens starts an entry: after the opener or a comma.
    const previous = tokens[index - 1];
    if (bracket.map !== undefined && previous?.type === 'punct' && (previous.value === ',' || OPENERS.has(previous.value))) {
      bracket.map.keys.push(token.value);
      if (bracket.map.kind === 'lists') uses.push({ kind: 'list', value: token.value, ...at(token) });
    }
    const key = normalKey(token.value.replace(/^:/, ''));
    const target = tokens[value];
    if ((key === KEYS.transactional || key === KEYS.event) && target?.type === 'string') {
      const found: CodeUse = { kind: key === KEYS.event ? 'event' : 'transactional', value: target.value, ...at(target) };
      uses.push(found);
      if (found.kind === 'transactional') bracket.send = found;
    } else if (key === KEYS.dataVariables || key === KEYS.lists) {
      awaited = { kind: key === KEYS.lists ? 'lists' : 'variables', owner: bracket, from: value, to: value + MAP_REACH - 1 };
    }
  }
  if (stoppedAt === undefined) return { uses };
  return { uses, unread: `the rest from line ${stoppedAt.line}, column ${stoppedAt.column}: over ${limit.toLocaleString('en-US')} tokens` };
}
