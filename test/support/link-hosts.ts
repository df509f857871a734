/**
 * Hosts on loopback for the qa family's network rules: HTTP and HTTPS servers whose routes answer
 * as the web does (statuses, redirects, a loop, a slow answer, an endless body, images of given
 * sizes and types), each request recorded with its headers, and the requests in flight counted,
 * per host and across every host of a test, at the server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import type { Resolver } from '../../src/api/fetcher.js';
import { ConnectionPool, type RequestPool } from '../../src/base/node-http.js';
import type { RecordingSandbox } from './recording.js';

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

/** What every host of a test counts together. */
export class InFlight {
  now = 0;
  most = 0;
  enter(): void {
    this.now += 1;
    this.most = Math.max(this.most, this.now);
  }
  leave(): void {
    this.now -= 1;
  }
}

export interface LinkHost {
  /** `http://127.0.0.1:port` (or https). */
  origin: string;
  requests: Recorded[];
  /** The most requests this host had in flight at once. */
  most: number;
  route(path: string, answer: Route): void;
  close(): Promise<void>;
}

export async function startLinkHost(options: { tls?: { key: string; cert: string }; inFlight?: InFlight } = {}): Promise<LinkHost> {
  const routes = new Map<string, Route>();
  const requests: Recorded[] = [];
  let now = 0;
  const host = {
    origin: '',
    requests,
    most: 0,
    route: (path: string, answer: Route) => routes.set(path, answer),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push({ method: req.method ?? '', path, headers: req.headers });
    now += 1;
    host.most = Math.max(host.most, now);
    options.inFlight?.enter();
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      now -= 1;
      options.inFlight?.leave();
    };
    res.once('finish', leave);
    res.once('close', leave);
    const route = routes.get(path);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    route(req, res);
  };
  const server: Server = options.tls === undefined ? createServer(handle) : createTlsServer(options.tls, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.origin = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

/** Answers: a page, a status, a redirect. */
export const page: Route = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(req.method === 'HEAD' ? undefined : '<!doctype html><title>ok</title>');
};
export const status =
  (code: number): Route =>
  (_req, res) =>
    res.writeHead(code, { 'content-type': 'text/plain' }).end(`HTTP ${code}`);
export const redirect =
  (location: string, code = 302): Route =>
  (_req, res) =>
    res.writeHead(code, { location }).end();
/** HEAD refused, as some servers do; GET answers its range. */
export const noHead: Route = (req, res) => {
  if (req.method === 'HEAD') res.writeHead(405, { allow: 'GET' }).end();
  else res.writeHead(206, { 'content-type': 'text/html', 'content-range': 'bytes 0-1/2' }).end('ok');
};
/** No answer until the client gives up. */
export const silent: Route = () => undefined;

/** A body announced as 10 GB that never stops, whatever the range asked: how much of it went out. */
export function endless(): { route: Route; sent: () => number; ended: Promise<void> } {
  let sent = 0;
  let finish: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const route: Route = (req, res) => {
    if (req.method === 'HEAD') return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(10 * 1024 ** 3) });
    const chunk = Buffer.alloc(64 * 1024);
    const write = () => {
      while (!res.destroyed && res.write(chunk)) sent += chunk.length;
      if (!res.destroyed) res.once('drain', write);
    };
    res.once('close', finish);
    write();
  };
  return { route, sent: () => sent, ended };
}

/** The first bytes of a PNG this wide: its signature and IHDR, which say its size. */
export function pngHeader(width: number, height = 100): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** A JPEG's start: SOI, an APP0 segment, then a baseline frame of this width. */
export function jpegHeader(width: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x64, (width >> 8) & 0xff, width & 0xff, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]);
}

/** An image of `size` bytes starting with `header`, answering ranges as a CDN does. */
export const image =
  (type: string, header: Buffer, size = header.length): Route =>
  (req, res) => {
    const whole = Buffer.concat([header, Buffer.alloc(Math.max(0, size - header.length))]);
    const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
    if (req.method === 'HEAD') return void res.writeHead(200, { 'content-type': type, 'content-length': String(size) }).end();
    if (range === null) return void res.writeHead(200, { 'content-type': type, 'content-length': String(size) }).end(whole);
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), size - 1);
    res.writeHead(206, { 'content-type': type, 'content-range': `bytes ${start}-${end}/${size}` }).end(whole.subarray(start, end + 1));
  };

/**
 * A host for thousands of links at little cost: each request read only as far as its first line and
 * where it ends, and answered 200 with no body on the next timer's turn, a millisecond on (so that a
 * client's requests on its several connections are in flight together, and counted so; answered at
 * once, the client and the host, one event loop, would take turns), on a kept-alive connection.
 */
export interface PlainHost {
  origin: string;
  /** `HEAD /notes/1`, in the order they came. */
  requests: string[];
  most: number;
  close(): Promise<void>;
}

export async function startPlainHost(inFlight: InFlight): Promise<PlainHost> {
  let now = 0;
  const sockets = new Set<Socket>();
  const host: PlainHost = {
    origin: '',
    requests: [],
    most: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A client that goes (the run over) leaves nothing to answer.
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    let buffered = '';
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n\r\n'); end !== -1; end = buffered.indexOf('\r\n\r\n')) {
        host.requests.push(buffered.slice(0, buffered.indexOf(' HTTP/')));
        buffered = buffered.slice(end + 4);
        now += 1;
        host.most = Math.max(host.most, now);
        inFlight.enter();
        setTimeout(() => {
          now -= 1;
          inFlight.leave();
          if (!socket.destroyed) socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 0\r\n\r\n');
        }, 1);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return host;
}

/**
 * The public internet as a test sees it: public addresses of its own choosing, each standing for a
 * host on loopback. The fetcher's requests go through its pool (FetcherSettings.pool): one that
 * the fetcher connects to a mapped address reaches that host (its Host header still the name
 * asked for); any other goes where the fetcher said, loopback included, so that a request the
 * fetcher should never have sent there is seen arriving. `connected` lists where each went.
 */
export function publicNetwork(hosts: Readonly<Record<string, { origin: string }>>): { pool: () => RequestPool; connected: string[] } {
  const connected: string[] = [];
  // As many connections as asked for: the bounds are the fetcher's to keep, not this network's.
  const real = new ConnectionPool({ connections: 256, keepAliveTimeout: 1_000, connectTimeout: 5_000 });
  const pool: RequestPool = {
    request: (url, spec) => {
      const address = spec.connectTo?.[0]?.address;
      connected.push(address ?? 'by name');
      const host = address === undefined ? undefined : hosts[address];
      if (host === undefined) return real.request(url, spec);
      const asked = new URL(url);
      const at = new URL(host.origin);
      const { connectTo: _judged, ...rest } = spec;
      return real.request(`${at.origin}${asked.pathname}${asked.search}`, { ...rest, headers: { ...spec.headers, host: asked.host } });
    },
    close: () => real.close(),
  };
  return { pool: () => pool, connected };
}

/** A resolver of the test's own: each name's answers in turn (the last one kept), and how often each was asked. */
export function testResolver(names: Readonly<Record<string, readonly (readonly string[])[]>>): { resolve: Resolver; asked: Map<string, number> } {
  const asked = new Map<string, number>();
  const resolve: Resolver = async (hostname) => {
    const turn = asked.get(hostname) ?? 0;
    asked.set(hostname, turn + 1);
    const answers = names[hostname];
    if (answers === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = answers[Math.min(turn, answers.length - 1)]!;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, asked };
}

/**
 * The email messages `check --drafts` checks (all but a sent campaign's) made of the LMX given,
 * spread over them by turns: each an H1, a paragraph of its share of `inline` (links), then its
 * share of `blocks` (images), each message saying it is in English. How many emails there are.
 */
export function spreadOverEmails(sandbox: RecordingSandbox, inline: readonly string[], blocks: readonly string[] = []): number {
  let emails = 0;
  sandbox.server.update((state) => {
    const stored = (state.emailMessages as { parent: { kind: string; published: boolean }; message: { lmx: string; languageCode?: string } }[]).filter(
      (each) => each.parent.kind !== 'campaign' || !each.parent.published,
    );
    emails = stored.length;
    stored.forEach((each, index) => {
      const mine = (items: readonly string[]) => items.filter((_, at) => at % stored.length === index);
      each.message.lmx = [
        '<H1>What is new</H1>',
        `<Paragraph>This month brings faster exports and a new billing page: ${mine(inline).join(', ')}.</Paragraph>`,
        ...mine(blocks),
        '',
      ].join('\n');
      // English, as the message says: the language rules find nothing to add to the links'.
      each.message.languageCode = 'en';
    });
  });
  return emails;
}
