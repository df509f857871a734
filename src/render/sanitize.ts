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
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function sanitize(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
