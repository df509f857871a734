/**
 * The process around a run: the runtime of the real process, Ctrl-C wired to its abort signal,
 * a reader that goes away, and the exit code.
 */
import { ExitCode } from './core/exit-codes.js';
import { processRuntime } from './core/runtime.js';
import { main } from './main.js';

const interruption = new AbortController();
// The first Ctrl-C ends requests in flight and waits between retries; a second one ends at once.
process.once('SIGINT', () => {
  interruption.abort();
  process.once('SIGINT', () => process.exit(ExitCode.interrupted));
});
// A stop asked for by another program (kill, a service manager) ends the run the same way.
process.once('SIGTERM', () => interruption.abort());

/**
 * stdout that can no longer be written ends the command's work (`loopsctl ... | head -1`, a full
 * disk); main() decides the exit code. A closed stderr leaves nothing to say: the code still tells
 * (the runtime quiets its errors when it first opens it).
 */
const stdoutClosed = new AbortController();
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  stdoutClosed.abort(error);
  interruption.abort();
});

void main(process.argv.slice(2), processRuntime(interruption.signal, stdoutClosed.signal)).then((code) => {
  process.exitCode = code;
});
