/** Runs before each test file (vitest.config.ts, setupFiles). */
import { resolve, sep } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { staleBuild } from './build-fresh.js';
import { cpuMsNow } from './file-cpu.js';
import { removeTempDirs } from './temp.js';

// Before the test file is imported, which is part of what it costs.
const cpuAtStart = cpuMsNow();

// Registered before anything else, so it runs last: what the file cost, its clean-up included, for
// the suite's budget (test/support/suite-budget.ts).
// biome-ignore lint/correctness/noEmptyPattern: as for the beforeAll below.
afterAll(({}, suite) => {
  suite.file.meta.cpuMs = cpuMsNow() - cpuAtStart;
});

// Registered next, so it runs after the file's own afterAll hooks have closed what used the
// directories. Removing a large tree (the Quickstart's clone, with its node_modules) can take a
// busy machine a while: the hook is given what the slowest test is given.
afterAll(removeTempDirs, 600_000);

const root = resolve(import.meta.dirname, '../..');

// A file under test/spawned/ runs the built loopsctl: against a build older than src/ it would
// pass or fail on the code before the change, so it fails at once, saying to build.
// biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook takes from its first argument's pattern; this one takes none.
beforeAll(({}, suite) => {
  const file = suite.file.filepath;
  if (!resolve(file).startsWith(`${root}${sep}test${sep}spawned${sep}`)) return;
  const stale = staleBuild(root);
  if (stale !== undefined) throw new Error(stale);
});
