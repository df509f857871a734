/**
 * The process around a run: the runtime of the real process, Ctrl-C wired to its abort signal,
 * a reader that goes away, and the exit code.
 */
import { ExitCode } from './base/exit-codes.js';
import { processRuntime } from './core/runtime.js';
import { noticeUpdate } from './core/update-notice.js';
import { main } from './main.js';

const interruption = new AbortController();
/**
 * stdout that can no longer be written ends the command's work (`loopsctl ... | head -1`, a full
 * disk); main() decides the exit code. A closed stderr leaves nothing to say: the code still tells.
 */
const runtime = processRuntime(interruption);
// The emulator behind --sandbox, loaded by the runs that use it.
runtime.startSandbox = async (options) => (await import('./emulator/index.js')).startInProcessSandbox(options);
const argv = process.argv.slice(2);
const run = main(argv, runtime).then((code) => {
  process.exitCode = code;
  // Once its output is out (and the day's update check, if due, is done), the process ends at once:
  // ending by itself, Node would first spend milliseconds freeing memory that the system takes back
  // anyway. The build's recording of the code cache runs several commands in this process, one after the other.
  if (process.env.LOOPSCTL_RECORD_CODE_CACHE === undefined) {
    void runtime
      .written()
      .then(() => noticeUpdate(runtime, argv))
      .then(() => process.exit(code));
  }
  return code;
});

/**
 * Ctrl-C, or a stop asked for by another program (kill, a service manager): requests in flight and
 * waits between retries end, and the process exits as soon as the run has, without waiting for
 * output that its reader is not taking (a full pipe would hold the process until read). A run that
 * had succeeded but leaves output behind so is interrupted all the same.
 */
function interrupt(): void {
  interruption.abort();
  void run.then((code) => process.exit(code === ExitCode.ok && runtime.stdout.writableLength > 0 ? ExitCode.interrupted : code));
}
process.once('SIGINT', () => {
  interrupt();
  // A second Ctrl-C ends at once.
  process.once('SIGINT', () => process.exit(ExitCode.interrupted));
});
process.once('SIGTERM', interrupt);
