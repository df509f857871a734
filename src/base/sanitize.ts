/**
 * Strings from the API are data, not terminal instructions: before they reach text output, C0 and
 * C1 control characters (ESC, BEL, the one-character CSI U+009B, ...) and DEL become visible escapes.
 *
 * Compared with gh's asciisanitizer, which turns the same C0 and C1 characters into caret notation:
 * tab, newline, vertical tab and carriage return are escaped here too (gh keeps them), because in a
 * table cell or a TSV field they would break the row or, for CR, let a value overwrite its line;
 * DEL is escaped as well; and C1 characters get their own escapes (\x9b) where caret notation would
 * make them look like their C0 twins (^[ for both ESC and CSI). `--json` output does not pass through
 * here; JSON escapes control characters itself (see formatJson).
 *
 * Invisible format characters are escaped too (as \u202e): bidirectional embeddings, overrides and
 * isolates (U+202A-202E, U+2066-2069), which can make a name read backwards or hide what follows
 * it; zero-width spaces, joiners and marks (U+200B-200F, U+2060, U+FEFF), which make two different
 * strings look alike; and the line and paragraph separators (U+2028, U+2029), which some terminals
 * treat as line breaks.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  if (code > 0xff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return NAMED[char] ?? `\\x${code.toString(16).padStart(2, '0')}`;
}

export function sanitize(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** The invisible format characters of UNSAFE, which JSON leaves raw. */
const INVISIBLE = /[\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * JSON text for a terminal: the invisible format characters as JSON's \u escapes, the same string
 * to a JSON reader, but visible. Valid JSON has them only inside strings, so the whole text can be
 * replaced.
 */
export function escapeInvisible(json: string): string {
  return json.replace(INVISIBLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Control characters escaped as sanitize() does, but line breaks and tabs kept: text meant to be read as lines. */
export function sanitizeKeepingLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split('\t').map(sanitize).join('\t'))
    .join('\n');
}

/**
 * JSON text with the characters JSON leaves raw that a terminal or a log acts on (DEL, C1 such as
 * U+009B, the invisible format characters) as \u escapes: the same value to a JSON reader. Valid
 * JSON has the others escaped already, and these only inside strings.
 */
export function escapeUnsafeInJson(json: string): string {
  return escapeInvisible(json).replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The C1 controls, which nothing loopsctl writes for a terminal uses: its colours are C0 (ESC) sequences. */
const C1 = /[\u0080-\u009f]/g;

/**
 * Text for a terminal with each C1 control (U+0080-U+009F, such as the one-character CSI U+009B)
 * as sanitize() escapes it: the last guard of what reaches a terminal, for text that came from
 * elsewhere and was not escaped where it was put together.
 */
export function escapeC1(text: string): string {
  return text.replace(C1, escapeChar);
}
