/** Runs before each test file (vitest.config.ts, setupFiles). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

// Registered first, so it runs after the file's own afterAll hooks have closed what used the
// directories. Removing a large tree (the Quickstart's clone, with its node_modules) can take a
// busy machine a while: the hook is given what the slowest test is given.
afterAll(removeTempDirs, 600_000);
