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

/** Removes every directory tempDir made so far. */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}
