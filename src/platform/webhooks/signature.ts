/**
 * Webhook signatures in the Standard Webhooks scheme, which the platform signs its deliveries
 * with: HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the base64 secret that follows
 * `whsec_`, sent base64-encoded as `v1,<signature>` entries separated by spaces in the
 * `webhook-signature` header. Any one entry may match.
 *
 * The HMAC is node:crypto's, loaded when the first signature is made or checked, so that a command
 * that signs nothing never starts OpenSSL.
 */

import type { KeyObject } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { builtinModule } from '../../base/builtin.js';

const SECRET_PREFIX = 'whsec_';
const VERSION = 'v1';

export class WebhookSecretError extends Error {}

/** The key bytes of a `whsec_...` secret (the prefix is optional, as in the reference libraries). */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 === 1) {
    throw new WebhookSecretError('the webhook secret is not a whsec_ secret followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

export interface SignedMessage {
  id: string;
  /** Seconds since the Unix epoch, as sent in webhook-timestamp. */
  timestamp: string;
  body: Buffer | string;
}

/**
 * Each key made a KeyObject once: a server verifies many deliveries with one secret, and a
 * KeyObject made from the bytes at each call took half the time of the HMAC.
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();

/** The base64 HMAC of a message, without the version prefix. */
export function computeSignature(key: Buffer, message: SignedMessage): string {
  const crypto = builtinModule('node:crypto');
  let keyObject = keyObjects.get(key);
  if (keyObject === undefined) {
    keyObject = crypto.createSecretKey(key);
    keyObjects.set(key, keyObject);
  }
  return crypto.createHmac('sha256', keyObject).update(`${message.id}.${message.timestamp}.`).update(message.body).digest('base64');
}

/** The three headers a delivery of `body` carries. */
export function signHeaders(key: Buffer, message: SignedMessage): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': message.timestamp,
    'webhook-signature': `${VERSION},${computeSignature(key, message)}`,
  };
}

export function newMessageId(): string {
  return `msg_${osRandomBytes(18).toString('base64url')}`;
}

/**
 * Random bytes from the operating system's generator: /dev/urandom, read directly where there is
 * one, else node:crypto. A sandbox makes its webhook secret and example ids with them as it starts,
 * and a start that signs nothing does not load OpenSSL.
 */
export function osRandomBytes(size: number, device = '/dev/urandom'): Buffer {
  let fd: number;
  try {
    fd = openSync(device, 'r');
  } catch {
    return builtinModule('node:crypto').randomBytes(size);
  }
  try {
    const bytes = Buffer.alloc(size);
    for (let filled = 0; filled < size; ) {
      const read = readSync(fd, bytes, filled, size - filled, null);
      if (read === 0) throw new Error(`${device} ended`);
      filled += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Whether two texts are equal, in a time that depends only on their length. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * Why a delivery is refused: its timestamp (too old, too far ahead, not a number), which may be a
 * replay or a wrong clock, or its signature, which says the body or secret are not what was signed.
 */
export type Verdict = { valid: true } | { valid: false; problem: 'timestamp' | 'signature'; reason: string };

/** The verdict in a few words, for a message or a line per delivery: "too old (2 days)", "invalid signature: ...". */
export function verdictText(verdict: Verdict): string {
  if (verdict.valid) return 'verified';
  return verdict.problem === 'timestamp' ? verdict.reason : `invalid signature: ${verdict.reason}`;
}

/** A distance in time as a person says it: 45 s, 12 min, 5 hours, 2 days. */
export function formatAge(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return plural(Math.round(seconds / 3600), 'hour');
  return plural(Math.round(seconds / 86_400), 'day');
}

export interface VerifyOptions {
  /** The webhook-signature header. */
  signature: string;
  /** Largest allowed distance from now, in seconds; 0 turns the check off. */
  toleranceSeconds: number;
  nowSeconds: number;
}

/** A header's text quoted in a reason: cut short, since an unverified header can be any size. */
function quoted(text: string): string {
  const MAX_CHARS = 40;
  return text.length > MAX_CHARS ? `"${text.slice(0, MAX_CHARS)}…" (${text.length} characters)` : `"${text}"`;
}

/** Checks the timestamp, then each `v1,` entry in constant time; the first failing rule is the reason. */
export function verify(key: Buffer, message: SignedMessage, options: VerifyOptions): Verdict {
  if (!/^\d+$/.test(message.timestamp))
    return { valid: false, problem: 'timestamp', reason: `the timestamp ${quoted(message.timestamp)} is not a whole number of seconds` };
  if (options.toleranceSeconds > 0) {
    const skew = options.nowSeconds - Number(message.timestamp);
    if (Math.abs(skew) > options.toleranceSeconds) {
      const when = skew > 0 ? `too old (${formatAge(skew)})` : `too far in the future (${formatAge(-skew)})`;
      return { valid: false, problem: 'timestamp', reason: `${when}: the timestamp is outside the tolerance of ${options.toleranceSeconds} s` };
    }
  }
  // The base64 texts are compared, not the bytes they decode to: a non-canonical encoding (other
  // padding bits) of the right bytes is not what the platform sends, so it does not match.
  const expected = computeSignature(key, message);
  const entries = options.signature.split(' ').filter((entry) => entry !== '');
  const candidates = entries.filter((entry) => entry.startsWith(`${VERSION},`)).map((entry) => entry.slice(VERSION.length + 1));
  if (candidates.length === 0) return { valid: false, problem: 'signature', reason: `the signature header has no ${VERSION} entry` };
  // Every candidate is compared, so the time taken does not tell which one came close.
  let matched = false;
  for (const candidate of candidates) {
    if (sameText(candidate, expected)) matched = true;
  }
  return matched ? { valid: true } : { valid: false, problem: 'signature', reason: 'no signature matches the body, id and timestamp' };
}
