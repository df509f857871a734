/** Runs before each test file (vitest.config.ts, setupFiles). */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp.js';

// Registered first, so it runs after the file's own afterAll hooks have closed what used the directories.
afterAll(removeTempDirs);
