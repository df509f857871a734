/**
 * The single executable that `npm run release` writes, run alone: copied into an empty directory,
 * with no Node on PATH, no dist/ or node_modules beside it and an empty HOME. Building it takes a
 * while, so this file runs from `npm run test:release` (which builds release/ first and sets
 * LOOPSCTL_TEST_RELEASE=1), and CI runs that; `npm test` skips it and says so.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp.js';

const releaseDir = resolve(import.meta.dirname, '../../../release');
const enabled = process.env.LOOPSCTL_TEST_RELEASE === '1';
if (!enabled) process.stderr.write('test/spawned/build/release.test.ts: skipped, run `npm run test:release` to build release/ and test the executable\n');

const { version } = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string };
const platform = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

describe.runIf(enabled)('the single executable, alone', () => {
  // Made when the tests run, not when the file is read: a skipped run leaves nothing behind.
  let dir = '';
  let home = '';
  let emptyPath = '';
  let executable = '';

  const env = (extra: Record<string, string> = {}) => ({ PATH: emptyPath, HOME: home, ...extra });
  const run = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) => {
    const result = spawnSync(executable, args, { cwd: dir, env: env(options.env), input: options.input ?? '', encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  const name = `loopsctl-${version}-${platform}`;
  beforeAll(() => {
    dir = tempDir('loopsctl-executable-');
    home = join(dir, 'home');
    emptyPath = join(dir, 'no-programs');
    executable = join(dir, 'bin', 'loopsctl');
    for (const path of [home, emptyPath, join(dir, 'bin')]) mkdirSync(path, { recursive: true });
    copyFileSync(join(releaseDir, name), executable);
  });

  it('is in release/ with the npm package, and SHA256SUMS lists both with their digests', () => {
    expect(readdirSync(releaseDir)).toEqual(expect.arrayContaining([name, `loopsctl-${version}.tgz`, 'SHA256SUMS']));
    const sums = readFileSync(join(releaseDir, 'SHA256SUMS'), 'utf8').trim().split('\n');
    for (const file of [name, `loopsctl-${version}.tgz`]) {
      const digest = createHash('sha256')
        .update(readFileSync(join(releaseDir, file)))
        .digest('hex');
      expect(sums).toContain(`${digest}  ${file}`);
    }
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: releaseDir, encoding: 'utf8' })).toMatch(/: OK$/m);
  });

  it('answers --version and --help, and finds no Node beside it', () => {
    expect(existsSync(join(dir, 'bin', 'dist'))).toBe(false);
    expect(run(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    const help = run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: loopsctl');
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: env() }).status).not.toBe(0);
  });

  // Not a plain path, which is answered without jq: this expression needs jq and its worker.
  const jqExpression = 'map(.name) | length';

  it('runs a sandbox command with --jq (jq and its worker from the executable)', () => {
    const result = run(['--sandbox', 'themes', 'list', '--jq', jqExpression]);
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0 });
    expect(Number(result.stdout)).toBeGreaterThan(0);
  });

  it('runs --jq where the cache directory cannot be written, from a temp directory it removes', () => {
    const notADirectory = join(dir, 'cache-file');
    const temp = join(dir, 'tmp');
    writeFileSync(notADirectory, '');
    mkdirSync(temp);
    const result = run(['--sandbox', 'themes', 'list', '--jq', jqExpression], { env: { XDG_CACHE_HOME: notADirectory, TMPDIR: temp } });
    expect(result.stderr).toBe('');
    expect(result).toMatchObject({ code: 0 });
    expect(Number(result.stdout)).toBeGreaterThan(0);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('prints the completion scripts and the shipped skill', () => {
    expect(run(['completion', 'bash']).stdout).toContain('__loopsctl_commands()');
    expect(run(['skill', 'show']).stdout).toMatch(/^---\nname: loopsctl$/m);
  });

  it('signs a webhook', () => {
    const result = run(['webhooks', 'sign'], { input: '{}', env: { LOOPS_WEBHOOK_SECRET: 'whsec_bG9vcHNjdGwtcGFja2FnZS1jaGVjaw==' } });
    expect(result.stdout).toMatch(/^webhook-signature: v1,/m);
  });

  it('serves MCP with the SDK it carries, until its stdin ends', () => {
    const result = run(['mcp', '--sandbox']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('loopsctl mcp:');
  });

  it('loads the keychain module it carries, or says it stores the key in the file', () => {
    const result = run(['auth', 'login', '--with-key-stdin', '--skip-verify'], { input: 'sk-release-test', env: { XDG_RUNTIME_DIR: dir } });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('is not installed');
  });

  it('passes doctor against the sandbox, knowing it is the executable and the Node it embeds', () => {
    const result = run(['--sandbox', 'doctor', '--json'], { env: { DO_NOT_TRACK: '1' } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const checks = (JSON.parse(result.stdout) as { checks: { name: string; detail: string }[] }).checks;
    expect(checks.find(({ name }) => name === 'version')?.detail).toBe(`${version} (the executable, in ${join(dir, 'bin')})`);
    expect(checks.find(({ name }) => name === 'node')?.detail).toMatch(/^24\./);
  });

  it('packs the npm package alone into a directory it makes', () => {
    const destination = join(dir, 'packed', 'here');
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../../src/build/release.mjs'), '--tarball', destination], { stdio: 'ignore' });
    expect(readdirSync(destination)).toEqual([`loopsctl-${version}.tgz`]);
  });

  // The floor `npm run bench -- executable` measures against: Node's own start, none of loopsctl's.
  it('has an empty counterpart of the same Node, which runs its empty script and takes no argument as an option of Node', () => {
    const empty = join(dir, 'empty');
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../../src/build/release.mjs'), '--empty', empty], { stdio: 'ignore' });
    const result = spawnSync(empty, ['--version'], { env: env(), encoding: 'utf8' });
    expect(result).toMatchObject({ status: 0, stdout: '', stderr: '' });
    // The Node source archive its process.release names.
    const node = (file: string) => /node-v(\d+\.\d+\.\d+)\.tar\.gz/.exec(readFileSync(file, 'latin1'))?.[1];
    expect(node(empty)).toMatch(/^24\./);
    expect(node(empty)).toBe(node(executable));
  });

  it('starts the sandbox in the background with --detach, as itself', async () => {
    const detached = run(['sandbox', '--detach', '--port', '0']);
    expect(detached.code).toBe(0);
    const url = /LOOPS_BASE_URL=(\S+)/.exec(detached.stdout)?.[1];
    const pid = Number(/LOOPSCTL_SANDBOX_PID=(\d+)/.exec(detached.stdout)?.[1]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    try {
      const lists = run(['lists', 'list', '--json'], { env: { LOOPS_BASE_URL: url!, LOOPS_API_KEY: 'sandbox-key' } });
      expect(lists.code).toBe(0);
      expect(JSON.parse(lists.stdout)).toBeInstanceOf(Array);
    } finally {
      process.kill(pid, 'SIGTERM');
      // Its own process group outlives this one: wait for it to end, by a process that watches it.
      await new Promise((done) => spawn('sh', ['-c', `while kill -0 ${pid} 2>/dev/null; do sleep 0.1; done`]).on('exit', done));
    }
  });
});
