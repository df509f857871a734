/**
 * The calls a person's yes is for. A yes given to a change (`loopsctl approve`, an MCP client's
 * question) is for the requests it was shown to make, as the transport would send them: each
 * call's method, target (its path exactly as sent, and its query) and the digest of its body. A run
 * made on that yes sends those calls and no other, in order: the first write that is not the next
 * of them (the account or a file it reads moved since, and the command now builds another request)
 * is refused before it is sent, exit 5, saying what changed.
 */
import { createHash } from 'node:crypto';
import type { RequestTarget } from '../api/http.js';
import { canonicalJson } from '../base/canonical-json.js';
import { RejectedError } from '../base/errors.js';

/** One call a person approved: what the transport sends, the body by its digest. */
export type BoundCall = {
  method: string;
  /** The path below the base URL and its query, as sent. */
  target: string;
  /** The SHA-256 of the body as canonical JSON; none for a request without one. */
  body?: string;
};

/** A request as a yes binds it. */
export function boundCall(method: string, target: RequestTarget, body: unknown): BoundCall {
  const call: BoundCall = { method, target: `${target.path}${target.search}` };
  if (body !== undefined && body !== null) call.body = createHash('sha256').update(canonicalJson(body)).digest('hex');
  return call;
}

/** What differs between the call a run would send and the one approved, in words; undefined when none. */
export function callChange(approved: BoundCall | undefined, sent: BoundCall): string | undefined {
  if (approved === undefined) return `${sent.method} ${sent.target} is a call more than the person approved`;
  if (approved.method !== sent.method || approved.target !== sent.target)
    return `the approved ${approved.method} ${approved.target} would now be ${sent.method} ${sent.target}`;
  if (approved.body !== sent.body) return `the body of ${sent.method} ${sent.target} is not the one approved: what it is made from changed since`;
  return undefined;
}

/** Refuses the `index`th write of a run when it is not the call a person approved there: exit 5, nothing of it sent. */
export function refuseUnbound(bound: readonly BoundCall[], index: number, method: string, target: RequestTarget, body: unknown): void {
  const change = callChange(bound[index], boundCall(method, target, body));
  if (change === undefined) return;
  throw new RejectedError(`${change}; it was not sent, nor anything after it`, {
    code: 'not_approved_call',
    hint: 'the change is no longer the one the person approved: propose it again, for a person to approve it as it is now',
  });
}
