/**
 * Runs the benchmark: bundles bench.ts (TypeScript, Node built-ins only) into a temporary file and
 * executes it with the repository root and any further arguments (the parts to run). Expects a
 * fresh build (npm run bench builds first).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');
const dir = await mkdtemp(join(tmpdir(), 'loopsctl-bench-'));
try {
  const outfile = join(dir, 'bench.mjs');
  await build({
    entryPoints: [join(root, 'test/bench/bench.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // The emulator's modules (the journeys part runs them in this process) reach CommonJS packages that require Node's built-ins.
    banner: { js: "import { createRequire as createBenchRequire } from 'node:module'; const require = createBenchRequire(import.meta.url);" },
  });
  process.argv.splice(2, 0, root);
  await import(pathToFileURL(outfile).href);
} finally {
  await rm(dir, { recursive: true, force: true });
}
