/**
 * Hints for the API's documented failures, added where a command knows what they mean: a 401 from
 * an operation of the content API, a 404 (and where to find the ids), and statuses particular to
 * one operation. The error keeps its class, message, status and code; only the hint is new.
 */
import { AuthError, LoopsctlError, NotFoundError } from '../api/errors.js';
import type { Handler } from '../core/declare.js';

export const CONTENT_API_HINT =
  'the key was not accepted, or the content API is not enabled for this team (ask Loops support to enable it); check the key with `loopsctl auth status`';

export interface Explanation {
  /** The operation belongs to the content API, so a 401 may mean it is not enabled. */
  contentApi?: boolean;
  /** The command that lists the ids, named when the id was not found. */
  list?: string;
  /** Hints for other statuses the operation documents (413, 422, ...). */
  statuses?: Partial<Record<number, string>>;
}

/** A copy of the error with another hint; everything else as it was. */
function withHint(error: LoopsctlError, hint: string): LoopsctlError {
  const Class = error.constructor as new (message: string, details: object) => LoopsctlError;
  return new Class(error.message, { status: error.status, code: error.code, hint, cause: error.cause, body: error.body });
}

export function explainError(error: unknown, explanation: Explanation): unknown {
  if (!(error instanceof LoopsctlError) || error.status === undefined) return error;
  const hint = explanation.statuses?.[error.status];
  if (hint !== undefined) return withHint(error, hint);
  if (error instanceof AuthError && explanation.contentApi) return withHint(error, CONTENT_API_HINT);
  if (error instanceof NotFoundError && explanation.list !== undefined) return withHint(error, `see the ids with \`${explanation.list}\``);
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
export function explainedHandler<A, O>(handler: Handler<A, O>, explanation: Explanation): Handler<A, O> {
  return (context, args, options) => explained(handler(context, args, options), explanation);
}
