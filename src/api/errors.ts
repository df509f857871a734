/**
 * The one error hierarchy of loopsctl. Every failure a user can meet is one of these classes; each
 * carries the process exit code (the README's exit-code table) and, where an HTTP answer caused
 * it, the status. The top-level handler in cli.ts turns them into a message and an exit code.
 */

export const ExitCode = {
  ok: 0,
  mismatch: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  rateLimited: 6,
  network: 7,
  server: 8,
  invalidResponse: 9,
  internal: 70,
  interrupted: 130,
} as const;

export interface ErrorDetails {
  status?: number;
  hint?: string;
  cause?: unknown;
}

export abstract class LoopsctlError extends Error {
  abstract readonly exitCode: number;
  /** A stable machine-readable name, printed in `--json` error objects. */
  abstract readonly code: string;
  readonly status?: number;
  readonly hint?: string;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.hint = details.hint;
  }
}

/** A check found the world out of step with what the user expected (ips check, webhooks verify). */
export class MismatchError extends LoopsctlError {
  readonly exitCode = ExitCode.mismatch;
  readonly code = 'mismatch';
}

/** Bad arguments or flags: nothing was sent. */
export class UsageError extends LoopsctlError {
  readonly exitCode = ExitCode.usage;
  readonly code = 'usage';
}

/** No key anywhere, or the API answered 401. */
export class AuthError extends LoopsctlError {
  readonly exitCode = ExitCode.auth;
  readonly code: 'no_key' | 'unauthorized' | 'config';
  constructor(code: AuthError['code'], message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.code = code;
  }
}

export class NotFoundError extends LoopsctlError {
  readonly exitCode = ExitCode.notFound;
  readonly code = 'not_found';
}

/** The API refused the request as sent (400, 405, 409, 422 and other 4xx). */
export class RejectedError extends LoopsctlError {
  readonly exitCode = ExitCode.rejected;
  readonly code: string;
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.code = code;
  }
}

export class RateLimitError extends LoopsctlError {
  readonly exitCode = ExitCode.rateLimited;
  readonly code = 'rate_limited';
}

/** Could not connect, the connection broke, or an attempt timed out. */
export class NetworkError extends LoopsctlError {
  readonly exitCode = ExitCode.network;
  readonly code: 'network' | 'timeout';
  constructor(code: NetworkError['code'], message: string, details: ErrorDetails = {}) {
    super(message, details);
    this.code = code;
  }
}

export class ServerError extends LoopsctlError {
  readonly exitCode = ExitCode.server;
  readonly code = 'server_error';
}

/** The answer was not JSON, or not of the documented shape. */
export class InvalidResponseError extends LoopsctlError {
  readonly exitCode = ExitCode.invalidResponse;
  readonly code = 'invalid_response';
}

/** A bug in loopsctl itself. */
export class InternalError extends LoopsctlError {
  readonly exitCode = ExitCode.internal;
  readonly code = 'internal';
}

/** The user interrupted the run (Ctrl-C); 130 is the shell's code for SIGINT. */
export class InterruptedError extends LoopsctlError {
  readonly exitCode = ExitCode.interrupted;
  readonly code = 'interrupted';
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

/** Maps a failed HTTP answer to the error the user sees, keeping the API's own message. */
export function errorForStatus(status: number, apiMessage: string | undefined): LoopsctlError {
  const message = apiMessage?.trim() || defaultMessages[status] || `the API answered HTTP ${status}`;
  if (status === 401) {
    return new AuthError('unauthorized', message, {
      status,
      hint: 'the key may be wrong, or the API this command uses may not be enabled for the team; check with `loopsctl auth status`',
    });
  }
  if (status === 404) return new NotFoundError(message, { status });
  if (status === 429) return new RateLimitError(message, { status });
  if (status >= 500) return new ServerError(message, { status });
  return new RejectedError(rejectedCodes[status] ?? 'rejected', message, { status });
}
