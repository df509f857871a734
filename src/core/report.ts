/** How an error reaches the person or the script: one line (and a hint) on stderr, or a JSON object. */
import { InternalError, type LoopsctlError } from '../base/errors.js';
import { sanitize, sanitizeKeepingLines } from '../base/sanitize.js';
import { ISSUES_URL } from '../base/version.js';
import { formatJson } from '../render/output.js';
import type { OutStream } from './runtime.js';
import { mappedStack } from './stack.js';

/** The `--json` form of an error; `about` adds what it concerns, such as the id that failed. */
export function errorPayload(error: LoopsctlError, about: Record<string, unknown> = {}) {
  return { error: { code: error.code, status: error.status ?? null, message: error.message, exitCode: error.exitCode, hint: error.hint ?? null, ...about } };
}

/** Messages quote the API, so they are sanitized like any other text from it. */
export function reportError(
  stderr: OutStream,
  error: LoopsctlError,
  options: { json: boolean; debug?: boolean; about?: Record<string, unknown>; prefix?: string },
): void {
  if (options.json) {
    stderr.write(`${formatJson(errorPayload(error, options.about), 0)}\n`);
  } else {
    const message = `${options.prefix ?? ''}${error.message}`;
    stderr.write(`Error: ${error.multiline ? sanitizeKeepingLines(message) : sanitize(message)}\n`);
    if (error.hint) stderr.write(`Hint: ${sanitize(error.hint)}\n`);
    if (error instanceof InternalError)
      stderr.write(`This is a bug in loopsctl; please report it at ${ISSUES_URL}, with the output of the command run again with --debug.\n`);
  }
  // A stack trace says something only of a bug: other errors say all there is in their message.
  if (options.debug && error instanceof InternalError) {
    const stack = mappedStack(String((error.cause as Error | undefined)?.stack ?? error.stack));
    stderr.write(`${stack.split('\n').map(sanitize).join('\n')}\n`);
  }
}
