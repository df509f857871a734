/**
 * Temporary directories of the tests: each is made under the system's temporary directory and
 * removed once the test file that made it has finished (test/support/setup.ts). A run of the suite
 * leaves none behind; test/support/global-setup.ts checks that it does not.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * The start of the name of the directory of the browser a test process's files share
 * (browser.ts): it outlives every file, and goes as the process ends, which vitest has not always
 * waited for when the global setup's check begins: the check waits for it (global-setup.ts).
 */
export const BROWSER_HOME_PREFIX = 'loopsctl-browser-';

/** A new empty directory, removed after the test file. */
export function tempDir(prefix = 'loopsctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** The directory of the file's unmade paths (unmadePath), once the file has asked for one. */
let unmadeParent: string | undefined;
let unmadeCount = 0;

/**
 * A path of the file's own that nothing has made yet, removed after the test file as tempDir's
 * are: for a directory a run may make if it needs it (a config dir), as it is on a new machine.
 * Making a directory for each of thousands of runs cost more than most of those runs.
 */
export function unmadePath(name: string): string {
  unmadeParent ??= tempDir('loopsctl-unmade-');
  unmadeCount += 1;
  return join(unmadeParent, `${name}-${unmadeCount}`);
}

/** Removes every directory tempDir made so far. */
export async function removeTempDirs(): Promise<void> {
  unmadeParent = undefined;
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}
