/**
 * The sandbox on the network: a node:http server in front of SandboxApi, with its state loaded
 * from a file (or the seed) and written back after every change.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSandboxModules, SandboxApi, type ApiAnswer, type ApiRequest } from './api.js';
import type { SandboxModule, StateCore } from './module.js';
import { readState, seedState, writeState } from './state.js';

/** Bodies larger than this are refused: the largest is an image PUT to an upload's URL (4,000,000 bytes at most). */
const MAX_BODY_BYTES = 4_100_000;

export interface SandboxServerOptions {
  port?: number;
  host?: string;
  /** Where the state is kept; without one, the state lives only as long as the server. */
  stateFile?: string;
  /** Start from the seed data, whatever the state file holds. */
  reset?: boolean;
  /** Receives one line per request. */
  log?: (line: string) => void;
  now?: () => Date;
  /** Told of every request the sandbox answers (tests that check what a command sent). */
  onRequest?: (request: ApiRequest, answer: ApiAnswer) => void;
  /** Start from this state instead of the seed or the file (tests that need odd records). */
  initialState?: (modules: SandboxModule[]) => StateCore;
}

export interface SandboxServer {
  url: string;
  api: SandboxApi;
  /** Writes the state file (if any), then stops accepting connections and ends open ones. */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const { stateFile } = options;
  const modules = await loadSandboxModules();
  const loaded = stateFile === undefined || options.reset || options.initialState ? undefined : readState(stateFile, modules);
  const state: StateCore = loaded ?? options.initialState?.(modules) ?? seedState(modules);
  const save = stateFile === undefined ? () => {} : (current: StateCore) => writeState(stateFile, current);
  if (loaded === undefined) save(state);
  const api = new SandboxApi(state, modules, { onChange: save, now: options.now });

  const server: Server = createServer((req, res) => {
    serve(api, req, res, options).catch((error: unknown) => {
      send(res, { status: 500, body: { message: `sandbox error: ${error instanceof Error ? error.message : String(error)}` } });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    api,
    close: () =>
      new Promise<void>((resolve) => {
        save(state);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(api: SandboxApi, req: IncomingMessage, res: ServerResponse, options: SandboxServerOptions): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return send(res, { status: 413, body: { message: `the request body is larger than ${MAX_BODY_BYTES} bytes` } });
    chunks.push(chunk as Buffer);
  }
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const rawBody = Buffer.concat(chunks);
  const request: ApiRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    authorization: req.headers.authorization,
    headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
    body: rawBody.toString('utf8'),
    rawBody,
  };
  const result = api.handle(request);
  options.log?.(`${req.method} ${url.pathname}${url.search} ${result.status}`);
  options.onRequest?.(request, result);
  send(res, result);
}

function send(res: ServerResponse, result: ApiAnswer): void {
  res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8', ...result.headers });
  res.end(JSON.stringify(result.body));
}
