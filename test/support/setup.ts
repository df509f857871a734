/** Runs before each test file (vitest.config.ts, setupFiles). */
import { resolve, sep } from 'node:path';
import { afterAll, expect, vi } from 'vitest';
import { staleBuild } from './build-fresh.js';
import { cpuMsNow } from './file-cpu.js';
import { enterFileDir, leaveFileDir } from './temp.js';

// Before the test file is imported, which is part of what it costs.
const cpuAtStart = cpuMsNow();

// Registered before anything else, so it runs last: what the file cost, its clean-up included, for
// the suite's budget (test/support/suite-budget.ts).
// biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook takes from its first argument's pattern; this one takes none.
afterAll(({}, suite) => {
  suite.file.meta.cpuMs = cpuMsNow() - cpuAtStart;
});

const root = resolve(import.meta.dirname, '../..');
const testPath = expect.getState().testPath!;

// A file under test/spawned/ runs the built loopsctl: against a build older than src/ it would
// pass or fail on the code before the change, so it fails at once, saying to build. Thrown here,
// before the file is imported, the file registers no hook, so its afterAll does not fail again on
// what its beforeAll never started.
if (resolve(testPath).startsWith(`${root}${sep}test${sep}spawned${sep}`)) {
  const stale = staleBuild(root);
  if (stale !== undefined) throw new Error(stale);
}

// The file's own temporary directory, the process's TMPDIR from before the file is imported
// (temp.ts): registered next, so that it is removed after the file's own afterAll hooks have
// closed what used it, and after the check below, which finds TMPDIR as the file found it.
// Removing a large tree (the Quickstart's clone, with its node_modules) can take a busy machine a
// while: the hook is given what the slowest test is given.
enterFileDir(root, testPath);
afterAll(leaveFileDir, 600_000);

/**
 * What of its process a test file could leave changed for the next: the files of test/unit and
 * test/e2e share their processes (vitest.config.ts), so each must restore what it changes.
 */
function processState(): Record<string, unknown> {
  return {
    'the working directory': process.cwd(),
    'the environment': JSON.stringify(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : 1))),
    'process.exitCode': process.exitCode,
    'fake timers': vi.isFakeTimers(),
    'globalThis.fetch': globalThis.fetch,
  };
}
const stateAtStart = processState();

// Registered next, so it runs after the file's own afterAll hooks, which may be what restores it.
afterAll(() => {
  const now = processState();
  const changed = Object.keys(stateAtStart).filter((what) => now[what] !== stateAtStart[what]);
  if (changed.length > 0)
    throw new Error(`this test file left the process changed (${changed.join(', ')}): restore what a test changes of it, in an afterEach or afterAll`);
});
