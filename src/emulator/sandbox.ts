/**
 * A running emulator as its users hold it: started with its data (a seed and fixtures), its
 * webhook endpoint and its rate limit, in this process, and stopped with close(). `loopsctl
 * sandbox` (src/areas/sandbox/commands.ts) and the JavaScript API (`loopsctl/sandbox`,
 * ./public.ts) are both this.
 */

import { existsSync } from 'node:fs';
import { UsageError } from '../base/errors.js';
import { osRandomBytes, secretKey, WebhookSecretError } from '../platform/webhooks/signature.js';
import type { ApiAnswer } from './api.js';
import { loadSandboxModules, type StartOver } from './api.js';
import { type ClockMode, clockTime, freezeClock, seedDate } from './clock.js';
import type { WireRequest } from './core.js';
import type { Fixtures } from './fixtures.js';
import type { Journey } from './journey-records.js';
import { SANDBOX_KEY } from './keys.js';
import { type SandboxModule, SEEDS, type SeedKind, type StateCore } from './module.js';
import { CLOCK_PATH, JOURNEYS_PATH } from './own-paths.js';
import { type OutboxEntry, outbox } from './routes/sandbox.js';
import { type WebhookDelivery, type WebhookEndpoint, webhookDeliveries, webhookEndpoint } from './routes/webhook-records.js';
import { type SandboxServerOptions, startServer } from './server.js';
import { seedState } from './state/index.js';

export interface OpenOptions
  extends Pick<SandboxServerOptions, 'port' | 'host' | 'stateFile' | 'log' | 'now' | 'rateLimit' | 'rateClock' | 'deliverWebhooks' | 'images'> {
  /** The data to start from (the demo team's unless told otherwise); with a state file and no fixtures, only when `reset` says so. */
  seed?: SeedKind;
  /** Start over from the seed (and the fixtures), whatever the state file holds. */
  reset?: boolean;
  /** A fixture file (JSON or YAML), or the fixtures themselves; they start the data over, as `reset` does. */
  fixtures?: string | object;
  /** The endpoint to deliver webhooks to; null removes the one a state file keeps, undefined keeps it. */
  webhookEndpoint?: WebhookEndpoint | null;
  /** How the sandbox's clock starts: with the system's (the default), or stopped (at the seed's date when the data starts over, else where it stands). */
  clock?: ClockMode;
}

export interface OpenSandbox {
  url: string;
  apiKey: string;
  /** The endpoint it delivers webhooks to now (the state file's own when none was given), or null. */
  webhookEndpoint: WebhookEndpoint | null;
  outbox(): OutboxEntry[];
  deliveries(): WebhookDelivery[];
  /** Starts the data over: from this seed (else the one it started from), with its fixtures. */
  reset(seed?: SeedKind): Promise<void>;
  /** The time on the sandbox's clock. */
  now(): Date;
  /**
   * Moves the clock forward (`{advance: "3d"}` or `{to: "<ISO time>"}`), releasing the waits that
   * end on the way; a move it refuses rejects with the sandbox's words (a RangeError).
   */
  moveClock(move: { advance: string } | { to: string }): Promise<Date>;
  /** The journeys, oldest first, of a contact (by email) and a workflow (by id) when named. */
  journeys(filter?: { contact?: string; workflow?: string }): Promise<Journey[]>;
  /** Answers a request made in this process as the sandbox would over HTTP (the fetch interceptor's). */
  answer(request: WireRequest): Promise<ApiAnswer>;
  /** Stops it; a second call waits for the first and does nothing more. */
  close(): Promise<void>;
}

export async function openSandbox(options: OpenOptions): Promise<OpenSandbox> {
  checkSeed(options.seed);
  // A sandbox in memory without fixtures starts with no route module loaded and no slice made: its
  // state makes each from the seed when first used (seedOnUse, see inMemory in core.ts).
  const seedOnUse = options.stateFile === undefined && options.fixtures === undefined;
  const modules = seedOnUse ? [] : await loadSandboxModules();
  const data = await startingData(modules, options);
  const startSeed = data?.seed ?? options.seed;
  // Whether the data starts over, which a frozen clock starts at the seed's date.
  const fresh = options.stateFile === undefined || options.reset === true || data !== undefined || !existsSync(options.stateFile);
  // One start over for `sandbox.reset()` and `POST /_sandbox/reset` alike: the fixtures come back,
  // and the endpoint, the sandbox's setting rather than its data, is kept.
  const startOver: StartOver = (seed, current) => {
    const seeded = seedState(modules, seed);
    if (options.clock === 'frozen') freezeClock(seeded);
    if (data !== undefined) data.apply(seeded);
    if (Object.hasOwn(current, webhookEndpoint.key)) seeded[webhookEndpoint.key] = current[webhookEndpoint.key];
    return seeded;
  };
  const server = await startServer({
    ...options,
    seedOnUse,
    startOver,
    reset: options.reset === true || data !== undefined,
    seed: startSeed,
    initialState: data === undefined ? undefined : () => data.state,
    deliverWebhooks: options.deliverWebhooks ?? (options.webhookEndpoint !== undefined && options.webhookEndpoint !== null),
  });
  if (options.clock === 'frozen' && data === undefined)
    server.update((state) => freezeClock(state, fresh ? seedDate() : clockTime(state, new Date()).toISOString()));
  const call = async (method: string, target: string, body?: unknown): Promise<unknown> => {
    const answer = await server.answer({
      method,
      target,
      headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
      body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    });
    if (answer.status !== 200) throw new RangeError((answer.body as { message?: string } | undefined)?.message ?? `the sandbox answered ${answer.status}`);
    return answer.body;
  };
  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    apiKey: SANDBOX_KEY,
    webhookEndpoint: webhookEndpoint.of(server.state()),
    outbox: () => structuredClone(outbox.of(server.state())),
    deliveries: () => structuredClone(webhookDeliveries.of(server.state())),
    reset: async (seed) => {
      checkSeed(seed);
      server.update((state) => {
        const fresh = startOver(seed ?? startSeed ?? state.seed ?? 'demo', state);
        for (const key of Object.keys(state)) delete state[key];
        Object.assign(state, fresh);
      });
    },
    now: () => clockTime(server.state(), options.now?.() ?? new Date()),
    moveClock: async (move) => new Date(((await call('POST', CLOCK_PATH, move)) as { now: string }).now),
    journeys: async (filter = {}) => {
      const query = new URLSearchParams();
      if (filter.contact !== undefined) query.set('contact', filter.contact);
      if (filter.workflow !== undefined) query.set('workflow', filter.workflow);
      return ((await call('GET', `${JOURNEYS_PATH}${query.size === 0 ? '' : `?${query}`}`)) as { journeys: Journey[] }).journeys;
    },
    answer: (request) => server.answer(request),
    close: () => (closing ??= server.close()),
  };
}

/**
 * A seed as given from JavaScript, where no type checks it: one of SEEDS. Anything else would start
 * from the demo data unnoticed, and a test meant for a new team's would run on the demo team's.
 */
function checkSeed(seed: unknown): asserts seed is SeedKind | undefined {
  if (seed !== undefined && !SEEDS.includes(seed as SeedKind)) throw new TypeError(`seed must be one of ${SEEDS.join(', ')}, not ${JSON.stringify(seed)}`);
}

/**
 * The state that fixtures make (checked, then applied to their seed), and what applies them again
 * to a seed's state; undefined without fixtures. Their module is loaded only then.
 */
async function startingData(
  modules: SandboxModule[],
  options: OpenOptions,
): Promise<{ state: StateCore; seed: SeedKind; apply: (state: StateCore) => void } | undefined> {
  if (options.fixtures === undefined) return undefined;
  const { applyFixtures, checkFixtures, fixtureSeed, readFixtureFile } = await import('./fixtures.js');
  const source = typeof options.fixtures === 'string' ? options.fixtures : 'the fixtures';
  const input = typeof options.fixtures === 'string' ? await readFixtureFile(options.fixtures) : options.fixtures;
  const seed = fixtureSeed(input, options.seed);
  const state = seedState(modules, seed);
  if (options.clock === 'frozen') freezeClock(state);
  const fixtures: Fixtures = checkFixtures(input, source, state);
  const apply = (seeded: StateCore) => applyFixtures(seeded, modules, fixtures, source, options.now);
  apply(state);
  return { state, seed, apply };
}

/**
 * The endpoint for a webhook URL and secret given to the API: the URL must be http(s), and the
 * secret a whsec_ one (a new one when not given).
 */
export function webhookEndpointFor(url: string, secret: string | undefined, simulateEngagement = false): WebhookEndpoint {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`webhookUrl is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`webhookUrl must be an http or https URL, not ${url}`);
  if (secret !== undefined) {
    try {
      secretKey(secret);
    } catch (error) {
      if (error instanceof WebhookSecretError) throw new UsageError(`webhookSecret: ${error.message}`);
      throw error;
    }
  }
  return { url: parsed.href, secret: secret ?? newWebhookSecret(), simulateEngagement };
}

export function newWebhookSecret(): string {
  return `whsec_${osRandomBytes(24).toString('base64')}`;
}
