/**
 * Once around the whole run (vitest.config.ts, globalSetup): the tests' temporary directory is one
 * of the run's own, inherited by every test file's process, in which each test file has a
 * directory of its own that it removes as it ends (temp.ts, setup.ts). What is still there at the
 * end is said, by the file that made it, as a warning: the file's own removal, which must find its
 * directory gone, is what fails a test file that leaves something behind; a file killed before it
 * could remove its directory (a run interrupted, or a worker ended by vitest) is said here, and
 * the run keeps its result.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { socketTempDir } from '../../src/base/socket-dir.js';
import { ownerOf, RUN_DIR, RUN_SHARED, RUN_SOCKETS, SOCKET_ROOM } from './temp.js';

export default function setup(): () => void {
  // vitest runs the global setup once for each of its projects (vitest.config.ts), in one process:
  // the first makes the run's directory, and looks into it at the end; the others share it.
  if (process.env[RUN_DIR] !== undefined) return () => {};
  const previous = process.env.TMPDIR;
  const previousCompileCache = process.env.NODE_DISABLE_COMPILE_CACHE;
  const runDir = mkdtempSync(join(tmpdir(), 'loopsctl-test-run-'));
  process.env.TMPDIR = runDir;
  spreadOverBlockGroups(runDir);
  process.env[RUN_DIR] = runDir;
  // Sockets go in a directory of their own, short whatever TMPDIR's depth (temp.ts, socketDir).
  const socketsDir = socketTempDir('loopsctl-test-sockets-', SOCKET_ROOM);
  process.env[RUN_SOCKETS] = socketsDir;
  // From Node 22.1, npm, tsc and vite keep a compile cache of their own modules in the temporary
  // directory (module.enableCompileCache()): a test that runs one of them would leave
  // node-compile-cache in the run's directory. Their caches are not the tests' business, and
  // loopsctl keeps V8's code cache its own way, which this leaves alone.
  process.env.NODE_DISABLE_COMPILE_CACHE = '1';
  return () => {
    delete process.env[RUN_DIR];
    delete process.env[RUN_SOCKETS];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousCompileCache === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = previousCompileCache;
    const left = [
      ...leftBehind(runDir),
      ...readdirSync(socketsDir).map((name) => `warning: ${join(socketsDir, name)} was left in the tests' socket directory`),
    ];
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    rmSync(socketsDir, { recursive: true, force: true, maxRetries: 3 });
    if (left.length > 0) process.stderr.write(`${left.join('\n')}\n`);
  };
}

/** A warning for each thing left in the run's directory, naming the test file that made it where its name says. */
export function leftBehind(runDir: string): string[] {
  return readdirSync(runDir).flatMap((name) => {
    // What the run's files share (temp.ts, sharedByRun) is the run's, and goes with its directory.
    if (name === RUN_SHARED) return [];
    const owner = ownerOf(name);
    const path = join(runDir, name);
    if (owner === undefined) return [`warning: ${path} was left in the tests' temporary directory by no test file (vitest, or a worker between two files)`];
    let held: string[] = [];
    try {
      held = readdirSync(path);
    } catch {
      // A file, or gone since.
    }
    // A file skipped whole runs no hook, and leaves its directory as it was made, empty: nothing to say.
    if (held.length === 0) return [];
    return [
      `warning: ${owner} left its temporary directory ${path}, holding ${held.slice(0, 10).join(', ')}${held.length > 10 ? ', …' : ''}: its process ended before the file could remove it`,
    ];
  });
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
