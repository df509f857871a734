/**
 * The rules of the Loops API as its reference states them, applied to a sandbox account: keys and
 * the features they enable, routing, and every documented failure that is not particular to one
 * area. Each area brings its own routes (src/emulator/routes/<area>.ts). It knows nothing of
 * sockets: a request goes in, an answer comes out.
 */

import { isIssuedId } from '../platform/ids.js';
import { clockTime } from './clock.js';
import { type KeyFeatures, SANDBOX_KEYS } from './keys.js';
import {
  type ApiAnswer,
  ApiFailure,
  badRequest,
  errorAnswer,
  type Method,
  newId,
  notFound,
  objectBody,
  placeOf,
  type RouteContext,
  type SandboxModule,
  type SandboxRoute,
  SEEDS,
  type SeedKind,
  type StateCore,
} from './module.js';
import { RESET_PATH } from './own-paths.js';
import { ALWAYS_LIMITED, type RateDecision, type RateLimiter } from './rate-limit.js';
import { modulesServing, routeModules } from './registry.js';
import { seedState } from './state/index.js';

export type { ApiAnswer };

export interface ApiRequest {
  method: string;
  /** The path, percent-encoded as sent, without the query. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** The body as text; empty when none was sent. */
  body: string;
  /** The body's bytes, for routes that take other than JSON (an upload's PUT). */
  rawBody?: Buffer;
  /** Other request headers, lower-case names. */
  headers?: Record<string, string | undefined>;
  /**
   * The absolute URL the request came to, without its query, when it came over HTTP (its origin
   * and any prefix such as `/api` included); answers that link to the API build on it.
   */
  url?: string;
}

/** Where a request that did not come over HTTP (a test's direct call) is taken to have gone. */
const LOCAL_ORIGIN = 'http://127.0.0.1';

export interface SandboxApiOptions {
  /** Called after every change, with the state as it now is. */
  onChange?: (state: StateCore) => void;
  now?: () => Date;
  /** The team's request rate limit; without one, no request is refused for its rate. */
  rateLimiter?: RateLimiter;
  /** What a reset starts over from; the seed's data alone without it. */
  startOver?: StartOver;
}

/**
 * The data a sandbox starts over from, given the seed and the state as it is: the seed's, with the
 * fixtures the sandbox was started with, and its settings (the webhook endpoint) kept.
 */
export type StartOver = (seed: SeedKind, current: StateCore) => StateCore;

/** What a request without a key may use: only routes that need no feature. */
const NO_FEATURES: KeyFeatures = { content: false, workflows: false, sendingDomain: false, metrics: false };

/** Every route module, in the registry's order, with every module their operations use. */
export async function loadSandboxModules(): Promise<SandboxModule[]> {
  return withUses(await Promise.all(routeModules.map((module) => module.load())), () => true);
}

/**
 * The route modules a request needs: those that serve its path, with the modules its own
 * operation uses (a read of workflows loads no mailing lists), or all of them to reset. Those of a
 * method and path asked before come without a promise: most requests are of a path served before,
 * and skip a turn of the microtask queue.
 */
export function modulesFor(request: Pick<ApiRequest, 'method' | 'path'>): SandboxModule[] | Promise<SandboxModule[]> {
  if (request.path === RESET_PATH) return loadSandboxModules();
  const key = `${request.method} ${request.path}`;
  return modulesByRequest.get(key) ?? loadModulesFor(request, key);
}

async function loadModulesFor(request: Pick<ApiRequest, 'method' | 'path'>, key: string): Promise<SandboxModule[]> {
  const modules = await Promise.all(modulesServing(request.path).map((module) => module.load()));
  const segments = request.path.split('/').slice(1);
  await withUses(modules, (route) => {
    const { method, path } = placeOf(route);
    return method === request.method && fixedSegments(path.split('/').slice(1), segments) !== undefined;
  });
  // Paths with ids make new keys: a sandbox that served many starts the list again.
  if (modulesByRequest.size >= 1_000) modulesByRequest.clear();
  modulesByRequest.set(key, modules);
  return modules;
}

/** What modulesFor found for a method and path: a module once loaded stays loaded, so a request asked again costs one look-up. */
const modulesByRequest = new Map<string, SandboxModule[]>();

async function withUses(modules: SandboxModule[], wanted: (route: SandboxRoute) => boolean): Promise<SandboxModule[]> {
  const uses = modules.flatMap((module) => module.routes.filter(wanted).flatMap((route) => route.uses ?? []));
  await Promise.all(uses.map((used) => used.load()));
  return modules;
}

/**
 * How many of a route's path pattern's segments ('/v1/themes/:themeId', split) are fixed, when it
 * takes the segments of a path; undefined when it does not. Nothing is made for a pattern that
 * does not fit: a request tries every route.
 */
function fixedSegments(pattern: string[], segments: string[]): number | undefined {
  if (pattern.length !== segments.length) return undefined;
  let fixed = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const part = pattern[index]!;
    if (part.startsWith(':')) continue;
    if (part !== segments[index]) return undefined;
    fixed += 1;
  }
  return fixed;
}

/** The parameters a pattern that fits takes from the path's segments. */
function paramsOf(pattern: string[], segments: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) if (part.startsWith(':')) params[part.slice(1)] = safeDecode(segments[index]!);
  return params;
}

interface CompiledRoute {
  segments: string[];
  methods: Map<string, SandboxRoute>;
}

/**
 * The routes of a set of modules, compiled once: a server whose state is a file answers each
 * request with the modules of its path, and a request to a path asked before finds its table made.
 */
export class RouteTable {
  readonly modules: SandboxModule[] = [];
  private readonly routes: CompiledRoute[] = [];
  /** The route of each path without parameters asked before: most requests skip the walk through every route. */
  private readonly fixedPaths = new Map<string, CompiledRoute>();

  constructor(modules: SandboxModule[] = []) {
    this.include(modules);
  }

  /** Adds the routes of the modules not served yet: a sandbox that lives in memory loads its route modules as requests first need them. */
  include(modules: SandboxModule[]): void {
    for (const module of modules) {
      if (this.modules.includes(module)) continue;
      this.modules.push(module);
      // A module's routes may be better fits for paths matched before.
      this.fixedPaths.clear();
      for (const route of module.routes) {
        const { method, path } = placeOf(route);
        let compiled = this.routes.find((candidate) => candidate.segments.join('/') === path.slice(1));
        if (compiled === undefined) {
          compiled = { segments: path.split('/').slice(1), methods: new Map() };
          this.routes.push(compiled);
        }
        compiled.methods.set(method, route);
      }
    }
  }

  /** Fixed segments win over parameters, so `/v1/event-patterns/by-name/x` is not read as an id. */
  match(path: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
    const known = this.fixedPaths.get(path);
    if (known !== undefined) return { route: known, params: {} };
    const segments = path.split('/').slice(1);
    let best: CompiledRoute | undefined;
    let bestFixed = -1;
    for (const route of this.routes) {
      const fixed = fixedSegments(route.segments, segments);
      if (fixed !== undefined && fixed > bestFixed) [best, bestFixed] = [route, fixed];
    }
    if (best === undefined) return undefined;
    if (bestFixed === segments.length && this.fixedPaths.size < 1_000) this.fixedPaths.set(path, best);
    return { route: best, params: paramsOf(best.segments, segments) };
  }
}

export class SandboxApi {
  private readonly now: () => Date;

  constructor(
    readonly state: StateCore,
    private readonly routes: RouteTable,
    private readonly options: SandboxApiOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** The answer, dated by the sandbox's clock (a time a test moves, as `sandbox clock` does). */
  handle(request: ApiRequest): ApiAnswer {
    const answer = this.answer(request);
    return { ...answer, at: clockTime(this.state, this.now()) };
  }

  private answer(request: ApiRequest): ApiAnswer {
    let operation: SandboxRoute | undefined;
    let rate: RateDecision | undefined;
    try {
      if (request.path === RESET_PATH) return this.reset(request);
      const found = this.operation(request);
      operation = found.operation;
      // Every request to the API counts, a refused one included; a presigned upload goes to storage, not the API.
      if (!operation.anonymous) rate = this.options.rateLimiter?.take();
      const features = operation.anonymous ? NO_FEATURES : authenticate(request.authorization);
      if (features.alwaysRateLimited) rate = ALWAYS_LIMITED;
      if (rate?.allowed === false) throw new ApiFailure(429, rate.message, { 'retry-after': String(rate.retryAfterSeconds) });
      return withRateHeaders(this.dispatch(request, found.operation, found.params, features), rate);
    } catch (error) {
      // Once the operation is known, every failure (the key's and the path's included) has its shape.
      if (error instanceof ApiFailure) return withRateHeaders(errorAnswer(error, operation?.failures), rate);
      throw error;
    }
  }

  private operation(request: ApiRequest): { operation: SandboxRoute; params: Record<string, string> } {
    const matched = this.routes.match(request.path);
    if (matched === undefined) throw notFound(`no such path: ${request.path}`);
    const { route, params } = matched;
    const operation = route.methods.get(request.method as Method);
    if (operation === undefined) {
      const allowed = [...route.methods.keys()].join(', ');
      throw new ApiFailure(405, `${request.method} is not allowed on ${request.path}; use ${allowed}`, { allow: allowed });
    }
    return { operation, params };
  }

  private dispatch(request: ApiRequest, operation: SandboxRoute, params: Record<string, string>, features: KeyFeatures): ApiAnswer {
    if (operation.needs === 'content' && !features.content) throw new ApiFailure(401, 'The content API is not enabled for this team');
    if (operation.needs === 'workflows' && !features.workflows) throw new ApiFailure(401, 'The workflow API is not enabled for this team');
    if (operation.needs === 'metrics' && !features.metrics) throw new ApiFailure(401, 'The metrics API is not enabled for this team');
    for (const [name, value] of Object.entries(params)) {
      // An event's name is no id: "Event names are case-sensitive and should be URL-encoded if they
      // contain special characters" (the description of /v1/event-patterns/by-name/{eventName}).
      if (name === 'eventName' ? value === '' : !isIssuedId(value)) throw badRequest(`invalid ${name}: "${value}"`);
    }
    const context: RouteContext = {
      params,
      query: request.query,
      location: request.url ?? `${LOCAL_ORIGIN}${request.path}`,
      body: operation.rawBody ? (request.rawBody ?? Buffer.from(request.body)) : parseBody(request.body),
      headers: request.headers ?? {},
      features,
      state: this.state,
      now: () => clockTime(this.state, this.now()),
      systemNow: this.now,
      newId: () => newId(this.state),
      changed: () => this.options.onChange?.(this.state),
    };
    for (const module of this.routes.modules) module.prepare?.(context);
    return operation.run(context);
  }

  /**
   * Replaces every record with a fresh seed, in place, so a server keeps serving (and a state file
   * is written as after any change). Needs a sandbox key, as the API's own routes do.
   */
  private reset(request: ApiRequest): ApiAnswer {
    if (request.method !== 'POST') throw new ApiFailure(405, `${request.method} is not allowed on ${RESET_PATH}; use POST`, { allow: 'POST' });
    authenticate(request.authorization);
    const body = parseBody(request.body) ?? {};
    const fields = objectBody(body, ['seed'], []);
    const seed = fields.seed ?? this.state.seed ?? 'demo';
    if (!SEEDS.includes(seed as SeedKind)) throw badRequest(`seed must be one of ${SEEDS.join(', ')}`);
    const fresh = this.options.startOver?.(seed as SeedKind, this.state) ?? seedState(this.routes.modules, seed as SeedKind);
    for (const key of Object.keys(this.state)) delete this.state[key];
    Object.assign(this.state, fresh);
    this.options.onChange?.(this.state);
    return { status: 200, body: { reset: true, seed } };
  }
}

function authenticate(authorization: string | undefined): KeyFeatures {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  if (match === null) throw new ApiFailure(401, 'Missing API key: send it as "Authorization: Bearer <key>"');
  const features = Object.hasOwn(SANDBOX_KEYS, match[1]!) ? SANDBOX_KEYS[match[1]!] : undefined;
  if (features === undefined) throw new ApiFailure(401, 'Invalid API key');
  return features;
}

function withRateHeaders(answer: ApiAnswer, rate: RateDecision | undefined): ApiAnswer {
  return rate === undefined ? answer : { ...answer, headers: { ...rate.headers, ...answer.headers } };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function parseBody(body: string): unknown {
  if (body.trim() === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
}
