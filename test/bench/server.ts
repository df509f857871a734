/**
 * The benchmark's local API on 127.0.0.1. Answers are prepared once, so the server costs the same
 * for loopsctl and for the plain fetch scripts it is compared with. The first path segments choose
 * the scenario, so one server serves them all:
 *   /items/<n>/v1/transactional-emails   n transactional emails in pages of perPage (cursor "p<k>")
 *   /latency/<ms>/v1/...                  any route below, answered after ms milliseconds
 *   /limit/<n>/v1/...                     any route below, its answers stating a rate limit of n
 *                                         requests a second (x-ratelimit-limit) and what remains of
 *                                         it in the current second (x-ratelimit-remaining)
 *   /v1/dedicated-sending-ips             a short array of addresses
 *   /v1/themes                            one page of 20 themes
 *   /v1/transactional-emails/<id>/metrics all-time counters
 *   /v1/workflows/<shape>-<n>             a workflow of n nodes: "chain" (one long path) or
 *                                         "merge" (branches whose two paths meet again, over and over)
 *   /v1/contacts/properties               the custom property a contacts import's CSV names
 *   /items/<n>/v1/workflows, /v1/workflows/content-<n>[/nodes/<id>]
 *                                         a content pull's and push's workflow: one workflow
 *                                         listed, a chain of n nodes (its timers waiting at least
 *                                         a day, the last an exit) that a node update (POST)
 *                                         changes, a new revision each
 *   /v1/lists, /v1/audience-segments, /v1/event-patterns
 *                                         the names a workflow may refer to: none, none, its event
 *   POST /v1/contacts/create              a created contact
 *   GET /v1/api-key                       the key's team
 *   GET /v1/email-messages/<id>           an email message of a few hundred bytes of LMX
 * It also records when each metrics, create and email message request started and ended, to see
 * how requests overlapped and kept the pace.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { theme } from '../support/fixtures.js';

export interface RequestSpan {
  start: number;
  end: number;
}

export interface BenchServer {
  url: string;
  /** Spans of the metrics requests since the last reset. */
  metricsSpans: RequestSpan[];
  /** Spans of the contact create requests since the last reset. */
  createSpans: RequestSpan[];
  /** Spans of the email message requests since the last reset. */
  messageSpans: RequestSpan[];
  /** Requests answered since the server started. */
  requests(): number;
  resetSpans(): void;
  close(): Promise<void>;
}

const IPS = JSON.stringify(['198.51.100.10', '198.51.100.11', '203.0.113.7', '2001:db8::25']);
const THEMES = JSON.stringify({
  pagination: { totalResults: 20, returnedResults: 20, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null },
  data: Array.from({ length: 20 }, (_, index) => theme(index + 1)),
});
const METRICS = JSON.stringify({ sends: 1200, deliveries: 1187, spamReports: 1, hardBounces: 4, softBounces: 8 });
const PROPERTIES = JSON.stringify([{ key: 'plan', label: 'Plan', type: 'string' }]);
const CREATED = JSON.stringify({ success: true, id: 'cbenchcontact0000000000000' });
const API_KEY = JSON.stringify({ success: true, teamName: 'Bench' });

function emailMessage(id: string): string {
  // A workflow's emails (ids ce…) take contact variables; a transactional email's, data ones.
  const namespace = id.startsWith('ce') ? 'contact' : 'data';
  return JSON.stringify({
    id,
    subject: `Subject of ${id}`,
    previewText: 'A preview',
    fromName: 'Acme',
    fromEmail: 'hello',
    replyToEmail: 'support@example.com',
    emailFormat: 'styled',
    lmx: `<Paragraph>Hello {${namespace}.firstName},</Paragraph>\n<Paragraph>${'Some words of the body. '.repeat(12)}</Paragraph>\n<Button href="https://example.com/${id}">Open</Button>\n`,
    contentRevisionId: `r${id.slice(1)}`,
    updatedAt: '2025-03-02T08:30:00.000Z',
    dataVariablesFallbacks: { firstName: 'there' },
  });
}

function transactionalEmail(index: number) {
  const id = `cm${String(index).padStart(23, '0')}`;
  return {
    id,
    name: `Transactional email ${index}`,
    draftEmailMessageId: `dm${String(index).padStart(23, '0')}`,
    publishedEmailMessageId: index % 3 === 0 ? null : `pm${String(index).padStart(23, '0')}`,
    transactionalGroupId: 'clg7n5p3q1r9s7t5u3v1w9y7',
    createdAt: '2025-01-15T10:00:00.000Z',
    updatedAt: '2025-03-02T08:30:00.000Z',
    dataVariables: ['firstName', 'resetUrl'],
  };
}

/** The page bodies of a listing of `total` items, by page index; built once per (total, perPage). */
function pageBodies(total: number, perPage: number): string[] {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return Array.from({ length: totalPages }, (_, page) => {
    const data = [];
    for (let index = page * perPage; index < Math.min(total, (page + 1) * perPage); index += 1) data.push(transactionalEmail(index));
    const last = page === totalPages - 1;
    return JSON.stringify({
      pagination: {
        totalResults: total,
        returnedResults: data.length,
        perPage,
        totalPages,
        nextCursor: last ? null : `p${page + 1}`,
        nextPage: last ? null : `/v1/transactional-emails?perPage=${perPage}&cursor=p${page + 1}`,
      },
      data,
    });
  });
}

/**
 * A workflow of `total` nodes as GET /v1/workflows/{id} answers it. A chain is a trigger, then
 * alternating emails and timers; a merge graph repeats a branch whose two audience filters both
 * lead to one email, which leads to the next branch.
 */
export function workflowBody(shape: 'chain' | 'merge', total: number): string {
  const id = (index: number) => `cn${String(index).padStart(23, '0')}`;
  const nodes: Record<string, unknown> = {};
  const next = (index: number) => (index + 1 < total ? [id(index + 1)] : []);
  nodes[id(0)] = { typeName: 'EventTrigger', nextNodeIds: next(0), eventName: 'signed_up', reEligible: false };
  for (let index = 1; index < total; index += 1) {
    if (shape === 'chain') {
      nodes[id(index)] =
        index % 2 === 1
          ? { typeName: 'SendEmailAction', nextNodeIds: next(index), emailMessageId: `ce${String(index).padStart(23, '0')}`, subject: `Step ${index}` }
          : { typeName: 'TimerAction', nextNodeIds: next(index), amount: index % 7, unit: 'd' };
    } else {
      // Groups of four: branch -> two filters -> one email -> the next group's branch.
      const role = (index - 1) % 4;
      const group = index - role;
      const after = group + 4 < total ? [id(group + 4)] : [];
      if (role === 0) nodes[id(index)] = { typeName: 'BranchNode', nextNodeIds: [id(index + 1), id(index + 2)].filter((_, k) => index + 1 + k < total) };
      else if (role === 1 || role === 2) nodes[id(index)] = { typeName: 'AudienceFilter', nextNodeIds: group + 3 < total ? [id(group + 3)] : [] };
      else
        nodes[id(index)] = {
          typeName: 'SendEmailAction',
          nextNodeIds: after,
          emailMessageId: `ce${String(index).padStart(23, '0')}`,
          subject: `Step ${index}`,
        };
    }
  }
  return JSON.stringify({
    id: `${shape}-${total}`,
    workflowRevisionId: 'crev00000000000000000000',
    status: 'Draft',
    name: `A ${shape} of ${total} nodes`,
    mailingListId: null,
    rootNodeId: id(0),
    nodes,
  });
}

const EMPTY_PAGE = JSON.stringify({
  pagination: { totalResults: 0, returnedResults: 0, perPage: 20, totalPages: 0, nextCursor: null, nextPage: null },
  data: [],
});
const EVENT_PATTERNS = JSON.stringify({
  pagination: { totalResults: 1, returnedResults: 1, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null },
  data: [{ id: 'cevent00000000000000000000', eventName: 'signed_up', incomingWebhookPlatform: null }],
});

/** One stateful workflow for a content pull and push: the chain's body, its timers at 1 to 7 days, edited in place. */
interface EditableWorkflow {
  body: { id: string; workflowRevisionId: string; nodes: Record<string, Record<string, unknown>> };
  revision: number;
}

function editableWorkflow(total: number): EditableWorkflow {
  const body = JSON.parse(workflowBody('chain', total)) as EditableWorkflow['body'];
  body.id = `content-${total}`;
  const nodes = Object.values(body.nodes);
  for (const [index, node] of nodes.entries()) if (node.typeName === 'TimerAction') node.amount = 1 + (index % 7);
  // A path ends in an exit.
  Object.assign(nodes.at(-1)!, { typeName: 'ExitAction', emailMessageId: undefined, subject: undefined });
  return { body, revision: 0 };
}

/** The workflows route of a content pull and push: its listing, its graph, a node read in full, a node updated. */
function answerContentWorkflow(
  res: ServerResponse,
  method: string,
  route: string,
  requestBody: string,
  held: Map<string, EditableWorkflow>,
  total: number,
): boolean {
  if (route === '/v1/workflows' && method === 'GET') {
    if (!held.has(`content-${total}`)) held.set(`content-${total}`, editableWorkflow(total));
    const listed = [...held.values()].map(({ body }) => ({
      id: body.id,
      name: `A chain of ${Object.keys(body.nodes).length} nodes`,
      createdAt: '2025-01-15T10:00:00.000Z',
      updatedAt: '2025-03-02T08:30:00.000Z',
    }));
    send(
      res,
      200,
      JSON.stringify({
        pagination: { totalResults: listed.length, returnedResults: listed.length, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null },
        data: listed,
      }),
    );
    return true;
  }
  const found = /^\/v1\/workflows\/content-(\d+)(?:\/nodes\/([^/]+))?$/.exec(route);
  if (found === null) return false;
  const key = `content-${found[1]}`;
  if (!held.has(key)) held.set(key, editableWorkflow(Number(found[1])));
  const workflow = held.get(key)!;
  const nodeId = found[2];
  if (nodeId === undefined) {
    send(res, 200, JSON.stringify(workflow.body));
    return true;
  }
  const node = workflow.body.nodes[nodeId];
  if (node === undefined) send(res, 404, '{"message":"no such node"}');
  else if (method === 'GET')
    send(res, 200, JSON.stringify({ ...node, eventProperties: [], id: nodeId, workflowId: key, workflowRevisionId: workflow.body.workflowRevisionId }));
  else {
    const { expectedRevisionId, payload } = JSON.parse(requestBody) as { expectedRevisionId: string; payload: Record<string, unknown> };
    if (expectedRevisionId !== workflow.body.workflowRevisionId) {
      send(res, 409, '{"message":"the workflow has changed"}');
      return true;
    }
    Object.assign(node, payload);
    workflow.revision += 1;
    workflow.body.workflowRevisionId = `crev${String(workflow.revision).padStart(20, '0')}`;
    send(res, 200, JSON.stringify({ ...node, id: nodeId, workflowRevisionId: workflow.body.workflowRevisionId, workflow: workflow.body }));
  }
  return true;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The rate-limit headers of a server that allows `limit` requests a second to each key, counted in
 * windows of one second, each opened by the key's first request after its last window closed. It
 * states the limit only; it refuses nothing.
 */
function rateLimiter(): (key: string, limit: number) => Record<string, string> {
  const windows = new Map<string, { opened: number; requests: number }>();
  return (key, limit) => {
    const now = performance.now();
    const name = `${limit} ${key}`;
    let window = windows.get(name);
    if (window === undefined || now - window.opened >= 1000) windows.set(name, (window = { opened: now, requests: 0 }));
    window.requests += 1;
    return { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - window.requests)) };
  };
}

export async function startBenchServer(): Promise<BenchServer> {
  const listings = new Map<string, string[]>();
  const workflows = new Map<string, string>();
  const editable = new Map<string, EditableWorkflow>();
  let requests = 0;
  const metricsSpans: RequestSpan[] = [];
  const createSpans: RequestSpan[] = [];
  const messageSpans: RequestSpan[] = [];
  const rateHeaders = rateLimiter();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let segments = url.pathname.split('/').filter(Boolean);
    let total = 20;
    let latencyMs = 0;
    let limit: number | undefined;
    while (segments[0] === 'items' || segments[0] === 'latency' || segments[0] === 'limit') {
      const value = Number(segments[1]);
      if (segments[0] === 'items') total = value;
      else if (segments[0] === 'latency') latencyMs = value;
      else limit = value;
      segments = segments.slice(2);
    }
    const route = `/${segments.join('/')}`;
    const start = performance.now();
    if (limit !== undefined) for (const [name, value] of Object.entries(rateHeaders(req.headers.authorization ?? '', limit))) res.setHeader(name, value);
    requests += 1;
    const chunks: Buffer[] = [];
    const answer = (): void => {
      if (answerContentWorkflow(res, req.method ?? 'GET', route, Buffer.concat(chunks).toString('utf8'), editable, total)) return;
      if (route === '/v1/lists') return send(res, 200, '[]');
      if (route === '/v1/audience-segments') return send(res, 200, EMPTY_PAGE);
      if (route === '/v1/event-patterns') return send(res, 200, EVENT_PATTERNS);
      if (route === '/v1/dedicated-sending-ips') return send(res, 200, IPS);
      if (route === '/v1/themes') return send(res, 200, THEMES);
      if (route === '/v1/transactional-emails') {
        const perPage = Number(url.searchParams.get('perPage') ?? 20);
        const key = `${total}/${perPage}`;
        if (!listings.has(key)) listings.set(key, pageBodies(total, perPage));
        const pages = listings.get(key)!;
        const page = Number((url.searchParams.get('cursor') ?? 'p0').slice(1));
        return pages[page] === undefined ? send(res, 400, '{"message":"invalid cursor"}') : send(res, 200, pages[page]!);
      }
      if (route === '/v1/contacts/properties') return send(res, 200, PROPERTIES);
      if (route === '/v1/api-key') return send(res, 200, API_KEY);
      const message = /^\/v1\/email-messages\/([^/]+)$/.exec(route);
      if (message !== null) {
        send(res, 200, emailMessage(message[1]!));
        messageSpans.push({ start, end: performance.now() });
        return;
      }
      if (route === '/v1/contacts/create') {
        send(res, 200, CREATED);
        createSpans.push({ start, end: performance.now() });
        return;
      }
      const workflow = /^\/v1\/workflows\/(chain|merge)-(\d+)$/.exec(route);
      if (workflow !== null) {
        if (!workflows.has(route)) workflows.set(route, workflowBody(workflow[1] as 'chain' | 'merge', Number(workflow[2])));
        return send(res, 200, workflows.get(route)!);
      }
      if (/^\/v1\/transactional-emails\/[^/]+\/metrics$/.test(route)) {
        send(res, 200, METRICS);
        metricsSpans.push({ start, end: performance.now() });
        return;
      }
      send(res, 404, `{"message":"no route for ${route}"}`);
    };
    // The body is read before answering, so the connection stays usable.
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (latencyMs > 0) setTimeout(answer, latencyMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    metricsSpans,
    createSpans,
    messageSpans,
    requests: () => requests,
    resetSpans: () => {
      metricsSpans.splice(0);
      createSpans.splice(0);
      messageSpans.splice(0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
