/**
 * The Loops API client: one method per operation loopsctl uses, each checking the answer against
 * its zod schema. Methods return the API's data exactly as received (unknown fields and key order
 * kept), typed by the schema it passed.
 */
import type { z } from 'zod';
import { InvalidResponseError } from './errors.js';
import { describeBody } from './body-preview.js';
import type { HttpRequest, HttpResponse, Transport } from './http.js';
import { path } from './ids.js';
import * as s from './schemas.js';

export interface ListOptions {
  /** Page size, 10 to 50. */
  perPage?: number;
  /** Stop after this many items. */
  limit?: number;
  /** Start from this cursor and fetch only that page. */
  cursor?: string;
}

/** The list operations loopsctl pages through, with the shape of their items. */
export const listResources = {
  transactional: { path: '/v1/transactional-emails', item: s.transactionalEmail },
  transactionalGroups: { path: '/v1/transactional-groups', item: s.group },
  campaignGroups: { path: '/v1/campaign-groups', item: s.group },
  workflows: { path: '/v1/workflows', item: s.workflowSummary },
  themes: { path: '/v1/themes', item: s.theme },
  segments: { path: '/v1/audience-segments', item: s.audienceSegment },
} as const;
export type ListResource = keyof typeof listResources;
export type ListItem<R extends ListResource> = z.infer<(typeof listResources)[R]['item']>;

export const PER_PAGE_MIN = 10;
export const PER_PAGE_MAX = 50;

export class LoopsClient {
  constructor(private readonly http: Transport) {}

  testApiKey() {
    return this.call({ method: 'GET', idempotent: true, path: '/v1/api-key' }, s.apiKeyInfo);
  }

  transactionalMetrics(transactionalId: string) {
    return this.call({ method: 'GET', idempotent: true, path: path`/v1/transactional-emails/${transactionalId}/metrics` }, s.transactionalMetrics);
  }

  ensureDraft(transactionalId: string) {
    // Ensuring a draft leaves an existing draft unchanged, so asking twice is the same as once.
    return this.call({ method: 'POST', path: path`/v1/transactional-emails/${transactionalId}/draft`, idempotent: true }, s.transactionalDraftRecord);
  }

  createTransactional(body: { name: string; transactionalGroupId?: string }) {
    // Each create makes a new email: sent again after a lost answer, it would make a duplicate.
    return this.call({ method: 'POST', path: '/v1/transactional-emails', body, idempotent: false }, s.transactionalDraftRecord);
  }

  getTransactionalGroup(id: string) {
    return this.call({ method: 'GET', idempotent: true, path: path`/v1/transactional-groups/${id}` }, s.group);
  }

  getCampaignGroup(id: string) {
    return this.call({ method: 'GET', idempotent: true, path: path`/v1/campaign-groups/${id}` }, s.group);
  }

  updateCampaignGroup(id: string, body: { name?: string; description?: string }) {
    // Setting the same fields twice would be harmless, but the API does not promise that an update
    // is idempotent (a later version may record history or fire events), so it is treated as a write.
    return this.call({ method: 'POST', path: path`/v1/campaign-groups/${id}`, body, idempotent: false }, s.group);
  }

  getWorkflow(id: string) {
    return this.call({ method: 'GET', idempotent: true, path: path`/v1/workflows/${id}` }, s.workflow);
  }

  getWorkflowNode(workflowId: string, nodeId: string) {
    return this.call({ method: 'GET', idempotent: true, path: path`/v1/workflows/${workflowId}/nodes/${nodeId}` }, s.workflowNode);
  }

  dedicatedSendingIps() {
    return this.call({ method: 'GET', idempotent: true, path: '/v1/dedicated-sending-ips' }, s.dedicatedSendingIps);
  }

  /**
   * Pages through a list, following pagination.nextCursor, and yields each page as it arrives.
   * With a limit, the last page is cut to it and no further page is asked for; with a cursor,
   * only that one page is fetched.
   */
  async *pages<R extends ListResource>(resource: R, options: ListOptions = {}): AsyncGenerator<s.Page<ListItem<R>>> {
    const { path: listPath, item } = listResources[resource];
    const envelope = s.pageOf(item);
    const perPage = options.perPage ?? pageSizeFor(options.limit);
    let cursor = options.cursor;
    let remaining = options.limit ?? Infinity;
    const seenCursors = new Set<string>();
    while (remaining > 0) {
      const answer: unknown = await this.call({ method: 'GET', idempotent: true, path: listPath, query: { perPage, cursor } }, envelope);
      const page = answer as s.Page<ListItem<R>>;
      if (page.data.length > remaining) page.data = page.data.slice(0, remaining);
      remaining -= page.data.length;
      yield page;
      const next = page.pagination.nextCursor;
      if (options.cursor !== undefined || next === null || page.data.length === 0) return;
      if (seenCursors.has(next)) {
        throw new InvalidResponseError(`the API returned the cursor "${next}" twice; stopping instead of looping`);
      }
      seenCursors.add(next);
      cursor = next;
    }
  }

  private async call<S extends z.ZodType>(req: HttpRequest, schema: S): Promise<z.infer<S>> {
    const response = await this.http.send(req);
    return checkShape(schema, response.body, `${req.method} ${req.path.split('?')[0]}`, response);
  }
}

/** With a limit and no page size, ask for pages just large enough, so fewer requests are made. */
function pageSizeFor(limit: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  return Math.min(PER_PAGE_MAX, Math.max(PER_PAGE_MIN, limit));
}

/**
 * Checks an answer against its schema and returns it unchanged, or names the first bad field and,
 * when the raw answer is at hand, its status, content type and first bytes.
 */
export function checkShape<S extends z.ZodType>(
  schema: S,
  body: unknown,
  what: string,
  answer?: Pick<HttpResponse, 'status' | 'contentType' | 'text'>,
): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return body as z.infer<S>;
  const issue = result.error.issues[0]!;
  const field = issue.path.length === 0 ? 'the body' : `field "${formatPath(issue.path)}"`;
  const raw = answer === undefined ? '' : ` (HTTP ${answer.status}, ${describeBody(answer.text, answer.contentType)})`;
  throw new InvalidResponseError(`unexpected answer to ${what}: ${field}: ${issue.message}${raw}`, { status: answer?.status ?? 200 });
}

function formatPath(segments: PropertyKey[]): string {
  return segments
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`))
    .join('');
}
