/**
 * The rules of the Loops API as its reference states them, applied to a sandbox account: keys and
 * the features they enable, routing, and every documented failure that is not particular to one
 * area. Each area brings its own routes (src/areas/<area>/sandbox.ts). It knows nothing of
 * sockets: a request goes in, an answer comes out.
 */
import { areas } from '../areas/registry.js';
import { SANDBOX_KEYS, type KeyFeatures } from './keys.js';
import { ApiFailure, badRequest, errorAnswer, notFound, seedId, type ApiAnswer, type Method, type RouteContext, type SandboxModule, type SandboxRoute, type StateCore } from './module.js';

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
}

export interface SandboxApiOptions {
  /** Called after every change, with the state as it now is. */
  onChange?: (state: StateCore) => void;
  now?: () => Date;
}

/** What a request without a key may use: only routes that need no feature. */
const NO_FEATURES: KeyFeatures = { content: false, workflows: false, sendingDomain: false, metrics: false };

/** Ids as the API issues them: letters, digits, '_' and '-'. Anything else is a 400. */
const VALID_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The sandbox parts of every area, in the registry's order. */
export async function loadSandboxModules(): Promise<SandboxModule[]> {
  const loaders = areas.flatMap((area) => (area.sandbox === undefined ? [] : [area.sandbox()]));
  return Promise.all(loaders);
}

interface CompiledRoute {
  segments: string[];
  methods: Map<string, SandboxRoute>;
}

export class SandboxApi {
  private readonly routes: CompiledRoute[] = [];
  private readonly now: () => Date;

  constructor(
    readonly state: StateCore,
    modules: SandboxModule[],
    private readonly options: SandboxApiOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    for (const route of modules.flatMap((module) => module.routes)) {
      let compiled = this.routes.find((candidate) => candidate.segments.join('/') === route.path.slice(1));
      if (compiled === undefined) {
        compiled = { segments: route.path.split('/').slice(1), methods: new Map() };
        this.routes.push(compiled);
      }
      compiled.methods.set(route.method, route);
    }
  }

  handle(request: ApiRequest): ApiAnswer {
    try {
      return this.dispatch(request);
    } catch (error) {
      if (error instanceof ApiFailure) return errorAnswer(error);
      throw error;
    }
  }

  private dispatch(request: ApiRequest): ApiAnswer {
    const segments = request.path.split('/').slice(1);
    const matched = this.match(segments);
    if (matched === undefined) throw notFound(`no such path: ${request.path}`);
    const { route, params } = matched;
    const operation = route.methods.get(request.method as Method);
    if (operation === undefined) {
      const allowed = [...route.methods.keys()].join(', ');
      throw new ApiFailure(405, `${request.method} is not allowed on ${request.path}; use ${allowed}`, { allow: allowed });
    }
    const features = operation.anonymous ? NO_FEATURES : authenticate(request.authorization);
    if (operation.needs === 'content' && !features.content) throw new ApiFailure(401, 'The content API is not enabled for this team');
    if (operation.needs === 'workflows' && !features.workflows) throw new ApiFailure(401, 'The workflow API is not enabled for this team');
    if (operation.needs === 'metrics' && !features.metrics) throw new ApiFailure(401, 'The metrics API is not enabled for this team');
    for (const [name, value] of Object.entries(params)) {
      if (!VALID_ID.test(value)) throw badRequest(`invalid ${name}: "${value}"`);
    }
    const context: RouteContext = {
      params,
      query: request.query,
      body: operation.rawBody ? request.rawBody ?? Buffer.from(request.body) : parseBody(request.body),
      headers: request.headers ?? {},
      features,
      state: this.state,
      now: this.now,
      newId: () => {
        this.state.sequence += 1;
        return seedId(`created/${this.state.sequence}`);
      },
      changed: () => this.options.onChange?.(this.state),
    };
    return operation.run(context);
  }

  /** Fixed segments win over parameters, so `/v1/event-patterns/by-name/x` is not read as an id. */
  private match(segments: string[]): { route: CompiledRoute; params: Record<string, string> } | undefined {
    let best: { route: CompiledRoute; params: Record<string, string>; fixed: number } | undefined;
    for (const route of this.routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let fixed = 0;
      const fits = route.segments.every((pattern, index) => {
        const segment = segments[index]!;
        if (!pattern.startsWith(':')) {
          fixed += 1;
          return pattern === segment;
        }
        params[pattern.slice(1)] = safeDecode(segment);
        return true;
      });
      if (fits && (best === undefined || fixed > best.fixed)) best = { route, params, fixed };
    }
    return best;
  }
}

function authenticate(authorization: string | undefined): KeyFeatures {
  const match = /^Bearer (.+)$/.exec(authorization ?? '');
  if (match === null) throw new ApiFailure(401, 'Missing API key: send it as "Authorization: Bearer <key>"');
  const features = Object.hasOwn(SANDBOX_KEYS, match[1]!) ? SANDBOX_KEYS[match[1]!] : undefined;
  if (features === undefined) throw new ApiFailure(401, 'Invalid API key');
  return features;
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
