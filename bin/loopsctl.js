#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so), like the bundle: Node starts it sooner than an ES module.
// `--version` is answered here, before the command tree is loaded.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  runBundles(require('node:path').join(__dirname, '../dist'));
}

/**
 * Runs the program's bundles (dist/cli.cjs, and the others as it require()s them) as require()
 * would, but each with V8's code cache, so that the functions a start needs are not compiled
 * again. The build ships a cache next to each bundle, which V8 takes only from the Node version
 * that recorded it, without flags (NODE_OPTIONS=--max-old-space-size=...). Otherwise a cache of
 * this run is written at exit into the user's cache directory, keyed by the bundle, the Node
 * version and the flags, and used by the runs that follow. Failing to read or write it only means
 * compiling as usual.
 */
function runBundles(dist) {
  const { join } = require('node:path');
  const compiled = new Map();
  const compile = (filename) => {
    if (!compiled.has(filename)) compiled.set(filename, compileBundle(filename));
    return compiled.get(filename);
  };
  const recording = process.env.LOOPSCTL_RECORD_CODE_CACHE;
  if (recording !== undefined) {
    const { readdirSync, writeFileSync } = require('node:fs');
    const caches = new Map();
    let used = new Set();
    const compileUsed = (filename) => {
      used.add(filename);
      return compile(filename);
    };
    // A bundle's cache is taken as soon as a command that ran it has finished: by the end of the
    // recording, the garbage collector would have dropped the bytecode of what only an earlier
    // command ran.
    const take = () => {
      for (const filename of used) caches.set(filename, compiled.get(filename).script.createCachedData());
      used = new Set();
    };
    const writeShipped = () => {
      for (const name of readdirSync(dist)) {
        const filename = join(dist, name);
        // Bundles that no recorded command loaded get a cache of their top level.
        if (name.endsWith('.cjs') && !caches.has(filename)) caches.set(filename, compile(filename).script.createCachedData());
      }
      caches.forEach((data, filename) => writeFileSync(shippedCacheFile(filename), data));
    };
    return record(JSON.parse(recording), () => startProgram(dist, compileUsed), take, writeShipped);
  }
  process.on('exit', () => {
    for (const bundle of compiled.values()) {
      const local = bundle.accepted ? undefined : localCacheFile(bundle.filename);
      if (local !== undefined) writeCache(local, bundle.script);
    }
  });
  // For the benchmark, which reports whether the caches served.
  if (process.env.LOOPSCTL_REPORT_CODE_CACHE === '1') process.on('exit', () => compiled.forEach((bundle) => process.stderr.write(`code cache: ${bundle.report}\n`)));
  startProgram(dist, compile);
}

/**
 * Loads dist/cli.cjs, which starts the program. A bundle's require() of another bundle beside it
 * ("./core.cjs") loads that one the same way, once: the bundles share their modules.
 */
function startProgram(dist, compile) {
  // This module's own class, which is Node's Module: requiring node:module would load more of Node.
  const Module = module.constructor;
  const { join } = require('node:path');
  const loaded = new Map();
  const load = (filename) => {
    if (loaded.has(filename)) return loaded.get(filename).exports;
    const bundle = new Module(filename, module);
    bundle.filename = filename;
    bundle.paths = Module._nodeModulePaths(dist);
    loaded.set(filename, bundle);
    const requireFromBundle = (id) => (/^\.\/[\w-]+\.cjs$/.test(id) ? load(join(dist, id)) : bundle.require(id));
    compile(filename).script.runInThisContext().call(bundle.exports, bundle.exports, requireFromBundle, bundle, filename, dist);
    bundle.loaded = true;
    return bundle.exports;
  };
  load(join(dist, 'cli.cjs'));
}

/**
 * The cache the build ships beside a bundle, named for the Node it was recorded with: V8 takes it
 * only from that Node, run without flags.
 */
function shippedCacheFile(filename) {
  return `${filename}.${process.version}-${process.arch}.cache`;
}

/**
 * A bundle compiled with the best code cache at hand, and what to say of that cache: the shipped
 * one on the Node it was made for, without flags (no file of that name on any other), else the
 * one an earlier run wrote to the user's cache directory.
 */
function compileBundle(filename) {
  const { Script } = require('node:vm');
  const plainNode = process.execArgv.length === 0 && !process.env.NODE_OPTIONS;
  let cacheFile = plainNode ? shippedCacheFile(filename) : undefined;
  let used = cacheFile === undefined ? undefined : readCache(cacheFile);
  if (used === undefined) {
    cacheFile = localCacheFile(filename);
    used = cacheFile === undefined ? undefined : readCache(cacheFile);
  }
  const script = new Script(module.constructor.wrap(readBundle(filename)), { filename, cachedData: used });
  const accepted = used !== undefined && !script.cachedDataRejected;
  const report = accepted ? `used ${cacheFile}` : `not used (${used === undefined ? `none yet for ${filename}` : `${cacheFile} rejected`})`;
  return { filename, script, accepted, report };
}

/**
 * A bundle's source. A clone that was never built has none: that is said in one line (exit 2, as
 * for any input loopsctl cannot use) rather than with Node's stack trace.
 */
function readBundle(filename) {
  try {
    return require('node:fs').readFileSync(filename, 'utf8');
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    process.stderr.write(`loopsctl: not built yet (no ${filename}): run npm run build\n`);
    process.exit(2);
  }
}

/**
 * For the build: runs the program once for each list of arguments, one after the other in this
 * process, calling `finished` after each, then writes the caches, which so hold what each of
 * those commands compiled. Fails (exit 1) unless every command ran and succeeded.
 */
function record(commands, start, finished, write) {
  let current;
  const startNext = () => {
    const args = commands.shift();
    current = args.join(' ');
    process.argv.splice(2, Infinity, ...args);
    start();
  };
  // Emitted whenever the event loop runs empty: the command before has finished. The next one
  // starts from the loop, not from here: a command that needs nothing of the loop (its output
  // written synchronously to a file or a pipe) would leave it empty, and the process would end
  // without emitting this again.
  process.on('beforeExit', () => {
    finished();
    if (process.exitCode) return;
    if (commands.length > 0) setImmediate(startNext);
  });
  process.on('exit', (code) => {
    if (code !== 0 || commands.length > 0) {
      process.stderr.write(`recording the code cache stopped after \`loopsctl ${current}\` (exit ${code})\n`);
      process.exitCode = code || 1;
      return;
    }
    write();
  });
  startNext();
}

function readCache(file) {
  try {
    return require('node:fs').readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Where this bundle's cache for this Node and these flags lives: $XDG_CACHE_HOME/loopsctl, else
 * the platform's cache directory. The name holds the bundle's size and time (V8 itself checks
 * only the source's length), then the Node version, architecture and command-line flags.
 */
function localCacheFile(filename) {
  try {
    const { homedir } = require('node:os');
    const { join } = require('node:path');
    const { env, platform } = process;
    const base =
      env.XDG_CACHE_HOME ||
      (platform === 'win32' ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local') : platform === 'darwin' ? join(homedir(), 'Library', 'Caches') : join(homedir(), '.cache'));
    const { size, mtimeMs } = require('node:fs').statSync(filename);
    const flags = `${process.execArgv.join(' ')} ${env.NODE_OPTIONS ?? ''}`;
    const key = bundleKey(require('node:path').basename(filename, '.cjs'), size, mtimeMs);
    return join(base, 'loopsctl', `${key}-${hash(`${process.version} ${process.arch} ${flags}`)}.cache`);
  } catch {
    return undefined;
  }
}

/** The bundle's name, then its size and time. */
function bundleKey(name, size, mtimeMs) {
  return `${name}@${size.toString(36)}-${Math.round(mtimeMs).toString(36)}`;
}

/** A short, stable name for a string (FNV-1a); not for security, only to tell settings apart. */
function hash(text) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) value = Math.imul(value ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return value.toString(36);
}

/** Writes the cache whole or not at all (a temporary file renamed over it), and drops those of the bundle's other builds. */
function writeCache(file, script) {
  const { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } = require('node:fs');
  const { basename, dirname, join } = require('node:path');
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const dir = dirname(file);
    // Not mkdirSync's recursive mode, which never returns for some unwritable places (under /proc).
    for (const path of [dirname(dir), dir]) {
      try {
        mkdirSync(path);
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
    }
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, file);
    const [bundle, build] = basename(file).split('@');
    const thisBuild = `${bundle}@${build.split('-').slice(0, 2).join('-')}-`;
    for (const name of readdirSync(dir)) {
      if (name.startsWith(`${bundle}@`) && !name.startsWith(thisBuild)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // An unwritable cache directory: the next run compiles as this one did.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}
