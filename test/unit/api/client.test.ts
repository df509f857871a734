/** The client against a local server: status to error mapping, pagination, paths and shapes. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { HttpTransport } from '../../../src/api/http.js';
import { dedicatedSendingIps } from '../../../src/areas/ips/client.js';
import { recordClient } from '../../../src/areas/records/client.js';
import { themes } from '../../../src/areas/themes/client.js';
import { createTransactional, ensureDraft, transactionalMetrics } from '../../../src/areas/transactional/client.js';
import { getWorkflow, getWorkflowNode } from '../../../src/areas/workflows/client.js';
import { AuthError, InvalidResponseError, NotFoundError, RateLimitError, RejectedError, ServerError } from '../../../src/base/errors.js';
import { CAMPAIGN_GROUP } from '../../../src/platform/campaign-groups/resource.js';
import { group } from '../../../src/platform/groups/schemas.js';
import { recordRow } from '../../../src/platform/whole-rows.js';
import { type ApiServer, type Handler, json, startApiServer } from '../../support/api-server.js';
import * as fx from '../../support/fixtures.js';

const campaignGroups = recordClient(recordRow(CAMPAIGN_GROUP), group).list;

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientWith(routes: Record<string, Handler>) {
  server = await startApiServer(routes);
  return new ApiClient(new HttpTransport({ baseUrl: `${server.url}/`, apiKey: 'k', userAgent: 'loopsctl/test', timeoutMs: 5000, retry: { retries: 0 } }));
}

async function collect<T>(pages: AsyncIterable<{ data: T[] }>): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pages) items.push(...page.data);
  return items;
}

describe('ApiClient errors', () => {
  it.each([
    [400, RejectedError, 'bad_request', 5],
    [401, AuthError, 'unauthorized', 3],
    [404, NotFoundError, 'not_found', 4],
    [405, RejectedError, 'method_not_allowed', 5],
    [409, RejectedError, 'conflict', 5],
    [422, RejectedError, 'unprocessable', 5],
    [418, RejectedError, 'rejected', 5],
    [429, RateLimitError, 'rate_limited', 6],
    [500, ServerError, 'server_error', 8],
    [503, ServerError, 'server_error', 8],
  ])('maps HTTP %i to %s', async (status, type, code, exitCode) => {
    const client = await clientWith({ 'GET /v1/workflows/:id': (_req, res) => json(res, status, { message: `status ${status}` }) });
    const error = await getWorkflow(client, 'wf').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ code, exitCode, status, message: `status ${status}` });
  });

  it('falls back to a plain message when an error has no JSON body', async () => {
    const client = await clientWith({ 'GET /v1/dedicated-sending-ips': (_req, res) => void res.writeHead(405).end() });
    await expect(dedicatedSendingIps(client)).rejects.toMatchObject({ exitCode: 5, message: 'the API does not allow this method here' });
  });

  it('names the field when an answer has the wrong shape, and keeps unknown fields otherwise', async () => {
    const client = await clientWith({
      'GET /v1/transactional-emails/:id/metrics': (req, res) =>
        req.params.id === 'bad'
          ? json(res, 200, { sends: '10', deliveries: 1 })
          : json(res, 200, { sends: 1, deliveries: 1, spamReports: 0, hardBounces: 0, softBounces: 0, opens: 7 }),
    });
    const error = await transactionalMetrics(client, 'bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('field "sends"');
    expect(await transactionalMetrics(client, 'good')).toEqual({ sends: 1, deliveries: 1, spamReports: 0, hardBounces: 0, softBounces: 0, opens: 7 });
  });

  it('checks the fields of known node types and lets unknown node types through', async () => {
    const client = await clientWith({
      'GET /v1/workflows/:id': (req, res) =>
        json(res, 200, {
          id: req.params.id,
          rootNodeId: 'a',
          nodes:
            req.params.id === 'bad'
              ? { a: { typeName: 'TimerAction', nextNodeIds: [], amount: 'two' } }
              : { a: { typeName: 'Teleport', nextNodeIds: [], to: 'mars' } },
        }),
    });
    await expect(getWorkflow(client, 'bad')).rejects.toThrow('field "nodes.a.amount"');
    expect((await getWorkflow(client, 'good')).nodes.a).toEqual({ typeName: 'Teleport', nextNodeIds: [], to: 'mars' });
  });

  it('reports a body that is not JSON as an invalid response, with its start', async () => {
    const client = await clientWith({
      'GET /v1/dedicated-sending-ips': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>\u001b[31mdown</html>');
      },
    });
    const error = await dedicatedSendingIps(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as Error).message).toContain('content-type text/html');
    expect((error as Error).message).toContain('<html>\\u001b[31mdown');
  });
});

describe('ApiClient paths and bodies', () => {
  it('encodes ids as single path segments', async () => {
    const client = await clientWith({
      'GET /v1/workflows/:id/nodes/:nodeId': (req, res) => json(res, 200, { ...fx.eventTriggerNode, id: req.params.nodeId, workflowId: req.params.id }),
    });
    const node = await getWorkflowNode(client, 'w/1?x', 'n #2');
    expect(node).toMatchObject({ workflowId: 'w/1?x', id: 'n #2' });
    expect(server!.requests[0]!.path).toBe('/v1/workflows/w%2F1%3Fx/nodes/n%20%232');
  });

  it('sends JSON bodies with a content type, and no body to ensure-draft', async () => {
    const client = await clientWith({
      'POST /v1/transactional-emails': (_req, res) => json(res, 201, fx.draftRecord),
      'POST /v1/transactional-emails/:id/draft': (_req, res) => json(res, 200, fx.draftRecord),
    });
    await createTransactional(client, { name: 'Hi' });
    await ensureDraft(client, 'tx_welcome');
    expect(server!.requests[0]).toMatchObject({ body: '{"name":"Hi"}', headers: { 'content-type': 'application/json' } });
    expect(server!.requests[1]!.body).toBe('');
    expect(server!.requests[1]!.headers['content-type']).toBeUndefined();
  });
});

describe('ApiClient.pages', () => {
  const items = Array.from({ length: 45 }, (_, index) => fx.group(index));
  const paged: Handler = (req, res) => {
    const perPage = Number(req.query.get('perPage') ?? 20);
    const offset = Number(req.query.get('cursor') ?? 0);
    const next = offset + perPage < items.length ? String(offset + perPage) : null;
    json(res, 200, fx.envelope(items.slice(offset, offset + perPage), next, perPage, items.length));
  };

  it('follows nextCursor until it is null', async () => {
    const client = await clientWith({ 'GET /v1/campaign-groups': paged });
    expect(await collect(client.pages(campaignGroups, { perPage: 20 }))).toEqual(items);
    expect(server!.requests.map((r) => r.query.get('cursor'))).toEqual([null, '20', '40']);
  });

  it('asks for pages of 50 when nothing says otherwise, the fewest requests a full listing needs', async () => {
    const client = await clientWith({ 'GET /v1/campaign-groups': paged });
    expect(await collect(client.pages(campaignGroups))).toEqual(items);
    expect(server!.requests.map((r) => r.query.get('perPage'))).toEqual(['50']);
  });

  it('stops at the limit without asking for another page', async () => {
    const client = await clientWith({ 'GET /v1/campaign-groups': paged });
    expect(await collect(client.pages(campaignGroups, { limit: 21, perPage: 20 }))).toEqual(items.slice(0, 21));
    expect(server!.requests).toHaveLength(2);
  });

  it('fetches a single page from a cursor', async () => {
    const client = await clientWith({ 'GET /v1/campaign-groups': paged });
    expect(await collect(client.pages(campaignGroups, { cursor: '10', perPage: 10 }))).toEqual(items.slice(10, 20));
    expect(server!.requests).toHaveLength(1);
  });

  it('stops instead of looping when the API repeats a cursor', async () => {
    const client = await clientWith({ 'GET /v1/themes': (_req, res) => json(res, 200, fx.envelope([fx.theme(1)], 'same')) });
    await expect(collect(client.pages(themes))).rejects.toThrow('returned a cursor it had returned before');
  });
});
