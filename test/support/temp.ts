/**
 * Temporary directories of the tests. Each test file has one of its own in the run's directory
 * (global-setup.ts), named after the file, which is the temporary directory (TMPDIR) of the file's
 * process while it runs: what its tests make with tempDir(), and what loopsctl, npm, a browser or
 * any process they start makes in the system's temporary directory, lands there. setup.ts makes it
 * before the file is imported and removes it once the file's own hooks have closed what used it,
 * failing the file if anything is still there; what is left in the run's directory at the end has
 * the name of the file that made it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { SOCKET_PATH_MAX } from '../../src/base/socket-dir.js';

/**
 * What stands for `/` in the name of a test file's directory: no test file's path holds it, every
 * test file is in a folder of test/, and neither a shell, a regular expression nor a URL reads
 * anything into it.
 */
const SLASH = '__';
const TEST_FILE_END = '.test.ts';

/**
 * The name a test file's directory starts with, before mkdtemp's six characters: its path under
 * test/ without `.test.ts`, each `/` a `__` (test/e2e/core/a.test.ts: e2e__core__a-). Short, for
 * the sockets made in it (a path of at most 108 bytes).
 */
export function fileDirPrefix(root: string, file: string): string {
  const path = relative(join(root, 'test'), file);
  return `${(path.endsWith(TEST_FILE_END) ? path.slice(0, -TEST_FILE_END.length) : path).split(sep).join(SLASH)}-`;
}

/** The test file a directory of the run was made for (test/e2e/core/a.test.ts), from its name; undefined for a name of no test file's. */
export function ownerOf(name: string): string | undefined {
  const made = /^(.+)-[A-Za-z0-9]{6}$/.exec(name);
  return made === null || !made[1]!.includes(SLASH) ? undefined : `test/${made[1]!.split(SLASH).join('/')}${TEST_FILE_END}`;
}

/** The file's own directory while it runs, and the temporary directory it took the place of. */
let current: { dir: string; before: string | undefined } | undefined;

/**
 * Makes the test file's own directory (in the run's) and makes it the temporary directory of the
 * process until leaveFileDir(). A file skipped whole runs no hook, so never leaves its directory:
 * the next file of the process removes it first, and puts back the temporary directory it took.
 */
export function enterFileDir(root: string, file: string): string {
  if (current !== undefined) {
    const skipped = current;
    current = undefined;
    restore(skipped.before);
    rmSync(skipped.dir, { recursive: true, force: true, maxRetries: 5 });
  }
  const before = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), fileDirPrefix(root, file)));
  process.env.TMPDIR = dir;
  current = { dir, before };
  return dir;
}

/**
 * Puts the temporary directory of the process back, and removes the file's directory with all it
 * holds: it must then be gone, which is the positive sign that nothing still writes there (a
 * process the file left running would make it again, or keep it from going).
 */
export async function leaveFileDir(): Promise<void> {
  if (current === undefined) return;
  const { dir, before } = current;
  current = undefined;
  unmadeParent = undefined;
  restore(before);
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  if (existsSync(dir))
    throw new Error(
      `this test file's temporary directory ${dir} is still there after its removal, with ${readdirSync(dir).join(', ')}: a process it started still writes there`,
    );
}

function restore(before: string | undefined): void {
  if (before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = before;
}

/** A new empty directory in the test file's own, removed with it after the file. */
export function tempDir(prefix = 'loopsctl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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

/** The variable that names the run's directory to every process of the run (global-setup.ts sets it). */
export const RUN_DIR = 'LOOPSCTL_TEST_RUN_DIR';

/**
 * The name of the run's directory of what its test files share: made by the first file that needs
 * a thing in it, read by the others, and removed with the run's directory at the run's end.
 */
export const RUN_SHARED = 'shared';

/**
 * A directory the run's test files share, by name, made once for the whole run by `make` (given a
 * new empty directory to fill) and then only read: for what costs a second to build and does not
 * change while the tests run. Two processes that ask at once may both make it; the first to put it
 * in place is kept, and the other's is removed.
 */
export function sharedByRun(name: string, make: (dir: string) => void): string {
  // Set for every run: vitest runs the global setup before any file, in each of its configs.
  const shared = join(process.env[RUN_DIR]!, RUN_SHARED);
  const dir = join(shared, name);
  if (existsSync(dir)) return dir;
  mkdirSync(shared, { recursive: true });
  const making = mkdtempSync(join(shared, `.${name}-`));
  try {
    make(making);
    renameSync(making, dir);
  } catch (error) {
    rmSync(making, { recursive: true, force: true });
    // Put in place by another process meanwhile: that one is the run's.
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

/**
 * The variable that names the run's directory for sockets (global-setup.ts makes it, short
 * whatever TMPDIR's depth): a test file's own directory is too deep in the run's for a socket's path.
 */
export const RUN_SOCKETS = 'LOOPSCTL_TEST_SOCKET_DIR';

/** The longest prefix of a socketDir(): with mkdtemp's six characters and a `/`, 19 bytes below the run's socket directory. */
const SOCKET_PREFIX_MAX = 12;

/**
 * What a test puts below a socketDir() at most: Chromium's singleton socket in the browser's
 * TMPDIR (/org.chromium.Chromium.XXXXXX/SingletonSocket), the longest socket path of the tests.
 */
const SOCKET_BELOW = 45;

/** What the run's socket directory leaves room for below it (global-setup.ts). */
export const SOCKET_ROOM = 1 + SOCKET_PREFIX_MAX + 6 + SOCKET_BELOW;

/**
 * A new empty directory for sockets (a browser's TMPDIR, a session bus's runtime directory), with
 * room for a socket path of SOCKET_BELOW bytes below it: in the run's socket directory, since the
 * file's own is too deep. The test removes it (nothing removes it after the file), and the run's
 * end says what is left there.
 */
export function socketDir(prefix: string): string {
  if (prefix.length > SOCKET_PREFIX_MAX) throw new Error(`socketDir's prefix ${prefix} is longer than ${SOCKET_PREFIX_MAX} characters`);
  const dir = mkdtempSync(join(process.env[RUN_SOCKETS]!, prefix));
  if (dir.length + SOCKET_BELOW > SOCKET_PATH_MAX) throw new Error(`${dir} leaves no room for a socket's path of ${SOCKET_BELOW} bytes`);
  return dir;
}
