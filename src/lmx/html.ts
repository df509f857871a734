/** Writing HTML for email: escaping, inline style attributes, pixel sizes. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;

/** Text for HTML content and double-quoted attribute values alike. */
export function escapeHtml(text: string): string {
  // Most text has nothing to escape: tested first, it is returned as it is.
  return NEEDS_ESCAPE.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char]!) : text;
}

/** Style declarations as an attribute: `style="a:b;c:d"`, the values already safe. */
export function style(declarations: (string | false | undefined)[]): string {
  const text = declarations.filter(Boolean).join(';');
  return text === '' ? '' : ` style="${escapeHtml(text)}"`;
}

export const px = (value: number) => `${value}px`;
