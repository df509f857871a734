/**
 * `npm run release`: writes release/ with what a release publishes, the same steps that
 * .github/workflows/release.yml takes on each platform:
 *   loopsctl-<version>.tgz                 the npm package (no build scripts, no development files)
 *   loopsctl-<version>-<os>-<arch>[.exe]   a single executable (Node's SEA) for this machine
 *   SHA256SUMS                             every file's SHA-256, as `sha256sum -c` reads it
 * `--sums` only writes SHA256SUMS for the files already in release/ (the workflow gathers the
 * executables of every platform there first); `--tarball DIR` only packs the npm package into DIR
 * (scripts/check-package.sh); `--empty FILE` writes an executable of the same Node whose script
 * does nothing, the floor that `npm run bench -- executable` measures loopsctl's start against.
 * Its decisions are exported for test/unit/build/release.test.ts (release.d.mts types them); run as
 * a script, it does the work above.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../../', import.meta.url));
const releaseDir = join(root, 'release');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const { version } = manifest;

/**
 * The Node the executable embeds: 24, the LTS line supported longest (docs/dependencies.md says
 * why, with what it costs at start against 22 and 20). The build's own Node when it is of that
 * line, else this version from the npm registry's `node` package.
 */
const EMBEDDED_NODE = '24.21.0';

function release() {
  const started = Date.now();
  const node = embeddedNode();
  const nodeVersion = run(node, ['--version']).trim();
  // The bundles with a code cache recorded by the embedded Node as well as by the build's; or, for
  // CI, whose `npm test` has just built them with that Node (LOOPSCTL_RELEASE_BUILT=1), as they are.
  if (process.env.LOOPSCTL_RELEASE_BUILT !== '1') {
    run(process.execPath, [join(root, 'src/build/build.mjs')], { env: { ...process.env, LOOPSCTL_CODE_CACHE_NODES: node === process.execPath ? '' : node } });
  } else if (!existsSync(join(root, `dist/cli.cjs.${nodeVersion}-${process.arch}.cache`))) {
    throw new Error(`LOOPSCTL_RELEASE_BUILT=1, but dist/ has no code cache of ${nodeVersion}, the Node the executable embeds: build with it first`);
  }
  rmSync(releaseDir, { recursive: true, force: true });
  mkdirSync(releaseDir);
  packTarball(releaseDir);
  const executable = buildExecutable(node, nodeVersion);
  writeSums();
  console.log(`release/: the npm package, ${executable} (Node ${nodeVersion}), SHA256SUMS, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Runs a program, failing the release with its output when it fails; its stdout. */
function run(program, args, options = {}) {
  const result = spawnSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], cwd: root, ...options });
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
  return result.stdout;
}

function embeddedNode() {
  if (process.versions.node.split('.')[0] === EMBEDDED_NODE.split('.')[0]) return process.execPath;
  const prefix = join(root, 'node_modules', '.cache', 'loopsctl-release', `node-${EMBEDDED_NODE}`);
  const node = join(prefix, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const npm = { shell: process.platform === 'win32' };
  if (!existsSync(node)) run('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `node@${EMBEDDED_NODE}`], npm);
  return node;
}

/**
 * Files of the npm package that few runs read, kept compressed (brotli, as name.br): bin/loopsctl.js
 * reads them as if they were not, and writes out those that must load from a path (jq) once into
 * the cache directory. Source maps (--debug's stack traces), the MCP SDK, jq and
 * the completion scripts are 2.9 of the package's 4.5 MB, and 0.6 MB compressed; the HTML parser
 * of `content convert` (parse5, read by a migration alone) 222 KB, 45 KB compressed, and its MJML
 * reader (htmlparser2) likewise; the JavaScript parser (Babel's, 400 KB), which only `check --code`,
 * `migrate report` and the React Email reader load; the CSS reader (postcss and css-select, 186 KB)
 * of an HTML email's convert and `content check --html`, React Email's Markdown (marked), the
 * .eml reader of `--html` (postal-mime) and the language detector of an email's languageCode
 * (tinyld), each read by one kind of run; convert's engine with its commands (convert.cjs),
 * which the same runs as parse5 read; the commands of `loopsctl mcp` and of `migrate`
 * (areas-mcp.cjs, areas-migrate.cjs), which the MCP SDK's and Babel's runs read; and the help
 * pages (267 KB, 99 KB compressed), of which a run asking for help reads one (their index, read by
 * other runs, is kept as it is).
 */
export const COMPRESSED =
  /^dist\/(.*\.map|help\/\d+\.txt|convert\.cjs|areas-(mcp|migrate)\.cjs|vendor\/(mcp-sdk|jq-web|parse5|htmlparser2|babel-parser|css|marked|postal-mime|tinyld)\.cjs|vendor\/jq\.wasm|completion\/.*)$/;

/**
 * The npm package, packed from a copy of what it ships: package.json without its scripts (the
 * `prepare` that builds a clone would otherwise travel, and npm warns of install scripts) or
 * development dependencies, and dist/ without the code caches, which serve only the Node that
 * recorded them (an install records its own on first use), with COMPRESSED compressed, and the
 * man pages gzipped, as man reads them and npm links them (`man/loopsctl.1.gz`).
 */
function packTarball(destination) {
  const staging = join(releaseDir, '.package');
  stagePackage(root, manifest, staging);
  // npm pack fails with no word of why when the destination is missing.
  mkdirSync(destination, { recursive: true });
  const packed = run('npm', ['pack', '--silent', '--pack-destination', destination, staging], { shell: process.platform === 'win32' });
  const tarball = packed.trim().split('\n').pop();
  rmSync(staging, { recursive: true, force: true });
  console.log(join(destination, tarball));
}

/** Writes into `staging` (made anew) the files the npm package ships from the project at `from`, as packTarball describes. */
export function stagePackage(from, projectManifest, staging) {
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const entry of [...projectManifest.files, 'README.md', 'LICENSE']) {
    cpSync(join(from, entry), join(staging, entry), { recursive: true, filter: (source) => !source.endsWith('.cache') });
  }
  for (const name of readdirSync(join(staging, 'dist'), { recursive: true }).map((path) => `dist/${path.split(sep).join('/')}`)) {
    if (!COMPRESSED.test(name)) continue;
    const file = join(staging, name);
    writeFileSync(`${file}.br`, brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    rmSync(file);
  }
  for (const page of projectManifest.man ?? []) {
    const file = join(staging, page);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
    rmSync(file);
  }
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(publishedManifest(projectManifest), null, 2)}\n`);
}

/**
 * package.json as published: without the scripts, the development dependencies and the approval of
 * their install scripts (allowScripts, which npm reads from the project installing, never from a
 * dependency), and naming the man pages as stagePackage ships them, gzipped.
 */
export function publishedManifest(projectManifest) {
  const { scripts, devDependencies, allowScripts, ...published } = projectManifest;
  return published.man === undefined ? published : { ...published, man: published.man.map((page) => `${page}.gz`) };
}

/** The platform's name in release files: linux, darwin, windows; x64, arm64. */
export function platformName(platform = process.platform, arch = process.arch) {
  return `${platform === 'win32' ? 'windows' : platform}-${arch}`;
}

/**
 * The single executable: bin/loopsctl.js as its main script, with V8's code cache, and every file
 * the bundles read (bin/loopsctl.js reads them from there), the code caches the embedded Node
 * recorded, and the keychain's native module for this platform when installed, packed into one
 * asset (packFiles), beside the version.
 */
function buildExecutable(node, nodeVersion) {
  const work = join(releaseDir, '.executable');
  mkdirSync(work, { recursive: true });
  const files = join(work, 'files');
  writeFileSync(files, packFiles(Object.entries(executableAssets(root, nodeVersion, process.arch)).map(([name, file]) => [name, readFileSync(file)])));
  const assets = { version: writeAsset(work, 'version', version), files };
  const name = executableName(version);
  writeSingleExecutable(node, work, join(releaseDir, name), { main: join(root, 'bin/loopsctl.js'), assets });
  rmSync(work, { recursive: true, force: true });
  return name;
}

/** The executable's file name in a release, as install.sh looks for it: loopsctl-0.2.0-linux-x64, loopsctl-0.2.0-windows-x64.exe. */
export function executableName(releaseVersion, platform = process.platform, arch = process.arch) {
  return `loopsctl-${releaseVersion}-${platformName(platform, arch)}${platform === 'win32' ? '.exe' : ''}`;
}

/**
 * The files of the project at `from` that the executable carries, by asset name: the bundles, jq's
 * WebAssembly, the completion scripts, the code caches `nodeVersion` recorded on `arch` (and no
 * other's: a cache serves only its own Node), the skill and the keychain's native module.
 */
export function executableAssets(from, nodeVersion, arch) {
  const assets = {};
  const cacheSuffix = `.${nodeVersion}-${arch}.cache`;
  // The help pages (dist/help/) only spare the program a start: bin/loopsctl.js runs it without them.
  const helpPages = existsSync(join(from, 'dist/help')) ? ['dist/help'] : [];
  for (const dir of ['dist', 'dist/vendor', 'dist/completion', ...helpPages]) {
    for (const file of readdirSync(join(from, dir))) {
      const shipped = file.endsWith('.cjs') || file.endsWith(cacheSuffix) || file.endsWith('.wasm') || dir === 'dist/completion' || dir === 'dist/help';
      if (shipped) assets[`${dir}/${file}`] = join(from, dir, file);
    }
  }
  if (!Object.keys(assets).some((name) => name.endsWith(cacheSuffix))) throw new Error(`no code cache was recorded for ${nodeVersion}`);
  assets['skills/loopsctl/SKILL.md'] = join(from, 'skills/loopsctl/SKILL.md');
  const keyring = keyringBinary(from, process.platform, arch);
  if (keyring !== undefined) assets['native/@napi-rs+keyring.node'] = keyring;
  return assets;
}

/**
 * Files as the one asset `files` of the executable, which bin/loopsctl.js reads them from: the length
 * of an index (4 bytes, little-endian), the index, JSON of each file's name and its offset and
 * length in the asset, then the files, each at an offset a multiple of 8 (V8 copies a code cache
 * that is not aligned before it reads it). One asset rather than one a file (some 300, most of them
 * help pages): Node reads the name of every asset of an executable as it starts, each from where
 * that asset lies in the executable, a page touched per asset, which cost `--version` some 2 to 3%.
 */
export function packFiles(entries) {
  // The index's length moves the files after it, and their offsets lengthen the index: the files'
  // start is moved on until the index fits before it.
  let start = 0;
  let index;
  for (let fits = false; !fits; ) {
    index = {};
    let offset = start;
    for (const [name, data] of entries) {
      index[name] = [offset, data.length];
      offset = aligned(offset + data.length);
    }
    const needed = aligned(4 + Buffer.byteLength(JSON.stringify(index)));
    fits = needed <= start;
    if (!fits) start = needed;
  }
  const last = entries.at(-1);
  const packed = Buffer.alloc(last === undefined ? start : index[last[0]][0] + last[1].length);
  packed.writeUInt32LE(start - 4, 0);
  packed.write(JSON.stringify(index).padEnd(start - 4, ' '), 4);
  for (const [name, data] of entries) data.copy(packed, index[name][0]);
  return packed;
}

function aligned(offset) {
  return Math.ceil(offset / 8) * 8;
}

/**
 * A copy of `node` at `target` that runs `main` with V8's code cache, and carries `assets`: Node's
 * single executable application, its preparation blob written in `work`.
 */
function writeSingleExecutable(node, work, target, { main, assets = {} }) {
  const blob = join(work, 'sea.blob');
  const config = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, useSnapshot: false, assets };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
  run(node, ['--experimental-sea-config', join(work, 'sea-config.json')]);
  copyFileSync(node, target);
  chmodSync(target, 0o755);
  if (process.platform === 'darwin') run('codesign', ['--remove-signature', target]);
  const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
  const macho = process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : [];
  run(process.execPath, [postject, target, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2', ...macho]);
  if (process.platform === 'darwin') run('codesign', ['--sign', '-', target]);
}

/**
 * At `target`, an executable made as loopsctl's is, of the same Node, whose main script is empty:
 * how soon an executable of that Node can start at all, which no packing of loopsctl can beat.
 */
function writeEmptyExecutable(target) {
  const work = mkdtempSync(join(tmpdir(), 'loopsctl-empty-executable-'));
  try {
    writeSingleExecutable(embeddedNode(), work, target, { main: writeAsset(work, 'empty.js', '') });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function writeAsset(dir, name, text) {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** The keychain module's binary for this platform (@napi-rs/keyring-linux-x64-gnu) in the project at `from`, if npm installed it. */
export function keyringBinary(from, platform, arch) {
  const scope = join(from, 'node_modules', '@napi-rs');
  const prefix = `keyring-${platform}-${arch}`;
  // glibc's build before musl's, where both are installed.
  const gnuFirst = (a, b) => Number(b.endsWith('-gnu')) - Number(a.endsWith('-gnu'));
  const packages = existsSync(scope)
    ? readdirSync(scope)
        .filter((name) => name.startsWith(prefix))
        .sort(gnuFirst)
    : [];
  for (const name of packages) {
    const binary = readdirSync(join(scope, name)).find((file) => file.endsWith('.node'));
    if (binary !== undefined) return join(scope, name, binary);
  }
  return undefined;
}

/** SHA256SUMS for every file in `dir` (release/), in the format `sha256sum -c` and install.sh check. */
export function writeSums(dir = releaseDir) {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'SHA256SUMS')
    .map((entry) => entry.name)
    .sort();
  const lines = files.map(
    (name) =>
      `${createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex')}  ${name}\n`,
  );
  writeFileSync(join(dir, 'SHA256SUMS'), lines.join(''));
}

/**
 * Why a release made on a tag must not go on, if it must not: the tag names another version than
 * package.json (a tag v0.2.0 on a 0.1.0 tree would publish loopsctl-0.1.0's files as the release
 * v0.2.0, where install.sh 0.2.0 finds none). GitHub Actions names the tag in `env`; elsewhere
 * there is none, and nothing to check.
 */
export function tagProblem(env, releaseVersion) {
  if (env.GITHUB_REF_TYPE !== 'tag') return undefined;
  const expected = `v${releaseVersion}`;
  return env.GITHUB_REF_NAME === expected ? undefined : `the tag ${env.GITHUB_REF_NAME} is not package.json's version: tag ${expected}, or change the version`;
}

// Run as a script (not imported by a test): the work its arguments name.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problem = tagProblem(process.env, version);
  if (problem !== undefined) throw new Error(problem);
  const [mode, argument] = process.argv.slice(2);
  if (mode === '--sums') writeSums();
  else if (mode === '--tarball') packTarball(argument);
  else if (mode === '--empty') writeEmptyExecutable(argument);
  else if (mode === undefined) release();
  else throw new Error(`unknown argument ${mode}: release.mjs [--sums | --tarball DIR | --empty FILE]`);
}
