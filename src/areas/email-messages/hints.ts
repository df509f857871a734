/**
 * Hints for the failures of content operations (transactional emails, email messages, uploads):
 * each command says, per HTTP status, what the failure means for it and what to do next.
 */
import { LoopsctlError, withDetails } from '../../api/errors.js';

export const CONTENT_API_HINT =
  'the key was refused, or the content API is not enabled for the team (transactional content, email messages and uploads need it); check the key with `loopsctl auth status`, and ask Loops to enable the content API';

/** A hint, or a hint with a clearer message, for one status. */
export type StatusHint = string | { message: (apiMessage: string) => string; hint: string };

/**
 * Hints by HTTP status. A 401 gets CONTENT_API_HINT unless the command says otherwise; null
 * keeps the error's own hint.
 */
export type StatusHints = Record<number, StatusHint | null>;

/** Runs an API call and gives its failures the hint this command has for their status. */
export async function withHints<T>(call: Promise<T>, hints: StatusHints): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw hinted(error, hints);
  }
}

export function hinted(error: unknown, hints: StatusHints): unknown {
  if (!(error instanceof LoopsctlError) || error.status === undefined) return error;
  const hint = Object.hasOwn(hints, error.status) ? hints[error.status] : error.status === 401 ? CONTENT_API_HINT : undefined;
  if (hint === undefined || hint === null) return error;
  return typeof hint === 'string' ? withDetails(error, { hint }) : withDetails(error, { hint: hint.hint, message: hint.message(error.message) });
}
