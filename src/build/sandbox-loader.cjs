'use strict';
/**
 * `loopsctl/sandbox` as the package ships it (dist/sandbox/index.cjs): runs the emulator's bundle
 * beside it, sandbox.cjs, as require() would, but with V8's code cache, so that an app's test
 * process does not compile again the functions a sandbox's start and its requests run (a quarter
 * of its start). The cache is the build's, beside the bundle, on the Node that recorded it without
 * flags; else one that an earlier process wrote into the user's cache directory, keyed by the
 * bundle, the Node version and the flags; else none, and this process writes one as it exits.
 * Failing to read or write a cache only means compiling as usual. src/build/build.mjs copies this
 * file and records the shipped cache (recordSandboxCodeCache in src/build/code-cache.mjs).
 */
const fs = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const bundle = join(__dirname, 'sandbox.cjs');
const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`.trim();
// Node's own loader (this module's class is its Module) runs the bundle with the cache. Another
// (Jest's, which gives each test file's modules a realm of their own, where the bundle must run
// for its fetch interceptor to reach the tests' fetch) requires it as usual: by a name Node's scan
// of an imported module's exports does not follow (`require('./sandbox.cjs')` would have it parse
// the whole bundle at each ES module's import).
if (typeof module.constructor.wrap === 'function') runWithCodeCache();
else module.exports = require(bundle);

function runWithCodeCache() {
  const source = fs.readFileSync(bundle, 'utf8');
  // The name record-sandbox-cache.cjs writes the shipped cache under: change both together.
  const shippedCache = `${bundle}.${process.version}-${process.arch}.cache`;
  let cacheFile = flags === '' ? shippedCache : undefined;
  let cachedData = cacheFile === undefined ? undefined : readOrNothing(cacheFile);
  if (cachedData === undefined) {
    cacheFile = userCacheFile();
    cachedData = cacheFile === undefined ? undefined : readOrNothing(cacheFile);
  }
  const script = new Script(module.constructor.wrap(source), { filename: bundle, cachedData });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  if (!accepted && cacheFile !== undefined) process.once('exit', () => writeWhole(cacheFile, script.createCachedData()));
  // For the benchmark and the package's checks: whether the cache served.
  if (process.env.LOOPSCTL_REPORT_CODE_CACHE === '1') {
    const report = accepted ? `used ${cacheFile}` : `not used (${cachedData === undefined ? 'none yet' : `${cacheFile} rejected`})`;
    process.once('exit', () => process.stderr.write(`sandbox code cache: ${report}\n`));
  }
  script.runInThisContext().call(module.exports, module.exports, require, module, bundle, __dirname);
}

function readOrNothing(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * $XDG_CACHE_HOME/loopsctl (else the platform's cache directory), named for the bundle's size and
 * time and a hash of the Node version, architecture and flags, which V8 checks too.
 */
function userCacheFile() {
  try {
    const { homedir } = require('node:os');
    const { env, platform } = process;
    const base =
      env.XDG_CACHE_HOME ||
      (platform === 'win32' ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local') : join(homedir(), platform === 'darwin' ? 'Library/Caches' : '.cache'));
    const { size, mtimeMs } = fs.statSync(bundle);
    let hash = 0x811c9dc5;
    for (const char of `${process.version} ${process.arch} ${flags}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
    return join(base, 'loopsctl', `sandbox@${size.toString(36)}-${Math.round(mtimeMs).toString(36)}-${hash.toString(36)}.cache`);
  } catch {
    return undefined;
  }
}

/**
 * Written under a temporary name, then renamed over the file: whole or not at all; the caches of the
 * bundle's other builds are dropped. The directories one at a time: mkdirSync's recursive mode never
 * returns for some unwritable places (under /proc).
 */
function writeWhole(file, data) {
  const { basename, dirname } = require('node:path');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    for (const dir of [dirname(dirname(file)), dirname(file)]) {
      try {
        fs.mkdirSync(dir, { mode: 0o700 });
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
    }
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
    const build = basename(file).split('-').slice(0, 2).join('-');
    for (const name of fs.readdirSync(dirname(file)))
      if (name.startsWith('sandbox@') && !name.startsWith(build)) fs.rmSync(join(dirname(file), name), { force: true });
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
