/**
 * The sandbox on the network: a node:http server in front of SandboxApi, with its state loaded
 * from a file (or the seed) and written back after every change.
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname } from 'node:path';
import type { WebhookEndpoint } from './routes/webhooks.js';
import { INBOX_PATH, loadModulesFor, loadSandboxModules, SandboxApi, type ApiAnswer, type ApiRequest } from './api.js';
import type { InboxServer } from './inbox.js';
import type { SandboxModule, SeedKind, StateCore } from './module.js';
import { readState, seedCore, seedState, withStateLock, writeState } from './state.js';
import type { DeliveryTuning } from './webhook-delivery.js';
import { foreignRequest } from './host-guard.js';
import { RateLimiter } from './rate-limit.js';
import { LocalFileError, UsageError } from '../api/errors.js';

/** Bodies larger than this are refused: the largest is an image PUT to an upload's URL (4,000,000 bytes at most). */
const MAX_BODY_BYTES = 4_100_000;

export interface SandboxServerOptions {
  port?: number;
  host?: string;
  /** Where the state is kept; without one, the state lives only as long as the server. */
  stateFile?: string;
  /** Start from the seed data, whatever the state file holds. */
  reset?: boolean;
  /** The seed a new state (or a reset) starts from: the demo team's data unless told otherwise. */
  seed?: SeedKind;
  /** Receives one line per request. */
  log?: (line: string) => void;
  now?: () => Date;
  /** Told of every request the sandbox answers (tests that check what a command sent). */
  onRequest?: (request: ApiRequest, answer: ApiAnswer) => void;
  /** Start from this state instead of the seed or the file (tests that need odd records). */
  initialState?: (modules: SandboxModule[]) => StateCore;
  /** Keep this webhook endpoint in the state (null: none), replacing the one it had. */
  webhookEndpoint?: WebhookEndpoint | null;
  /**
   * Send the webhook deliveries queued in the state: the server that `loopsctl sandbox` runs does,
   * the one a `--sandbox` command starts for itself does not (it only queues them).
   */
  deliverWebhooks?: boolean | DeliveryTuning;
  /**
   * Told when the state file turns unusable (requests are answered with 500 and the error's words,
   * webhook deliveries wait), once until it can be read again; without it, the log is told.
   */
  onStateError?: (error: LocalFileError) => void;
  /** Refuse requests beyond the API's rate limit (10 a second) with 429, as the platform does; on unless false. */
  rateLimit?: boolean;
}

export interface SandboxServer {
  url: string;
  /** The sandbox's state as it is now. */
  state(): StateCore;
  /** Runs `change` on the state and keeps what it changed, as a request would. */
  update<T>(change: (state: StateCore) => T): T;
  /** Stops accepting connections and ends open ones; the state file already holds every change. */
  close(): Promise<void>;
}

export async function startServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const rateLimiter = options.rateLimit === false ? undefined : new RateLimiter();
  const backing =
    options.stateFile === undefined
      ? inMemory(await loadSandboxModules(), { ...options, rateLimiter })
      : await inFile(options.stateFile, { ...options, rateLimiter });
  const { handle, state } = backing;
  // The inbox (and the renderer it draws with) is loaded at its first request.
  let inbox: InboxServer | undefined;
  const openInbox = async () => (inbox ??= (await import('./inbox.js')).inboxServer(state));
  // The inbox's open pages are told of every change: a request's, a delivery's, another process's.
  const update: Backing['update'] = (change) => {
    const result = backing.update(change);
    inbox?.changed();
    return result;
  };
  if (options.webhookEndpoint !== undefined) {
    // The webhooks' module is loaded only when a start names an endpoint: a `--sandbox` command's never does.
    const { webhookEndpoint } = await import('./routes/webhooks.js');
    update((current) => void (current[webhookEndpoint.key] = options.webhookEndpoint));
  }
  // A state file that turns unreadable while the sandbox serves (a newer layout, a half-written
  // file) is said once; the sandbox keeps serving, and `loopsctl sandbox reset` brings it back.
  let stateBroken = false;
  const stateError = (error: LocalFileError) => {
    if (stateBroken) return;
    stateBroken = true;
    if (options.onStateError !== undefined) options.onStateError(error);
    else options.log?.(`${error.message}; ${error.hint} (requests are answered with 500 until then)`);
  };
  // The engine (and the HTTP client it sends with) is loaded only by a server that delivers.
  const tuning = options.deliverWebhooks === true ? {} : options.deliverWebhooks || undefined;
  const engine =
    tuning === undefined
      ? undefined
      : new (await import('./webhook-delivery.js')).DeliveryEngine({
          update,
          now: options.now ?? (() => new Date()),
          log: options.log,
          onError: (error) => {
            if (error instanceof LocalFileError) stateError(error);
            else options.log?.(`webhook deliveries stopped: ${error instanceof Error ? error.message : String(error)}`);
          },
          ...tuning,
        });
  const watcher =
    engine === undefined || options.stateFile === undefined
      ? undefined
      : watchStateFile(options.stateFile, () => {
          engine.wake();
          inbox?.changed();
        });
  const host = options.host ?? '127.0.0.1';
  const origin = () => `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const server: Server = createServer((req, res) => {
    // The API and the inbox alike answer only requests addressed to the sandbox.
    const foreign = foreignRequest(req.headers, new URL(origin()));
    if (foreign !== undefined) {
      options.log?.(`refused: ${foreign}`);
      return send(res, { status: 403, body: { message: foreign } });
    }
    if (req.url?.startsWith(INBOX_PATH)) {
      openInbox()
        .then((opened) => opened.serve(req, res))
        .catch((error: unknown) =>
          send(res, { status: 500, body: { message: `sandbox inbox error: ${error instanceof Error ? error.message : String(error)}` } }),
        );
      return;
    }
    serve(handle, req, res, { ...options, origin })
      .then(() => {
        stateBroken = false;
        engine?.wake();
        inbox?.changed();
      })
      .catch((error: unknown) => {
        // A state file that cannot be read is the person's to fix (with its hint), not a sandbox bug.
        if (error instanceof LocalFileError) {
          stateError(error);
          return send(res, { status: 500, body: { message: `${error.message}; ${error.hint}` } });
        }
        send(res, { status: 500, body: { message: `sandbox error: ${error instanceof Error ? error.message : String(error)}` } });
      });
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
    watcher?.close();
    await engine?.close();
    throw error;
  }
  // Deliveries queued before this start (by an earlier run, or a `--sandbox` command) go out now.
  engine?.wake();
  return {
    url: origin(),
    state,
    update,
    close: async () => {
      watcher?.close();
      inbox?.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await engine?.close();
    },
  };
}

/**
 * Calls `changed` when another process (a `--sandbox` command) replaces the state file, whose
 * deliveries this server then sends and whose mail the inbox shows. The directory is watched, as
 * the file is replaced by a rename.
 */
function watchStateFile(stateFile: string, changed: () => void): FSWatcher | undefined {
  try {
    return watch(dirname(stateFile), { persistent: false }, (_event, name) => {
      if (name === basename(stateFile)) changed();
    });
  } catch {
    // Without file events, deliveries queued elsewhere wait for this server's next request.
    return undefined;
  }
}

type Handle = (request: ApiRequest) => ApiAnswer | Promise<ApiAnswer>;

interface Backing {
  handle: Handle;
  /** The state as it is now. */
  state: () => StateCore;
  /** Runs `change` on the state and keeps what it changed, as a request would. */
  update: <T>(change: (state: StateCore) => T) => T;
}

type BackingOptions = SandboxServerOptions & { rateLimiter?: RateLimiter };

/** State that lives as long as the server. */
function inMemory(modules: SandboxModule[], options: BackingOptions): Backing {
  const state = options.initialState?.(modules) ?? seedState(modules, options.seed);
  const api = new SandboxApi(state, modules, { now: options.now, rateLimiter: options.rateLimiter });
  return { handle: (request) => api.handle(request), state: () => state, update: (change) => change(state) };
}

/**
 * State kept in a file that several sandboxes (and `--sandbox` commands running in parallel) may
 * share: each request reads the file, and writes it back only when it changed something, all
 * under the file's lock, so no process loses another's change or hands out the same id. A request
 * loads only the route modules of its path, and its routes check only the slices they read; the
 * file is read again only when another process has replaced it since this one last read or wrote it.
 */
async function inFile(stateFile: string, options: BackingOptions): Promise<Backing> {
  // Every slice is needed to start a new state (or start over); an existing one is read as it is.
  const fresh = options.initialState !== undefined || options.reset || !existsSync(stateFile);
  const all = fresh ? await loadSandboxModules() : [];
  const initial = options.initialState?.(all) ?? (options.reset ? seedState(all, options.seed) : undefined);
  /** The state as this process last read or wrote it, and the file it was then (see stampOf). */
  let kept: { stamp: string; state: StateCore } | undefined;
  const keep = (state: StateCore) => {
    const stamp = stampOf(stateFile);
    kept = stamp === undefined ? undefined : { stamp, state };
  };
  const current = (): StateCore => {
    if (kept !== undefined && kept.stamp === stampOf(stateFile)) return kept.state;
    // A file removed while serving starts over from the seed, each slice when first used.
    const state = readState(stateFile) ?? seedCore(options.seed);
    keep(state);
    return state;
  };
  const save = (state: StateCore) => {
    writeState(stateFile, state);
    keep(state);
  };
  // An existing file is only read (no lock: see handle); a new state is written under the lock.
  const stored = initial === undefined ? readState(stateFile) : undefined;
  if (stored !== undefined) keep(stored);
  else withStateLock(stateFile, () => save(initial ?? readState(stateFile) ?? seedState(all, options.seed)));
  const handle: Handle = async (request) => {
    const modules = await loadModulesFor(request.path);
    const attempt = (locked: boolean) => {
      const state = current();
      let changed = false;
      const api = new SandboxApi(state, modules, { onChange: () => (changed = true), now: options.now, rateLimiter: options.rateLimiter });
      const answer = api.handle(request);
      if (!changed) return answer;
      if (locked) save(state);
      else kept = undefined;
      return locked ? answer : undefined;
    };
    // A read needs no lock, as every write replaces the file whole; one that changes something after
    // all (none should) is forgotten, and made again under the lock.
    if (request.method === 'GET') {
      const answer = attempt(false);
      if (answer !== undefined) return answer;
    }
    return withStateLock(stateFile, () => attempt(true)!);
  };
  const update = <T>(change: (state: StateCore) => T): T =>
    withStateLock(stateFile, () => {
      const state = current();
      const result = change(state);
      save(state);
      return result;
    });
  return { handle, state: current, update };
}

/**
 * What identifies the file as written: a write replaces it with a new file (see writeState), so
 * a change by any process gives it another inode. Undefined when there is no file.
 */
function stampOf(file: string): string | undefined {
  try {
    const { ino, size, mtimeMs } = statSync(file);
    return `${ino}:${size}:${mtimeMs}`;
  } catch {
    return undefined;
  }
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

/**
 * The API's own prefix: clients configured with the platform's base URL (`…/api`, as in the
 * description's servers and the JavaScript SDK's apiRoot) reach the same routes as those without.
 */
const API_PREFIX = '/api';

async function serve(handle: Handle, req: IncomingMessage, res: ServerResponse, options: SandboxServerOptions & { origin: () => string }): Promise<void> {
  const started = process.hrtime.bigint();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return send(res, { status: 413, body: { message: `the request body is larger than ${MAX_BODY_BYTES} bytes` } });
    chunks.push(chunk as Buffer);
  }
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const rawBody = Buffer.concat(chunks);
  const prefixed = url.pathname.startsWith(`${API_PREFIX}/`);
  // Links in answers go to the origin the client used (its Host), as a server behind any name would.
  const origin = req.headers.host === undefined ? options.origin() : `http://${req.headers.host}`;
  const request: ApiRequest = {
    method: req.method ?? 'GET',
    path: prefixed ? url.pathname.slice(API_PREFIX.length) : url.pathname,
    url: `${origin}${url.pathname}`,
    query: url.searchParams,
    authorization: req.headers.authorization,
    headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
    body: rawBody.toString('utf8'),
    rawBody,
  };
  const result = await handle(request);
  const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
  const time = (options.now?.() ?? new Date()).toISOString();
  options.log?.(`${time} ${req.method} ${url.pathname}${url.search} ${result.status} ${milliseconds.toFixed(1)} ms`);
  options.onRequest?.(request, result);
  send(res, result);
}

function send(res: ServerResponse, result: ApiAnswer): void {
  if (result.status === 204) {
    res.writeHead(204, result.headers).end();
    return;
  }
  res.writeHead(result.status, { 'content-type': 'application/json; charset=utf-8', ...result.headers });
  res.end(JSON.stringify(result.body));
}
