/**
 * Hints for the API's documented failures, added where a command knows what they mean: a 401 from
 * an operation of the content API, and statuses particular to one operation. (A 404 gets the list
 * of its group from main, for every command.) The error keeps its class, message, status and
 * code; only the hint is new.
 */
import { AuthError, featureKeyHint, LoopsctlError, withDetails } from '../base/errors.js';
import { type Handler, handler } from './capabilities.js';

export interface Explanation {
  /** The operation belongs to the content API, so a 401 may mean it is not enabled. */
  contentApi?: boolean;
  /** The operation reads metrics, which the team must have enabled, so a 401 may mean they are not. */
  metricsApi?: boolean;
  /** Hints for other statuses the operation documents (413, 422, ...), or a clearer message with its hint. */
  statuses?: Partial<Record<number, StatusHint>>;
}

/** A `--list` (mailingLists) the API does not know, on any request that takes one: where the ids are. */
export function unknownListHint(message: string): string | undefined {
  return /mailing list/i.test(message) ? 'see the mailing lists and their ids with `loopsctl lists list`' : undefined;
}

export const UNKNOWN_LIST: Explanation = { statuses: { 400: unknownListHint } };

/** A hint; a hint chosen by the API's message (which of two things was not found); or a clearer message with its hint. */
type StatusHint = string | ((apiMessage: string) => string | undefined) | { message: (apiMessage: string) => string; hint: string };

export function explainError(error: unknown, explanation: Explanation): unknown {
  if (!(error instanceof LoopsctlError) || error.status === undefined) return error;
  const hint = explanation.statuses?.[error.status];
  if (typeof hint === 'string') return withDetails(error, { hint });
  if (typeof hint === 'function') {
    const chosen = hint(error.message);
    return chosen === undefined ? error : withDetails(error, { hint: chosen });
  }
  if (hint !== undefined) return withDetails(error, { hint: hint.hint, message: hint.message(error.message) });
  if (error instanceof AuthError && explanation.contentApi) return withDetails(error, { hint: featureKeyHint('content') });
  // A 401 that names the metrics API already has a hint that says so.
  if (error instanceof AuthError && explanation.metricsApi && !/metrics API/i.test(error.message))
    return withDetails(error, { hint: featureKeyHint('metrics') });
  return error;
}

/** The call's answer, or its failure with the hint the explanation gives. */
export async function explained<T>(call: Promise<T>, explanation: Explanation): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw explainError(error, explanation);
  }
}

/** A handler whose failures get the explanation's hints (a standard `list`, for one). */
export function explainedHandler<A, O>(inner: Handler<A, O>, explanation: Explanation): Handler<A, O> {
  const wrapped = handler(inner.uses, (context, args: A, options: O) => explained(inner(context, args, options), explanation));
  return inner.listing === undefined ? wrapped : Object.assign(wrapped, { listing: inner.listing });
}
