/**
 * The base URL every request path is appended to (--base-url, LOOPS_BASE_URL), checked before
 * anything is sent, and shown with any user:password part hidden.
 */
import { UsageError } from './errors.js';
import { escapeControls } from './body-preview.js';

const HINT = 'give the API root as http(s)://host[:port][/path], for example https://app.loops.so/api';

/**
 * The base URL as requests use it: http or https, without a query, a fragment or a trailing slash.
 * Throws UsageError (exit 2) for anything else, without quoting a password it may hold.
 */
export function parseBaseUrl(raw: string): string {
  const text = raw.trim();
  const shown = escapeControls(redactUserinfo(text));
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Handled below with the scheme check: "127.0.0.1:5150" is not a URL at all.
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const schemeless = !/^[a-z][a-z\d+.-]*:\/\//i.test(text) && text.length > 0;
    throw new UsageError(`the base URL "${shown}" is not an http or https URL`, {
      hint: schemeless ? `add the scheme: http://${shown} for a local server, https://${shown} otherwise` : HINT,
    });
  }
  if (text.includes('?') || text.includes('#')) {
    throw new UsageError(`the base URL "${shown}" has a query or a fragment, which request paths cannot be appended to`, { hint: HINT });
  }
  return url.toString().replace(/\/+$/, '');
}

/**
 * The URL with its user:password part (if any) replaced by [redacted], for --debug lines and
 * error messages. Text that is not a URL is returned with anything before an "@" in the authority
 * redacted all the same.
 */
export function redactUserinfo(text: string): string {
  return text.replace(/^([a-z][a-z\d+.-]*:\/\/)?[^/?#@]*@/i, (_match, scheme: string | undefined) => `${scheme ?? ''}[redacted]@`);
}
