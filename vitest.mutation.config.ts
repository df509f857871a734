/**
 * The vitest configuration a mutation run uses (stryker.config.mjs): the project's own (without its
 * projects, whose files it names for the suite), with only
 * the test files of the module group being mutated, named in LOOPSCTL_MUTATE_TESTS, so that each
 * mutant is tried against the few files that can kill it rather than the whole suite.
 */
import { defineConfig, mergeConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

const include = (process.env.LOOPSCTL_MUTATE_TESTS ?? '').split(',').filter(Boolean);
if (include.length === 0) throw new Error('LOOPSCTL_MUTATE_TESTS names no test files: run a mutation through `npm run mutate -- <group>`');

// Stryker runs the tests in worker threads, whatever the configuration says, where process.chdir
// throws: a test file that changes directory fails to load there, and Stryker then credits none of
// its tests. The same pool here lets a run of this configuration alone show it.
export default mergeConfig(shared, defineConfig({ test: { include, maxWorkers: 1, pool: 'threads' } }));
