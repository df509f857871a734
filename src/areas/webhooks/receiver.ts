/**
 * The receiver of `webhooks listen`: an HTTP server that takes webhook deliveries, checks each
 * one's signature and timestamp, answers the sender 2xx once it has accepted a delivery (so the
 * sender does not retry what the app behind failed to take), and passes accepted deliveries on to
 * the app, with the delivery's own headers unchanged, by event type. Each delivery ends as one record: what it was about,
 * whether it was verified, and what the app answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../../base/errors.js';
import { redactUrl } from '../../base/redact-url.js';
import { sanitize } from '../../base/sanitize.js';
import { DELIVERY_HEADERS, Deliverer, type DeliveryOutcome, isAccepted } from '../../platform/webhooks/deliver.js';
import { verdictText, verify } from '../../platform/webhooks/signature.js';
import type { DeliveryStore } from '../../webhooks/store/index.js';
import { deliveryUrl, type EventPattern, eventPattern } from '../webhooks-shared/event-pattern.js';
import type { ForwardQueue } from './forward-queue.js';

/** Webhook payloads are small; anything larger is not a delivery. */
const MAX_BODY_BYTES = 1_048_576;

/** The most of a header's value a line or record shows: an unverified header can be any size. */
const SHOWN_HEADER_CHARS = 80;

export interface ForwardRoute {
  /** Undefined for a route of every event. */
  pattern?: EventPattern;
  url: string;
}

/** `--forward-to <url>` or `--forward-to <event pattern>=<url>`. */
export function forwardRoute(value: string): ForwardRoute {
  const equals = value.indexOf('=');
  const before = equals < 0 ? '' : value.slice(0, equals);
  const routed = equals > 0 && !before.includes('/') && !before.includes(':');
  const url = deliveryUrl(routed ? value.slice(equals + 1) : value, '--forward-to');
  return { pattern: routed ? eventPattern(before, '--forward-to') : undefined, url };
}

/** Where an event goes: to every route whose pattern names it, and every plain route (each takes every event). */
export function targetsFor(routes: ForwardRoute[], eventName: string): string[] {
  return [...new Set(routes.filter((route) => route.pattern === undefined || route.pattern.matches(eventName)).map((route) => route.url))];
}

export interface ReceivedDelivery {
  receivedAt: string;
  webhookId: string | null;
  eventName: string | null;
  /** The email address of the contact the event is about. */
  contact: string | null;
  /** The list, email subject or other name that says more of what happened. */
  detail: string | null;
  verified: boolean;
  /** Why it was refused, when it was. */
  problem: string | null;
  /** An id seen before: the sender delivering the same event again. */
  redelivery: boolean;
  /** Why it was accepted but not passed on (--events), when it was not. */
  skipped: string | null;
  /** What each app it was passed on to answered, in the order of --forward-to. */
  forwards: { to: string; outcome: DeliveryOutcome }[];
  /** Kept in --store: true the first time, false for a redelivery of an id kept before; null without a store. */
  recorded: boolean | null;
  /** The targets it was queued for, to be passed on from the store (--store with --forward-to). */
  queuedFor: string[];
}

export interface ListenerOptions {
  host: string;
  port: number;
  key: Buffer;
  toleranceSeconds: number;
  routes: ForwardRoute[];
  /** Only these events are passed on; all, when undefined. */
  events?: EventPattern[];
  timeoutMs: number;
  now: () => Date;
  /** Keeps every verified delivery, once (--store). */
  store?: DeliveryStore;
  /** Passes deliveries on from the store, each target on its own (--store with --forward-to). */
  queue?: ForwardQueue;
  /** Told of each delivery's body accepted, a redelivery aside, as soon as it is (live alerts). */
  onAccepted?: (body: string) => void;
  /** Told of each delivery once it is done with: refused, skipped, or passed on and answered (or queued). */
  onDelivery: (delivery: ReceivedDelivery) => void;
}

export interface Listener {
  url: string;
  /** Stops taking deliveries and waits for the ones being passed on. */
  close(): Promise<void>;
}

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const deliverer = new Deliverer(options.timeoutMs);
  const seen = new Set<string>();
  const passing = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const work = receive(req, res, options, deliverer, seen).catch(() => {
      // The sender went away mid-request: nothing was accepted, so there is nothing to pass on.
      if (!res.headersSent) res.destroy();
    });
    passing.add(work);
    void work.finally(() => passing.delete(work));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EADDRINUSE' ? 'the port is already in use' : error.message;
      reject(
        new UsageError(`cannot listen on ${options.host}:${options.port}: ${reason}`, {
          cause: error,
          hint: 'pick another --port, or --port 0 for a free one',
        }),
      );
    });
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Deliveries half received are not accepted (their sender retries them); those accepted are
      // still passed on, each within the time limit.
      server.closeAllConnections();
      await Promise.all(passing);
      await closed;
      await deliverer.close();
    },
  };
}

function answer(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(' ') : value;
};

/** A header's value as a line or record may show it: control characters escaped, cut short. */
function shownHeader(value: string | undefined): string | null {
  if (value === undefined) return null;
  const cut = value.length > SHOWN_HEADER_CHARS ? `${value.slice(0, SHOWN_HEADER_CHARS)}… (${value.length} characters)` : value;
  return sanitize(cut);
}

/** What a payload is about, read loosely: a delivery whose body is not one of the 17 shapes still gets its line. */
function about(payload: unknown): Pick<ReceivedDelivery, 'eventName' | 'contact' | 'detail'> {
  // biome-ignore lint/suspicious/noExplicitAny: a payload of any shape, read field by field
  const record = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, any>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    eventName: text(record.eventName),
    contact: text(record.contactIdentity?.email),
    detail: text(record.mailingList?.name) ?? text(record.email?.subject) ?? text(record.message),
  };
}

async function receive(req: IncomingMessage, res: ServerResponse, options: ListenerOptions, deliverer: Deliverer, seen: Set<string>): Promise<void> {
  const receivedAt = options.now();
  const record: ReceivedDelivery = {
    receivedAt: receivedAt.toISOString(),
    webhookId: shownHeader(header(req, 'webhook-id')),
    eventName: null,
    contact: null,
    detail: null,
    verified: false,
    problem: null,
    redelivery: false,
    skipped: null,
    forwards: [],
    recorded: null,
    queuedFor: [],
  };
  const refuse = (status: number, problem: string) => {
    answer(res, status, { error: problem });
    // The problem may quote a header of the refused delivery.
    options.onDelivery({ ...record, problem: sanitize(problem) });
  };
  if (req.method !== 'POST') return refuse(405, `${req.method} is not a delivery; webhooks are POSTed`);
  const body = await readBody(req);
  if (body === undefined) return refuse(413, `the body is larger than ${MAX_BODY_BYTES} bytes`);
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    payload = undefined;
  }
  Object.assign(record, about(payload));
  const webhookId = header(req, 'webhook-id');
  const timestamp = header(req, 'webhook-timestamp');
  const signature = header(req, 'webhook-signature');
  const missing = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((name) => header(req, name) === undefined);
  if (missing.length > 0) return refuse(400, `not signed: no ${missing.join(', ')} header`);
  const verdict = verify(
    options.key,
    { id: webhookId!, timestamp: timestamp!, body },
    { signature: signature!, toleranceSeconds: options.toleranceSeconds, nowSeconds: Math.floor(receivedAt.getTime() / 1000) },
  );
  if (!verdict.valid) return refuse(400, verdictText(verdict));
  const headers: Record<string, string> = {};
  for (const name of DELIVERY_HEADERS) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const eventName = record.eventName ?? '';
  const skipped = options.events !== undefined && !options.events.some((pattern) => pattern.matches(eventName));
  const targets = skipped ? [] : targetsFor(options.routes, eventName);
  if (options.store !== undefined) {
    try {
      record.recorded = await options.store.record({ webhookId: webhookId!, receivedAt, headers, body: body.toString('utf8'), verified: true });
      // Each target gets it from the store, retried there until it takes it; a redelivery is queued once.
      if (options.queue !== undefined) record.queuedFor = (await options.queue.enqueue(webhookId!, targets)).map(redactUrl);
    } catch (error) {
      // Not kept, so not accepted: the sender retries it.
      return refuse(503, `the store could not keep it (${(error as Error).message}); the sender retries`);
    }
    record.redelivery = !record.recorded;
  } else {
    record.redelivery = seen.has(webhookId!);
    seen.add(webhookId!);
  }
  record.verified = true;
  // Accepted: the sender hears so now, whatever the app behind makes of it.
  answer(res, 200, { received: true });
  if (!record.redelivery) options.onAccepted?.(body.toString('utf8'));
  if (skipped) return options.onDelivery({ ...record, skipped: 'not in --events' });
  if (options.queue !== undefined || targets.length === 0) return options.onDelivery(record);
  // Each target on its own: a slow one does not hold the others back.
  const forwards = await Promise.all(targets.map(async (url) => ({ to: redactUrl(url), outcome: await deliverer.post(url, headers, body) })));
  options.onDelivery({ ...record, forwards });
}

/** Counts of what a run of the listener took, for its summary. */
export class ListenTally {
  received = 0;
  refused = 0;
  skipped = 0;
  passedOn = 0;
  appFailed = 0;

  /** A try of a delivery queued in the store (--store with --forward-to). */
  addForward(outcome: DeliveryOutcome): void {
    this.passedOn += 1;
    if (!isAccepted(outcome)) this.appFailed += 1;
  }

  add(delivery: ReceivedDelivery): void {
    this.received += 1;
    if (!delivery.verified) this.refused += 1;
    else if (delivery.skipped !== null) this.skipped += 1;
    if (delivery.forwards.length > 0) {
      this.passedOn += 1;
      if (!delivery.forwards.every((forward) => isAccepted(forward.outcome))) this.appFailed += 1;
    }
  }

  get clean(): boolean {
    return this.refused === 0 && this.appFailed === 0;
  }

  toJSON() {
    const { received, refused, skipped, passedOn, appFailed } = this;
    return { received, refused, skipped, passedOn, appFailed };
  }
}
