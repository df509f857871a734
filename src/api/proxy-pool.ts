/**
 * Requests through an HTTP(S) proxy: the same node:http keep-alive pool as direct requests
 * (node-http.ts), whose every new connection is a tunnel (CONNECT) to the target through the proxy,
 * with TLS inside it for an https target and the proxy's credentials taken from its URL. Being that
 * pool, a proxied request parses its answer with Node's native parser and loads nothing a direct
 * request does not.
 */
import type { AgentOptions, ClientRequest, ClientRequestArgs, Agent as HttpAgent } from 'node:http';
import type { RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { builtinModule } from '../base/builtin.js';
import { ConnectionPool, type Connector, type PoolOptions, type RequestPool } from '../base/node-http.js';

/** The proxy answered the tunnel request (CONNECT) with something other than 200. */
export class ProxyRefusedError extends Error {
  readonly code = 'PROXY_REFUSED';
  constructor(readonly status: number) {
    super(`the proxy answered HTTP ${status} to CONNECT`);
  }
}

/** The proxy itself could not be reached. */
export class ProxyUnreachableError extends Error {
  readonly code = 'PROXY_UNREACHABLE';
}

/** A pool whose connections are tunnels through the proxy at `proxyUrl` (credentials included). */
export function proxyPool(proxyUrl: string, options: PoolOptions): RequestPool {
  return new ConnectionPool(options, new Tunnels(proxyUrl, options.connectTimeout));
}

type Connected = (error: Error | null, socket?: Duplex) => void;

/** Opens tunnels through one proxy, and ends the ones still waiting for the proxy when the pool closes. */
class Tunnels implements Connector {
  private readonly proxy: URL;
  private readonly authorization?: string;
  private readonly opening = new Set<ClientRequest>();

  constructor(
    proxyUrl: string,
    private readonly timeoutMs: number,
  ) {
    this.proxy = new URL(proxyUrl);
    if (this.proxy.username !== '') {
      const credentials = `${decodeURIComponent(this.proxy.username)}:${decodeURIComponent(this.proxy.password)}`;
      this.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
  }

  /**
   * An agent of Node's own whose connections are tunnels: Node waits for a createConnection that
   * answers through its callback, and keeps the connection alive and reuses it as any other.
   */
  agent(protocol: 'http:' | 'https:', options: AgentOptions): HttpAgent {
    const open = (target: ClientRequestArgs, connected: Connected) => this.open(target, connected);
    if (protocol === 'http:') {
      return new (class extends builtinModule('node:http').Agent {
        override createConnection(target: ClientRequestArgs, connected: Connected): undefined {
          open(target, connected);
        }
      })(options);
    }
    return new (class extends builtinModule('node:https').Agent {
      override createConnection(target: RequestOptions, connected: Connected): undefined {
        // TLS to the target inside the tunnel, as node:https starts it on a connection of its own.
        open(target, (error, socket) => {
          if (socket === undefined) connected(error);
          else connected(null, super.createConnection({ ...target, socket } as RequestOptions)!);
        });
      }
    })(options);
  }

  close(): void {
    for (const request of this.opening) request.destroy();
    this.opening.clear();
  }

  /**
   * Asks the proxy for a tunnel to the target. How long the answer may take is the request's own
   * limit (the transport's deadline for the attempt); the timer here only ends a tunnel nobody waits for.
   */
  private open(target: ClientRequestArgs, connected: Connected): void {
    const host = String(target.host ?? 'localhost');
    const authority = `${host.includes(':') ? `[${host}]` : host}:${target.port}`;
    const https = this.proxy.protocol === 'https:';
    const connect = builtinModule(https ? 'node:https' : 'node:http').request({
      host: this.proxy.hostname.replace(/^\[|\]$/g, ''),
      port: this.proxy.port || (https ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...(this.authorization === undefined ? {} : { 'proxy-authorization': this.authorization }) },
      agent: false,
    });
    this.opening.add(connect);
    // A tunnel still opening holds the process no longer than the request waiting for it (whose
    // deadline holds it): a request ended by Ctrl-C or its time limit leaves nothing to wait for at exit.
    connect.once('socket', (socket) => socket.unref());
    const abandon = setTimeout(() => connect.destroy(new ProxyUnreachableError(`no answer to CONNECT within ${this.timeoutMs} ms`)), this.timeoutMs);
    abandon.unref();
    const settle = () => {
      clearTimeout(abandon);
      this.opening.delete(connect);
    };
    connect.once('connect', (response, socket: Socket, head: Buffer) => {
      settle();
      if (response.statusCode !== 200) {
        socket.destroy();
        connected(new ProxyRefusedError(response.statusCode ?? 0));
        return;
      }
      if (head.length > 0) socket.unshift(head);
      socket.ref();
      connected(null, socket);
    });
    connect.once('error', (error: Error & { code?: string }) => {
      settle();
      connected(new ProxyUnreachableError(error.message, { cause: error }));
    });
    connect.end();
  }
}
