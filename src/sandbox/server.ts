/**
 * The sandbox on the network: a node:http server in front of SandboxApi, with its state loaded
 * from a file (or the seed) and written back after every change.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxApi, type ApiAnswer } from './api.js';
import { seedState } from './seed.js';
import { readState, writeState, type SandboxState } from './state.js';
import { UsageError } from '../api/errors.js';

/** Bodies larger than this are refused; no operation of the API takes more than a few fields. */
const MAX_BODY_BYTES = 1_000_000;

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
}

export interface SandboxServer {
  url: string;
  api: SandboxApi;
  /** Writes the state file (if any), then stops accepting connections and ends open ones. */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const { stateFile } = options;
  const loaded = stateFile === undefined || options.reset ? undefined : readState(stateFile);
  const state: SandboxState = loaded ?? seedState();
  const save = stateFile === undefined ? () => {} : (current: SandboxState) => writeState(stateFile, current);
  if (loaded === undefined) save(state);
  const api = new SandboxApi(state, { onChange: save, now: options.now });

  const server: Server = createServer((req, res) => {
    serve(api, req, res, options.log).catch((error: unknown) => {
      send(res, { status: 500, body: { message: `sandbox error: ${error instanceof Error ? error.message : String(error)}` } });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(bindError(error, host, options.port ?? 0)));
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

/** Why the sandbox could not listen, as a usage error about --host and --port rather than a crash. */
function bindError(error: NodeJS.ErrnoException, host: string, port: number): UsageError {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const reasons: Record<string, [string, string]> = {
    EADDRINUSE: ['the port is already in use', 'pick another --port, or --port 0 for a free one'],
    EACCES: ['permission denied', 'ports below 1024 usually need privileges; pick another --port, or --port 0 for a free one'],
    EADDRNOTAVAIL: ['the address is not one of this machine\'s', 'listen on a local address, such as --host 127.0.0.1'],
    ENOTFOUND: ['the host name does not resolve', 'give an address, such as --host 127.0.0.1'],
    EAI_AGAIN: ['the host name could not be resolved', 'give an address, such as --host 127.0.0.1'],
  };
  const [reason, hint] = reasons[error.code ?? ''] ?? [error.message, 'check --host and --port'];
  return new UsageError(`the sandbox cannot listen on ${where}: ${reason}`, { cause: error, hint });
}

async function serve(api: SandboxApi, req: IncomingMessage, res: ServerResponse, log: SandboxServerOptions['log']): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return send(res, { status: 413, body: { message: `the request body is larger than ${MAX_BODY_BYTES} bytes` } });
    chunks.push(chunk as Buffer);
  }
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const result = api.handle({
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    authorization: req.headers.authorization,
    body: Buffer.concat(chunks).toString('utf8'),
  });
  log?.(`${req.method} ${url.pathname}${url.search} ${result.status}`);
  send(res, result);
}

function send(res: ServerResponse, result: ApiAnswer): void {
  res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8', ...result.headers });
  res.end(JSON.stringify(result.body));
}
