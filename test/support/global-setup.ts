/**
 * Once around the whole run (vitest.config.ts, globalSetup): the tests' temporary directory is one
 * of the run's own, inherited by every test file's process, and at the end it must be empty: a
 * test that leaves a file or directory behind fails the run, by name.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_HOME_PREFIX } from './temp.js';

/** The run's directory, while a global setup of this run holds it. */
const RUN_DIR = 'LOOPSCTL_TEST_RUN_DIR';

export default function setup(): () => Promise<void> {
  // vitest runs the global setup once for each of its projects (vitest.config.ts), in one process:
  // the first makes the run's directory, and checks it at the end; the others share it.
  if (process.env[RUN_DIR] !== undefined) return async () => {};
  const previous = process.env.TMPDIR;
  const previousCompileCache = process.env.NODE_DISABLE_COMPILE_CACHE;
  const runDir = mkdtempSync(join(tmpdir(), 'loopsctl-test-run-'));
  process.env.TMPDIR = runDir;
  spreadOverBlockGroups(runDir);
  process.env[RUN_DIR] = runDir;
  // From Node 22.1, npm, tsc and vite keep a compile cache of their own modules in the temporary
  // directory (module.enableCompileCache()): a test that runs one of them would leave
  // node-compile-cache in the run's directory. Their caches are not the tests' business, and
  // loopsctl keeps V8's code cache its own way, which this leaves alone.
  process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  return async () => {
    delete process.env[RUN_DIR];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousCompileCache === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = previousCompileCache;
    await browsersClosed(runDir);
    const left = readdirSync(runDir);
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    if (left.length === 0) return;
    // vitest reports an error thrown here without failing the run: the exit code says it.
    process.exitCode = 1;
    throw new Error(
      `the tests left ${left.length} temporary files or directories behind (make them with tempDir() of test/support/temp.ts): ${left.slice(0, 20).join(', ')}`,
    );
  };
}

/**
 * How long the check waits for the test processes' browsers to close: far longer than vitest gives
 * a process to end (it kills one that has not ended half a second after its SIGTERM).
 */
const BROWSERS_CLOSE_WITHIN_MS = 10_000;

/**
 * Waits until the browsers the test processes shared are gone, their directories removed: vitest
 * runs this teardown before it has waited for its processes to end, and each kills its browser and
 * removes the browser's directories as it ends (test/support/browser.ts). A browser left running
 * leaves its directory, which the check names.
 */
async function browsersClosed(runDir: string): Promise<void> {
  const until = Date.now() + BROWSERS_CLOSE_WITHIN_MS;
  while (readdirSync(runDir).some((name) => name.startsWith(BROWSER_HOME_PREFIX)) && Date.now() < until) await sleep(20);
}

/**
 * Marks the run's directory a top directory (ext4's T attribute), so that ext4 places each
 * directory made in it, a test file's, in a block group of its own rather than beside the run's.
 * Without it every file of the run lands in one group, and on an ext4 without a journal each file
 * made there first skips every inode of the group freed in the last minute or more (the run
 * removes thousands): in a profile of the whole run that skipping took about a sixth of its system
 * time. Where chattr or the attribute is missing, the directory stays as it is.
 */
export function spreadOverBlockGroups(dir: string): void {
  spawnSync('chattr', ['+T', dir], { stdio: 'ignore' });
}
