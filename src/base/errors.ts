/**
 * The one error hierarchy of loopsctl. Every failure a user can meet is one of these classes; each
 * carries the process exit code (the README's exit-code table) and, where an HTTP answer caused
 * it, the status. The top-level handler in cli.ts turns them into a message and an exit code.
 */

import { ExitCode } from './exit-codes.js';

export { ExitCode };

export interface ErrorDetails {
  status?: number;
  hint?: string;
  cause?: unknown;
  /** A finer name than the class's own, where one class covers several cases ('timeout', 'no_key'). */
  code?: string;
  /** The API's error body, parsed, for commands that explain fields beyond its message (a 422's invalidTags). */
  body?: unknown;
  /** The message is lines of loopsctl's own making (a list of problems), shown as lines rather than escaped. */
  multiline?: boolean;
}

export abstract class LoopsctlError extends Error {
  /** The code an instance has unless its details name a finer one. */
  static readonly defaultCode: string = 'error';
  abstract readonly exitCode: number;
  /** A stable machine-readable name, printed in `--json` error objects. */
  readonly code: string;
  readonly status?: number;
  readonly hint?: string;
  readonly body?: unknown;
  readonly multiline: boolean;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.code = details.code ?? (new.target as unknown as typeof LoopsctlError).defaultCode;
    this.status = details.status;
    this.hint = details.hint;
    this.body = details.body;
    this.multiline = details.multiline ?? false;
  }
}

/** What may differ in a copy of an error made by withDetails. */
export interface DetailChanges {
  message?: string;
  hint?: string;
}

/**
 * A new error of the same class, status, code and cause, with another message or hint: the way to
 * add what is learnt after an error was made (a retry count, why a write was not sent again)
 * without changing an error that may already have been seen elsewhere.
 */
export function withDetails<E extends LoopsctlError>(error: E, changes: DetailChanges): E {
  const SameClass = error.constructor as new (message: string, details: ErrorDetails) => E;
  return new SameClass(changes.message ?? error.message, {
    status: error.status,
    code: error.code,
    cause: error.cause,
    body: error.body,
    multiline: error.multiline,
    hint: changes.hint ?? error.hint,
  });
}

/** A check found the world out of step with what the user expected (ips check, webhooks verify). */
export class MismatchError extends LoopsctlError {
  static readonly defaultCode = 'mismatch';
  readonly exitCode = ExitCode.mismatch;
}

/** Bad arguments or flags: nothing was sent. */
export class UsageError extends LoopsctlError {
  static readonly defaultCode = 'usage';
  readonly exitCode = ExitCode.usage;
}

/** The API answered 401 ('unauthorized'), no key was found ('no_key'), or the config file is unreadable ('config'). */
export class AuthError extends LoopsctlError {
  static readonly defaultCode = 'unauthorized';
  readonly exitCode = ExitCode.auth;
}

export class NotFoundError extends LoopsctlError {
  static readonly defaultCode = 'not_found';
  readonly exitCode = ExitCode.notFound;
}

/** The API refused the request as sent (400, 405, 409, 422 and other 4xx). */
export class RejectedError extends LoopsctlError {
  static readonly defaultCode = 'rejected';
  readonly exitCode = ExitCode.rejected;
}

export class RateLimitError extends LoopsctlError {
  static readonly defaultCode = 'rate_limited';
  readonly exitCode = ExitCode.rateLimited;
}

/** Could not connect or the connection broke ('network'), or an attempt timed out ('timeout'). */
export class NetworkError extends LoopsctlError {
  static readonly defaultCode = 'network';
  readonly exitCode = ExitCode.network;
}

/** The proxy between loopsctl and the API refused the request (407, a CONNECT it would not open), or could not be reached. */
export class ProxyError extends LoopsctlError {
  static readonly defaultCode = 'proxy';
  readonly exitCode = ExitCode.proxy;
}

export class ServerError extends LoopsctlError {
  static readonly defaultCode = 'server_error';
  readonly exitCode = ExitCode.server;
}

/** The answer was not JSON, or not of the documented shape. */
export class InvalidResponseError extends LoopsctlError {
  static readonly defaultCode = 'invalid_response';
  readonly exitCode = ExitCode.invalidResponse;
}

/**
 * A local file or directory that cannot be used: the config, the sandbox state, an allow-list or
 * any other input file. The message names the path; the hint says how to fix it.
 */
export class LocalFileError extends LoopsctlError {
  static readonly defaultCode = 'local_file';
  readonly exitCode = ExitCode.usage;
}

/** Output could not be written: a full disk, or a closed stderr. */
export class OutputError extends LoopsctlError {
  static readonly defaultCode = 'output';
  readonly exitCode = ExitCode.io;
}

/**
 * A write held back before anything was sent, to protect an account: the key belongs to another
 * team than the one expected ('wrong_team'), or the profile is read-only ('read_only').
 */
export class ProtectedError extends LoopsctlError {
  static readonly defaultCode = 'protected';
  readonly exitCode = ExitCode.protected;
}

/** A bug in loopsctl itself. */
export class InternalError extends LoopsctlError {
  static readonly defaultCode = 'internal';
  readonly exitCode = ExitCode.internal;
}

/** The user interrupted the run (Ctrl-C); 130 is the shell's code for SIGINT. */
export class InterruptedError extends LoopsctlError {
  static readonly defaultCode = 'interrupted';
  readonly exitCode = ExitCode.interrupted;
}

const rejectedCodes: Record<number, string> = {
  400: 'bad_request',
  405: 'method_not_allowed',
  409: 'conflict',
  422: 'unprocessable',
};

const defaultMessages: Record<number, string> = {
  400: 'the API rejected the request',
  401: 'the API key was not accepted',
  404: 'not found',
  405: 'the API does not allow this method here',
  409: 'the request conflicts with the current state',
  422: 'the API could not process the request',
  429: 'rate limited by the API',
};

const SENDING_DOMAIN_HINT = 'set up and verify a sending domain in the Loops app (Settings > Domains), then run the command again';

/** A 401 means a wrong key, or a part of the API the team has not enabled: the API's words tell which. */
function unauthorizedHint(message: string): string {
  const feature = /\b(content|workflow|metrics)s? API\b/i.exec(message)?.[1]?.toLowerCase();
  if (feature !== undefined && /not (been )?enabled/i.test(message)) {
    return `the key works, but the ${feature} API is not enabled for this team; ask Loops support or the team's owner to enable it (other commands still work)`;
  }
  return WRONG_KEY_HINT;
}

/** The hint of a refused key, until the run says where the key came from (CommandContext.withKeyHint). */
export const WRONG_KEY_HINT = 'the key may be wrong or revoked; check it with `loopsctl auth status`, or store a new one with `loopsctl auth login`';

/** Parts of the API a team must have enabled, whose 401 means a wrong key or a part not enabled. */
export type ApiFeature = 'content' | 'metrics';

/** The hint of a 401 from such a part, until the run says where the key came from (CommandContext.withKeyHint). */
export function featureKeyHint(feature: ApiFeature): string {
  return `the key was not accepted, or the ${feature} API is not enabled for this team (ask Loops support to enable it); check the key with \`loopsctl auth status\``;
}

/** The part of the API a refused key's hint names, if it is a featureKeyHint. */
export function featureOfKeyHint(hint: string | undefined): ApiFeature | undefined {
  return (['content', 'metrics'] as const).find((feature) => hint === featureKeyHint(feature));
}

/**
 * Maps a failed HTTP answer to the error the user sees, keeping the API's own message. A note
 * (what the body looked like, where a redirect points) is added to the message in parentheses, and
 * a hint replaces the usual one.
 */
export function errorForStatus(status: number, apiMessage: string | undefined, extra: { note?: string; hint?: string; body?: unknown } = {}): LoopsctlError {
  const base = apiMessage?.trim() || defaultMessages[status] || `the API answered HTTP ${status}`;
  const message = extra.note === undefined ? base : `${base} (${extra.note})`;
  const { body } = extra;
  if (status === 401) return new AuthError(message, { status, body, hint: extra.hint ?? unauthorizedHint(base) });
  const hint = extra.hint ?? (status === 400 && /sending domain/i.test(base) ? SENDING_DOMAIN_HINT : undefined);
  if (status === 404) return new NotFoundError(message, { status, hint, body });
  if (status === 429) return new RateLimitError(message, { status, hint, body });
  if (status >= 500) return new ServerError(message, { status, hint, body });
  return new RejectedError(message, { status, hint, body, code: rejectedCodes[status] });
}
