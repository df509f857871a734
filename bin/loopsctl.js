#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so), like the bundle: Node starts it sooner than an ES module.
// The same file is the main script of the single executable (npm run release), where the bundles
// and the files they read are the executable's own assets instead of files beside it.
// `--version` is answered here, before the command tree is loaded.
const sea = singleExecutable();
const args = process.argv.slice(2);
if (sea === undefined && olderThanEngines()) runOnSupportedNode(args);
else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const version = `${sea === undefined ? packageVersion() : executableVersion()}\n`;
  if (!writeDirectly(version)) process.stdout.write(version);
} else {
  const files = shippedFiles();
  if (!printedFromBuild(args, files)) runBundles(files);
}

/**
 * Whether this Node is older than loopsctl runs on (Node 20 has no node:sqlite, among others):
 * said here in one line, before the program loads, rather than with a stack trace halfway through.
 */
function olderThanEngines() {
  const oldest = oldestNode();
  const version = process.versions.node.split('.').map(Number);
  const at = version.findIndex((part, index) => part !== oldest[index]);
  return at !== -1 && version[at] < oldest[at];
}

/** The oldest Node loopsctl runs on: package.json's `engines` (a test holds the two together). */
function oldestNode() {
  return [22, 13, 0];
}

/**
 * On a Node too old: a clone runs itself on the Node its `npm install` fetched (the `node`
 * development dependency), as its npm scripts do; anywhere else, one line says what to run (exit
 * 2). The child gets the terminal; an interrupt reaches both (one process group), so this one
 * waits for the child's end; a termination sent to this one alone is passed on.
 */
function runOnSupportedNode(args) {
  const fs = require('node:fs');
  const { join } = require('node:path');
  const root = join(__dirname, '..');
  const cloneNode = join(root, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const oldest = oldestNode().join('.');
  const isOther = readCache(() => fs.realpathSync(cloneNode) !== fs.realpathSync(process.execPath));
  if (isOther) {
    const child = require('node:child_process').spawn(cloneNode, [__filename, ...args], { stdio: 'inherit' });
    process.on('SIGINT', () => {});
    for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
    child.on('error', (error) => {
      process.stderr.write(`loopsctl: could not start ${cloneNode} (${error.message}): run npm install in ${root} again\n`);
      process.exit(2);
    });
    child.on('exit', (code, signal) => {
      if (signal === null) process.exit(code);
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    });
    return;
  }
  const isClone = fs.existsSync(join(root, 'src', 'build', 'prepare.mjs'));
  const remedy = isClone
    ? `run npm install in ${root}, which fetches a Node it runs on into node_modules/node`
    : 'install that Node, or the single executable, which brings its own (see docs/install.md)';
  process.stderr.write(`loopsctl: runs on Node.js ${oldest} or later, and this is Node.js ${process.versions.node} (${process.execPath}): ${remedy}\n`);
  process.exit(2);
}

/**
 * What the program would print as a file the build wrote, printed without loading the program
 * (most of what such a run costs): help (`--help`, `-h`, `help`, or a group named alone: the page
 * in dist/help/, src/build/help-pages.ts) and `completion <shell>` (dist/completion/). Help is laid
 * out for 80 columns: a narrower terminal goes to the program, as does a completion script on a
 * terminal. Off a terminal, only what the program too would write straight to stdout
 * (src/core/standard-stream.ts). Whether it printed; anything else goes to the program.
 */
function printedFromBuild(args, files) {
  if (process.platform === 'win32' || process.env.LOOPSCTL_RECORD_CODE_CACHE !== undefined) return false;
  const completion = completionScript(args);
  const file = completion ?? helpPage(args, files);
  if (file === undefined) return false;
  const room = directBytes(1);
  if (room === 0 && (completion !== undefined || !require('node:tty').isatty(1) || (process.stdout.columns || 80) < 80)) return false;
  const text = readCache(() => files.read(file));
  if (text === undefined) return false;
  if (room > 0) return text.length <= room && writeOut(text);
  // A terminal takes what is written to it at once.
  process.stdout.write(text);
  return true;
}

/** The file of `completion <shell>`'s script, when those are the words. */
function completionScript(args) {
  return args.length === 2 && args[0] === 'completion' && /^[a-z]+$/.test(args[1]) ? `dist/completion/loopsctl.${args[1]}` : undefined;
}

/** The file of the help page the words ask for, if they ask for one. */
function helpPage(args, files) {
  const last = args[args.length - 1];
  const flagged = last === '--help' || last === '-h';
  const asked = !flagged && args[0] === 'help';
  const page = flagged || asked ? pageOfWords(flagged ? args.slice(0, -1) : args.slice(1), files) : pageNamedAlone(args, files);
  return page === undefined ? undefined : `dist/help/${page}.txt`;
}

/** The page the words name, through the index (dist/help/index.json): a command's name or alias at each level. */
function pageOfWords(words, files) {
  const index = readCache(() => JSON.parse(files.read('dist/help/index.json', 'utf8')));
  if (index === undefined) return undefined;
  let at = 0;
  for (const word of words) {
    const next = index[at].words;
    if (!Object.hasOwn(next, word)) return undefined;
    at = next[word];
  }
  return at;
}

/**
 * The page of loopsctl, or of a group, named alone, which prints its help as --help does: the
 * build writes a file for each spelling of such a group (dist/help/contacts.alone, holding its
 * page's number), so that the words of any other run cost one file that is not there.
 */
function pageNamedAlone(args, files) {
  if (args.length === 0) return 0;
  if (!args.every((word) => /^[a-z][a-z0-9-]*$/.test(word))) return undefined;
  const page = readCache(() => files.read(`dist/help/${args.join('+')}.alone`, 'utf8'));
  return page === undefined ? undefined : Number(page);
}

/**
 * How much may be written straight to a descriptor, as src/core/standard-stream.ts decides it:
 * all of it to a file or the null device (told from a terminal by its device number), half of what
 * a new pipe holds to a pipe or a socket (8 KiB to a socket on macOS), nothing to a terminal.
 */
function directBytes(fd) {
  const fs = require('node:fs');
  try {
    const stats = fs.fstatSync(fd);
    if (stats.isFile() || (stats.isCharacterDevice() && stats.rdev === fs.statSync('/dev/null').rdev)) return Number.POSITIVE_INFINITY;
    const pipe = process.platform === 'linux' ? 32 * 1024 : 16 * 1024;
    if (stats.isSocket()) return process.platform === 'darwin' ? 8 * 1024 : pipe;
    return stats.isFIFO() ? pipe : 0;
  } catch {
    return 0;
  }
}

/** Writes the text to stdout without opening Node's stream, when stdout is no terminal; whether it did. */
function writeDirectly(text) {
  return directBytes(1) > 0 && writeOut(Buffer.from(text));
}

/**
 * Writes the bytes to stdout, which directBytes found to be no terminal, without opening Node's
 * stream; whether it did (false when failing before a byte was written). A reader that went away
 * takes nothing from the exit code; a full pipe hands the rest to that stream, which waits for it.
 */
function writeOut(data) {
  const fs = require('node:fs');
  let written = 0;
  try {
    while (written < data.length) written += fs.writeSync(1, data, written);
  } catch (error) {
    if (error.code === 'EPIPE') return true;
    if (error.code === 'EAGAIN') process.stdout.write(data.subarray(written));
    else if (written === 0) return false;
    else throw error;
  }
  return true;
}

/** The version package.json gives, read rather than require()d: the module loader takes twice as long. */
function packageVersion() {
  return JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version;
}

/**
 * node:sea when this runs as the single executable, else undefined (on any Node). Only the
 * executable's main script is named as the executable itself: no other run loads node:sea.
 */
function singleExecutable() {
  if (__filename !== process.execPath) return undefined;
  try {
    const sea = require('node:sea');
    return sea.isSea() ? sea : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files loopsctl ships, by their path in the package (`dist/cli.cjs`, `skills/loopsctl/SKILL.md`):
 * read from beside this script, or from the executable's assets. Bundles reach it as the module
 * `loopsctl:shipped`, for what they read by name (completion scripts, the skill, jq, the keychain).
 */
function shippedFiles() {
  const { join } = require('node:path');
  if (sea === undefined) {
    const root = join(__dirname, '..');
    const fs = require('node:fs');
    // The npm package keeps its large, seldom read files compressed, as name.br (src/build/release.mjs).
    const readingWith = (readFile) => (name, encoding) => {
      try {
        return readFile(join(root, name), encoding);
      } catch (error) {
        if (error.code !== 'ENOENT' || !fs.existsSync(join(root, `${name}.br`))) throw error;
        const data = require('node:zlib').brotliDecompressSync(fs.readFileSync(join(root, `${name}.br`)));
        return encoding === undefined ? data : data.toString(encoding);
      }
    };
    const read = readingWith(fs.readFileSync);
    const readFileBriefly = briefReader();
    return {
      root,
      read,
      readFileBriefly,
      readBriefly: readingWith(readFileBriefly),
      path: (name) => (fs.existsSync(join(root, name)) ? join(root, name) : extracted(name, read, packageVersion())),
      native: (id, require) => require(id),
      stat: (name) => (fs.existsSync(join(root, name)) ? fs.statSync(join(root, name)) : fs.statSync(join(root, `${name}.br`))),
    };
  }
  const root = join(require('node:path').dirname(process.execPath), 'loopsctl');
  const packed = packedFiles();
  const read = (name, encoding) => {
    const data = packed(name);
    return encoding === undefined ? data : data.toString(encoding);
  };
  const path = (name) => extracted(name, read, executableVersion());
  return {
    root,
    read,
    readFileBriefly: briefReader(),
    readBriefly: read,
    path,
    // The executable's bundles have no file to time: its own file stands for them.
    stat: () => require('node:fs').statSync(process.execPath),
    // A native module cannot load from memory: its asset is written to a file first.
    native: (id) => {
      const loaded = { exports: {} };
      process.dlopen(loaded, path(`native/${id.replace('/', '+')}.node`));
      return loaded.exports;
    },
  };
}

/** The version of the single executable, its asset: read in place (getAsset would copy it, and load a TextDecoder). */
function executableVersion() {
  return Buffer.from(sea.getRawAsset('version')).toString();
}

/**
 * The files the single executable carries, by name: its asset `files`, as src/build/release.mjs packs
 * them (packFiles: the length of an index, the index, the files), read where they lie in the
 * executable, never copied. Each is a Buffer over memory that must not be written to.
 */
function packedFiles() {
  let files;
  let index;
  return (name) => {
    if (index === undefined) {
      files = Buffer.from(sea.getRawAsset('files'));
      index = JSON.parse(files.toString('utf8', 4, 4 + files.readUInt32LE(0)));
    }
    if (!Object.hasOwn(index, name)) throw Object.assign(new Error(`ENOENT: no such file in the executable, ${name}`), { code: 'ENOENT' });
    const [offset, length] = index[name];
    return files.subarray(offset, offset + length);
  };
}

/**
 * A reader of a file's bytes into one buffer that each read overwrites, for what is used at once (a
 * bundle's source, its code cache): fresh memory for each would fault in every page of some 2 MB
 * in a `--sandbox` start. Throws as readFileSync does.
 */
function briefReader() {
  const fs = require('node:fs');
  let buffer;
  return (file) => {
    const descriptor = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(descriptor).size;
      if (buffer === undefined || buffer.length < size) buffer = Buffer.allocUnsafeSlow(Math.max(size, 512 * 1024));
      let length = 0;
      for (let read = -1; length < size && read !== 0; length += read) read = fs.readSync(descriptor, buffer, length, size - length, length);
      return buffer.subarray(0, length);
    } finally {
      fs.closeSync(descriptor);
    }
  };
}

/**
 * A file on disk for a shipped file that is not one (an asset of the executable, a compressed
 * file), for what loads only from a path (jq's worker, a native module): written whole into the
 * cache directory, again whenever it differs from what this copy ships; where that cannot be
 * written (a read-only home), into a directory of this run's own, removed at exit.
 */
function extracted(name, read, version) {
  const { join } = require('node:path');
  const file = join(cacheBase(), 'loopsctl', `files-${version}-${sea === undefined ? 'npm' : 'executable'}-${process.arch}`, name);
  const content = read(name);
  const existing = readCache(() => require('node:fs').readFileSync(file));
  if (existing?.equals(content)) return file;
  try {
    return writtenWhole(file, content);
  } catch {
    return writtenWhole(join(runTempDir(), name), content);
  }
}

function writtenWhole(file, content) {
  const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
  const temporary = `${file}.${process.pid}.tmp`;
  mkdirSync(require('node:path').dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(temporary, content);
  renameSync(temporary, file);
  return file;
}

let runTemp;
/** A directory under the system's temp directory for this run alone, removed when it exits. */
function runTempDir() {
  if (runTemp === undefined) {
    const { mkdtempSync, rmSync } = require('node:fs');
    runTemp = mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'loopsctl-files-'));
    process.once('exit', () => rmSync(runTemp, { recursive: true, force: true }));
  }
  return runTemp;
}

/**
 * Runs the program's bundles (dist/cli.cjs, and the others as it require()s them) as require()
 * would, but each with V8's code cache, so that a start compiles nothing again. The build ships a
 * cache beside each bundle, which V8 takes only from the Node that recorded it, without flags;
 * otherwise this run's is written at exit into the user's cache directory, keyed by the bundle,
 * the Node and the flags, for the runs that follow. Failing to read or write it only means compiling.
 */
function runBundles(files) {
  const recording = process.env.LOOPSCTL_RECORD_CODE_CACHE;
  // A recording runs the build's staged copy; the bundles are named as they will be once it is in
  // place (`root`), since V8 keeps a script's name in its cache and a stack trace shows it.
  const runs = recording === undefined ? undefined : JSON.parse(recording);
  const compiled = new Map();
  const compile = (name) => {
    if (!compiled.has(name)) compiled.set(name, compileBundle(name, files, runs?.root));
    return compiled.get(name);
  };
  // The build's recording, by the module it names (src/build/record-code-cache.cjs), which the package does not ship.
  if (runs !== undefined)
    return require(runs.recorder).record(runs, { files, compile, start: (compileUsed) => startProgram(files, compileUsed), cacheFile: shippedCacheFile });
  process.on('exit', () => {
    // A run that met a bundle with no cache it could use is of a kind the caches have not seen
    // (the first of a command group, or the first after an update): the local caches of the
    // bundles it shares with the runs before are written again too, now holding what it compiled
    // as well, or every run like it would compile that again. Other runs write nothing.
    const met = [...compiled.values()].some((bundle) => !bundle.accepted);
    for (const bundle of compiled.values()) {
      const local = bundle.accepted && !(met && bundle.local) ? undefined : localCacheFile(bundle.name, files);
      if (local !== undefined) writeCache(local, bundle.script);
    }
  });
  // For the benchmark, which reports whether the caches served.
  if (process.env.LOOPSCTL_REPORT_CODE_CACHE === '1')
    process.on('exit', () => compiled.forEach((bundle) => process.stderr.write(`code cache: ${bundle.report}\n`)));
  startProgram(files, compile);
}

/**
 * Loads dist/cli.cjs, which starts the program. A bundle's require() of another bundle beside it
 * ("./core.cjs") or of a vendored package ("./vendor/chalk.cjs") loads that one the same way, with
 * its code cache, once: the bundles share their modules.
 */
function startProgram(files, compile) {
  const { dirname, join, posix } = require('node:path');
  // This module's own class, which is Node's Module: requiring node:module would load more of Node.
  const Module = module.constructor;
  const loaded = new Map();
  const shipped = {
    read: files.read,
    path: files.path,
    native: (id) => files.native(id, (native) => module.require(native)),
  };
  const load = (name) => {
    if (loaded.has(name)) return loaded.get(name).exports;
    const filename = join(files.root, name);
    const bundle = new Module(filename, module);
    bundle.filename = filename;
    bundle.paths = Module._nodeModulePaths(dirname(filename));
    loaded.set(name, bundle);
    // Each module a bundle takes from another requires that bundle anew (some fifty in a
    // `--sandbox` start): the bundle an id names is worked out once.
    const bundles = new Map();
    const requireFromBundle = (id) => {
      if (id === 'loopsctl:shipped') return shipped;
      let other = bundles.get(id);
      if (other === undefined) {
        other = /^\.\/(?:vendor\/)?[\w-]+\.cjs$/.test(id) ? posix.join(posix.dirname(name), id) : null;
        bundles.set(id, other);
      }
      return other === null ? bundle.require(id) : load(other);
    };
    compile(name).script.runInThisContext().call(bundle.exports, bundle.exports, requireFromBundle, bundle, filename, dirname(filename));
    bundle.loaded = true;
    return bundle.exports;
  };
  load('dist/cli.cjs');
}

/**
 * The cache the build ships beside a bundle, named for the Node it was recorded with: V8 takes it
 * only from that Node, run without flags.
 */
function shippedCacheFile(name) {
  return `${name}.${process.version}-${process.arch}.cache`;
}

/**
 * A bundle compiled with the best code cache at hand, and what to say of that cache: the shipped
 * one on the Node it was made for, without flags, else the one an earlier run wrote to the user's
 * cache directory. A recording (`recordedAs`: where the bundles will be) compiles afresh: V8 keeps
 * a taken cache's own name for the script over the one given.
 */
function compileBundle(name, files, recordedAs) {
  const { Script } = require('node:vm');
  const { join } = require('node:path');
  const plainNode = process.execArgv.length === 0 && !process.env.NODE_OPTIONS;
  // The source first: its cache is read into the same buffer after.
  const source = module.constructor.wrap(readBundle(name, files));
  const shipped = shippedCacheFile(name);
  let used = plainNode && recordedAs === undefined ? readCache(() => files.readBriefly(shipped)) : undefined;
  let cacheFile = join(files.root, shipped);
  const local = used === undefined && recordedAs === undefined;
  if (local) {
    cacheFile = localCacheFile(name, files);
    used = cacheFile === undefined ? undefined : readCache(() => files.readFileBriefly(cacheFile));
  }
  const filename = join(recordedAs ?? files.root, name);
  const script = new Script(source, { filename, cachedData: used });
  const accepted = used !== undefined && !script.cachedDataRejected;
  const report = accepted ? `used ${cacheFile}` : `not used (${used === undefined ? `none yet for ${filename}` : `${cacheFile} rejected`})`;
  // local: whether the cache is one an earlier run wrote (written again when a run grows it).
  return { name, script, accepted, local, report };
}

/**
 * A bundle's source, read as bytes and then decoded (quicker than reading it as text). A clone
 * never built has none: that is said in one line (exit 2) rather than with Node's stack trace.
 */
function readBundle(name, files) {
  try {
    return files.readBriefly(name).toString();
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    process.stderr.write(`loopsctl: not built yet (no ${require('node:path').join(files.root, name)}): run npm install, which builds it (or npm run build)\n`);
    process.exit(2);
  }
}

function readCache(read) {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Where this bundle's cache for this Node and these flags lives, under cacheBase(): named by the
 * bundle's size and time (V8 checks only the source's length), the Node, architecture and flags.
 */
function localCacheFile(name, files) {
  try {
    const { basename, join } = require('node:path');
    const { size, mtimeMs } = files.stat(name);
    const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
    const key = bundleKey(basename(name, '.cjs'), size, mtimeMs);
    return join(cacheBase(), 'loopsctl', `${key}-${hash(`${process.version} ${process.arch} ${flags}`)}.cache`);
  } catch {
    return undefined;
  }
}

/** $XDG_CACHE_HOME, else the platform's cache directory. */
function cacheBase() {
  const { homedir } = require('node:os');
  const { join } = require('node:path');
  const { env, platform } = process;
  return (
    env.XDG_CACHE_HOME ||
    (platform === 'win32'
      ? env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local')
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : join(homedir(), '.cache'))
  );
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
