/**
 * A purpose-built local API for tests: each test says how each route answers, and the server
 * records every request that reached it. It listens on 127.0.0.1 on a free port.
 *
 * It is strict, as gh's httpmock is: a request no route matches is answered 404 and fails the test
 * when the server is closed, and so does a route that was set up and never used, so that a request
 * sent to a wrong path cannot pass for the API's "not found", nor a test check less than it says.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The path as sent, still percent-encoded. */
  path: string;
  /** Decoded values of the route's :name segments. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** When the request reached the server, by the server's clock (performance.now(), ms): to check the waits between requests. */
  receivedAt: number;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface ApiServer {
  url: string;
  requests: RecordedRequest[];
  /**
   * Routes are "METHOD /path", where a segment ":name" matches any one segment; exact routes win.
   * An optional route is one the command may take or not, depending on an earlier answer (a read
   * that explains a refusal): it is not missed when unused.
   */
  route(key: string, handler: Handler, options?: { optional?: boolean }): void;
  /** Stops the server; fails (rejects) when a request matched no route, or a route was never used. */
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Sends the body exactly as written: JSON whose numbers must stay as typed (1.0), or not JSON at all. */
/** The time between one request and the next, as the server saw them, in ms. */
export function gaps(requests: RecordedRequest[]): number[] {
  return requests.slice(1).map((request, index) => request.receivedAt - requests[index]!.receivedAt);
}

export function raw(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

export async function startApiServer(routes: Record<string, Handler> = {}): Promise<ApiServer> {
  const table = new Map(Object.entries(routes));
  const match = (method: string, path: string): [Handler, Record<string, string>] | undefined => {
    const exact = table.get(`${method} ${path}`);
    if (exact) {
      used.add(`${method} ${path}`);
      return [exact, {}];
    }
    const segments = path.split('/');
    for (const [key, handler] of table) {
      const [routeMethod, routePath] = key.split(' ') as [string, string];
      const pattern = routePath.split('/');
      if (routeMethod !== method || pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const matches = pattern.every((part, index) => {
        if (!part.startsWith(':')) return part === segments[index];
        params[part.slice(1)] = decodeURIComponent(segments[index]!);
        return true;
      });
      if (matches) {
        used.add(key);
        return [handler, params];
      }
    }
    return undefined;
  };
  const requests: RecordedRequest[] = [];
  const unrouted: string[] = [];
  const used = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: {},
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      receivedAt,
    };
    requests.push(recorded);
    const found = match(recorded.method, recorded.path);
    if (found === undefined) {
      unrouted.push(`${recorded.method} ${recorded.path}`);
      return json(res, 404, { message: `no route for ${recorded.method} ${recorded.path}` });
    }
    recorded.params = found[1];
    await found[0](recorded, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (key, handler, { optional = false } = {}) => {
      table.set(key, handler);
      if (optional) used.add(key);
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      const problems = [
        ...unrouted.map((request) => `${request} matched no route`),
        ...[...table.keys()].filter((key) => !used.has(key)).map((key) => `the route ${key} was set up and never used`),
      ];
      // Said once: a second close has nothing new to say.
      unrouted.length = 0;
      for (const key of table.keys()) used.add(key);
      if (problems.length > 0) throw new Error(`the test's API server: ${problems.join('; ')}`);
    },
  };
}
