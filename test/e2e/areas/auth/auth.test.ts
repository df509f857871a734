/** Keys end to end: login, status, logout, profiles and the precedence between key sources. */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../../support/fixture-sandbox.js';
import { runCli, tempConfigDir } from '../../../support/run-cli.js';

let api: FixtureSandbox;
beforeAll(async () => {
  api = await startFixtureSandbox();
});
afterAll(() => api.close());

function inDir(dir: string, args: string[], env: Record<string, string | undefined> = {}, input?: string) {
  return runCli(args, { env: { LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: api.url, ...env }, input });
}

const OTHER_KEY = KEYS.noDomain;

describe('auth', () => {
  it('exits 3 with a hint when there is no key anywhere', async () => {
    const result = await inDir(tempConfigDir(), ['themes', 'list']);
    expect(result).toMatchObject({ code: 3, stdout: '' });
    expect(result.stderr).toBe(
      'Error: no API key\nHint: run `loopsctl auth login` or set LOOPS_API_KEY; or try it with no key against the built-in sandbox: --sandbox\n',
    );
  });

  it('verifies a key from stdin, stores it privately, and uses it', async () => {
    const dir = tempConfigDir();
    const login = await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, `${KEYS.valid}\n`);
    expect(login).toMatchObject({
      code: 0,
      stdout: `Logged in to Acme Inc (profile "default").\nThe key is in ${join(dir, 'config.json')} (readable by you only).\n`,
    });
    expect(api.requests.at(-1)).toMatchObject({ path: '/v1/api-key' });

    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { apiKey: KEYS.valid, keyStorage: 'file', teamName: 'Acme Inc' } } });

    const list = await inDir(dir, ['ips', 'list', '--plain']);
    expect(list).toMatchObject({ code: 0, stdout: '52.21.45.123\n2600:1f18:4a3::10\n' });
  });

  it('does not store a key the API refuses, unless told to skip the check', async () => {
    const dir = tempConfigDir();
    const refused = await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, 'not-a-real-key');
    expect(refused).toMatchObject({ code: 3, stdout: '' });
    expect(refused.stderr).toContain('Error: Invalid API key; the key was not stored\n');
    const unstored = await inDir(dir, ['ips', 'list']);
    expect(unstored).toMatchObject({ code: 3, stderr: expect.stringMatching(/^Error: no API key\n/) });

    const skipped = await inDir(dir, ['auth', 'login', '--with-key-stdin', '--skip-verify', '--profile', 'ci'], {}, 'not-a-real-key');
    expect(skipped).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Stored the key for profile "ci" without checking it\.\n/) });
  });

  it('shows where the key comes from, masked, with the team name', async () => {
    const dir = tempConfigDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, KEYS.valid);
    const status = await inDir(dir, ['auth', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('source\tprofile "default"');
    expect(status.stdout).toContain('key\t…\n');
    expect(status.stdout).toContain('teamName\tAcme Inc');
    expect(status.stdout + status.stderr).not.toContain(KEYS.valid);

    const fromEnv = await inDir(dir, ['auth', 'status', '--json'], { LOOPS_API_KEY: KEYS.noContent });
    expect(JSON.parse(fromEnv.stdout)).toEqual({
      profile: null,
      source: 'environment',
      chosenBy: 'LOOPS_API_KEY',
      storage: null,
      key: 'sand…',
      teamName: 'Acme Inc',
      readOnly: false,
    });
  });

  it('says which key failed, masked, when the stored key is refused', async () => {
    const dir = tempConfigDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin', '--skip-verify'], {}, 'wrong-key-0000000');
    const status = await inDir(dir, ['auth', 'status']);
    expect(status).toMatchObject({ code: 3, stdout: '' });
    expect(status.stderr).toContain('(key wron… from profile "default")');
    expect(status.stderr).not.toContain('wrong-key-0000000');
  });

  it('applies the precedence --profile > LOOPS_API_KEY > LOOPSCTL_PROFILE > default', async () => {
    const dir = tempConfigDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, KEYS.valid);
    await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'other'], {}, OTHER_KEY);
    const keyUsed = async (args: string[], env: Record<string, string>) => {
      await inDir(dir, [...args, 'ips', 'list'], env);
      return api.requests.at(-1)!.headers.authorization;
    };
    expect(await keyUsed(['--profile', 'other'], { LOOPS_API_KEY: KEYS.noContent })).toBe(`Bearer ${OTHER_KEY}`);
    expect(await keyUsed([], { LOOPS_API_KEY: KEYS.noContent, LOOPSCTL_PROFILE: 'other' })).toBe(`Bearer ${KEYS.noContent}`);
    expect(await keyUsed([], { LOOPSCTL_PROFILE: 'other' })).toBe(`Bearer ${OTHER_KEY}`);
    expect(await keyUsed([], {})).toBe(`Bearer ${KEYS.valid}`);

    const missing = await inDir(dir, ['--profile', 'nope', 'ips', 'list']);
    expect(missing).toMatchObject({ code: 3, stderr: expect.stringContaining('loopsctl auth login --profile nope') });
  });

  it('logs out a profile and keeps the others', async () => {
    const dir = tempConfigDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, KEYS.valid);
    await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'other'], {}, OTHER_KEY);
    const logout = await inDir(dir, ['auth', 'logout', '--profile', 'other']);
    expect(logout).toMatchObject({ code: 0, stdout: 'Removed the key of profile "other".\n' });
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { apiKey: KEYS.valid, keyStorage: 'file', teamName: 'Acme Inc' } },
    });
    const again = await inDir(dir, ['auth', 'logout', '--profile', 'other', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({ profile: 'other', removed: false });
  });

  it('refuses to ask for a key without a terminal', async () => {
    const result = await inDir(tempConfigDir(), ['auth', 'login']);
    expect(result).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Error: no terminal to ask for the key on\nHint: pipe the key in with --with-key-stdin\n'),
    });
  });
});
