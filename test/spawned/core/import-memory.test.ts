/**
 * Imports keep memory flat: of the records already read, only what a resume needs (the journal's
 * few bytes a record, a digest of each email) stays. 100,000 rows, run and resumed, in a Node whose
 * heap is capped far below what 200 bytes a row would take. Nothing here is timed.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { expect, it, onTestFinished } from 'vitest';
import { tempDir } from '../../support/temp.js';

const ROWS = 100_000;
const HEAP_MIB = 16;

it(`imports and resumes ${ROWS} rows within a heap of ${HEAP_MIB} MiB`, async () => {
  const dir = tempDir();
  // The journal of 100,000 records takes megabytes: it goes when the test ends.
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const driver = join(dir, 'driver.mjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, 'import-memory-driver.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: driver,
    logLevel: 'warning',
    define: { LOOPSCTL_VERSION: '"test"' },
  });
  const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MIB}`, '--max-semi-space-size=1', '--expose-gc', driver, dir, String(ROWS)], {
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const { first, resumed } = JSON.parse(result.stdout) as Record<'first' | 'resumed', { created: number; skipped: number; heapUsed: number }>;
  expect(first).toMatchObject({ created: ROWS, skipped: 0 });
  expect(resumed).toMatchObject({ created: 0, skipped: ROWS });
  expect(Math.max(first.heapUsed, resumed.heapUsed)).toBeLessThan(12 * 1024 * 1024);
});
