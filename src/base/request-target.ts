/**
 * The one spelling of a request's target: the path below the base URL, and its query, as they go
 * on the wire. A URL parser and a server read some spellings as another path than the one written:
 * a `\` as a `/`, a `.` or `..` segment (or one spelled `%2e`) as a step through the path, `//` as
 * one separator, a control character as nothing, and some servers an encoded `/`, `\` or `.` in a
 * segment as the character itself. A path so spelled would be judged as one request and sent as
 * another, so it is refused before anything is sent: the transport (src/api/http.ts), the write
 * gate (src/core/gate.ts) and the check of a plan's calls (src/areas/change/) read paths through
 * this module alone, and each sees the target the platform and the sandbox route.
 *
 * A read changes nothing, so its path may hold an encoded `/` or `\` inside a segment (an event's
 * name, looked up by name, may hold a `/`); a write's may not.
 */
import { escapeControls } from './body-preview.js';
import { UsageError } from './errors.js';

/** A request's target as sent: its path below the base URL, and its query (`''` or `?…`). */
export interface RequestTarget {
  path: string;
  search: string;
}

/** C0 and C1 controls and DEL: a URL parser drops some and encodes others. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A `%` that encodes no byte. */
const STRAY_PERCENT = /%(?![0-9A-Fa-f]{2})/;
/** An escape of a character that needs none (a letter, a digit, `-`, `.`, `_`, `~`): the same path spelled otherwise. */
const NEEDLESS_ESCAPE = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[Dd]|2[Ee]|5[Ff]|7[Ee])/;
/** An escape of a separator (`/`, `\`) or of a dot, which some servers decode before they route. */
const ENCODED_SEPARATOR = /%(?:2[FfEe]|5[Cc])/;

/**
 * Why a path is not sent as written, in words, or undefined when it is. `write`: the request
 * changes the account, and no segment of its path may hold an encoded separator.
 */
export function pathProblem(path: string, write: boolean): string | undefined {
  if (!path.startsWith('/')) return 'it does not start with /';
  if (CONTROL.test(path)) return 'it holds a control character, which is not sent as written';
  if (path.includes('\\')) return 'it holds a \\, which is sent as /';
  if (path.includes('#')) return 'it holds a #, which ends what is sent';
  if (path.includes('?')) return 'it holds a ?, which starts a query';
  const segments = path.slice(1).split('/');
  if (segments.some((segment) => segment === '')) return 'it holds an empty segment (// or a / at its end)';
  if (segments.some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) return 'it holds a . or .. segment, which steps through the path';
  if (STRAY_PERCENT.test(path)) return 'it holds a % that encodes nothing';
  if (write && ENCODED_SEPARATOR.test(path)) return 'it holds an encoded /, \\ or . (%2F, %5C, %2E), which a server may read as the character';
  if (NEEDLESS_ESCAPE.test(path)) return 'it escapes a character that needs no escape, which is the same path spelled otherwise';
  if (new URL(path, 'http://target.invalid').pathname !== path) return 'a URL parser reads it otherwise (a space or a character outside ASCII is sent escaped)';
  return undefined;
}

/** The refusal of a path that is not sent as written: before anything is sent, exit 2. */
export function pathRefusal(path: string, problem: string): UsageError {
  return new UsageError(`the path "${escapeControls(path)}" is not sent as written: ${problem}; nothing was sent`, {
    code: 'path',
    hint: 'write the path as the API names it: no \\, no . or .. segment, no empty segment, no control character, and no /, \\ or . percent-encoded in a segment',
  });
}

/** Why a target (a path, and any query it holds) is not sent as written, in words, or undefined when it is. */
export function targetProblem(written: string, write: boolean): string | undefined {
  const mark = written.indexOf('?');
  const problem = pathProblem(mark < 0 ? written : written.slice(0, mark), write);
  if (problem !== undefined || mark < 0) return problem;
  const query = written.slice(mark);
  if (query.includes('#')) return 'its query holds a #, which ends what is sent';
  if (CONTROL.test(query)) return 'its query holds a control character, which is not sent as written';
  return undefined;
}

/**
 * The target a request goes to: its path exactly as written, when it is sent so (else refused
 * before anything is sent), and its query as a URL writes it: the query `written` holds, then
 * `query`'s parameters.
 */
export function requestTarget(written: string, query: Record<string, string | number | undefined> | undefined, write: boolean): RequestTarget {
  const problem = targetProblem(written, write);
  if (problem !== undefined) throw pathRefusal(written, problem);
  const mark = written.indexOf('?');
  const path = mark < 0 ? written : written.slice(0, mark);
  const entries = Object.entries(query ?? {}).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  if (mark < 0 && entries.length === 0) return { path, search: '' };
  const url = new URL(`http://target.invalid/${mark < 0 ? '' : written.slice(mark)}`);
  for (const [key, value] of entries) url.searchParams.set(key, String(value));
  return { path, search: url.search };
}
