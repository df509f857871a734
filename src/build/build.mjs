/**
 * Bundles the CLI into dist/cli.cjs, with the large dependencies in dist/vendor/ loaded only by
 * the commands that need them. CommonJS, because Node 20 starts a CommonJS program several
 * milliseconds sooner than an ES module one; the source's dynamic imports become code that runs
 * on first use, so a command initializes only what it needs. Type checking is `tsc --noEmit`,
 * run before this by `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { partOf, staticClosure } from './bundle-parts.mjs';
import { finishBundles, refuseDynamicImport } from './bundle-text.mjs';
import { recordCodeCaches } from './code-cache.mjs';
import { stageBeside } from './staged-dir.mjs';
import { requireVendoredFrom, VENDORED_LATER, vendored } from './vendored.mjs';
import { buildWebhooksApi } from './webhooks-api.mjs';

const buildDir = fileURLToPath(new URL('.', import.meta.url));
/**
 * The build is made whole in a directory of its own beside dist/ (with bin/ and package.json, as
 * bin/loopsctl.js finds its files, to record the code cache), and renamed into place at the end:
 * a run of the CLI in another shell meanwhile (`npm test` builds first) reads the old build whole,
 * never a half-written one (src/build/staged-dir.mjs). A build that fails leaves dist/ as it was.
 */
const stage = stageBeside(fileURLToPath(new URL('../../dist', import.meta.url)));
process.on('exit', () => stage.remove());
const { staged } = stage;
const dist = join(stage.dir, '/');
mkdirSync(join(staged, 'bin'));
for (const file of ['bin/loopsctl.js', 'bin/package.json', 'package.json'])
  copyFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), join(staged, file));

/**
 * The files the bundles read by name (completion scripts, the skill, jq for its worker, the
 * keychain's native module, never bundled) come from the module `loopsctl:shipped`, which
 * bin/loopsctl.js gives them: files of the package, or the single executable's own assets.
 */
const SHIPPED = 'loopsctl:shipped';

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // See src/base/version.ts.
  define: { LOOPSCTL_VERSION: JSON.stringify(JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version) },
  // Less to parse at start-up; names are kept so that --debug stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // pg's optional native binding (and its Cloudflare socket), which the delivery store never uses.
  external: [SHIPPED, 'pg-native', 'cloudflare:sockets'],
};

const requireVendored = requireVendoredFrom('./vendor');

/** Replaces a source module, found by its path under src/, with the code given. */
function replaced(name, pathPattern, contents) {
  return { name, setup: (pluginBuild) => pluginBuild.onLoad({ filter: pathPattern }, () => ({ contents, loader: 'js' })) };
}

/** The workers that run jq load jq-web from the bundle's own copy, with jq.wasm beside it. */
const jqWorkerPath = replaced(
  'jq-worker-path',
  /[\\/]src[\\/]render[\\/]jq-web-loader\.cjs$/,
  `const { path } = require('${SHIPPED}');\nmodule.exports = { wasmPath: path('dist/vendor/jq.wasm'), path: path('dist/vendor/jq-web.cjs') };\n`,
);

/** The keychain's native module, an optional dependency: from node_modules, or the executable's asset. */
const keyringModule = replaced(
  'keyring-module',
  /[\\/]src[\\/]config[\\/]keyring-loader\.cjs$/,
  `module.exports = { loadKeyring: () => require('${SHIPPED}').native('@napi-rs/keyring') };\n`,
);

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

/**
 * The program is built as several bundles, so that a start reads and compiles only what its
 * command runs: `--help` of any command needs only the command declarations, and `webhooks sign`
 * none of the API client. Each source module belongs to one bundle (see partOf), so a module, its
 * state and its classes exist once however many bundles use it. A bundle's modules start on first
 * use; a module in another bundle is reached through that bundle's `modules` table, by its path.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = 'src/cli.ts';

/**
 * What a module of the source makes from the declarations (`specs`), in a Node of its own: `imports`
 * and the registry bundled as the program's bundles are, then `value` (an expression of `specs`)
 * written out as JSON and read back here. `what` names it when that run fails.
 */
async function fromDeclarations(imports, value, what) {
  const { outputFiles } = await build({
    ...common,
    stdin: {
      contents: `${imports}\nimport { specs } from './src/areas/registry.ts';\nprocess.stdout.write(JSON.stringify(${value}));`,
      resolveDir: root,
      loader: 'ts',
    },
    write: false,
    plugins: [requireVendored, shippedSkill, keyringModule],
  });
  const made = spawnSync(process.execPath, ['-'], {
    input: outputFiles[0].text,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (made.status !== 0) throw new Error(`making ${what} failed (exit ${made.status})`);
  return JSON.parse(made.stdout);
}

/**
 * The completion script of each shell, made once here by src/areas/completion/made.ts from the
 * declarations, which is all they depend on, into dist/completion/: in the bundle, that module
 * becomes one that reads them, so `loopsctl completion bash` only prints a file.
 */
async function makeCompletionScripts() {
  const shells = ['bash', 'zsh', 'fish', 'powershell'];
  const scripts = await fromDeclarations(
    "import { madeCompletionScript } from './src/areas/completion/made.ts';",
    `${JSON.stringify(shells)}.map((shell) => madeCompletionScript(shell, specs))`,
    'the completion scripts',
  );
  await mkdir(`${dist}completion`, { recursive: true });
  await Promise.all(shells.map((shell, index) => writeFile(`${dist}completion/loopsctl.${shell}`, scripts[index])));
  const reader = `export async function completionScriptOf(shell) {\n  return require('${SHIPPED}').read(\`dist/completion/loopsctl.\${shell}\`, 'utf8');\n}\n`;
  return {
    name: 'made-completion-scripts',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]src[\\/]areas[\\/]completion[\\/]made\.ts$/ }, () => ({ contents: reader, loader: 'js' }));
    },
  };
}

/**
 * The help of every command, as bin/loopsctl.js prints it without loading the program (see
 * src/build/help-pages.ts): dist/help/index.json, which words reach which page, a page a file,
 * dist/help/<n>.txt, so that a run reads only its own, and the groups that print their help when
 * named alone, a file a spelling (dist/help/contacts.alone).
 */
async function writeHelpPages() {
  const { nodes, pages, alone } = await fromDeclarations("import { helpPages } from './src/build/help-pages.ts';", 'helpPages(specs)', 'the help pages');
  await mkdir(`${dist}help`, { recursive: true });
  await Promise.all([
    // Only what bin/loopsctl.js reads of each node: whether a group named alone prints its help is in the .alone files.
    writeFile(`${dist}help/index.json`, JSON.stringify(nodes.map(({ words }) => ({ words })))),
    ...pages.map((page, index) => writeFile(`${dist}help/${index}.txt`, page)),
    ...Object.entries(alone).map(([words, index]) => writeFile(`${dist}help/${words}.alone`, String(index))),
  ]);
}

/**
 * The shipped SKILL.md is found from the module's own place in the source tree (src/areas/skill/);
 * in the bundle, it is the package's skills/loopsctl/SKILL.md.
 */
const shippedSkill = replaced(
  'shipped-skill',
  /[\\/]src[\\/]areas[\\/]skill[\\/]file\.ts$/,
  `export function skillFile() {\n  return require('${SHIPPED}').path('skills/loopsctl/SKILL.md');\n}\n`,
);

/** Every module the CLI can load, with the modules each imports and whether it waits to. */
async function moduleGraph() {
  const { metafile } = await build({
    ...common,
    entryPoints: [entry],
    absWorkingDir: root,
    write: false,
    metafile: true,
    outdir: dist,
    plugins: [requireVendored, madeCompletionScripts, shippedSkill, jqWorkerPath, keyringModule],
  });
  // A vendored package's stand-in for a dynamic import is in the bundle of the module that imports it.
  const bundled = (path) => !path.startsWith(`${VENDORED_LATER}:`);
  return new Map(
    Object.entries(metafile.inputs)
      .filter(([path]) => bundled(path))
      .map(([path, input]) => [path, input.imports.filter((imported) => !imported.external && bundled(imported.path))]),
  );
}

/**
 * Resolves an import of a module in another bundle to that bundle's `modules` table; the bundle
 * itself is a require() of its file beside this one.
 */
function linkBundles(part, name) {
  return {
    name: 'link-bundles',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (['other-bundle', VENDORED_LATER].includes(args.namespace) || args.pluginData === 'linking' || args.kind === 'entry-point') return undefined;
        const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'linking' });
        if (resolved.errors.length > 0 || resolved.external || resolved.namespace === VENDORED_LATER) return resolved;
        const path = relative(root, resolved.path);
        const owner = part(path);
        // Named so that no extension (.mjs) makes esbuild take the stand-in for an ES module.
        return owner === name ? resolved : { path: `${path} in ${owner}.cjs`, namespace: 'other-bundle', pluginData: { owner, path } };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'other-bundle' }, ({ pluginData: { owner, path } }) => ({
        contents: `module.exports = require(${JSON.stringify(`./${owner}.cjs`)}).modules[${JSON.stringify(path)}]();`,
        loader: 'js',
      }));
      pluginBuild.onResolve({ filter: /^\.\/[\w-]+\.cjs$/, namespace: 'other-bundle' }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * A bundle's entry: its `modules` table of the modules other bundles import (each started on
 * first use), and for cli.cjs the program itself.
 */
function bundleEntry(name, graph, part) {
  const shared = new Set();
  for (const [path, imports] of graph) {
    for (const imported of imports) if (part(imported.path) === name && part(path) !== name) shared.add(imported.path);
  }
  const table = [...shared].sort().map((path) => `  ${JSON.stringify(path)}: () => require(${JSON.stringify(`./${path}`)}),`);
  const program = name === 'cli' ? `require('./${entry}');\n` : '';
  return { contents: `exports.modules = {\n${table.join('\n')}\n};\n${program}`, resolveDir: root, sourcefile: `${name}-bundle.js`, loader: 'js' };
}

const madeCompletionScripts = await makeCompletionScripts();
const graph = await moduleGraph();
/**
 * Modules in cli.cjs that no start needs: reading a command's input (a file, stdin), which most
 * commands that take content use (in core.cjs, it would be all that `webhooks sign` reads that
 * bundle for), node:sqlite's loading, the monotonic clock and a URL's credentials hidden, which
 * the `deliveries` commands use (in client.cjs, they would be all that those local commands read
 * that bundle and zod for), and the top-level commands' declarations, which runs naming no group load.
 */
const withTheProgram = [
  'src/core/input.ts',
  'src/base/sqlite.ts',
  'src/base/monotonic.ts',
  'src/base/redact-url.ts',
  ...staticClosure(graph, 'src/areas/top-level.ts'),
];
const part = partOf(new Set([...staticClosure(graph, entry), ...withTheProgram, ...declaredWithTheProgram(graph)]), graph);

/**
 * A group's declarations (src/areas/<area>/index.ts, which src/areas/directory.ts loads only when a
 * run names the group) go in its area's bundle, which its commands' runs read anyway; what they
 * import from elsewhere (declaration helpers, another area's option parsers) stays in cli.cjs,
 * so that a run naming a group reads no other area's bundle.
 */
function declaredWithTheProgram(graph) {
  const areaOf = (path) => /^src\/(?:areas|platform)\/([\w-]+)\//.exec(path)?.[1];
  const declarations = [...graph.keys()].filter((path) => /^src\/areas\/[\w-]+\/index\.ts$/.test(path));
  return declarations.flatMap((declared) => [...staticClosure(graph, declared)].filter((path) => areaOf(path) !== areaOf(declared)));
}
const bundles = [...new Set([...graph.keys()].map(part))];
const [built] = await Promise.all([
  Promise.all(
    bundles.map((name) =>
      build({
        ...common,
        stdin: bundleEntry(name, graph, part),
        absWorkingDir: root,
        outfile: `${dist}${name}.cjs`,
        metafile: true,
        // A map beside each bundle for --debug's stack traces (src/core/stack.ts), which reads it only
        // then: no comment in the bundle points to it, so nothing else loads it. The sources' paths
        // suffice; their text is not shipped.
        sourcemap: 'external',
        sourcesContent: false,
        plugins: [linkBundles(part, name), requireVendored, lazyChildProcess, madeCompletionScripts, shippedSkill, jqWorkerPath, keyringModule],
      }),
    ),
  ),
  ...Object.entries(vendored).map(([name, { stdin, source, plugins }]) =>
    build({ ...common, ...(source === undefined ? { stdin } : { entryPoints: [source], absWorkingDir: root }), plugins, outfile: `${dist}vendor/${name}.cjs` }),
  ),
]);

refuseModulesTwice(built.map(({ metafile }, index) => [bundles[index], Object.keys(metafile.inputs)]));
await finishBundles(bundles.map((name) => `${dist}${name}.cjs`));

/**
 * A module in two bundles would exist twice, with two of each of its classes and its state (a
 * vendored package's stand-in only requires its file, which Node loads once).
 */
function refuseModulesTwice(inputsByBundle) {
  const owner = new Map();
  const ownModule = (path) => !path.startsWith('other-bundle:') && !path.startsWith(`${VENDORED_LATER}:`) && !path.endsWith('-bundle.js');
  for (const [bundle, inputs] of inputsByBundle) {
    for (const input of inputs.filter(ownModule)) {
      if (owner.has(input)) throw new Error(`${input} is in both ${owner.get(input)}.cjs and ${bundle}.cjs`);
      owner.set(input, bundle);
    }
  }
}
await copyJqWasm(`${dist}vendor/jq.wasm`);
await writeHelpPages();
await buildSandboxApi();
await buildWebhooksApi(root, dist, common, requireVendoredFrom('../vendor', ['pg', 'zod']));

/**
 * `loopsctl/sandbox` (package.json's exports), the emulator for an app's tests: one CommonJS
 * bundle of src/emulator/public.ts with all it uses but what it shares with the CLI's bundles, which
 * never load it: dist/vendor/yaml.cjs (read for a YAML fixture file alone), the icons' glyphs and
 * zod (dist/vendor/icon-glyphs.cjs, zod.cjs); an ES module that re-exports it, and their types, declared from that file alone (it declares them
 * whole, see its header).
 */
async function buildSandboxApi() {
  const source = 'src/emulator/public.ts';
  // In a folder of its own, never run through bin/loopsctl.js: index.cjs runs the bundle with a code cache of its own.
  const out = `${dist}sandbox/`;
  await build({
    ...common,
    entryPoints: [source],
    absWorkingDir: root,
    outfile: `${out}sandbox.cjs`,
    plugins: [requireVendoredFrom('../vendor', ['yaml', 'icon-glyphs', 'zod'])],
  });
  refuseDynamicImport(`${out}sandbox.cjs`, await readFile(`${out}sandbox.cjs`, 'utf8'));
  await writeFile(`${out}index.cjs`, await readFile(`${buildDir}sandbox-loader.cjs`));
  // An import of CommonJS has Node scan the module for its exports: the ES entry imports the small index.cjs, so the bundle is never scanned.
  await writeFile(`${out}index.mjs`, "import sandbox from './index.cjs';\n\nexport const { interceptLoops, startSandbox } = sandbox;\n");
  const ts = createRequire(import.meta.url)('typescript');
  const declared = ts.transpileDeclaration(await readFile(`${root}${source}`, 'utf8'), {
    fileName: source,
    compilerOptions: { isolatedDeclarations: true, declaration: true },
    reportDiagnostics: true,
  });
  if (declared.diagnostics.length > 0)
    throw new Error(`${source} cannot be declared on its own: ${ts.flattenDiagnosticMessageText(declared.diagnostics[0].messageText, '\n')}`);
  if (/^import /m.test(declared.outputText)) throw new Error(`${source} must declare its public types itself: its declarations import another module`);
  await Promise.all(['d.cts', 'd.mts'].map((extension) => writeFile(`${out}index.${extension}`, declared.outputText)));
}

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
 * whose start matters most (src/build/code-cache-runs.mjs), in src/build/code-cache.mjs.
 */
recordCodeCaches(stage);
stage.replace();
