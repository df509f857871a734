/**
 * `verifyWebhook`: a delivery checked as Standard Webhooks specifies and the platform signs it
 * (platform/webhooks/signature.ts, the code `webhooks verify` and the sandbox use), then parsed.
 * It reads the raw body itself from a Fetch Request or a Node request whose body has not been
 * read, so that no JSON middleware can change the bytes first; a body over the bound is refused
 * from its content-length, or as soon as it passes the bound, without reading the rest.
 */
import type { IncomingMessage } from 'node:http';
import { boundedBody } from '../base/bounded-body.js';
import { secretKey, verify } from '../platform/webhooks/signature.js';
import { WebhookVerificationError } from './errors.js';
import { parseWebhookEvent, type WebhookEvent } from './events.js';

/** A delivery as a framework hands it over: a Fetch Request, a Node request, or the headers and raw bytes. */
export type WebhookInput =
  | Request
  | IncomingMessage
  | { readonly headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>; readonly body: string | Uint8Array | ArrayBuffer };

export interface VerifyWebhookOptions {
  /**
   * How far the timestamp may be from now, in seconds (300 by default, as Standard Webhooks advises).
   * A positive number: the check cannot be turned off (0 is refused); a test that verifies a delivery
   * signed at another time gives `now` instead.
   */
  toleranceSeconds?: number;
  /** The largest body read, in bytes (1 MiB by default; the platform's events are a few KB). */
  maxBodyBytes?: number;
  /** The clock, for tests. */
  now?: () => Date;
}

/** A verified delivery: its id, its headers (names in lower case), its raw body and its event. */
export interface VerifiedDelivery {
  readonly webhookId: string;
  readonly timestamp: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly event: WebhookEvent;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** More entries than key rotation ever needs: a longer list is refused before any HMAC is computed. */
const MAX_SIGNATURES = 16;
const SECRET_PREFIX = 'whsec_';

/** Verifies a delivery and returns its event; throws a WebhookVerificationError saying why not. */
export async function verifyWebhook(input: WebhookInput, secret: string, options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  return (await verifyDelivery(input, secret, options)).event;
}

let lastSecret: { secret: string; key: Buffer } | undefined;

/**
 * The key of a `whsec_` secret, kept for the next delivery (an app has one secret). A secret that
 * is not one is the app's mistake, not the delivery's: a TypeError, which a handler answers 500.
 */
export function signingKey(secret: string): Buffer {
  if (lastSecret?.secret === secret) return lastSecret.key;
  const copyIt = "copy it whole from the Loops dashboard's webhook settings (or a sandbox's webhookSecret)";
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) throw new TypeError(`the webhook secret does not start with whsec_: ${copyIt}`);
  let key: Buffer;
  try {
    key = secretKey(secret);
  } catch {
    throw new TypeError(`the webhook secret is not whsec_ followed by base64: ${copyIt}`);
  }
  lastSecret = { secret, key };
  return key;
}

/** verifyWebhook, keeping what a handler needs besides the event: the id, headers and raw body. */
export async function verifyDelivery(input: WebhookInput, secret: string, options: VerifyWebhookOptions = {}): Promise<VerifiedDelivery> {
  const key = signingKey(secret);
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  // The signature check below takes 0 as "no check": a replayed delivery would pass.
  if (!(Number.isFinite(toleranceSeconds) && toleranceSeconds > 0))
    throw new TypeError(
      `toleranceSeconds is ${toleranceSeconds}: give a positive number of seconds (300 by default); the timestamp check cannot be turned off, ` +
        'and a test that verifies a delivery signed at another time gives now instead',
    );
  // Headers and raw bytes given are read at once: only a request's body is awaited.
  const reading = readInput(input, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const read = reading instanceof Promise ? await reading : reading;
  const { headers, body } = read;
  const webhookId = header(read, 'webhook-id');
  const timestamp = header(read, 'webhook-timestamp');
  const signature = header(read, 'webhook-signature');
  if (!/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('missing-header', `the webhook-timestamp header is not a whole number of seconds (${timestamp.slice(0, 40)})`);
  const entries = signature.split(' ').filter((entry) => entry !== '').length;
  if (entries > MAX_SIGNATURES)
    throw new WebhookVerificationError(
      'bad-signature',
      `the webhook-signature header has ${entries} entries, more than the ${MAX_SIGNATURES} a delivery may carry`,
    );
  const nowSeconds = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const verdict = verify(key, { id: webhookId, timestamp, body }, { signature, toleranceSeconds, nowSeconds });
  if (!verdict.valid) {
    if (verdict.problem === 'timestamp') {
      const milliseconds = timestamp.length >= 13 ? ' (it looks like milliseconds: the header is in seconds)' : '';
      throw new WebhookVerificationError('stale', `${verdict.reason}${milliseconds}: check this server's clock; a replayed delivery is refused`);
    }
    throw new WebhookVerificationError('bad-signature', `${verdict.reason}${rawBodyHint(body)}`);
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  return { webhookId, timestamp: Number(timestamp), headers, body: text, event: parseWebhookEvent(text) };
}

/** A header a delivery carries once, not empty. */
function header({ headers, duplicated }: ReadDelivery, name: string): string {
  if (duplicated.has(name)) throw new WebhookVerificationError('missing-header', `the ${name} header was sent more than once: a delivery has one`);
  const value = headers[name];
  if (value === undefined || value.trim() === '')
    throw new WebhookVerificationError(
      'missing-header',
      `the ${name} header is ${value === undefined ? 'missing' : 'empty'}: is this a Loops delivery, and does a proxy pass every webhook-* header on?`,
    );
  return value;
}

/** Where a body that fails is valid JSON, the likeliest cause: it was parsed and written again before it came here. */
function rawBodyHint(body: Buffer | string): string {
  try {
    JSON.parse(body.toString());
  } catch {
    return ': is the secret the one of this endpoint?';
  }
  return (
    ': if a JSON body parser (express.json(), a framework reading request.json()) ran first, the body was re-serialised and its bytes changed: ' +
    'verify the raw body as received (express.raw({ type: "application/json" }), or await request.text() in a route handler), and check the secret'
  );
}

interface ReadDelivery {
  headers: Record<string, string>;
  /** Header names sent more than once. */
  duplicated: Set<string>;
  body: Buffer | string;
}

const isFetchRequest = (input: WebhookInput): input is Request =>
  typeof Request !== 'undefined' &&
  (input instanceof Request || (typeof (input as unknown as Request).arrayBuffer === 'function' && input.headers instanceof Headers));

const isNodeRequest = (input: WebhookInput): input is IncomingMessage =>
  typeof (input as IncomingMessage).on === 'function' && Array.isArray((input as IncomingMessage).rawHeaders);

function readInput(input: WebhookInput, maxBytes: number): ReadDelivery | Promise<ReadDelivery> {
  if (isFetchRequest(input)) return readFetchRequest(input, maxBytes);
  if (isNodeRequest(input)) return readNodeRequest(input, maxBytes);
  const { headers, duplicated } = input.headers instanceof Headers ? fromHeaders(input.headers) : fromRecord(input.headers);
  const body: unknown = input.body;
  if (typeof body !== 'string' && !(body instanceof Uint8Array) && !(body instanceof ArrayBuffer)) throw parsedBodyError();
  // Text given stays text: the HMAC reads it as UTF-8, and it is what is parsed.
  if (typeof body === 'string') {
    if (Buffer.byteLength(body) > maxBytes) throw tooLarge(maxBytes);
    return { headers, duplicated, body };
  }
  const bytes = body instanceof ArrayBuffer ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return { headers, duplicated, body: bytes };
}

async function readFetchRequest(input: Request, maxBytes: number): Promise<ReadDelivery> {
  const { headers, duplicated } = fromHeaders(input.headers);
  const body = await boundedBody(input.body, input.headers, maxBytes);
  if (body === undefined) throw tooLarge(maxBytes);
  return { headers, duplicated, body };
}

/** Fetch's Headers join a repeated header with ", ", which no webhook-* value holds. */
function fromHeaders(given: Headers): { headers: Record<string, string>; duplicated: Set<string> } {
  const headers: Record<string, string> = {};
  const duplicated = new Set<string>();
  given.forEach((value, name) => {
    headers[name] = value;
    if (name.startsWith('webhook-') && value.includes(', ')) duplicated.add(name);
  });
  return { headers, duplicated };
}

function fromRecord(given: Readonly<Record<string, string | readonly string[] | undefined>>): { headers: Record<string, string>; duplicated: Set<string> } {
  const headers: Record<string, string> = {};
  const duplicated = new Set<string>();
  for (const [rawName, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const name = rawName.toLowerCase();
    if (typeof value !== 'string') {
      if (value.length > 1 || name in headers) duplicated.add(name);
      headers[name] = value.join(', ');
    } else {
      if (name in headers || (name.startsWith('webhook-') && value.includes(', '))) duplicated.add(name);
      headers[name] = value;
    }
  }
  return { headers, duplicated };
}

function refuseDeclaredSize(headers: Record<string, string>, maxBytes: number): void {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
}

const tooLarge = (maxBytes: number) =>
  new WebhookVerificationError(
    'bad-body',
    `the body is over ${maxBytes} bytes, more than a Loops delivery holds: it was not read (maxBodyBytes sets the bound)`,
  );

const parsedBodyError = () =>
  new WebhookVerificationError(
    'bad-body',
    'the body was parsed before verification (a JSON body parser such as express.json() ran first), and a parsed body cannot be verified: ' +
      'give this route express.raw({ type: "application/json" }), or no body parser, so that the raw bytes are verified',
  );

async function readNodeRequest(request: IncomingMessage, maxBytes: number): Promise<ReadDelivery> {
  const headers: Record<string, string> = {};
  const duplicated = new Set<string>();
  const raw = request.rawHeaders;
  for (let at = 0; at + 1 < raw.length; at += 2) {
    const name = raw[at]!.toLowerCase();
    if (name in headers) {
      duplicated.add(name);
      headers[name] = `${headers[name]}, ${raw[at + 1]}`;
    } else headers[name] = raw[at + 1]!;
  }
  // What a framework's body parser left: express.raw()'s Buffer, express.text()'s string, express.json()'s object.
  const parsed = (request as IncomingMessage & { body?: unknown }).body;
  if (parsed !== undefined) {
    if (!Buffer.isBuffer(parsed) && typeof parsed !== 'string') throw parsedBodyError();
    // Bound in bytes, as a body that is read is: a string of characters may hold up to three times as many.
    const bytes = Buffer.isBuffer(parsed) ? parsed : Buffer.from(parsed);
    if (bytes.length > maxBytes) throw tooLarge(maxBytes);
    return { headers, duplicated, body: bytes };
  }
  if (request.readableEnded) throw parsedBodyError();
  refuseDeclaredSize(headers, maxBytes);
  return { headers, duplicated, body: await readNodeBody(request, maxBytes) };
}

/** The body, up to the bound: past it, reading stops (the connection closes once the answer is sent). */
function readNodeBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      request.off('data', onData);
      request.pause();
      reject(tooLarge(maxBytes));
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}
