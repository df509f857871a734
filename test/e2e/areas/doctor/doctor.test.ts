/** `loopsctl doctor` in-process against the sandbox: all well, a wrong key, a feed with a newer version, a clock that is off. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';
import { releaseFeedForTests } from '../../../support/release-feed.js';

const sandbox = sandboxEachTest();
const feed = releaseFeedForTests();

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  hint?: string;
}

describe('doctor', () => {
  it('passes against the sandbox, saying where the key comes from and the team it belongs to', async () => {
    const { loopsctl, requests } = await sandbox();
    const result = await loopsctl(['doctor']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ok +key +the environment \(LOOPS_API_KEY\)$/m);
    expect(result.stdout).toMatch(/^ok +api +http:\/\/127\.0\.0\.1:\d+ answers: the key is team ".+"'s$/m);
    expect(result.stdout).toMatch(/^ok +clock +\d+ s (ahead of|behind) the API's$/m);
    expect(result.stdout).toMatch(/^ok +update +not asked \(DO_NOT_TRACK is set\)$/m);
    expect(result.stdout).toMatch(/All checks passed\.\n$/);
    expect(requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /v1/api-key']);
  });

  it('with --sandbox, asks the sandbox in its own process, whose Date its clock is compared with', async () => {
    // A clock on a whole second: the Date header carries whole seconds.
    const result = await run(['--sandbox', 'doctor', '--json'], { now: () => new Date('2026-11-23T10:00:00Z') });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const checks = JSON.parse(result.stdout).checks as Check[];
    expect(checks.find((check) => check.name === 'key')).toMatchObject({ ok: true, detail: 'the sandbox (--sandbox)' });
    expect(checks.find((check) => check.name === 'api')).toEqual({
      name: 'api',
      ok: true,
      detail: 'the sandbox in this process answers: the key is team "Acme Sandbox"\'s',
    });
    expect(checks.find((check) => check.name === 'clock')).toEqual({ name: 'clock', ok: true, detail: "0 s ahead of the API's" });
  });

  it("with --sandbox, passes a clock the sandbox's own moves set apart, and says so", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const now = () => new Date('2026-11-23T10:00:00Z');
    expect((await run(['sandbox', 'clock', 'advance', '1d'], { env, now })).code).toBe(0);
    const result = await run(['--sandbox', 'doctor', '--json'], { env, now });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).checks.find((check: Check) => check.name === 'clock')).toEqual({
      name: 'clock',
      ok: true,
      detail: "86400 s behind the API's: the sandbox's clock was moved (loopsctl sandbox clock)",
    });
  });

  it("reads a clock in step with the API's as 0 s, however far into its second the answer comes", async () => {
    for (const now of ['2026-11-23T10:00:00.000Z', '2026-11-23T10:00:00.600Z', '2026-11-23T10:00:00.999Z']) {
      const result = await run(['--sandbox', 'doctor', '--json'], { now: () => new Date(now) });
      expect(
        JSON.parse(result.stdout).checks.find((check: Check) => check.name === 'clock'),
        now,
      ).toEqual({
        name: 'clock',
        ok: true,
        detail: "0 s ahead of the API's",
      });
    }
  });

  it("fails on a Node older than package.json's engines allow, naming the oldest it runs on", async () => {
    const engines = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8')).engines.node as string;
    const oldest = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(engines);
    expect(oldest, engines).not.toBeNull();
    const [floor, major, minor] = [oldest![0].slice(2), Number(oldest![1]), Number(oldest![2])];
    const older = minor > 0 ? `${major}.${minor - 1}.9` : `${major - 1}.99.9`;
    const nodeCheck = async (node: string) => {
      const result = await run(['--sandbox', 'doctor', '--json'], { installation: { method: 'npm', directory: '/usr/lib/node_modules/loopsctl', node } });
      expect(result.stderr).toBe('');
      return result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'node');
    };
    expect(await nodeCheck(older)).toEqual({
      name: 'node',
      ok: false,
      detail: `${older}, older than ${floor}`,
      hint: `install Node ${floor} or newer, or the executable (see docs/install.md)`,
    });
    expect(await nodeCheck('20.20.2')).toMatchObject({ ok: false, detail: `20.20.2, older than ${floor}` });
    expect(await nodeCheck(floor)).toEqual({ name: 'node', ok: true, detail: floor });
    expect(await nodeCheck('24.21.0')).toEqual({ name: 'node', ok: true, detail: '24.21.0' });
  });

  it('fails on a wrong key with exit 1 and a hint that names where the key came from', async () => {
    const { loopsctl } = await sandbox();
    const result = await loopsctl(['doctor', '--json'], { env: { LOOPS_API_KEY: 'wrong-key-0000000' } });
    expect(result.code).toBe(1);
    // The report on stdout says what failed; nothing went wrong with the run itself.
    expect(result.stderr).toBe('');
    const { ok, checks } = result.json<{ ok: boolean; checks: Check[] }>();
    expect(ok).toBe(false);
    const api = checks.find(({ name }) => name === 'api')!;
    expect(api.ok).toBe(false);
    expect(api.hint).toContain('LOOPS_API_KEY');
    expect(checks.filter((check) => !check.ok).map(({ name }) => name)).toEqual(['api']);
    // The refusal has a Date header too.
    expect(checks.find(({ name }) => name === 'clock')?.detail).toMatch(/^\d+ s (ahead of|behind) the API's$/);
    expect(result.stdout).not.toContain('wrong-key-0000000');
  });

  it('fails without a key, with the hint to log in, and asks the API nothing', async () => {
    const { loopsctl, requests } = await sandbox();
    const result = await loopsctl(['doctor'], { env: { LOOPS_API_KEY: undefined } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^FAIL key +no API key\n +hint: run `loopsctl auth login`/m);
    expect(result.stdout).toMatch(/^FAIL api +not asked: there is no key to ask with$/m);
    expect(result.stdout).toMatch(/2 checks failed\.\n$/);
    expect(requests).toEqual([]);
  });

  it('fails when the config directory is a file, saying how to fix it', async () => {
    const dir = join(tempDir(), 'a-file');
    writeFileSync(dir, '');
    const result = await run(['--sandbox', 'doctor', '--json'], { env: { LOOPSCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'config')).toEqual({
      name: 'config',
      ok: false,
      detail: `${dir}: it, or a folder above it, is a file, not a directory`,
      hint: `move the file at ${dir} aside, or set LOOPSCTL_CONFIG_DIR to a directory of your own`,
    });
  });

  // Root may write in any directory, whatever its mode.
  const root = process.getuid?.() === 0;
  it.skipIf(root)(`fails when this user cannot write in the config directory${root ? ' (skipped: root writes in any directory)' : ''}`, async () => {
    const dir = join(tempDir(), 'read-only');
    mkdirSync(dir, { mode: 0o500 });
    const result = await run(['--sandbox', 'doctor', '--json'], { env: { LOOPSCTL_CONFIG_DIR: dir } });
    chmodSync(dir, 0o700);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'config')).toEqual({
      name: 'config',
      ok: false,
      detail: `${dir}: this user cannot write in it`,
      hint: `fix its permissions (\`chmod u+rwx ${dir}\`), or set LOOPSCTL_CONFIG_DIR to a directory of your own`,
    });
  });

  it("fails when the clock is off the API's by more than a minute", async () => {
    const { loopsctl } = await sandbox();
    const result = await loopsctl(['doctor', '--json'], { now: () => new Date(Date.now() + 10 * 60 * 1000) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const clock = result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'clock')!;
    expect(clock).toMatchObject({ ok: false, hint: expect.stringContaining('set the clock') });
    expect(clock.detail).toMatch(/^(59\d|60\d) s ahead of the API's$/);
  });

  it('says when a newer version is out, and how to upgrade', async () => {
    const { loopsctl } = await sandbox();
    const result = await loopsctl(['doctor', '--json'], { env: { DO_NOT_TRACK: undefined, LOOPSCTL_UPDATE_URL: feed.url(), LOOPSCTL_UPDATE_TIMEOUT: '100' } });
    expect(result.code).toBe(0);
    const update = result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'update');
    expect(update).toEqual({ name: 'update', ok: true, detail: '99.0.0 is out', hint: 'upgrade with: npm install --global loopsctl@latest' });
  });

  it('shows a proxy without its credentials', async () => {
    const { loopsctl } = await sandbox();
    const result = await loopsctl(['doctor', '--json', '--retries', '0'], { env: { HTTP_PROXY: 'http://user:s3cret@127.0.0.1:9', NO_PROXY: '' } });
    const proxy = result.json<{ checks: Check[] }>().checks.find(({ name }) => name === 'proxy')!;
    expect(proxy.detail).toBe('http://127.0.0.1:9 (from HTTP_PROXY)');
    expect(result.stdout).not.toContain('s3cret');
  });
});
