/**
 * The Loops API client: sends a request through the transport and checks the answer against its
 * zod schema, and pages through lists. Each area of the API declares its own operations on top of
 * it (src/areas/<area>/client.ts). Answers are returned exactly as received (unknown fields and
 * key order kept), typed by the schema they passed.
 */

import { describeBody } from '../base/body-preview.js';
import { InvalidResponseError } from '../base/errors.js';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../base/paging.js';
import { type Page, pageOf } from '../base/shapes.js';
import type * as z from '../base/zod.js';
import { CursorGuard } from './cursor-guard.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';

export interface ListOptions {
  /** Page size, 10 to 50; by default the largest, or no more than the limit needs. */
  perPage?: number;
  /** Stop after this many items. */
  limit?: number;
  /** Start from this cursor and fetch only that page. */
  cursor?: string;
}

/** A list operation: where it is, and the shape of its items. */
export interface ListResource<T> {
  path: string;
  item: z.ZodMiniType<T>;
}

export class ApiClient {
  constructor(private readonly http: Transport) {}

  /** Sends a request and returns its answer once it has the schema's shape. */
  async call<S extends z.ZodMiniType>(req: HttpRequest, schema: S): Promise<z.infer<S>> {
    return (await this.answer(req, schema)).body;
  }

  /** As call, with the answer's headers as well (its Date, for the clock's skew). */
  async answer<S extends z.ZodMiniType>(req: HttpRequest, schema: S): Promise<{ body: z.infer<S>; headers: HttpResponse['headers'] }> {
    const response = await this.http.send(req);
    return { body: checkShape(schema, response.body, () => requestName(req), response), headers: response.headers };
  }

  /**
   * Pages through a list, following pagination.nextCursor, and yields each page as it arrives.
   * With a limit, the last page is cut to it and no further page is asked for; with a cursor,
   * only that one page is fetched.
   */
  async *pages<T>(resource: ListResource<T>, options: ListOptions = {}): AsyncGenerator<Page<T>> {
    const envelope = pageOf(resource.item);
    // An empty cursor is the first page, as a script's paging loop starts.
    let cursor = options.cursor || undefined;
    let remaining = options.limit ?? Infinity;
    // One size for the whole listing: the API does not say that a cursor outlives a change of size.
    const perPage = options.perPage ?? pageSizeFor(remaining);
    const guard = new CursorGuard();
    while (remaining > 0) {
      const page = (await this.call({ method: 'GET', idempotent: true, path: resource.path, query: { perPage, cursor } }, envelope)) as Page<T>;
      if (page.data.length > remaining) page.data = page.data.slice(0, remaining);
      remaining -= page.data.length;
      yield page;
      if (options.cursor !== undefined) return;
      // An empty page that still names a next one is followed: the guard ends a loop.
      const next = guard.follow(page.pagination);
      if (next === undefined) return;
      cursor = next;
    }
  }
}

/** Every item of a list, every page read. */
export async function everyItem<T>(api: ApiClient, resource: ListResource<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of api.pages(resource)) items.push(...page.data);
  return items;
}

/**
 * Every page of a list, read when they are no more than `records`, what reading that many of its
 * records one by one would cost: the first page says how many there are. For a run that keeps its
 * reads (read-cache.ts), which answers a read of a record from the page that holds it.
 */
export async function readListWhenCheaper<T>(api: ApiClient, resource: ListResource<T>, records: number): Promise<void> {
  for await (const page of api.pages(resource)) if (page.pagination.totalPages > records) return;
}

/** "GET /v1/themes": what the request was, put in words only for an answer of the wrong shape. */
function requestName(req: HttpRequest): string {
  return `${req.method} ${req.path.split('?')[0]}`;
}

/**
 * The page size when --per-page is not given. The API allows about 10 requests a second, so a
 * full listing asks for the largest pages: 10,000 items are 200 requests (20 s at that pace)
 * rather than 500. With a limit of 50 or less, one page of just that size (the API's minimum is 10).
 */
function pageSizeFor(limit: number): number {
  return Math.min(PER_PAGE_MAX, Math.max(PER_PAGE_MIN, limit));
}

/**
 * Checks an answer against its schema and returns it unchanged, or names the first bad field and,
 * when the raw answer is at hand, its status, content type and first bytes. `what` names the
 * request ("GET /v1/themes"), or makes its name when needed.
 */
export function checkShape<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  what: string | (() => string),
  answer?: Pick<HttpResponse, 'status' | 'contentType' | 'text'>,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return body as z.infer<S>;
  const request = typeof what === 'string' ? what : what();
  const issue = result.error.issues[0]!;
  const field = issue.path.length === 0 ? 'the body' : `field "${formatPath(issue.path)}"`;
  const raw = answer === undefined ? '' : ` (HTTP ${answer.status}, ${describeBody(answer.text, answer.contentType)})`;
  throw new InvalidResponseError(`unexpected answer to ${request}: ${field}: ${issue.message}${raw}`, { status: answer?.status ?? 200 });
}

function formatPath(segments: PropertyKey[]): string {
  return segments.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`)).join('');
}
