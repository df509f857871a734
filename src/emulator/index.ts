/**
 * The emulator's face for the CLI: all that `--sandbox`, `loopsctl sandbox` and the runtime use of
 * it, as a CLI reaches an embedded emulator only through its package's root. Nothing outside
 * src/emulator/ imports another of its modules (test/unit/architecture.test.ts); apps have the
 * other face, `loopsctl/sandbox` (public.ts). What only some commands need (the HTTP server, the
 * routes' modules) is loaded when a function is called, so a command pays for the part it uses.
 */

import { LocalFileError } from '../base/errors.js';
import type { RequestPool } from '../base/node-http.js';
import { SANDBOX_KEY } from './keys.js';
import { type ApiAnswer, SEEDS, type SeedKind, type StateCore } from './module.js';
import type { EventOutboxEntry, OutboxEntry, TransactionalOutboxEntry, WorkflowOutboxEntry } from './routes/sandbox.js';
import type { WebhookDelivery, WebhookEndpoint } from './routes/webhook-records.js';
import type { OpenOptions, OpenSandbox } from './sandbox.js';
import {
  defaultStatePath,
  openStateFile,
  readState,
  seedCore,
  seedState,
  stateFileExists,
  UnusableStateError,
  withStateDatabase,
  withStateLock,
  writeState,
} from './state/index.js';

export { SANDBOX_KEY, SANDBOX_KEYS } from './keys.js';
export { CAMPAIGN_SEND_PATH, CLOCK_PATH, ENGAGEMENT_PATH, INBOX_PATH, JOURNEYS_PATH, RESET_PATH } from './own-paths.js';
export type { EventOutboxEntry, OpenOptions, OpenSandbox, OutboxEntry, TransactionalOutboxEntry, WebhookDelivery, WebhookEndpoint, WorkflowOutboxEntry };
export { defaultStatePath, SEEDS, type SeedKind };

/** A sandbox that answers a run's requests in this process: its base URL, its key, and the pool that answers. */
export interface InProcessSandbox {
  url: string;
  apiKey: string;
  pool: RequestPool;
  close(): Promise<void>;
}

export interface InProcessOptions {
  /** The config directory, whose state file the sandbox keeps its data in. */
  configDir: string;
  now: () => Date;
  /** The state file cannot be read: the run's requests can no longer be answered. */
  onStateError: (error: Error) => void;
  /**
   * The platform's limit of 10 requests a second, on unless false: a test harness that runs many
   * commands back to back turns it off, as `loopsctl sandbox --rate-limit off` does.
   */
  rateLimit?: boolean;
}

/** Starts the sandbox a `--sandbox` run talks to, without a socket (in-process.ts). */
export async function startInProcessSandbox(options: InProcessOptions): Promise<InProcessSandbox> {
  const { startInProcess } = await import('./in-process.js');
  const { now, onStateError, rateLimit } = options;
  const sandbox = await startInProcess({ stateFile: defaultStatePath(options.configDir), now, onStateError, rateLimit });
  return { url: sandbox.url, apiKey: SANDBOX_KEY, pool: sandbox.pool, close: () => sandbox.close() };
}

/** A sandbox served over HTTP (`loopsctl sandbox`), with its data, webhook endpoint and rate limit. */
export async function openSandbox(options: OpenOptions): Promise<OpenSandbox> {
  return (await import('./sandbox.js')).openSandbox(options);
}

/** A new webhook signing secret, as the sandbox makes one when none is given. */
export async function newWebhookSecret(): Promise<string> {
  return (await import('./sandbox.js')).newWebhookSecret();
}

/** The webhook endpoint a state file keeps; null for none, or no state file. */
export async function keptWebhookEndpoint(stateFile: string): Promise<WebhookEndpoint | null> {
  const { webhookEndpoint } = await import('./routes/webhook-records.js');
  return stateFileExists(stateFile) ? readMembers(stateFile, (state) => webhookEndpoint.of(state)) : null;
}

/**
 * What `read` takes of a state file, in one read transaction: the members it reads and no other,
 * so that a server's start (or a reset) costs the same at 100,000 contacts as at ten.
 */
function readMembers<T>(stateFile: string, read: (state: StateCore) => T): T {
  const database = openStateFile(stateFile, () => seedCore());
  try {
    return withStateDatabase(database, () => database.transaction(false, read));
  } finally {
    database.close();
  }
}

/**
 * Answers one request to the sandbox whose data a state file keeps, without a server (`loopsctl
 * sandbox clock`, `loopsctl sandbox journeys`): read and written under the file's lock, as a
 * running server's own requests are, so a server reading that file sees the change at once.
 */
export async function stateFileRequest(stateFile: string, method: 'GET' | 'POST', target: string, body?: unknown): Promise<ApiAnswer> {
  const { openCore } = await import('./core.js');
  // A file that cannot be read is said as such, as a `--sandbox` command says it, not as an answer of the sandbox's.
  let unusable: Error | undefined;
  const core = await openCore({ stateFile, rateLimit: false, onStateError: (error) => (unusable ??= error) });
  try {
    const answer = await core.answer(
      {
        method,
        target,
        headers: { authorization: `Bearer ${SANDBOX_KEY}`, 'content-type': 'application/json' },
        body: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
      },
      'http://sandbox.invalid',
    );
    if (unusable !== undefined) throw unusable;
    return answer;
  } finally {
    await core.close();
  }
}

export { CLOCK_MODES, type ClockMode } from './clock.js';
export type { TrialEmail, TrialResult, WorkflowTrial } from './trial.js';

/** A workflow tried on one contact in a throwaway sandbox, its clock moved through every wait (`loopsctl workflow test`). */
export async function runWorkflowTrial(trial: import('./trial.js').WorkflowTrial): Promise<import('./trial.js').TrialResult> {
  return (await import('./trial.js')).runWorkflowTrial(trial);
}
export type { Journey, JourneyStep } from './journey-records.js';

/** A list the sandbox keeps in its state file, that the CLI shows without starting a server. */
interface KeptList<T> {
  of(state: StateCore): T[];
  /** Whether clearing the list removes the entry. */
  done(entry: T): boolean;
}

const keptLists = {
  outbox: async (): Promise<KeptList<OutboxEntry>> => ({ of: (await import('./routes/sandbox.js')).outbox.of, done: () => true }),
  deliveries: async (): Promise<KeptList<WebhookDelivery>> => ({
    of: (await import('./routes/webhook-records.js')).webhookDeliveries.of,
    done: (delivery) => delivery.status !== 'pending',
  }),
};
export type KeptListName = keyof typeof keptLists;
type EntryOf<N extends KeptListName> = Awaited<ReturnType<(typeof keptLists)[N]>> extends KeptList<infer T> ? T : never;

/** The outbox's entries, or the webhook deliveries, as the state file holds them (none without one). */
export async function keptEntries<N extends KeptListName>(stateFile: string, name: N): Promise<EntryOf<N>[]> {
  const list = (await keptLists[name]()) as KeptList<EntryOf<N>>;
  const state = readState(stateFile, await modules());
  return state === undefined ? [] : list.of(state);
}

/**
 * Removes the entries of a kept list that are done (every sent email; the finished deliveries) and
 * says how many. A running sandbox may be changing the file: it is read again, and written, in one
 * write transaction, as a server's own requests are.
 */
export async function clearKeptEntries(stateFile: string, name: KeptListName): Promise<number> {
  const list = (await keptLists[name]()) as KeptList<unknown>;
  if (!stateFileExists(stateFile)) return 0;
  const loaded = await modules();
  const database = openStateFile(stateFile, () => seedState(loaded));
  try {
    return withStateDatabase(database, () =>
      database.transaction(true, (current) => {
        const kept = list.of(current);
        const remaining = kept.filter((entry) => !list.done(entry));
        const removed = kept.length - remaining.length;
        kept.splice(0, kept.length, ...remaining);
        if (removed > 0) database.save(current);
        return removed;
      }),
    );
  } finally {
    database.close();
  }
}

/**
 * Writes a fresh seed over the state file, whatever it holds (a damaged file included), under its
 * lock, and says which seed: the one asked for, else the one the data started from, else the demo
 * team's. A server reading that file serves the new data from its next request.
 */
export async function resetState(stateFile: string, seed?: SeedKind): Promise<SeedKind> {
  const loaded = await modules();
  try {
    return withStateLock(stateFile, () => {
      const chosen = seed ?? recordedSeed(stateFile) ?? 'demo';
      writeState(stateFile, seedState(loaded, chosen));
      return chosen;
    });
  } catch (error) {
    if (!(error instanceof UnusableStateError)) throw error;
    // Never the hint of a state that cannot be read, which is to run this again.
    throw new LocalFileError(`the sandbox state file ${stateFile} could not be started over: ${error.reason}`, {
      cause: error,
      hint: `remove ${stateFile} yourself (with ${stateFile}-wal and ${stateFile}-shm beside it, if there), then run \`loopsctl sandbox reset\` again`,
    });
  }
}

/**
 * The seed a state file started from; undefined for none, or one whose own members cannot be read.
 * Its areas are not checked: a damaged one is what the reset replaces, and the team it replaces it
 * with is the one the data started from.
 */
function recordedSeed(stateFile: string): SeedKind | undefined {
  try {
    const seed = stateFileExists(stateFile) ? readMembers(stateFile, (state) => state.seed) : undefined;
    return SEEDS.includes(seed as SeedKind) ? seed : undefined;
  } catch {
    return undefined;
  }
}

async function modules() {
  return (await import('./api.js')).loadSandboxModules();
}
