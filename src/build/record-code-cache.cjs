'use strict';
/**
 * The build's recording of the code cache it ships beside each bundle, run inside bin/loopsctl.js
 * (src/build/code-cache.mjs names this file to it in LOOPSCTL_RECORD_CODE_CACHE): one process runs
 * the program once for each list of arguments, one after the other (`starts`: the local commands
 * whose start matters most; `requests`: commands that call the API, for the bundles only they
 * load), then writes the caches, which so hold what each of those commands compiled. Fails (exit 1)
 * unless every command ran and succeeded. Only the build runs it: the package ships without it.
 *
 * `compile` compiles a bundle once (bin/loopsctl.js, compileBundle) and `start` starts the program
 * with a compile of its choosing; `cacheFile` names a bundle's shipped cache.
 */
const { readdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

exports.record = function record({ starts, requests = [] }, { files, compile, start, cacheFile }) {
  const caches = new Map();
  let used = new Set();
  const compileUsed = (name) => {
    used.add(name);
    return compile(name);
  };
  // A bundle's cache is taken as soon as a command that ran it has finished: by the end of the
  // recording, the garbage collector would have dropped the bytecode of what only an earlier
  // command ran. The commands that follow the starts fill only the bundles no start ran.
  const ranByStarts = new Set();
  const take = (isStart) => {
    for (const name of used) {
      if (isStart) ranByStarts.add(name);
      if (isStart || !ranByStarts.has(name)) caches.set(name, compile(name).script.createCachedData());
    }
    used = new Set();
  };
  const writeShipped = () => {
    for (const dir of ['dist', 'dist/vendor']) {
      for (const file of readdirSync(join(files.root, dir))) {
        const name = `${dir}/${file}`;
        // Bundles that no recorded command loaded get a cache of their top level.
        if (file.endsWith('.cjs') && !caches.has(name)) caches.set(name, compile(name).script.createCachedData());
      }
    }
    caches.forEach((data, name) => writeFileSync(join(files.root, cacheFile(name)), data));
  };
  const commands = [...starts.map((args) => ({ args, isStart: true })), ...requests.map((args) => ({ args, isStart: false }))];
  let current;
  const startNext = () => {
    current = commands.shift();
    process.argv.splice(2, Infinity, ...current.args);
    start(compileUsed);
  };
  // Emitted whenever the event loop runs empty: the command before has finished. The next one
  // starts from the loop, not from here: a command that needs nothing of the loop (its output
  // written synchronously to a file or a pipe) would leave it empty, and the process would end
  // without emitting this again.
  process.on('beforeExit', () => {
    take(current.isStart);
    if (process.exitCode) return;
    if (commands.length > 0) setImmediate(startNext);
  });
  process.on('exit', (code) => {
    if (code !== 0 || commands.length > 0) {
      process.stderr.write(`recording the code cache stopped after \`loopsctl ${current.args.join(' ')}\` (exit ${code})\n`);
      process.exitCode = code || 1;
      return;
    }
    writeShipped();
  });
  startNext();
};
