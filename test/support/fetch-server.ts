/**
 * A Fetch-style app (a Next.js route handler, a Hono app) served over node:http on loopback, as its
 * framework's Node adapter serves it: each request handed over as a Fetch Request with its body
 * unread, the Response written back.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface FetchServer {
  url: string;
  close(): Promise<void>;
}

export async function serveFetch(fetchApp: (request: Request) => Response | Promise<Response>): Promise<FetchServer> {
  const server = createServer(async (req, res) => {
    const headers = new Headers();
    for (let at = 0; at + 1 < req.rawHeaders.length; at += 2) headers.append(req.rawHeaders[at]!, req.rawHeaders[at + 1]!);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as RequestInit);
    const response = await fetchApp(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
