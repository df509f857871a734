/**
 * The sandbox on the network: a node:http server in front of its core (core.ts), with the inbox
 * beside the API and a guard against requests addressed to any other host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../base/errors.js';
import { foreignRequest } from '../base/local-page.js';
import type { ImageLoader } from '../base/page-images.js';
import type { ApiAnswer } from './api.js';
import { MAX_BODY_BYTES, openCore, type SandboxCore, type SandboxOptions, sandboxError, TOO_LARGE, type WireRequest } from './core.js';
import type { InboxServer } from './inbox.js';
import type { StateCore } from './module.js';
import { INBOX_PATH } from './own-paths.js';

export interface SandboxServerOptions extends SandboxOptions {
  port?: number;
  host?: string;
  /**
   * What fetches the images of the inbox's emails, which the inbox serves them through (`loopsctl
   * sandbox` hands it loopsctl's fetcher for outside addresses); without, the inbox loads no
   * remote image and draws each as a placeholder.
   */
  images?: ImageLoader;
}

export interface SandboxServer {
  url: string;
  /** The sandbox's state as it is now. */
  state(): StateCore;
  /** Runs `change` on the state and keeps what it changed, as a request would. */
  update<T>(change: (state: StateCore) => T): T;
  /** Answers a request made in this process, as one over HTTP would be (the interceptor of fetch, the clock's moves). */
  answer(request: WireRequest): Promise<ApiAnswer>;
  /** Stops accepting connections and ends open ones; the state file already holds every change. */
  close(): Promise<void>;
}

export async function startServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  // The inbox (and the renderer it draws with) is loaded at its first request.
  let inbox: InboxServer | undefined;
  // The inbox's open pages are told of every change: a request's, a delivery's, another process's.
  const core = await openCore(options, () => inbox?.changed());
  const openInbox = async () => (inbox ??= (await import('./inbox.js')).inboxServer(core.state, options.images));
  const host = options.host ?? '127.0.0.1';
  // Known once it listens: a request never comes before.
  let listening: { origin: string; url: URL } | undefined;
  const origin = () => (listening ??= listeningAt(host, server)).origin;
  /** Hosts a request without an Origin was addressed to and answered: most requests are checked once. */
  const ownHosts = new Set<string>();
  const server: Server = createServer((req, res) => {
    // The API and the inbox alike answer only requests addressed to the sandbox.
    const { host: addressed, origin: from } = req.headers;
    if (from !== undefined || addressed === undefined || !ownHosts.has(addressed)) {
      const foreign = foreignRequest(req.headers, (listening ??= listeningAt(host, server)).url, 'the sandbox');
      if (foreign !== undefined) {
        options.log?.(`refused: ${foreign}`);
        return send(res, { status: 403, body: { message: foreign } });
      }
      if (from === undefined && addressed !== undefined && ownHosts.size < 16) ownHosts.add(addressed);
    }
    if (req.url?.startsWith(INBOX_PATH)) {
      openInbox()
        .then((opened) => opened.serve(req, res))
        .catch((error: unknown) =>
          send(res, { status: 500, body: { message: `sandbox inbox error: ${error instanceof Error ? error.message : String(error)}` } }),
        );
      return;
    }
    serve(core, req, res, origin).catch((error: unknown) => send(res, sandboxError(error)));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) => reject(bindError(error, host, options.port ?? 0)));
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // Nothing of a sandbox that could not listen is left running.
    await core.close();
    throw error;
  }
  // Deliveries queued before this start (by an earlier run, or a `--sandbox` command) go out now.
  core.wake();
  return {
    url: origin(),
    state: core.state,
    update: core.update,
    answer: (request) => core.answer(request, origin()),
    close: async () => {
      inbox?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await core.close();
    },
  };
}

/** The origin of a server that listens, as text and as a URL. */
function listeningAt(host: string, server: Server): { origin: string; url: URL } {
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  return { origin, url: new URL(origin) };
}

/** Why the sandbox could not listen, as a usage error about --host and --port rather than a crash. */
function bindError(error: NodeJS.ErrnoException, host: string, port: number): UsageError {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const reasons: Record<string, [string, string]> = {
    EADDRINUSE: ['the port is already in use', 'pick another --port, or --port 0 for a free one'],
    EACCES: ['permission denied', 'ports below 1024 usually need privileges; pick another --port, or --port 0 for a free one'],
    EADDRNOTAVAIL: ["the address is not one of this machine's", 'listen on a local address, such as --host 127.0.0.1'],
    ENOTFOUND: ['the host name does not resolve', 'give an address, such as --host 127.0.0.1'],
    EAI_AGAIN: ['the host name could not be resolved', 'give an address, such as --host 127.0.0.1'],
  };
  const [reason, hint] = reasons[error.code ?? ''] ?? [error.message, 'check --host and --port'];
  return new UsageError(`the sandbox cannot listen on ${where}: ${reason}`, { cause: error, hint });
}

/** Reads a request's body over HTTP, up to the largest the sandbox takes, and answers it. */
async function serve(core: SandboxCore, req: IncomingMessage, res: ServerResponse, origin: () => string): Promise<void> {
  const body = await readBody(req);
  if (body === undefined) return send(res, TOO_LARGE);
  const headers: Record<string, string | undefined> = {};
  // A loop rather than entries, map and fromEntries: three arrays a request fewer.
  for (const name in req.headers) {
    const value = req.headers[name];
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // Links in answers go to the origin the client used (its Host), as a server behind any name would.
  const at = req.headers.host === undefined ? origin() : `http://${req.headers.host}`;
  const answer = await core.answer({ method: req.method ?? 'GET', target: req.url ?? '/', headers, body }, at);
  // Dated by the sandbox's clock, as the API dates its answers by the account's: a history made by
  // moving the clock reads the times the clock showed.
  send(res, answer.at === undefined ? answer : { ...answer, headers: { date: answer.at.toUTCString(), ...answer.headers } });
}

/**
 * The body, or undefined past the largest the sandbox takes. Events rather than an async iterator,
 * which took several turns of the event loop more for each request.
 */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, result: ApiAnswer): void {
  if (result.status === 204) {
    res.writeHead(204, result.headers).end();
    return;
  }
  // With its length, the answer goes out in one write with its headers, not in chunks.
  const text = JSON.stringify(result.body);
  res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...result.headers });
  res.end(text);
}
