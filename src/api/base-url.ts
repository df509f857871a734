/**
 * The base URL every request path is appended to (--base-url, LOOPS_BASE_URL), checked before
 * anything is sent, and shown with any user:password part hidden.
 */

import { escapeControls } from '../base/body-preview.js';
import { UsageError } from '../base/errors.js';
import { redactUrl } from '../base/redact-url.js';

const HINT = 'give the API root as http(s)://host[:port][/path], for example https://app.loops.so/api';

/** Where the API lives, which loopsctl appends `/v1/...` to. */
export const DEFAULT_BASE_URL = 'https://app.loops.so/api';
const LOOPS_HOSTS = new Set(['app.loops.so', 'loops.so', 'www.loops.so']);

/**
 * The base URL as requests use it: http or https, without a query, a fragment or a trailing slash.
 * Throws UsageError (exit 2) for anything else, without quoting a password it may hold. `label`
 * names where it came from (`--base-url`, `LOOPS_BASE_URL`). A path that cannot be right is
 * refused by name: one that ends in /v1 (every request path starts with it), a doubled /api, and
 * for Loops' own host anything but /api.
 */
export function parseBaseUrl(raw: string, label = 'the base URL'): string {
  const text = raw.trim();
  const shown = escapeControls(redactUrl(text));
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    // Handled below with the scheme check: "127.0.0.1:5150" is not a URL at all.
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const schemeless = !/^[a-z][a-z\d+.-]*:\/\//i.test(text) && text.length > 0;
    throw new UsageError(`${label} "${shown}" is not an http or https URL`, {
      hint: schemeless ? `add the scheme: http://${shown} for a local server, https://${shown} otherwise` : HINT,
    });
  }
  checkUserinfo(url, label);
  if (text.includes('?') || text.includes('#')) {
    throw new UsageError(`${label} "${shown}" has a query or a fragment, which request paths cannot be appended to`, { hint: HINT });
  }
  const base = url.toString().replace(/\/+$/, '');
  const path = url.pathname.replace(/\/+$/, '');
  const instead = (fixedPath: string) => escapeControls(redactUrl(`${base.slice(0, base.length - path.length)}${fixedPath}`));
  if (/\/v1$/i.test(path)) {
    throw new UsageError(`${label} "${shown}" ends in /v1, which loopsctl adds to every request path`, { hint: `give ${instead(path.slice(0, -3))}` });
  }
  if (/\/api\/api(\/|$)/i.test(path)) {
    throw new UsageError(`${label} "${shown}" has /api twice`, { hint: `give ${instead(path.replace(/\/api\/api(?=\/|$)/i, '/api'))}` });
  }
  if (LOOPS_HOSTS.has(url.hostname) && path.toLowerCase() !== '/api') {
    const what = path === '' ? 'has no /api path' : `has the path ${escapeControls(path)}, not /api`;
    throw new UsageError(`${label} "${shown}" ${what}: the Loops API is at ${DEFAULT_BASE_URL}`, {
      hint: `give ${DEFAULT_BASE_URL}, or leave the base URL out`,
    });
  }
  return base;
}

/**
 * A user name and password in a URL are sent decoded, so their escapes must decode to text:
 * `%E0%A4` is two bytes that are no character, refused here rather than by the request that
 * decodes them. Neither is quoted.
 */
export function checkUserinfo(url: URL, label: string): void {
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new UsageError(`the user name or password in ${label} holds escapes (%XX) that decode to no text`, {
      hint: 'percent-encode each byte of a character of UTF-8 (é is %C3%A9), and a % itself as %25',
    });
  }
}
