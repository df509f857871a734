/**
 * `loopsctl/sandbox`: the emulator of the Loops API for an app's own tests, started in the app's
 * process (no child process to leak), with its data declared as fixtures.
 *
 *   import { startSandbox } from 'loopsctl/sandbox';
 *   const sandbox = await startSandbox({ fixtures: 'test/loops.yaml' });
 *   // point the app's Loops client at sandbox.url with sandbox.apiKey; then
 *   await sandbox.close();
 *
 * Its types are declared here by hand, whole, so that the package's sandbox.d.ts (made from this
 * file alone) needs nothing else; test/unit/emulator/public.test.ts checks them against the
 * emulator's own.
 */
import { type Answerer, interceptDispatcher, interceptFetch } from './intercept.js';
import { newWebhookSecret, openSandbox, webhookEndpointFor } from './sandbox.js';

export type SandboxSeed = 'demo' | 'empty';

/** A contact: its fields, its custom properties beside them (declared under contactProperties), and the lists it is on. */
export interface SandboxContactFixture {
  /** Kept when given; made as the API makes ids otherwise. */
  id?: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  source?: string;
  subscribed?: boolean;
  userGroup?: string;
  userId?: string;
  /** The lists the contact is on, by id: `{ "<list id>": true }`. */
  mailingLists?: Record<string, boolean>;
  [customProperty: string]: string | number | boolean | null | Record<string, boolean> | undefined;
}

/** What a sandbox starts with, in the API's own names. */
export interface SandboxFixtures {
  /** The data the fixtures are added to: a new team's (the default) or the demo team's. */
  seed?: SandboxSeed;
  contacts?: SandboxContactFixture[];
  contactProperties?: { name: string; type: 'string' | 'number' | 'boolean' | 'date' }[];
  mailingLists?: { id?: string; name: string; description?: string | null; isPublic?: boolean }[];
  /** Published unless `draft: true`; a variable in optionalDataVariables may be left out of a send. */
  transactionalEmails?: { id?: string; name: string; subject?: string; lmx: string; optionalDataVariables?: string[]; draft?: boolean }[];
  campaigns?: { id?: string; name: string; subject?: string; lmx?: string; mailingListId?: string }[];
  /** A workflow started by the named event. */
  workflows?: { id?: string; name: string; description?: string; eventName: string; mailingListId?: string }[];
  themes?: { id?: string; name: string; styles?: Record<string, unknown> }[];
  components?: { id?: string; name: string; lmx: string }[];
  /** The emails of suppressed contacts (a contact is made for one that is not among the contacts). */
  suppressions?: string[];
  /**
   * Contacts part-way through a workflow (by id or name): at a node (by id) since a time (ISO 8601;
   * the sandbox's when not given), as if they had got there then: a timer there waits from then.
   */
  journeys?: { contact: string; workflow: string; node: string; since?: string }[];
}

export interface SandboxOptions {
  /** The data to start from: a new team's (the default, or the fixtures' seed) or the demo team's. */
  seed?: SandboxSeed;
  /** A fixture file (.json, .yaml or .yml), or the fixtures themselves. */
  fixtures?: string | SandboxFixtures;
  /** The port on 127.0.0.1 to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Deliver the webhooks the platform would send (contact created, email sent, ...) to this URL. */
  webhookUrl?: string;
  /** The whsec_ secret to sign them with; a new one when not given (see `webhookSecret` on the sandbox). */
  webhookSecret?: string;
  /**
   * Follow each sent email with its simulated delivery a moment later, and a workflow email with
   * its open and click too (as `--simulate-engagement` does): webhooks report them, and workflows'
   * activity filters read them. Needs a webhookUrl.
   */
  simulateEngagement?: boolean;
  /**
   * Refuse requests beyond 10 a second with 429, as the platform does: true for the tests of an
   * app's back-off. Off by default, so that a suite passes or fails on what it does, not on the
   * machine's speed.
   */
  rateLimit?: boolean;
  /** The sandbox's clock runs with the system's (the default), or stands still at the seed's date (`frozen`) until moved. */
  clock?: 'system' | 'frozen';
}

/** An email or event the sandbox was asked to send (none is delivered). */
export type SandboxOutboxEntry =
  | {
      kind: 'transactional';
      at: string;
      idempotencyKey: string | null;
      to: string;
      transactionalId: string;
      name: string;
      addToAudience: boolean;
      dataVariables: Record<string, unknown>;
      /** The email's optional data variables the send left out (leaving out a required one is a 400, with no entry). */
      missingVariables: string[];
      /** The data variables the send gave that the email does not use. */
      unknownVariables: string[];
      attachments: { filename: string; contentType: string; bytes: number }[];
      /** The published email message sent (what the inbox draws); absent in outboxes of older versions. */
      emailMessageId?: string;
      /** The email's id in the webhooks it caused, when webhooks are delivered. */
      emailId?: string;
    }
  | {
      kind: 'event';
      at: string;
      idempotencyKey: string | null;
      eventName: string;
      email: string;
      userId: string | null;
      eventProperties: Record<string, unknown>;
      /** The workflows whose trigger waits for this event. */
      workflows: { id: string; name: string; status: string }[];
      /** The emails those workflows sent the contact at once, with the contact's values as they were; absent in outboxes of older versions. */
      emails?: {
        loopId: string;
        loopName: string;
        emailMessageId: string;
        subject: string;
        emailId?: string;
        contact: Record<string, unknown>;
        /** The journey that sent it; the email is then also an entry of its own, of kind workflow. */
        journeyId?: string;
      }[];
    }
  | {
      /** An email a workflow sent, at once or when a wait ended. */
      kind: 'workflow';
      at: string;
      to: string;
      loopId: string;
      loopName: string;
      nodeId: string;
      journeyId: string;
      emailMessageId: string;
      /** As the contact read it. */
      subject: string;
      emailId?: string;
      /** The contact's values and the event's properties, as the email was drawn with them. */
      contact: Record<string, unknown>;
      eventProperties: Record<string, unknown>;
      /** When its simulated engagement happens, with `--simulate-engagement` (audience filters' opened and clicked conditions read it). */
      engagement?: { deliveredAt?: string; openedAt?: string; clickedAt?: string };
    };

/** One step of a journey: the node, when on the sandbox's clock, what happened, and why. */
export interface SandboxJourneyStep {
  nodeId: string;
  typeName: string;
  at: string;
  /** entered, waiting, released, matched, filtered-out, branched, variant, sent, skipped, held, passed or exited. */
  outcome: string;
  why: string;
  /** The subject of the email a send-email step sent. */
  subject?: string;
  /** A timer's waiting step: when its wait ends (ISO 8601, as `at`; the time its `why` names). */
  until?: string;
}

/** A contact's run through a workflow. */
export interface SandboxJourney {
  id: string;
  workflowId: string;
  workflowName: string;
  contactId: string;
  email: string;
  /** waiting (on a timer, or held by a paused workflow) or ended. */
  status: 'waiting' | 'ended';
  nodeId: string | null;
  waitUntil: string | null;
  startedAt: string;
  endedAt: string | null;
  eventName: string | null;
  eventProperties: Record<string, unknown>;
  downstreamFilters: string[];
  steps: SandboxJourneyStep[];
}

/** A webhook the sandbox delivered, is retrying, or has queued. */
export interface SandboxDelivery {
  /** The webhook-id header: the same on every attempt. */
  id: string;
  eventName: string;
  payload: Record<string, unknown>;
  createdAt: string;
  dueAt: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; url: string; status: number | null; error: string | null; latencyMs: number }[];
}

export interface Sandbox {
  /** The API's base URL: give it to the app's Loops client (with or without `/api`). */
  url: string;
  /** The key the sandbox accepts (`sandbox-key`); `sandbox-rate-limited` always answers 429. */
  apiKey: string;
  /** The secret webhooks are signed with, when a webhookUrl was given. */
  webhookSecret?: string;
  /** The emails and events sent so far, oldest first. */
  outbox(): SandboxOutboxEntry[];
  /** The webhook deliveries so far, with their attempts. */
  deliveries(): SandboxDelivery[];
  /** Starts the data over, fixtures included: from this seed, else the one it started from. */
  reset(seed?: SandboxSeed): Promise<void>;
  /** The time on the sandbox's clock. */
  now(): Date;
  /**
   * Moves the clock forward by a duration (`"3d"`, `"1h30m"`; at most 400 days), releasing every
   * contact whose wait ends on the way; resolves to the new time. A negative, malformed or too long
   * one rejects with a RangeError naming it.
   */
  advanceClock(duration: string): Promise<Date>;
  /** Moves the clock forward to a time (never back, at most 400 days), as advanceClock does. */
  setClock(time: string | Date): Promise<Date>;
  /** The journeys of the contacts through the workflows, oldest first: of one contact (by email) and one workflow (by id) when named. */
  journeys(filter?: { contact?: string; workflow?: string }): Promise<SandboxJourney[]>;
  /** Stops it, ending open connections; a second call does nothing more. */
  close(): Promise<void>;
}

/**
 * Starts a sandbox in this process. Rejects, with every problem named, on fixtures that cannot be
 * used, on a port that is in use, and on an option it does not take (a misspelt one): nothing is
 * left running then. Several sandboxes may run at once, each on its own port.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { sandbox } = await open(options);
  return sandbox;
}

/**
 * Starts a sandbox in this process that answers, besides its own URL, every request this process
 * makes to the platform's API, `https://app.loops.so/api/…`, through fetch (the global one, which
 * the official SDK uses, and undici's): an app's tests use `new LoopsClient(sandbox.apiKey)` as in
 * production, with no base URL to change. Only the API's operations (`/api/v1/…`) are taken: any
 * other request passes through untouched, whatever its form; an aborted one is not answered.
 * `close()` puts fetch and the dispatchers back as they were, then stops the sandbox. One at a time: a second call
 * before the first is closed rejects.
 *
 *   const loops = await interceptLoops({ fixtures: 'test/loops.yaml' });
 *   await new LoopsClient(loops.apiKey).sendEvent({ email: 'ada@example.com', eventName: 'signup' });
 *   await loops.close();
 */
export async function interceptLoops(options: SandboxOptions = {}): Promise<Sandbox> {
  const { sandbox, answer } = await open(options);
  let restoreFetch: () => void;
  try {
    restoreFetch = interceptFetch(answer);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const restoreDispatcher = interceptDispatcher(answer);
  return {
    ...sandbox,
    close: async () => {
      restoreDispatcher();
      restoreFetch();
      await sandbox.close();
    },
  };
}

/** A sandbox as the JavaScript API gives it, and what answers a request made in this process. */
async function open(options: SandboxOptions): Promise<{ sandbox: Sandbox; answer: Answerer }> {
  checkOptions(options);
  const secret = options.webhookUrl === undefined ? undefined : (options.webhookSecret ?? newWebhookSecret());
  if (options.webhookSecret !== undefined && options.webhookUrl === undefined) throw new TypeError('webhookSecret needs a webhookUrl');
  if (options.simulateEngagement === true && options.webhookUrl === undefined) throw new TypeError('simulateEngagement needs a webhookUrl');
  const sandbox = await openSandbox({
    port: options.port ?? 0,
    seed: options.seed ?? (options.fixtures === undefined ? 'empty' : undefined),
    fixtures: options.fixtures,
    rateLimit: options.rateLimit ?? false,
    clock: options.clock,
    webhookEndpoint: options.webhookUrl === undefined ? undefined : webhookEndpointFor(options.webhookUrl, secret, options.simulateEngagement === true),
  });
  const api: Sandbox = {
    url: sandbox.url,
    apiKey: sandbox.apiKey,
    ...(secret === undefined ? {} : { webhookSecret: secret }),
    outbox: () => sandbox.outbox(),
    deliveries: () => sandbox.deliveries(),
    reset: (seed) => sandbox.reset(seed),
    now: () => sandbox.now(),
    advanceClock: (duration) => sandbox.moveClock({ advance: duration }),
    setClock: (time) => sandbox.moveClock({ to: time instanceof Date ? time.toISOString() : time }),
    journeys: (filter) => sandbox.journeys(filter),
    close: () => sandbox.close(),
  };
  return { sandbox: api, answer: (request) => sandbox.answer(request) };
}

/** Every option SandboxOptions declares: the compiler refuses this list if one is missing. */
const OPTIONS = Object.keys({
  fixtures: true,
  seed: true,
  port: true,
  webhookUrl: true,
  webhookSecret: true,
  rateLimit: true,
  clock: true,
  simulateEngagement: true,
} satisfies Record<keyof SandboxOptions, true>);

/**
 * The options as given from JavaScript, where no type checks them: a misspelt one (`fixture`,
 * `webhookURL`) would be left out unnoticed, and the tests would run on data or settings they did
 * not ask for; one of the wrong type would reach Node as something else (a port given as text is
 * the path of a UNIX socket).
 */
function checkOptions(options: SandboxOptions): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(`startSandbox takes an object of options, not ${shown(options)}`);
  for (const name of Object.keys(options)) {
    if (!OPTIONS.includes(name)) throw new TypeError(`startSandbox takes no option ${JSON.stringify(name)}; its options are ${OPTIONS.join(', ')}`);
  }
  // seed is checked where the data is made, at the start and at a reset alike.
  const { fixtures, port, webhookUrl, webhookSecret, simulateEngagement, rateLimit, clock } = options as Record<keyof SandboxOptions, unknown>;
  if (fixtures !== undefined && typeof fixtures !== 'string' && (typeof fixtures !== 'object' || fixtures === null || Array.isArray(fixtures)))
    throw new TypeError(`fixtures must be the path of a fixture file or the fixtures as an object, not ${shown(fixtures)}`);
  if (port !== undefined && !(typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65_535))
    throw new TypeError(`port must be a whole number from 0 to 65535, not ${shown(port)}`);
  if (webhookUrl !== undefined && typeof webhookUrl !== 'string') throw new TypeError(`webhookUrl must be a URL as text, not ${shown(webhookUrl)}`);
  if (webhookSecret !== undefined && typeof webhookSecret !== 'string')
    throw new TypeError(`webhookSecret must be text (whsec_...), not ${shown(webhookSecret)}`);
  if (rateLimit !== undefined && typeof rateLimit !== 'boolean') throw new TypeError(`rateLimit must be true or false, not ${shown(rateLimit)}`);
  if (simulateEngagement !== undefined && typeof simulateEngagement !== 'boolean')
    throw new TypeError(`simulateEngagement must be true or false, not ${shown(simulateEngagement)}`);
  if (clock !== undefined && clock !== 'system' && clock !== 'frozen') throw new TypeError(`clock must be "system" or "frozen", not ${shown(clock)}`);
}

/** A value as JavaScript would write it, its type plain: '4010' is text, 4010 a number. */
function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  return JSON.stringify(value) ?? String(value);
}
