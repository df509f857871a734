/**
 * A URL as loopsctl may show it: without the secrets it can carry. Its user:password part, and the
 * value of each query (or fragment) parameter whose name says it holds a secret or the place of
 * one. PostgreSQL's URLs take their password as `?password=` as well as in the user part (libpq's
 * URI form, which the pg client follows), and `sslpassword`, `sslkey` (the client key's file),
 * `passfile` and `oauth_client_secret` among libpq's parameters; a webhook URL often carries a
 * `token`, `key` or `sig`. A name is judged by these words, not by a list, so that one added later
 * is hidden too.
 */
const SECRET_NAME = /pass|secret|token|key|sig|auth|cred/i;

const REDACTED = '[redacted]';

/** Whether a query parameter of this name is shown as [redacted]. */
export function isSecretParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A name with a broken escape is judged as written.
  }
  return SECRET_NAME.test(decoded);
}

/** `a=1&password=x` with each secret value as [redacted]. */
function redactParameters(parameters: string): string {
  return parameters
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals >= 0 && isSecretParameter(pair.slice(0, equals)) ? `${pair.slice(0, equals + 1)}${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * The URL with its user:password part (if any) and its secret parameters' values replaced by
 * [redacted], for what loopsctl prints and the errors it raises. Text that is not a URL is
 * redacted all the same: anything before an "@" in the authority, and the parameters after a "?".
 */
export function redactUrl(text: string): string {
  const userless = text.replace(/^([a-z][a-z\d+.-]*:\/\/)?[^/?#@]*@/i, (_match, scheme: string | undefined) => `${scheme ?? ''}${REDACTED}@`);
  return userless.replace(/([?#])([^#]*)/g, (_match, mark: string, parameters: string) => `${mark}${redactParameters(parameters)}`);
}
