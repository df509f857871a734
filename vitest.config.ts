import { readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  // As the build does: see src/base/version.ts.
  define: { LOOPSCTL_VERSION: JSON.stringify(version) },
  test: {
    // vitest leaves one core free by default, which on a two-core machine means one test file at a
    // time; the tests wait on child processes and sockets much of the time, so two run well side by side.
    maxWorkers: 2,
    // A test waits for a positive signal, never for elapsed time: this only ends one that hangs, and
    // is long because a loaded two-core machine is slow (a spawned test starts several processes).
    testTimeout: 30_000,
    // Temporary directories: one of the run's own, which must be empty at the end, and each test
    // file's removed after it (test/support/temp.ts).
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    // The suite's budget: a run of every file fails when one takes more than its share of the CPU
    // (test/support/suite-budget.ts), so that a slow file is seen when it is added.
    reporters: ['default', './test/support/suite-budget.ts'],
    // An app's own suite, which test/spawned/emulator/public.test.ts runs as that app would; and the
    // copy of the project a mutation run works in (stryker.config.mjs).
    exclude: [...configDefaults.exclude, 'test/examples/**', '.stryker-tmp/**'],
  },
});
