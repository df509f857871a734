import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** What every run of the tests shares: the suite's (below) and a mutation run's (vitest.mutation.config.ts). */
export const shared = defineConfig({
  // As the build does: see src/base/version.ts.
  define: { LOOPSCTL_VERSION: JSON.stringify(version) },
  test: {
    // vitest leaves one core free by default, which on a two-core machine means one test file at a
    // time; the tests wait on child processes and sockets much of the time, so two run well side by side.
    maxWorkers: 2,
    // A test waits for a positive signal, never for elapsed time: these only end a test or a hook
    // that hangs, so they stand far above what a test or a file's set-up (a sandbox server,
    // Chromium, PostgreSQL) takes on a slow, loaded two-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
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

const ROOT = fileURLToPath(new URL('.', import.meta.url));
/** The attack suite (test/attack) runs whole commands in this process against a sandbox, as test/e2e does. */
const IN_PROCESS = ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/attack/**/*.test.ts'];

/**
 * The in-process files that replace a module (vi.mock): a mock is registered as the file is
 * imported, and holds only for modules loaded after it, so such a file needs modules of its own
 * and must not leave its mock to the files after it. None does now: a test that needs a member of
 * node:fs wrapped or refused replaces it for itself (test/support/patch-builtin.ts) and shares its
 * process; a file that mocks a module still gets a process of its own here.
 */
const MOCKING = globSync(IN_PROCESS, { cwd: ROOT }).filter((file) => readFileSync(`${ROOT}/${file}`, 'utf8').includes('vi.mock('));

/**
 * A file of test/spawned that loads the keychain library in its own process: the library keeps the
 * session bus it first finds (or that it found none) for the process's life, so the file needs a
 * process that nothing else has loaded it in.
 */
const KEYCHAIN = 'test/spawned/config/keychain.test.ts';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      projects: [
        {
          // test/unit, test/e2e and test/attack in processes that each run file after file, loading the sources
          // once rather than once a file: a file restores what it changes of the process (its working
          // directory, environment variables, globals, timers; docs/development.md).
          extends: true,
          test: { name: 'in-process', include: IN_PROCESS, exclude: MOCKING, isolate: false, sequence: { groupOrder: 0 } },
        },
        {
          // test/spawned in processes reused file after file as well: what such a file tests runs in
          // the processes it starts, and a process of its own for each cost more than most of them.
          extends: true,
          test: { name: 'spawned', include: ['test/spawned/**/*.test.ts'], exclude: [KEYCHAIN], isolate: false, sequence: { groupOrder: 1 } },
        },
        {
          // A process of its own for each in-process file that mocks a module (none now), and for the keychain's.
          extends: true,
          test: { name: 'isolated', include: [...MOCKING, KEYCHAIN], sequence: { groupOrder: 1 } },
        },
      ],
    },
  }),
);
