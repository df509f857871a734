/**
 * What `npm run release` (src/build/release.mjs) decides, in this process: what the npm package
 * ships and how, which files the single executable carries, its name, and the SHA256SUMS that
 * install.sh checks a download against. Each runs on a small project made in a temporary
 * directory; building the real release/ (npm pack, Node's SEA) is test/spawned/build/release.test.ts,
 * which `npm run test:release` runs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  COMPRESSED,
  executableAssets,
  executableName,
  keyringBinary,
  packFiles,
  platformName,
  publishedManifest,
  stagePackage,
  tagProblem,
  writeSums,
} from '../../../src/build/release.mjs';
import { tempDir } from '../../support/temp.js';

const REPO = resolve(import.meta.dirname, '../../..');
const projectManifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[]; [field: string]: unknown };

/** A project at a new temporary directory holding `files` (path: content). */
function project(files: Record<string, string>): string {
  const root = tempDir('loopsctl-release-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** Every file under `dir`, as sorted paths with forward slashes. */
const filesUnder = (dir: string) =>
  (readdirSync(dir, { recursive: true, withFileTypes: true }) as { name: string; parentPath: string; isFile: () => boolean }[])
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();

describe('the version it releases', () => {
  it('goes on, on a tag, only when the tag names package.json’s version', () => {
    expect(tagProblem({ GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v0.2.0' }, '0.2.0')).toBeUndefined();
    for (const tag of ['v0.1.0', '0.2.0', 'v0.2.0-rc.1', 'v0.2.00', 'release-0.2.0']) {
      expect(tagProblem({ GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: tag }, '0.2.0')).toBe(
        `the tag ${tag} is not package.json's version: tag v0.2.0, or change the version`,
      );
    }
    expect(tagProblem({ GITHUB_REF_TYPE: 'tag' }, '0.2.0')).toMatch(/^the tag undefined is not/);
  });

  it('run as a script, refuses a tag of another version before it builds anything', () => {
    const run = spawnSync(process.execPath, [join(REPO, 'src/build/release.mjs'), '--no-such-mode'], {
      env: { PATH: process.env.PATH ?? '', GITHUB_REF_TYPE: 'tag', GITHUB_REF_NAME: 'v0.0.0-not-this' },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("the tag v0.0.0-not-this is not package.json's version");
  });

  it('has nothing to check off a tag: on a branch, or on a machine of its own', () => {
    expect(tagProblem({ GITHUB_REF_TYPE: 'branch', GITHUB_REF_NAME: 'main' }, '0.2.0')).toBeUndefined();
    expect(tagProblem({}, '0.2.0')).toBeUndefined();
  });
});

describe('the npm package', () => {
  it('publishes package.json without its scripts (the `prepare` that builds a clone) or development dependencies, its man pages gzipped, and all else as it is', () => {
    const published = publishedManifest(projectManifest);
    expect(Object.keys(published)).not.toContain('scripts');
    expect(Object.keys(published)).not.toContain('devDependencies');
    expect(Object.keys(published)).not.toContain('allowScripts');
    const { scripts: _scripts, devDependencies: _devDependencies, allowScripts: _allowScripts, man, ...rest } = projectManifest;
    expect(published).toEqual({ ...rest, man: (man as string[]).map((page) => `${page}.gz`) });
    expect(published.man).toContain('./man/loopsctl.1.gz');
    // What an install needs is kept.
    expect(published).toMatchObject({ bin: { loopsctl: 'bin/loopsctl.js' }, exports: { './sandbox': expect.any(Object) }, files: projectManifest.files });
  });

  it('keeps compressed the files few runs read, and not those every start or the sandbox reads', () => {
    for (const name of [
      'dist/cli.cjs.map',
      'dist/sandbox/index.mjs.map',
      'dist/vendor/mcp-sdk.cjs',
      'dist/convert.cjs',
      'dist/areas-mcp.cjs',
      'dist/areas-migrate.cjs',
      'dist/help/0.txt',
      'dist/help/183.txt',
      'dist/vendor/jq-web.cjs',
      'dist/vendor/parse5.cjs',
      'dist/vendor/htmlparser2.cjs',
      'dist/vendor/babel-parser.cjs',
      'dist/vendor/css.cjs',
      'dist/vendor/marked.cjs',
      'dist/vendor/postal-mime.cjs',
      'dist/vendor/tinyld.cjs',
      'dist/vendor/jq.wasm',
      'dist/completion/loopsctl.bash',
    ]) {
      expect(name).toMatch(COMPRESSED);
    }
    for (const name of [
      'dist/cli.cjs',
      'dist/areas-content.cjs',
      'dist/vendor/chalk.cjs',
      // The libraries require these as files.
      'dist/vendor/pg.cjs',
      'dist/vendor/zod.cjs',
      'dist/vendor/yaml.cjs',
      'dist/vendor/icon-glyphs.cjs',
      'dist/sandbox/index.mjs',
      'dist/sandbox/index.cjs',
      'bin/loopsctl.js',
      'man/loopsctl.1',
      'dist/help/index.json',
      'dist/help/contacts.alone',
      'dist/vendor/mcp-sdk.cjs.v24.21.0-x64.cache',
      'xdist/cli.cjs.map',
    ]) {
      expect(name).not.toMatch(COMPRESSED);
    }
  });

  it('stages what `files` names, README and LICENSE, with no code cache, the rarely read files compressed, the man pages gzipped, and package.json as published', () => {
    const files: Record<string, string> = {
      'bin/loopsctl.js': '#!/usr/bin/env node\n',
      'dist/cli.cjs': 'cli();',
      'dist/cli.cjs.map': '{"mappings":"AAAA"}',
      'dist/cli.cjs.v24.21.0-x64.cache': 'a code cache',
      'dist/vendor/mcp-sdk.cjs': 'the MCP SDK',
      'dist/vendor/mcp-sdk.cjs.v24.21.0-x64.cache': 'its code cache',
      'dist/vendor/jq.wasm': 'jq',
      'dist/completion/loopsctl.zsh': '#compdef loopsctl',
      'man/loopsctl.1': '.TH LOOPSCTL 1',
      'skills/loopsctl/SKILL.md': '---\nname: loopsctl\n---',
      'README.md': '# loopsctl',
      LICENSE: 'MIT',
      'src/cli.ts': 'not shipped',
      'test/cli.test.ts': 'not shipped',
    };
    const root = project(files);
    const staging = join(root, 'release/.package');
    // A staging directory left by an earlier run is made anew.
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'stale.txt'), 'from an earlier run');
    const manifest = { ...projectManifest, files: ['bin', 'dist', 'man', 'skills'], man: ['./man/loopsctl.1'] };
    stagePackage(root, manifest, staging);
    expect(filesUnder(staging)).toEqual(
      [
        'LICENSE',
        'README.md',
        'bin/loopsctl.js',
        'dist/cli.cjs',
        'dist/cli.cjs.map.br',
        'dist/completion/loopsctl.zsh.br',
        'dist/vendor/jq.wasm.br',
        'dist/vendor/mcp-sdk.cjs.br',
        'man/loopsctl.1.gz',
        'package.json',
        'skills/loopsctl/SKILL.md',
      ].sort(),
    );
    for (const name of ['dist/cli.cjs.map', 'dist/completion/loopsctl.zsh', 'dist/vendor/jq.wasm', 'dist/vendor/mcp-sdk.cjs']) {
      expect(brotliDecompressSync(readFileSync(join(staging, `${name}.br`))).toString()).toBe(files[name]);
    }
    expect(gunzipSync(readFileSync(join(staging, 'man/loopsctl.1.gz'))).toString()).toBe(files['man/loopsctl.1']);
    expect(readFileSync(join(staging, 'dist/cli.cjs'), 'utf8')).toBe(files['dist/cli.cjs']);
    expect(JSON.parse(readFileSync(join(staging, 'package.json'), 'utf8'))).toEqual(publishedManifest(manifest));
    // Where nothing is yet (`--tarball DIR` with no release/), it makes the directories it needs.
    const fresh = join(root, 'fresh/release/.package');
    stagePackage(root, manifest, fresh);
    expect(filesUnder(fresh)).toEqual(filesUnder(staging));
  });
});

describe('the single executable', () => {
  const nodeVersion = 'v24.21.0';

  it('is named as install.sh looks for it: version, system, processor, and .exe on Windows', () => {
    expect(platformName('linux', 'x64')).toBe('linux-x64');
    expect(platformName('darwin', 'arm64')).toBe('darwin-arm64');
    expect(platformName('win32', 'arm64')).toBe('windows-arm64');
    expect(executableName('0.2.0', 'linux', 'arm64')).toBe('loopsctl-0.2.0-linux-arm64');
    expect(executableName('0.2.0', 'darwin', 'x64')).toBe('loopsctl-0.2.0-darwin-x64');
    expect(executableName('0.2.0', 'win32', 'x64')).toBe('loopsctl-0.2.0-windows-x64.exe');
  });

  it('carries the bundles, jq, the completion scripts, the skill and the code caches of its own Node on its own processor only', () => {
    const root = project({
      'dist/cli.cjs': '',
      'dist/cli.cjs.map': '',
      'dist/cli.cjs.v24.21.0-x64.cache': '',
      'dist/cli.cjs.v24.21.0-arm64.cache': '',
      'dist/cli.cjs.v20.20.2-x64.cache': '',
      'dist/sandbox/index.mjs': '',
      'dist/vendor/jq.wasm': '',
      'dist/vendor/chalk.cjs': '',
      'dist/vendor/chalk.cjs.v24.21.0-x64.cache': '',
      'dist/completion/loopsctl.bash': '',
      'dist/completion/loopsctl.fish': '',
      'skills/loopsctl/SKILL.md': '',
    });
    const assets = executableAssets(root, nodeVersion, 'x64');
    expect(Object.keys(assets).sort()).toEqual(
      [
        'dist/cli.cjs',
        'dist/cli.cjs.v24.21.0-x64.cache',
        'dist/completion/loopsctl.bash',
        'dist/completion/loopsctl.fish',
        'dist/vendor/chalk.cjs',
        'dist/vendor/chalk.cjs.v24.21.0-x64.cache',
        'dist/vendor/jq.wasm',
        'skills/loopsctl/SKILL.md',
      ].sort(),
    );
    for (const [name, file] of Object.entries(assets)) expect(file).toBe(join(root, name));
  });

  it('carries the help pages the build wrote, which bin/loopsctl.js prints off a terminal', () => {
    const root = project({
      'dist/cli.cjs': '',
      'dist/cli.cjs.v24.21.0-x64.cache': '',
      'dist/vendor/chalk.cjs': '',
      'dist/completion/loopsctl.bash': '',
      'dist/help/index.json': '',
      'dist/help/0.txt': '',
      'dist/help/contacts.alone': '',
      'skills/loopsctl/SKILL.md': '',
    });
    expect(Object.keys(executableAssets(root, nodeVersion, 'x64')).filter((name) => name.startsWith('dist/help/'))).toEqual(
      ['dist/help/0.txt', 'dist/help/contacts.alone', 'dist/help/index.json'].sort(),
    );
  });

  it('packs its files into one asset, each found by its name through the index and aligned for V8', () => {
    const files: [string, Buffer][] = [
      ['dist/cli.cjs', Buffer.from('module.exports = 1;\n')],
      ['dist/cli.cjs.v24.21.0-x64.cache', Buffer.from([0, 1, 2, 255])],
      ['dist/help/index.json', Buffer.alloc(0)],
      // Enough files that the index's own length moves the first of them more than once.
      ...Array.from({ length: 300 }, (_, index): [string, Buffer] => [`dist/help/${index}.txt`, Buffer.from(`page ${index}\n`.repeat(index))]),
    ];
    const packed = packFiles(files);
    // As bin/loopsctl.js reads it: the index's length, the index, then each file where it says.
    const indexLength = packed.readUInt32LE(0);
    const index = JSON.parse(packed.toString('utf8', 4, 4 + indexLength)) as Record<string, [number, number]>;
    expect(Object.keys(index)).toEqual(files.map(([name]) => name));
    for (const [name, data] of files) {
      const [offset, length] = index[name]!;
      expect(offset % 8).toBe(0);
      expect(offset).toBeGreaterThanOrEqual(4 + indexLength);
      expect(packed.subarray(offset, offset + length).equals(data)).toBe(true);
    }
    const [lastOffset, lastLength] = index['dist/help/299.txt']!;
    expect(packed.length).toBe(lastOffset + lastLength);
  });

  it('refuses to build without a code cache of its Node, which would start it slowly', () => {
    const root = project({ 'dist/cli.cjs': '', 'dist/cli.cjs.v20.20.2-x64.cache': '', 'dist/vendor/chalk.cjs': '', 'dist/completion/loopsctl.bash': '' });
    expect(() => executableAssets(root, nodeVersion, 'x64')).toThrow('no code cache was recorded for v24.21.0');
    expect(() => executableAssets(root, 'v20.20.2', 'arm64')).toThrow('no code cache was recorded for v20.20.2');
  });

  it('carries the keychain module of its system and processor, glibc’s build before musl’s', () => {
    // Node lists a directory sorted, so gnu's comes first here with or without release.mjs's own sort.
    const arches = ['x64', 'arm64'];
    const files: Record<string, string> = { 'node_modules/@napi-rs/keyring/index.js': '' };
    for (const arch of arches) {
      for (const libc of ['musl', 'gnu']) files[`node_modules/@napi-rs/keyring-linux-${arch}-${libc}/keyring.linux-${arch}-${libc}.node`] = '';
    }
    const root = project({
      ...files,
      'dist/cli.cjs': '',
      'dist/cli.cjs.v24.21.0-x64.cache': '',
      'dist/vendor/chalk.cjs': '',
      'dist/completion/loopsctl.bash': '',
    });
    for (const arch of arches) {
      expect(keyringBinary(root, 'linux', arch)).toBe(join(root, `node_modules/@napi-rs/keyring-linux-${arch}-gnu/keyring.linux-${arch}-gnu.node`));
    }
    // musl's alone is taken; a package without its binary is passed over.
    const musl = project({
      'node_modules/@napi-rs/keyring-linux-x64-gnu/package.json': '{}',
      'node_modules/@napi-rs/keyring-linux-x64-musl/keyring.linux-x64-musl.node': '',
    });
    expect(keyringBinary(musl, 'linux', 'x64')).toBe(join(musl, 'node_modules/@napi-rs/keyring-linux-x64-musl/keyring.linux-x64-musl.node'));
    expect(keyringBinary(root, 'darwin', 'arm64')).toBeUndefined();
    expect(keyringBinary(project({}), 'linux', 'x64')).toBeUndefined();
    expect(executableAssets(root, nodeVersion, 'x64')['native/@napi-rs+keyring.node']).toBe(keyringBinary(root, 'linux', 'x64'));
  });
});

describe('SHA256SUMS', () => {
  const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

  /** install.sh's test of a checksum list, each line matched against its own pattern (a basic regular expression). */
  function installScriptAccepts(sums: string): boolean {
    const script = readFileSync(join(REPO, 'install.sh'), 'utf8');
    const pattern = /grep -qv '([^']+)' "\$sums"/.exec(script)?.[1];
    expect(pattern, 'install.sh checks the list with grep -qv').toBeDefined();
    const line = new RegExp(pattern!.replaceAll('\\{', '{').replaceAll('\\}', '}'));
    return (
      sums.length > 0 &&
      sums
        .split('\n')
        .slice(0, -1)
        .every((each) => line.test(each))
    );
  }

  it('lists every file of the release once, by name, sorted, with its digest, and neither itself nor a directory', () => {
    const files: Record<string, string> = { 'install.sh': '#!/bin/sh', 'loopsctl-0.2.0.tgz': 'the package' };
    for (const os of ['windows', 'linux', 'darwin']) {
      for (const arch of ['x64', 'arm64', 'riscv64', 'ppc64']) files[`loopsctl-0.2.0-${os}-${arch}${os === 'windows' ? '.exe' : ''}`] = `${os} ${arch}`;
    }
    const dir = project({ ...files, '.package/package.json': '{}' });
    writeFileSync(join(dir, 'SHA256SUMS'), 'an earlier list');
    writeSums(dir);
    const sums = readFileSync(join(dir, 'SHA256SUMS'), 'utf8');
    const names = Object.keys(files).sort();
    expect(sums).toBe(names.map((name) => `${sha256(files[name]!)}  ${name}\n`).join(''));
    expect(installScriptAccepts(sums)).toBe(true);
  });

  it('is a list install.sh accepts, and install.sh refuses one that is not', () => {
    const digest = sha256('x');
    expect(installScriptAccepts(`${digest}  loopsctl-0.2.0-linux-x64\n`)).toBe(true);
    expect(installScriptAccepts(`${digest} loopsctl-0.2.0-linux-x64\n`)).toBe(false);
    expect(installScriptAccepts(`${digest.toUpperCase()}  loopsctl-0.2.0-linux-x64\n`)).toBe(false);
    expect(installScriptAccepts('<!doctype html>\n')).toBe(false);
    expect(installScriptAccepts('')).toBe(false);
  });
});
