/**
 * `prepare`, which npm runs after `npm install` in a clone: the build. npm also runs it when
 * `npx loopsctl` in a clone with no node_modules yet links the clone into npx's own cache; there
 * the build's tools are missing, and a failure would leave that cache entry broken for every later
 * npx. So without them it builds nothing and succeeds, and bin/loopsctl.js says in one line to
 * run npm install. The published package has no scripts (src/build/release.mjs).
 */
import { createRequire } from 'node:module';

try {
  createRequire(import.meta.url).resolve('esbuild');
} catch {
  process.exit(0);
}
await import('./build.mjs');
