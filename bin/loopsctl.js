#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so), like the bundle: Node starts it sooner than an ES module.
// `--version` is answered here, before the command tree is loaded.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  runBundle(require('node:path').join(__dirname, '../dist/cli.cjs'));
}

/**
 * Runs the bundle as require() would, but with V8's code cache written next to it by the build:
 * the functions every start-up needs are then not compiled again. A cache from another Node version
 * is rejected by V8, and the bundle is simply compiled as usual.
 */
function runBundle(filename) {
  const { readFileSync, writeFileSync } = require('node:fs');
  const Module = require('node:module');
  const { dirname } = require('node:path');
  const { Script } = require('node:vm');
  const cacheFile = `${filename}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache (a build without it): compile from source.
  }
  const script = new Script(Module.wrap(readFileSync(filename, 'utf8')), { filename, cachedData });
  // The build runs `loopsctl --help` with this set, to record what start-up compiles.
  if (process.env.LOOPSCTL_WRITE_CODE_CACHE === '1') process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  const bundle = new Module(filename, module);
  bundle.filename = filename;
  bundle.paths = Module._nodeModulePaths(dirname(filename));
  script.runInThisContext().call(bundle.exports, bundle.exports, (id) => bundle.require(id), bundle, filename, dirname(filename));
}
