/**
 * Bundles the CLI into dist/cli.cjs, with the large dependencies in dist/vendor/ loaded only by
 * the commands that need them. CommonJS, because Node 20 starts a CommonJS program several
 * milliseconds sooner than an ES module one; the source's dynamic imports become code that runs
 * on first use, so a command initializes only what it needs. Type checking is `tsc --noEmit`,
 * run before this by `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const buildDir = fileURLToPath(new URL('.', import.meta.url));

/** Packages bundled on their own, and what each bundle exports. */
const vendored = {
  // Colour, needed only for text on a terminal.
  chalk: { stdin: { contents: "export * from 'chalk';", resolveDir: buildDir } },
  // jq for --jq; it loads jq.wasm from its own directory, where copyJqWasm puts it.
  'jq-web': { stdin: { contents: "module.exports = require('jq-web');", resolveDir: buildDir } },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // ES module sources may read import.meta.url (src/version.ts does); give them this file's URL.
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Less to parse at start-up; names are kept so that --debug stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
};

/** Leaves the vendored packages out of the main bundle: each becomes a require() of its own file. */
const requireVendored = {
  name: 'require-vendored',
  setup(pluginBuild) {
    const names = Object.keys(vendored).map((name) => name.replace(/[^\w]/g, '\\$&'));
    pluginBuild.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: `./vendor/${args.path}.cjs`, external: true }));
  },
};

/**
 * commander loads node:child_process (and with it net, dgram and more) at start-up, only to run
 * executable subcommands, which loopsctl has none of: load it on first use instead.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`commander no longer loads child_process as expected: update ${import.meta.filename}`);
      return { contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), loader: 'js' };
    });
  },
};

await rm(dist, { recursive: true, force: true });
await Promise.all([
  build({ ...common, entryPoints: [fileURLToPath(new URL('../cli.ts', import.meta.url))], outfile: `${dist}cli.cjs`, plugins: [requireVendored, lazyChildProcess] }),
  ...Object.entries(vendored).map(([name, entry]) => build({ ...common, ...entry, outfile: `${dist}vendor/${name}.cjs` })),
]);

await copyJqWasm(`${dist}vendor/jq.wasm`);

/**
 * jq's WebAssembly, without the sections that only a debugger reads (DWARF, two thirds of the
 * file): the module's own sections and its "name" section, for readable stack traces, are kept.
 */
async function copyJqWasm(target) {
  const wasm = await readFile(createRequire(import.meta.url).resolve('jq-web/jq.wasm'));
  const kept = [wasm.subarray(0, 8)];
  for (let offset = 8; offset < wasm.length; ) {
    const [size, content] = unsignedLeb128(wasm, offset + 1);
    const custom = wasm[offset] === 0;
    if (!custom || !sectionName(wasm, content).startsWith('.debug')) kept.push(wasm.subarray(offset, content + size));
    offset = content + size;
  }
  await writeFile(target, Buffer.concat(kept));
}

/** A custom section starts with its name, a length then UTF-8. */
function sectionName(wasm, offset) {
  const [length, start] = unsignedLeb128(wasm, offset);
  return wasm.subarray(start, start + length).toString('utf8');
}

/** The number at offset, and the offset after it. */
function unsignedLeb128(bytes, offset) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return [value, offset];
  }
}

/**
 * Record V8's code cache (bin/loopsctl.js reads it) from one process running the local commands
 * whose start matters most, one after the other: V8 keeps the bytecode of every function they
 * compiled. Help comes last: bytecode that has not run for a while can be dropped by the garbage
 * collector before the cache is written, and help is what most starts need.
 */
const recorded = spawnSync(process.execPath, [fileURLToPath(new URL('../../bin/loopsctl.js', import.meta.url))], {
  env: {
    ...process.env,
    LOOPSCTL_RECORD_CODE_CACHE: JSON.stringify([['completion', 'bash'], ['webhooks', 'sign'], ['transactional', '--help'], ['--help']]),
    // For `webhooks sign` (base64 of "loopsctl-build-secret"); the body is the empty stdin.
    LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtYnVpbGQtc2VjcmV0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (recorded.status !== 0) throw new Error(`recording the code cache failed (exit ${recorded.status})`);
