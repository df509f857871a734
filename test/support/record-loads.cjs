// Preloaded with --require, or run as the program (node record-loads.cjs <args>, which runs
// bin/loopsctl.js in its process, with no Node flags to keep it from the shipped code cache):
// records which files under dist/ the process reads as code (the bundle, which bin/loopsctl.js
// reads itself, and anything it require()s), and writes them, relative to the repository and one
// a line, to LOADS_FILE as it exits.
const fs = require('node:fs');
const Module = require('node:module');
const { join, relative, resolve } = require('node:path');

const root = resolve(__dirname, '../..');
const dist = join(root, 'dist');
const loaded = new Set();
/** Native modules are recorded by package, wherever node_modules puts them. */
const NATIVE = ['@napi-rs/keyring'];
const record = (file) => {
  const path = resolve(String(file));
  if (path.startsWith(`${dist}/`) && /\.c?js$/.test(path)) loaded.add(relative(root, path));
  const native = NATIVE.find((name) => path.includes(`/node_modules/${name}/`));
  if (native !== undefined) loaded.add(`node_modules/${native}`);
};

// bin/loopsctl.js opens the bundles and reads them into a buffer of its own; other files it reads whole.
for (const name of ['readFileSync', 'openSync']) {
  const original = fs[name];
  fs[name] = function (file, ...rest) {
    if (typeof file === 'string') record(file);
    return original.call(this, file, ...rest);
  };
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (!request.startsWith('node:')) record(Module._resolveFilename(request, parent, isMain));
  return load.call(this, request, parent, isMain);
};

process.on('exit', () => {
  fs.writeFileSync(process.env.LOADS_FILE, [...loaded].sort().join('\n'));
  // Node's own modules, by their internal names (http, _http_server, crypto), when BUILTINS_FILE asks.
  const builtins = process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length));
  if (process.env.BUILTINS_FILE) fs.writeFileSync(process.env.BUILTINS_FILE, builtins.join('\n'));
});

if (require.main === module) require('../../bin/loopsctl.js');
