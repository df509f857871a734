import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // vitest leaves one core free by default, which on a two-core machine means one test file at a
    // time; the tests wait on child processes and sockets much of the time, so two run well side by side.
    maxWorkers: 2,
  },
});
