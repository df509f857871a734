/**
 * `prepare`, which npm runs after `npm install` in a clone: the build. npm also runs it when
 * `npx loopsctl` in a clone with no node_modules yet links the clone into npx's own cache; there
 * the build's tools are missing, and a failure would leave that cache entry broken for every later
 * npx. So without them it builds nothing and succeeds, and bin/loopsctl.js says in one line to
 * run npm install. The published package has no scripts (src/build/release.mjs).
 *
 * npm runs it with node_modules/.bin first on PATH, so on the Node that `npm install` fetched from
 * the npm registry (the `node` development dependency), whatever Node npm itself runs on. A Node
 * too old here means that fetch did not happen (`--ignore-scripts`, `--omit=dev`): said in one line
 * before the build starts, not as a stack trace minutes into it (a missing tool is checked first:
 * npx's link of a clone never built must still succeed).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

try {
  createRequire(import.meta.url).resolve('esbuild');
} catch {
  process.exit(0);
}

const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines.node;
const oldest = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines).slice(1).map(Number);
const version = process.versions.node.split('.').map(Number);
const differs = version.findIndex((part, index) => part !== oldest[index]);
if (differs !== -1 && version[differs] < oldest[differs]) {
  process.stderr.write(
    `loopsctl's build runs on Node.js ${oldest.join('.')} or later, and this is Node.js ${process.versions.node}: run npm install (without --ignore-scripts or --omit=dev), which fetches one into node_modules/node\n`,
  );
  process.exit(1);
}

await import('./build.mjs');
