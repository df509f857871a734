/**
 * Sends that must happen once (an event, a transactional email) carry an Idempotency-Key, so the
 * API itself refuses a second copy within 24 hours. With the key, a retry after a 5xx or a broken
 * connection is safe, and the request is marked idempotent. A 409 then means "this key was used":
 * on a retry of this run's own (whoever chose the key), the earlier attempt reached the API and the
 * send happened, its answer lost; so too for a record of a resumed import. A 409 on the first
 * attempt is a key used before this run: refused as the API says.
 */
import { randomUUID } from 'node:crypto';
import { RejectedError, UsageError } from '../base/errors.js';
import type * as z from '../base/zod.js';
import { EVENT_SEND } from '../platform/events/resource.js';
import { requestLine } from '../platform/operation-row.js';
import { TRANSACTIONAL_SEND } from '../platform/transactional/resource.js';
import type { ApiClient } from './client.js';
import type { HttpRequest } from './http.js';

/**
 * The requests that honour an Idempotency-Key, per the published description: only these two
 * sends. Elsewhere the header is ignored, so it cannot make a second attempt safe.
 */
export const KEYED_REQUESTS = [EVENT_SEND.operations.sendEvent, TRANSACTIONAL_SEND.operations.sendTransactionalEmail].map(requestLine);

/** Whether the API recognises a repeated Idempotency-Key on this request (its path without the query). */
export function honoursIdempotencyKey(method: string, path: string): boolean {
  const bare = path.split('?')[0]!.replace(/\/+$/, '');
  return (KEYED_REQUESTS as readonly string[]).includes(`${method.toUpperCase()} ${bare}`);
}

/** The API takes keys of up to 100 characters. */
const MAX_IDEMPOTENCY_KEY_LENGTH = 100;

export interface IdempotencyKey {
  value: string;
  /**
   * user: given with --idempotency-key; generated: new for this send; derived: made from an import
   * record and its journal, so the same record of an import always has the same key.
   */
  origin: 'user' | 'generated' | 'derived';
}

/** The user's key, checked, or a new random one. */
export function idempotencyKey(given: string | undefined): IdempotencyKey {
  if (given === undefined) return { value: randomUUID(), origin: 'generated' };
  if (given.trim() === '' || given.length > MAX_IDEMPOTENCY_KEY_LENGTH || /[^\x20-\x7e]/.test(given)) {
    throw new UsageError(`--idempotency-key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`);
  }
  return { value: given, origin: 'user' };
}

export type SendOutcome<T> = { sent: true; answer: T } | { sent: false; alreadySent: true };

/** Sends once under the key; see the module comment for what a 409 means. */
export async function sendOnce<S extends z.ZodMiniType>(
  api: ApiClient,
  req: Omit<HttpRequest, 'idempotent' | 'headers' | 'onAttempt'>,
  schema: S,
  key: IdempotencyKey,
): Promise<SendOutcome<z.infer<S>>> {
  let attempt = 0;
  try {
    const answer = await api.call({ ...req, headers: { 'Idempotency-Key': key.value }, idempotent: true, onAttempt: (n) => (attempt = n) }, schema);
    return { sent: true, answer };
  } catch (error) {
    if (!(error instanceof RejectedError) || error.status !== 409) throw error;
    if (key.origin === 'derived' || attempt > 1) return { sent: false, alreadySent: true };
    const hint =
      key.origin === 'user'
        ? `the Idempotency-Key "${key.value}" was used in the last 24 hours, so nothing was sent again; give a new key to send another`
        : 'the API refused the key loopsctl made for this send; run the command again';
    throw new RejectedError(error.message, { status: error.status, code: error.code, hint });
  }
}
