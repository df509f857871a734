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

/**
 * `loopsctl ... | head -1`: once the reader has gone, nothing more can be shown, so the run ends
 * quietly and successfully, as other Unix tools do.
 */
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(ExitCode.ok);
  throw error;
});

void main(process.argv.slice(2), processRuntime(interruption.signal)).then((code) => {
  process.exitCode = code;
});
