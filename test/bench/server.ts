/**
 * The benchmark's local API on 127.0.0.1. Answers are prepared once, so the server costs the same
 * for loopsctl and for the plain fetch scripts it is compared with. The first path segments choose
 * the scenario, so one server serves them all:
 *   /items/<n>/v1/transactional-emails   n transactional emails in pages of perPage (cursor "p<k>")
 *   /latency/<ms>/v1/...                  any route below, answered after ms milliseconds
 *   /v1/dedicated-sending-ips             a short array of addresses
 *   /v1/themes                            one page of 20 themes
 *   /v1/transactional-emails/<id>/metrics all-time counters
 * It also records when each metrics request started and ended, to see how requests overlapped.
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
  resetSpans(): void;
  close(): Promise<void>;
}

const IPS = JSON.stringify(['198.51.100.10', '198.51.100.11', '203.0.113.7', '2001:db8::25']);
const THEMES = JSON.stringify({
  pagination: { totalResults: 20, returnedResults: 20, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null },
  data: Array.from({ length: 20 }, (_, index) => theme(index + 1)),
});
const METRICS = JSON.stringify({ sends: 1200, deliveries: 1187, spamReports: 1, hardBounces: 4, softBounces: 8 });

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

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startBenchServer(): Promise<BenchServer> {
  const listings = new Map<string, string[]>();
  const metricsSpans: RequestSpan[] = [];

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let segments = url.pathname.split('/').filter(Boolean);
    let total = 20;
    let latencyMs = 0;
    while (segments[0] === 'items' || segments[0] === 'latency') {
      const value = Number(segments[1]);
      if (segments[0] === 'items') total = value;
      else latencyMs = value;
      segments = segments.slice(2);
    }
    const route = `/${segments.join('/')}`;
    const start = performance.now();
    const answer = (): void => {
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
      if (/^\/v1\/transactional-emails\/[^/]+\/metrics$/.test(route)) {
        send(res, 200, METRICS);
        metricsSpans.push({ start, end: performance.now() });
        return;
      }
      send(res, 404, `{"message":"no route for ${route}"}`);
    };
    if (latencyMs > 0) setTimeout(answer, latencyMs);
    else answer();
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    metricsSpans,
    resetSpans: () => void metricsSpans.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
