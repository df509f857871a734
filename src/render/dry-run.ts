/**
 * What --dry-run prints: the requests a write would have sent, as the client built them (method,
 * path below the base URL, JSON body, and the idempotency key a send carries), and that nothing
 * was sent. `--json` gives the same as one object. A command that sends elsewhere than the API
 * (`webhooks trigger`) shows its requests the same way, with their address and headers.
 */
import type { HttpRequest } from '../api/http.js';
import { escapeInvisible, sanitize } from '../base/sanitize.js';
import { formatJson, type Output } from './output.js';

export interface HeldRequest {
  method: string;
  /** Below the base URL; for a request elsewhere, its whole address, or null when it is not known yet. */
  path: string | null;
  body: unknown;
  idempotencyKey: string | null;
  /** The headers of a request elsewhere than the API, where they are what is being tried out (a signature). */
  headers?: Record<string, string>;
}

/** A request as --dry-run shows it; a query is part of the path, as it would be sent. */
export function heldRequest(req: HttpRequest): HeldRequest {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(req.query ?? {})) if (value !== undefined) query.set(key, String(value));
  const path = query.size === 0 ? req.path : `${req.path}${req.path.includes('?') ? '&' : '?'}${query}`;
  const key = Object.entries(req.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
  return { method: req.method, path, body: bodyOf(req), idempotencyKey: key ?? null };
}

/** The body as JSON, or as the text it is when it is not JSON. */
function bodyOf(req: HttpRequest): unknown {
  if (req.bodyText === undefined) return req.body ?? null;
  try {
    return JSON.parse(req.bodyText);
  } catch {
    return req.bodyText;
  }
}

export function presentHeld(out: Output, held: HttpRequest[]): Promise<void> {
  return presentRequests(out, held.map(heldRequest));
}

export function presentRequests(out: Output, requests: HeldRequest[]): Promise<void> {
  return out.present({ dryRun: true, sent: false, requests }, (shownOn, { requests: shown }) => {
    // A request elsewhere is written as it would be sent, compact, for its signature covers those
    // bytes; on a terminal it is indented to be read, and says so.
    const exact = (headers: HeldRequest['headers']) => headers !== undefined && !shownOn.tty;
    const blocks = shown.map(({ method, path, body, idempotencyKey, headers }) =>
      [
        `${method} ${path === null ? '(the address not given yet)' : sanitize(path)}`,
        ...(idempotencyKey === null ? [] : [`Idempotency-Key: ${sanitize(idempotencyKey)}`]),
        ...Object.entries(headers ?? {}).map(([name, value]) => sanitize(`${name}: ${value}`)),
        // As in HTTP, a blank line before the body. JSON escapes control characters; the invisible ones it leaves raw are escaped here.
        ...(body === null ? [] : ['', escapeInvisible(exact(headers) ? formatJson(body, 0) : formatJson(body))]),
        ...(body !== null && headers !== undefined && !exact(headers) ? ['', '(indented here; it is sent compact, as signed: pipe it for those bytes)'] : []),
      ].join('\n'),
    );
    return `Dry run: nothing was sent. The request${shown.length === 1 ? '' : 's'} it would send:\n\n${blocks.join('\n\n')}\n`;
  });
}
