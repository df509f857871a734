/**
 * The update notice: once a day at most, after a command's output, one line on stderr when a newer
 * version is out, with the command that upgrades this copy. Nothing is sent but the request for the
 * latest version, and only to a person at a terminal: never with machine-read output, for the
 * completion script (or the ids it completes), for help, in CI, or with LOOPSCTL_NO_UPDATE_NOTIFIER or
 * DO_NOT_TRACK set. Every start ends here, so this part only decides whether a check is due; the
 * check itself (update-check.ts) loads when it is.
 */
import { join } from 'node:path';
import { builtinModule } from '../base/builtin.js';
import { cacheDirectory } from '../config/paths.js';
import { asksForJson } from './program.js';
import type { Runtime } from './runtime.js';
import type { LastCheck } from './update-check.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether this run may check at all: decided from the environment and the arguments alone. */
function updateCheckAllowed(runtime: Runtime, argv: string[]): boolean {
  const { env } = runtime;
  if (env.CI || env.LOOPSCTL_NO_UPDATE_NOTIFIER || env.DO_NOT_TRACK) return false;
  if (asksForJson(argv)) return false;
  // A shell sources the completion script at every start: no request belongs there. A value spelled
  // "completion" skips the check too, which costs only a notice.
  if (argv.includes('completion')) return false;
  // Help is mostly printed from the build's pages without the program (bin/loopsctl.js), which
  // gives no notice: where the program prints it, none either, so that help reads the same.
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return false;
  return runtime.stderr.isTTY === true && runtime.installation !== undefined;
}

/** Checks the feed if the last check is a day old or more (or from the future), and says so when a newer version is out. */
export async function noticeUpdate(runtime: Runtime, argv: string[]): Promise<void> {
  if (!updateCheckAllowed(runtime, argv)) return;
  const file = join(cacheDirectory(runtime.env, runtime.platform), 'update-check.json');
  const checkedAt = Date.parse(readLastCheck(file)?.checkedAt ?? '');
  const now = runtime.now().getTime();
  if (now - checkedAt < DAY_MS && checkedAt <= now) return;
  await (await import('./update-check.js')).checkForUpdate(runtime, file);
}

function readLastCheck(file: string): LastCheck | undefined {
  try {
    const check = JSON.parse(builtinModule('node:fs').readFileSync(file, 'utf8')) as LastCheck;
    return typeof check.checkedAt === 'string' ? check : undefined;
  } catch {
    return undefined;
  }
}
