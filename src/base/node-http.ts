/**
 * HTTP/1.1 requests on Node's own http and https modules, for the transport (src/api/http.ts): a
 * keep-alive connection pool, one request at a time through it, and the three time limits
 * (connecting, waiting for the headers, and between two pieces of the body), each failing with an
 * error of its own class. Node parses HTTP with its built-in native parser, so a run compiles no
 * parser of its own and waits at exit for no optimizing compile of one.
 */
import type { AgentOptions, Agent as HttpAgent, IncomingHttpHeaders, RequestOptions } from 'node:http';
import type { Readable } from 'node:stream';
import { builtinModule } from './builtin.js';

export interface PoolOptions {
  /** Connections kept open at most, per origin. */
  connections: number;
  /** How long an idle connection is kept open, in milliseconds. */
  keepAliveTimeout: number;
  /** How long connecting may take, in milliseconds. */
  connectTimeout: number;
}

export interface RequestSpec {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Milliseconds from sending until the response's headers have arrived; none when the signal alone bounds the request. */
  headersTimeout?: number;
  /** Milliseconds the body may pause between two pieces; none when the signal alone bounds the request. */
  bodyTimeout?: number;
  signal?: RequestSignal;
  /**
   * The addresses to connect to, judged beforehand (src/api/fetcher.ts): the host's name is sent
   * (Host, TLS's server name) and never looked up again, so a second DNS answer cannot move the
   * request elsewhere. Ignored through a proxy, which connects itself.
   */
  connectTo?: readonly { address: string; family: 4 | 6 }[];
  /** Told once the request is over and its connection given back or closed: whoever counts requests at a host counts it until then. */
  onClose?: () => void;
}

/**
 * What ends a request early: an AbortSignal, or anything that aborts as one does (the transport's
 * deadline, which needs no EventTarget of its own for each attempt).
 */
export interface RequestSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options: { once: true }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface ResponseData {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The body, read to its end as UTF-8; undefined, with the connection ended, once it passes `limit` bytes. */
  text(limit: number): Promise<string | undefined>;
  /** The body's bytes, bounded as `text` is (an image downloaded, which is no text). */
  bytes(limit: number): Promise<Buffer | undefined>;
}

/** The parts of a URL that http.request takes as options. */
interface Target {
  protocol: 'http:' | 'https:';
  hostname: string;
  /** Undefined for the protocol's own. */
  port?: number;
  path: string;
  auth?: string;
}

/** The time limits, each with a `code` as Node's own network errors have. */
class ConnectTimeoutError extends Error {
  readonly code = 'CONNECT_TIMEOUT';
}
class HeadersTimeoutError extends Error {
  readonly code = 'HEADERS_TIMEOUT';
}
class BodyTimeoutError extends Error {
  readonly code = 'BODY_TIMEOUT';
}

/** The connection closed before the whole body arrived. */
class BodyCutError extends Error {
  readonly code = 'ECONNRESET';
}

/** What the transport sends requests through: a ConnectionPool, direct or through a proxy (proxy-pool.ts). */
export interface RequestPool {
  request(url: string, spec: RequestSpec): Promise<ResponseData>;
  close(): Promise<void>;
}

/** How connections are made when not directly: tunnels through a proxy (proxy-pool.ts). */
export interface Connector {
  /** An agent whose new connections it makes. */
  agent(protocol: 'http:' | 'https:', options: AgentOptions): HttpAgent;
  /** Ends the connections it is still making. */
  close(): void;
}

/** Keep-alive connections to any number of origins, direct or through a connector; `close()` ends them all. */
export class ConnectionPool implements RequestPool {
  private readonly agents = new Map<'http:' | 'https:', { agent: HttpAgent; send: typeof import('node:http').request }>();
  private lastTarget: { url: string; target: Target } | undefined;

  constructor(
    private readonly options: PoolOptions,
    private readonly connector?: Connector,
  ) {}

  /** Sends a request and resolves once its headers have arrived; the body is read by `text()`. */
  async request(url: string, spec: RequestSpec): Promise<ResponseData> {
    let target: Target;
    try {
      target = this.targetOf(url);
      spec.signal?.throwIfAborted();
    } catch (error) {
      spec.onClose?.();
      throw error;
    }
    const { agent, send } = this.agentFor(target.protocol);
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
    // The signal is the pool's to watch, not Node's: given to http.request, it costs each request
    // listeners and an error object of Node's own, and an import makes thousands of requests.
    const options: RequestOptions = { ...target, method: spec.method, headers, agent };
    const pinned = spec.connectTo;
    if (pinned !== undefined && pinned.length > 0 && this.connector === undefined) options.lookup = pinnedLookup(pinned);
    return new Promise<ResponseData>((resolve, reject) => {
      let outgoing: ReturnType<typeof send>;
      try {
        outgoing = send(options);
      } catch (error) {
        spec.onClose?.();
        throw error;
      }
      if (spec.onClose !== undefined) outgoing.once('close', spec.onClose);
      let answer: Readable | undefined;
      const fail = (error: Error) => {
        settled();
        outgoing.destroy(error);
        // Once the headers are in, the body being read fails with the same error.
        answer?.destroy(error);
        reject(error);
      };
      let connecting: NodeJS.Timeout | undefined;
      const { headersTimeout } = spec;
      const waiting =
        headersTimeout === undefined
          ? undefined
          : setTimeout(() => fail(new HeadersTimeoutError(`no response headers within ${headersTimeout} ms`)), headersTimeout);
      // An abort (the attempt's deadline, Ctrl-C) ends the request whatever it is waiting for: a
      // connection, a tunnel, the headers or the rest of the body.
      const aborted = () => fail(spec.signal!.reason as Error);
      spec.signal?.addEventListener('abort', aborted, { once: true });
      const released = () => spec.signal?.removeEventListener('abort', aborted);
      const settled = () => {
        clearTimeout(connecting);
        clearTimeout(waiting);
      };
      // Only a new connection is timed while it connects (a reused one is open), from when the pool
      // hands it out. A tunnel is open once the proxy has answered CONNECT, which the wait for the
      // headers bounds: a proxy that never answers is "no answer", not "could not connect".
      if (this.connector === undefined) {
        outgoing.on('socket', (socket) => {
          if (!socket.connecting) return;
          connecting = setTimeout(
            () => fail(new ConnectTimeoutError(`connecting took longer than ${this.options.connectTimeout} ms`)),
            this.options.connectTimeout,
          );
          socket.once('connect', () => clearTimeout(connecting));
        });
      }
      outgoing.on('error', (error) => {
        settled();
        released();
        reject(error);
      });
      outgoing.on('response', (response) => {
        settled();
        answer = response;
        resolve({
          statusCode: response.statusCode ?? 0,
          headers: response.headers,
          text: async (limit) => (await readBody(response, response.headers, spec.bodyTimeout, limit).finally(released))?.toString('utf8'),
          bytes: (limit) => readBody(response, response.headers, spec.bodyTimeout, limit).finally(released),
        });
      });
      outgoing.end(spec.body);
    });
  }

  /** Ends every connection, idle or not. */
  async close(): Promise<void> {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
    this.connector?.close();
  }

  /**
   * What http.request needs of a URL, worked out once for the URL asked for last: an import asks
   * for one URL thousands of times, and a URL object handed to http.request is read again each time.
   */
  private targetOf(url: string): Target {
    if (this.lastTarget?.url !== url) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`unsupported protocol ${parsed.protocol}`);
      // A bracketed IPv6 host is given to the socket without its brackets.
      const hostname = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
      const auth =
        parsed.username === '' && parsed.password === '' ? undefined : `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      const port = parsed.port === '' ? undefined : Number(parsed.port);
      const target: Target = { protocol: parsed.protocol, hostname, port, path: `${parsed.pathname}${parsed.search}`, ...(auth === undefined ? {} : { auth }) };
      this.lastTarget = { url, target };
    }
    return this.lastTarget.target;
  }

  /** node:https (and with it TLS) is loaded only for an https origin. */
  private agentFor(protocol: 'http:' | 'https:'): { agent: HttpAgent; send: typeof import('node:http').request } {
    let entry = this.agents.get(protocol);
    if (entry === undefined) {
      const module = protocol === 'https:' ? builtinModule('node:https') : builtinModule('node:http');
      const agentOptions = { keepAlive: true, maxSockets: this.options.connections, timeout: this.options.keepAliveTimeout };
      entry = { agent: this.connector?.agent(protocol, agentOptions) ?? new module.Agent(agentOptions), send: module.request };
      this.agents.set(protocol, entry);
    }
    return entry;
  }
}

/** A lookup that answers the addresses judged, whatever name it is asked (Node asks for all of them when it tries each in turn). */
function pinnedLookup(pinned: readonly { address: string; family: 4 | 6 }[]): NonNullable<RequestOptions['lookup']> {
  return ((_hostname: string, options: { all?: boolean }, callback: (...answer: unknown[]) => void) => {
    if (options.all === true)
      callback(
        null,
        pinned.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, pinned[0]!.address, pinned[0]!.family);
  }) as NonNullable<RequestOptions['lookup']>;
}

/** Reads a response's body, bounded in size and in how long it may pause. */
function readBody(response: Readable, headers: IncomingHttpHeaders, pauseLimit: number | undefined, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
    };
    const timer =
      pauseLimit === undefined
        ? undefined
        : setTimeout(() => response.destroy(new BodyTimeoutError(`the body paused for longer than ${pauseLimit} ms`)), pauseLimit);
    // An answer that says it is larger than the limit is not read at all.
    if (Number(headers['content-length']) > limit) {
      settle();
      response.destroy();
      return resolve(undefined);
    }
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Settled before the connection closes, so the close below changes nothing.
        settle();
        resolve(undefined);
        response.destroy();
        return;
      }
      chunks.push(chunk);
      timer?.refresh();
    });
    response.on('error', (error) => {
      settle();
      reject(error);
    });
    response.on('end', () => {
      settle();
      resolve(Buffer.concat(chunks));
    });
    // Every answer closes, a complete one too: an error (and its stack) is made only for one cut short.
    response.on('close', () => {
      if (settled) return;
      settle();
      reject(new BodyCutError('the connection closed before the body was complete'));
    });
  });
}
