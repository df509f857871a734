/** The parts of an `api` request given on the command line: path and headers, checked. */
import { UsageError } from '../../base/errors.js';

/**
 * The path below the base URL, with the version prefix: `themes`, `/themes`, `v1/themes` and
 * `/v1/themes` all mean `/v1/themes`. A full URL is refused, so the key is only ever sent to the
 * base URL.
 */
export function apiPath(written: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(written) || written.startsWith('//')) {
    throw new UsageError(`"${written}" is a full URL; give the path below the base URL`, { hint: 'for example /v1/themes; --base-url chooses the server' });
  }
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(written)) {
    throw new UsageError('the path contains spaces or control characters', { hint: 'percent-encode them (a space is %20)' });
  }
  const path = written.replace(/^\/+/, '');
  return /^v\d+(?:[/?]|$)/.test(path) ? `/${path}` : `/v1/${path}`;
}

/** The path with query parameters added after any it already has. */
export function withQuery(path: string, query: URLSearchParams): string {
  const text = query.toString();
  if (text === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
}

const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/s;

/**
 * -H headers as a record with lower-case names, so that one given here replaces loopsctl's own
 * (Accept, Content-Type). Messages name the header, never its value, which may be a secret.
 */
export function parseHeaders(written: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of written) {
    const match = HEADER.exec(text);
    if (match === null) throw new UsageError('-H expects "Name: value"', { hint: "for example -H 'Accept: application/json'" });
    const [, name, value] = match;
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value!)) throw new UsageError(`the value of header ${name} contains control characters`);
    headers[name!.toLowerCase()] = value!;
  }
  return headers;
}

export interface MethodChoice {
  method?: string;
  rawField?: string[];
  field?: string[];
  input?: string;
  paginate?: boolean;
}

/** The request's method: -X, else, as gh does, POST when fields or a body are given (lists are read with GET). */
export function methodOf(options: MethodChoice): string {
  const hasBody = options.input !== undefined || (options.rawField?.length ?? 0) > 0 || (options.field?.length ?? 0) > 0;
  return options.method ?? (hasBody && !options.paginate ? 'POST' : 'GET');
}
