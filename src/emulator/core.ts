/**
 * The sandbox without its socket: its state, loaded from a file (or the seed) and written back
 * after every change, the webhooks it delivers, and what turns a request as it arrives into the
 * API's answer. The server (server.ts) puts it on the network; a `--sandbox` command
 * (in-process.ts) calls it directly.
 */

import { LocalFileError } from '../base/errors.js';
import { type ApiAnswer, type ApiRequest, loadSandboxModules, modulesFor, RouteTable, SandboxApi, type StartOver } from './api.js';
import { clockTime } from './clock.js';
import { ModuleNeeded, type SandboxModule, type SeedKind, type StateCore } from './module.js';
import { RateLimiter } from './rate-limit.js';
import type { WebhookEndpoint } from './routes/webhook-records.js';
import { openStateFile, seedCore, seedState, stateFileExists, withStateDatabase, withStateLock, writeState } from './state/index.js';
import { StateFileWatch } from './state/watch.js';
import type { DeliveryTuning } from './webhook-delivery.js';

/** Bodies larger than this are refused: the largest is an image PUT to an upload's URL (4,000,000 bytes at most). */
export const MAX_BODY_BYTES = 4_100_000;

export interface SandboxOptions {
  /** Where the state is kept; without one, the state lives only as long as the sandbox. */
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
  /**
   * Without a state file: start from the seed's core alone, making each slice from the seed when a
   * route first uses it, and loading each route module when a request first needs it (the
   * JavaScript API's sandboxes, whose state is read only through their routes). A start then costs
   * neither every area's seed nor every area's code.
   */
  seedOnUse?: boolean;
  /** Start from this state instead of the seed or the file (tests that need odd records). */
  initialState?: (modules: SandboxModule[]) => StateCore;
  /** What `POST /_sandbox/reset` starts over from (see SandboxApiOptions.startOver); the seed alone without it. */
  startOver?: StartOver;
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
  /** The clock the rate limit counts its second by, in milliseconds: the monotonic clock unless given (a test holds it still). */
  rateClock?: () => number;
}

/** A request as it arrives, over HTTP or from this process: what the sandbox answers. */
export interface WireRequest {
  method: string;
  /** The path and query, as sent. */
  target: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** The sandbox without its socket: its state, the webhooks it delivers, and what answers a request. */
export interface SandboxCore {
  /**
   * Answers a request as the API would, `origin` being where it was sent (links in answers go
   * there). A state file that cannot be read is an answer too: 500, with what to do.
   */
  answer(request: WireRequest, origin: string): Promise<ApiAnswer>;
  state(): StateCore;
  update<T>(change: (state: StateCore) => T): T;
  /** Sends the webhook deliveries that are due, when this sandbox delivers them. */
  wake(): void;
  /** Stops delivering and watching the state file; the file already holds every change. */
  close(): Promise<void>;
}

/**
 * Opens the sandbox's state (a file's, or the seed's in memory) and, when asked, the engine that
 * delivers its webhooks. `changed` is called after every request and change, and when another
 * process replaces the state file.
 */
export async function openCore(options: SandboxOptions, changed: () => void = () => {}): Promise<SandboxCore> {
  const rateLimiter = options.rateLimit === false ? undefined : new RateLimiter(options.rateClock);
  const backing = options.stateFile === undefined ? await inMemory({ ...options, rateLimiter }) : await inFile(options.stateFile, { ...options, rateLimiter });
  // The sandbox's clock (clock.ts): what its deliveries and its log are dated with.
  const systemNow = options.now ?? (() => new Date());
  const sandboxTime = (system: Date) => clockTime(backing.state(), system);
  const sandboxNow = () => sandboxTime(systemNow());
  const update: Backing['update'] = (change) => {
    const result = backing.update(change);
    changed();
    return result;
  };
  if (options.webhookEndpoint !== undefined) {
    // The webhooks' module is loaded only when a start names an endpoint: a `--sandbox` command's never does.
    const { webhookEndpoint } = await import('./routes/webhook-records.js');
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
  // The engine (and the HTTP client it sends with) is loaded only by a sandbox that delivers.
  const tuning = options.deliverWebhooks === true ? {} : options.deliverWebhooks || undefined;
  const engine =
    tuning === undefined
      ? undefined
      : new (await import('./webhook-delivery.js')).DeliveryEngine({
          update,
          read: (look) => look(backing.state()),
          systemNow,
          sandboxTime,
          log: options.log,
          onError: (error) => {
            if (error instanceof LocalFileError) stateError(error);
            else options.log?.(`webhook deliveries stopped: ${error instanceof Error ? error.message : String(error)}`);
          },
          ...tuning,
        });
  const watch =
    engine === undefined || options.stateFile === undefined
      ? undefined
      : new StateFileWatch(options.stateFile, () => {
          engine.wake();
          changed();
        });
  // Made once, not for every request.
  const answerOptions = { ...options, now: sandboxNow };
  return {
    answer: async (wire, origin) => {
      watch?.requestStarted();
      try {
        const answer = await answerRequest(backing.handle, wire, origin, answerOptions);
        stateBroken = false;
        engine?.wake();
        changed();
        return answer;
      } catch (error) {
        // A state file that cannot be read is the person's to fix (with its hint), not a sandbox bug.
        if (error instanceof LocalFileError) stateError(error);
        return sandboxError(error);
      } finally {
        watch?.requestEnded();
      }
    },
    state: backing.state,
    update,
    wake: () => engine?.wake(),
    close: async () => {
      watch?.close();
      await engine?.close();
      backing.close?.();
    },
  };
}

/** The answer to a request the sandbox failed on: the state file's problem, with its hint, or its own. */
export function sandboxError(error: unknown): ApiAnswer {
  if (error instanceof LocalFileError) return { status: 500, body: { message: `${error.message}; ${error.hint}` } };
  return { status: 500, body: { message: `sandbox error: ${error instanceof Error ? error.message : String(error)}` } };
}

type Handle = (request: ApiRequest) => ApiAnswer | Promise<ApiAnswer>;

interface Backing {
  handle: Handle;
  /** The state as it is now. */
  state: () => StateCore;
  /** Runs `change` on the state and keeps what it changed, as a request would. */
  update: <T>(change: (state: StateCore) => T) => T;
  /** Lets go of the state file. */
  close?: () => void;
}

type BackingOptions = SandboxOptions & { rateLimiter?: RateLimiter };

/**
 * A request's answer, at once when it needs no more modules. One that finds it needs a module
 * loaded only sometimes (the journeys' engine) threw before changing anything: it is answered
 * again once the module is loaded.
 */
function withModulesNeeded(answering: () => ApiAnswer): ApiAnswer | Promise<ApiAnswer> {
  try {
    return answering();
  } catch (error) {
    if (!(error instanceof ModuleNeeded)) throw error;
    return error.module.load().then(() => withModulesNeeded(answering));
  }
}

/** A request to answer, with the route modules its path needs. */
interface Write {
  request: ApiRequest;
  modules: SandboxModule[];
}

/**
 * Group commit: the writes that arrive while one is made (within one turn of the event loop) are
 * made in one transaction, committed once, and answered after that commit, so that a command
 * started after an answer sees its change. Made alone, each write would pay for a commit of its
 * own. A group one of whose writes fails in a way the API does not answer (a module not loaded
 * yet, a file that cannot be read) keeps none of its changes, and each write is made again alone.
 */
class WriteGroups {
  private waiting: (Write & { settle(answer: ApiAnswer | Promise<ApiAnswer>): void; fail(error: unknown): void })[] = [];

  constructor(
    private readonly together: (group: Write[]) => ApiAnswer[],
    private readonly alone: (write: Write) => ApiAnswer | Promise<ApiAnswer>,
  ) {}

  add(write: Write): Promise<ApiAnswer> {
    return new Promise((settle, fail) => {
      if (this.waiting.push({ ...write, settle, fail }) === 1) setImmediate(() => this.commit());
    });
  }

  private commit(): void {
    const group = this.waiting;
    this.waiting = [];
    let answers: ApiAnswer[] | undefined;
    if (group.length > 1)
      try {
        answers = this.together(group);
      } catch {
        answers = undefined;
      }
    for (const [index, write] of group.entries()) {
      if (answers !== undefined) write.settle(answers[index]!);
      else
        try {
          write.settle(this.alone(write));
        } catch (error) {
          write.fail(error);
        }
    }
  }
}

/**
 * State that lives as long as the server: every slice made at the start, or each when first used
 * (seedOnUse), route modules then loaded as requests first need them.
 */
async function inMemory(options: BackingOptions): Promise<Backing> {
  const onUse = options.seedOnUse === true && options.initialState === undefined;
  const modules = onUse ? [] : await loadSandboxModules();
  const state = options.initialState?.(modules) ?? (onUse ? seedCore(options.seed) : seedState(modules, options.seed));
  const routes = new RouteTable(modules);
  const api = new SandboxApi(state, routes, { now: options.now, rateLimiter: options.rateLimiter, startOver: options.startOver });
  const handle: Handle = async (request) => {
    if (onUse) {
      const needed = modulesFor(request);
      routes.include(Array.isArray(needed) ? needed : await needed);
    }
    return withModulesNeeded(() => api.handle(request));
  };
  return { handle, state: () => state, update: (change) => change(state) };
}

/**
 * State kept in a file that several sandboxes (and `--sandbox` commands running in parallel) may
 * share: each request is a transaction of the file's database, and one that changes something is
 * a write transaction, which one process at a time holds, so no process loses another's change or
 * hands out the same id. A request loads only the route modules of its path, and its routes check only the
 * slices they read; the state is read again only once another process has changed the file.
 */
async function inFile(stateFile: string, options: BackingOptions): Promise<Backing> {
  // Every slice is needed to start a new state (or start over); an existing one is read as it is.
  const fresh = options.initialState !== undefined || options.reset || !stateFileExists(stateFile);
  const all = fresh ? await loadSandboxModules() : [];
  const initial = options.initialState?.(all) ?? (options.reset ? seedState(all, options.seed) : undefined);
  // A file removed while serving starts over from the seed, each slice when first used.
  const database = openStateFile(stateFile, () => seedCore(options.seed));
  // A start over replaces the state; a new one is made unless another process made it meanwhile
  // (rewriting that one whole would drop what its requests have written since).
  if (initial !== undefined || !stateFileExists(stateFile))
    withStateLock(stateFile, () => {
      if (initial !== undefined || !stateFileExists(stateFile)) writeState(stateFile, initial ?? seedState(all, options.seed));
    });
  // Each request is answered with the modules of its path alone (a module's prepare reads its slices); modulesFor gives a
  // path asked before the same list, whose routes are compiled once.
  const routeTables = new WeakMap<SandboxModule[], RouteTable>();
  const routesOf = (modules: SandboxModule[]) => routeTables.get(modules) ?? routeTables.set(modules, new RouteTable(modules)).get(modules)!;
  const answerIn = (state: StateCore, { request, modules }: Write, changed: () => void) =>
    new SandboxApi(state, routesOf(modules), { onChange: changed, now: options.now, rateLimiter: options.rateLimiter, startOver: options.startOver }).handle(
      request,
    );
  // The state as this process's last transaction left it, until the loop's turn ends: what reads it
  // after a request (the log's clock, the webhook engine's look for deliveries due) finds it as the
  // request left it, rather than in a transaction each, several a request. Another process's change
  // committed meanwhile is read at the next turn, as if made just after. Any transaction of this
  // process lets it go first.
  let seen: StateCore | undefined;
  // A group is committed at the loop's turn after its writes came (WriteGroups), which lets the
  // store trust its watch of the file's path (StateDatabase.transaction's afterTurn).
  const inTransaction = <T>(how: 'read' | 'write' | 'group', fn: (state: StateCore) => T): T => {
    seen = undefined;
    let state: StateCore | undefined;
    const keeping = (current: StateCore) => {
      state = current;
      return fn(current);
    };
    let result: T;
    try {
      result = withStateDatabase(database, () => database.transaction(how !== 'read', keeping, how === 'group'));
    } catch (error) {
      // A read of the state within the transaction kept it, and the failure undid what it saw.
      seen = undefined;
      throw error;
    }
    seen = state;
    setImmediate(() => (seen = undefined));
    return result;
  };
  // A read that changed something is forgotten, and made again at once as a write (handle, below),
  // whose transaction lets go of what the read saw.
  const attempt = (write: Write, how: 'read' | 'write' | 'group') =>
    inTransaction(how, (state) => {
      let changed = false;
      const answer = answerIn(state, write, () => (changed = true));
      if (!changed) return answer;
      if (how === 'read') database.forget();
      else database.save(state);
      return how === 'read' ? undefined : answer;
    });
  const writes = new WriteGroups(
    (group) =>
      inTransaction('group', (state) => {
        let changed = false;
        const answers = group.map((write) => answerIn(state, write, () => (changed = true)));
        if (changed) database.save(state);
        return answers;
      }),
    (write) => withModulesNeeded(() => attempt(write, 'group')!),
  );
  const handle: Handle = async (request) => {
    const needed = modulesFor(request);
    const write: Write = { request, modules: Array.isArray(needed) ? needed : await needed };
    // A read takes no write lock, as it sees one committed state; one that changes something after
    // all (a wait that ended) is forgotten, and made again as a write.
    if (request.method === 'GET') {
      const answer = withModulesNeeded(() => attempt(write, 'read') ?? attempt(write, 'write')!);
      return answer;
    }
    return writes.add(write);
  };
  const update = <T>(change: (state: StateCore) => T): T =>
    inTransaction('write', (state) => {
      const result = change(state);
      database.save(state);
      return result;
    });
  const current = () => seen ?? inTransaction('read', (state) => state);
  return { handle, state: current, update, close: () => database.close() };
}

/**
 * The API's own prefix: clients configured with the platform's base URL (`…/api`, as in the
 * description's servers and the JavaScript SDK's apiRoot) reach the same routes as those without.
 */
const API_PREFIX = '/api';

/** The answer to a body larger than the sandbox takes. */
export const TOO_LARGE: ApiAnswer = { status: 413, body: { message: `the request body is larger than ${MAX_BODY_BYTES} bytes` } };

async function answerRequest(handle: Handle, wire: WireRequest, origin: string, options: SandboxOptions): Promise<ApiAnswer> {
  if (wire.body.length > MAX_BODY_BYTES) return TOO_LARGE;
  const started = options.log === undefined ? undefined : process.hrtime.bigint();
  const url = targetOf(wire.target);
  const prefixed = url.pathname.startsWith(`${API_PREFIX}/`);
  const request: ApiRequest = {
    method: wire.method,
    path: prefixed ? url.pathname.slice(API_PREFIX.length) : url.pathname,
    url: `${origin}${url.pathname}`,
    query: url.searchParams,
    authorization: wire.headers.authorization,
    headers: wire.headers,
    body: wire.body.toString('utf8'),
    rawBody: wire.body,
  };
  const result = await handle(request);
  // The sandbox's time reads its state: only a sandbox that logs pays for it.
  if (options.log !== undefined && started !== undefined) {
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    const time = (options.now?.() ?? new Date()).toISOString();
    options.log(`${time} ${wire.method} ${url.pathname}${url.search} ${result.status} ${milliseconds.toFixed(1)} ms`);
  }
  options.onRequest?.(request, result);
  return result;
}

/** A target of plain path segments, and a query without a fragment: its path is as sent, which a URL would not change. */
const PLAIN_TARGET = /^(\/[\w\-/]*)(\?[^#]*)?$/;

/**
 * The path and query of a request's target, as a URL would read them. Most targets are of plain
 * segments, which need no URL parser; any other (dot segments, escapes, a fragment) gets one.
 */
function targetOf(target: string): { pathname: string; search: string; searchParams: URLSearchParams } {
  const plain = PLAIN_TARGET.exec(target);
  if (plain === null || plain[1]!.includes('//')) return new URL(target, 'http://sandbox');
  const search = plain[2] === undefined || plain[2] === '?' ? '' : plain[2];
  return { pathname: plain[1]!, search, searchParams: new URLSearchParams(search) };
}
