/**
 * Strings from the API are data, not terminal instructions: before they reach text output, C0 and
 * C1 control characters (ESC, BEL, CSI, ...) and DEL become visible escapes. `--json` output does
 * not pass through here; JSON escapes control characters itself.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function sanitize(text: string): string {
  return text.replace(CONTROL, (char) => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
