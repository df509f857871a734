/**
 * The calls a person's yes is for. A yes given to a change (`loopsctl approve`, an MCP client's
 * question) is for the requests it was shown to make, as the transport would send them: each
 * call's method, target (its path exactly as sent, and its query) and the digest of its body. A run
 * made on that yes sends those calls and no other, each once: the first write that is none of them
 * (the account or a file it reads moved since, and the command now builds another request) is
 * refused before it is sent, exit 5, saying what changed.
 */
import { createHash } from 'node:crypto';
import type { RequestTarget } from '../api/http.js';
import { canonicalJson } from '../base/canonical-json.js';
import { RejectedError } from '../base/errors.js';
import { hasParticulars, saidBeforeParticulars } from '../base/particulars.js';

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

/** The code of the refusal of a call other than the one a person approved. */
export const NOT_APPROVED_CALL = 'not_approved_call';

/**
 * Refuses a write of a run when it is none of the calls a person approved that the run has not
 * sent yet (`sent`, their indexes, which it adds to): exit 5, nothing of it sent. The calls go out
 * in the order the run makes them (an import sends several rows at a time), each once.
 */
export function refuseUnbound(bound: readonly BoundCall[], sent: Set<number>, method: string, target: RequestTarget, body: unknown): void {
  const call = boundCall(method, target, body);
  const left = bound.map((approved, index) => ({ approved, index })).filter(({ index }) => !sent.has(index));
  const same = left.find(({ approved }) => callChange(approved, call) === undefined);
  if (same !== undefined) {
    sent.add(same.index);
    return;
  }
  // Said against the call approved it comes nearest to: the same request with another body, else the next one left.
  const nearest = left.find(({ approved }) => approved.method === call.method && approved.target === call.target) ?? left[0];
  const change = callChange(nearest?.approved, call)!;
  throw new RejectedError(`${change}; it was not sent, nor anything after it`, {
    code: NOT_APPROVED_CALL,
    hint: 'the change is no longer the one the person approved: propose it again, for a person to approve it as it is now',
  });
}

/** The code of the refusal of a change made on a yes given before its target went live: the person is asked again. */
export const LIVE_SINCE_YES = 'live_since_approved';

/** The refusal of a change whose target turned live after the person's yes (`what`: the write, or the records): exit 5, nothing more sent. */
export function liveSinceYes(what: string): RejectedError {
  return new RejectedError(saidBeforeParticulars(what, ', which it was not when the person said yes; nothing more was sent'), {
    code: LIVE_SINCE_YES,
    multiline: hasParticulars(what),
    hint: 'it reaches people now as it did not when the person was asked: propose it again, for a person to approve it as it is now',
  });
}

/** Whether an error is a refusal of a run made on a person's yes: nothing after it is sent, so that a run of many writes (an import) stops there. */
export function refusesTheYes(error: unknown): boolean {
  return error instanceof RejectedError && (error.code === NOT_APPROVED_CALL || error.code === LIVE_SINCE_YES);
}
