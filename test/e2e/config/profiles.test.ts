/**
 * Profiles end to end: which key a command uses in every combination of --profile, LOOPS_API_KEY,
 * LOOPSCTL_PROFILE and the default profile, and auth list, switch (use), rename, remove, token and
 * status; names that cannot be profiles; hints that keep --profile; keys with a line end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../support/fixture-sandbox.js';
import { run, tempDir } from '../../support/main.js';

let api: FixtureSandbox;
beforeAll(async () => {
  api = await startFixtureSandbox();
});
afterAll(() => api.close());

function inDir(dir: string, args: string[], env: Record<string, string | undefined> = {}, options: { input?: string; tty?: { columns: number } } = {}) {
  return run(args, { env: { LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: api.url, ...env }, ...options });
}

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));

/** A config dir holding the profiles default, work and ci, each with its own key, and optionally another default. */
async function threeProfiles(defaultProfile?: string): Promise<string> {
  const dir = tempDir();
  for (const [profile, key] of [
    ['default', KEYS.valid],
    ['work', KEYS.noDomain],
    ['ci', KEYS.noWorkflows],
  ] as const) {
    expect((await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', profile], {}, { input: key })).code).toBe(0);
  }
  if (defaultProfile !== undefined) expect((await inDir(dir, ['auth', 'switch', defaultProfile])).code).toBe(0);
  return dir;
}

describe('the key a command uses', () => {
  const KEY_OF: Record<string, string> = { default: KEYS.valid, work: KEYS.noDomain, ci: KEYS.noWorkflows };
  const flags = [undefined, 'work', 'missing'] as const;
  const envKeys = [undefined, KEYS.noContent] as const;
  const envProfiles = [undefined, 'ci', 'missing'] as const;
  const defaults = [undefined, 'work'] as const;
  const cases = flags.flatMap((flag) =>
    envKeys.flatMap((envKey) => envProfiles.flatMap((envProfile) => defaults.map((recorded) => ({ flag, envKey, envProfile, recorded })))),
  );

  /** The rule, written out: --profile, else LOOPS_API_KEY, else LOOPSCTL_PROFILE, else the default (auth switch), else "default". */
  function expected({ flag, envKey, envProfile, recorded }: (typeof cases)[number]): { key?: string; chosenBy: string; profile: string | null } {
    if (flag !== undefined) return { key: KEY_OF[flag], chosenBy: '--profile', profile: flag };
    if (envKey !== undefined) return { key: envKey, chosenBy: 'LOOPS_API_KEY', profile: null };
    if (envProfile !== undefined) return { key: KEY_OF[envProfile], chosenBy: 'LOOPSCTL_PROFILE', profile: envProfile };
    if (recorded !== undefined) return { key: KEY_OF[recorded], chosenBy: 'auth switch', profile: recorded };
    return { key: KEY_OF.default, chosenBy: 'default', profile: 'default' };
  }

  it(`follows --profile > LOOPS_API_KEY > LOOPSCTL_PROFILE > default profile in all ${cases.length} combinations`, async () => {
    const dirs = { plain: await threeProfiles(), switched: await threeProfiles('work') };
    for (const combination of cases) {
      const { flag, envKey, envProfile, recorded } = combination;
      const want = expected(combination);
      const label = JSON.stringify(combination);
      const dir = recorded === undefined ? dirs.plain : dirs.switched;
      const before = api.requests.length;
      const result = await inDir(dir, [...(flag ? ['--profile', flag] : []), 'auth', 'status', '--json'], {
        LOOPS_API_KEY: envKey,
        LOOPSCTL_PROFILE: envProfile,
      });
      if (want.key === undefined) {
        expect(result.code, label).toBe(3);
        expect(api.requests.length, label).toBe(before);
        const { error } = JSON.parse(result.stderr);
        expect(error.code, label).toBe('no_key');
        if (flag !== undefined) expect(error.hint, label).toContain('auth login --profile missing');
        else expect(error.message, label).toBe('no API key for profile "missing" (named by LOOPSCTL_PROFILE)');
        continue;
      }
      expect(result.code, `${label}: ${result.stderr}`).toBe(0);
      expect(result.json(), label).toMatchObject({ profile: want.profile, chosenBy: want.chosenBy, storage: want.profile === null ? null : 'file' });
      expect(api.requests.at(-1)!.headers.authorization, label).toBe(`Bearer ${want.key}`);
    }
  });

  it('explains its choice on the status screen', async () => {
    const dir = await threeProfiles('work');
    const status = await inDir(dir, ['auth', 'status']);
    expect(status.stdout).toContain('profile\twork\n');
    expect(status.stdout).toContain('why\tthe default profile (set with `loopsctl auth switch`)\n');
    expect(status.stdout).toContain(`storage\t${join(dir, 'config.json')} (readable by you only)\n`);
    const named = await inDir(dir, ['auth', 'status'], { LOOPSCTL_PROFILE: 'ci' });
    expect(named.stdout).toContain('why\tnamed by LOOPSCTL_PROFILE\n');
  });
});

describe('auth list', () => {
  it('lists every profile, the default, where its key lives and its recorded team', async () => {
    const dir = tempDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, { input: KEYS.valid });
    await inDir(dir, ['auth', 'login', '--with-key-stdin', '--skip-verify', '--profile', 'staging'], {}, { input: KEYS.noDomain });
    expect((await inDir(dir, ['auth', 'list', '--json'])).json()).toEqual([
      { profile: 'default', default: true, storage: 'file', teamName: 'Acme Inc', readOnly: false },
      { profile: 'staging', default: false, storage: 'file', teamName: null, readOnly: false },
    ]);
    // A check records the team only when asked.
    expect((await inDir(dir, ['--profile', 'staging', 'auth', 'status'])).code).toBe(0);
    expect((await inDir(dir, ['auth', 'list', '--json'])).json()).toContainEqual(expect.objectContaining({ profile: 'staging', teamName: null }));
    expect((await inDir(dir, ['--profile', 'staging', 'auth', 'status', '--record-team'])).code).toBe(0);
    expect((await inDir(dir, ['auth', 'switch', 'staging'])).code).toBe(0);
    const table = await inDir(dir, ['auth', 'ls']);
    expect(table).toMatchObject({ code: 0, stderr: '' });
    expect(table.stdout).toBe('PROFILE\tDEFAULT\tKEY IN\tREAD-ONLY\tTEAM\ndefault\t\tfile\t\tAcme Inc\nstaging\tyes\tfile\t\tAcme Inc\n');
  });

  it('says so when there is none, and that LOOPS_API_KEY overrides them when set', async () => {
    const dir = tempDir();
    expect(await inDir(dir, ['auth', 'list'])).toMatchObject({ code: 0, stdout: 'No profiles are stored; store a key with `loopsctl auth login`.\n' });
    await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, { input: KEYS.valid });
    const overridden = await inDir(dir, ['auth', 'list'], { LOOPS_API_KEY: KEYS.noContent });
    expect(overridden.stderr).toBe('Note: LOOPS_API_KEY is set: commands without --profile use it, not a stored profile.\n');
  });
});

describe('auth switch, rename and remove', () => {
  it('switch (or use) makes a stored profile the default, and refuses one that is not stored', async () => {
    const dir = await threeProfiles();
    expect(await inDir(dir, ['auth', 'use', 'ci'])).toMatchObject({ code: 0, stdout: 'Commands now use profile "ci" by default.\n' });
    expect(config(dir).defaultProfile).toBe('ci');
    const missing = await inDir(dir, ['auth', 'switch', 'nope']);
    expect(missing).toMatchObject({ code: 2, stderr: 'Error: there is no profile "nope"\nHint: see the profiles with `loopsctl auth list`\n' });
    expect(config(dir).defaultProfile).toBe('ci');
    const noted = await inDir(dir, ['auth', 'switch', 'work'], { LOOPS_API_KEY: KEYS.noContent });
    expect(noted.stderr).toBe('Note: LOOPS_API_KEY is set, and is used instead of any profile until it is unset.\n');
  });

  it('rename keeps the key, the order and the default, and refuses a taken or impossible name', async () => {
    const dir = await threeProfiles('work');
    expect(await inDir(dir, ['auth', 'rename', 'work', 'job'])).toMatchObject({ code: 0, stdout: 'Renamed profile "work" to "job".\n' });
    expect(Object.keys(config(dir).profiles)).toEqual(['default', 'job', 'ci']);
    expect(config(dir).defaultProfile).toBe('job');
    expect((await inDir(dir, ['auth', 'status', '--json'])).json()).toMatchObject({ profile: 'job', chosenBy: 'auth switch' });
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.noDomain}`);
    expect(await inDir(dir, ['auth', 'rename', 'job', 'ci'])).toMatchObject({ code: 2, stderr: expect.stringContaining('there is already a profile "ci"') });
    expect(await inDir(dir, ['auth', 'rename', 'job', '__proto__'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"__proto__" cannot be a profile name'),
    });
    expect(await inDir(dir, ['auth', 'rename', 'nope', 'x'])).toMatchObject({ code: 2, stderr: expect.stringContaining('there is no profile "nope"') });
    expect(Object.keys(config(dir).profiles)).toEqual(['default', 'job', 'ci']);
  });

  it('remove asks for --yes off a terminal, then forgets the profile and, when it was the default, the default', async () => {
    const dir = await threeProfiles('work');
    const unconfirmed = await inDir(dir, ['auth', 'remove', 'work']);
    expect(unconfirmed).toMatchObject({ code: 2, stderr: expect.stringContaining('pass --yes') });
    expect(Object.keys(config(dir).profiles)).toContain('work');
    expect(await inDir(dir, ['auth', 'remove', 'work', '--yes'])).toMatchObject({ code: 0, stdout: 'Removed profile "work" and its key.\n' });
    expect(config(dir)).toEqual({ profiles: { default: expect.any(Object), ci: expect.any(Object) } });
    expect((await inDir(dir, ['auth', 'status', '--json'])).json()).toMatchObject({ profile: 'default', chosenBy: 'default' });
    expect(await inDir(dir, ['auth', 'remove', 'work', '--yes'])).toMatchObject({ code: 2, stderr: expect.stringContaining('there is no profile "work"') });
  });

  it('renaming or removing a profile that is not the default leaves the default as it was', async () => {
    const dir = await threeProfiles('ci');
    expect(await inDir(dir, ['auth', 'rename', 'work', 'job'])).toMatchObject({ code: 0, stdout: 'Renamed profile "work" to "job".\n' });
    expect(config(dir).defaultProfile).toBe('ci');
    expect(await inDir(dir, ['auth', 'remove', 'job', '--yes'])).toMatchObject({ code: 0, stdout: 'Removed profile "job" and its key.\n' });
    expect(config(dir).defaultProfile).toBe('ci');
    expect(Object.keys(config(dir).profiles)).toEqual(['default', 'ci']);
    expect((await inDir(dir, ['auth', 'status', '--json'])).json()).toMatchObject({ profile: 'ci', chosenBy: 'auth switch' });
  });

  it('the first profile stored becomes the default, whatever its name', async () => {
    const dir = tempDir();
    const login = await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'staging'], {}, { input: KEYS.noDomain });
    expect(login.stdout).toContain('Commands use profile "staging" by default (change it with `loopsctl auth switch`).\n');
    await inDir(dir, ['ips', 'list']);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.noDomain}`);
  });
});

describe('auth token', () => {
  it('prints the key a command would use into a pipe, and on a terminal only with --show', async () => {
    const dir = await threeProfiles();
    expect(await inDir(dir, ['auth', 'token'])).toEqual(expect.objectContaining({ code: 0, stdout: `${KEYS.valid}\n`, stderr: '' }));
    expect((await inDir(dir, ['auth', 'token', '--profile', 'work'])).stdout).toBe(`${KEYS.noDomain}\n`);
    expect((await inDir(dir, ['auth', 'token'], { LOOPS_API_KEY: KEYS.noContent })).stdout).toBe(`${KEYS.noContent}\n`);
    const terminal = await inDir(dir, ['auth', 'token'], {}, { tty: { columns: 80 } });
    expect(terminal).toMatchObject({ code: 2, stdout: '' });
    expect(terminal.stderr).toContain('the key is not printed on a terminal');
    expect(terminal.stderr).not.toContain(KEYS.valid);
    expect((await inDir(dir, ['auth', 'token', '--show'], {}, { tty: { columns: 80 } })).stdout).toBe(`${KEYS.valid}\n`);
  });
});

describe('profile names', () => {
  it('__proto__ and other names outside the alphabet are refused before the key is read, and nothing is stored', async () => {
    const dir = tempDir();
    const before = api.requests.length;
    for (const name of ['__proto__', '-x', 'a b', 'é']) {
      const result = await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', name], {}, { input: KEYS.valid });
      expect(result, name).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr, name).toContain('cannot be a profile name');
    }
    expect(() => readFileSync(join(dir, 'config.json'))).toThrow();
    expect(api.requests.length).toBe(before);
  });

  it('that an object inherits (constructor, toString) are profiles like any other, or not there at all', async () => {
    const dir = tempDir();
    expect((await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'constructor'], {}, { input: KEYS.noDomain })).code).toBe(0);
    await inDir(dir, ['--profile', 'constructor', 'ips', 'list']);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.noDomain}`);
    const inherited = await inDir(dir, ['--profile', 'toString', 'ips', 'list']);
    expect(inherited).toMatchObject({ code: 3, stderr: expect.stringContaining('no API key for profile "toString"') });
  });
});

describe('keys and config as people write them', () => {
  it('a config.json holding {} is an empty config', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{}', { mode: 0o600 });
    expect(await inDir(dir, ['auth', 'list', '--json'])).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(await inDir(dir, ['ips', 'list'])).toMatchObject({
      code: 3,
      stderr: 'Error: no API key\nHint: run `loopsctl auth login` or set LOOPS_API_KEY; or try it with no key against the built-in sandbox: --sandbox\n',
    });
    expect((await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, { input: KEYS.valid })).code).toBe(0);
    expect((await inDir(dir, ['ips', 'list'])).code).toBe(0);
  });

  it('a key with a line end, in LOOPS_API_KEY or written into the file by hand, is trimmed', async () => {
    const dir = tempDir();
    expect((await inDir(dir, ['ips', 'list'], { LOOPS_API_KEY: `${KEYS.valid}\n` })).code).toBe(0);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.valid}`);
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { apiKey: `${KEYS.noDomain}\r\n` } } }), { mode: 0o600 });
    expect((await inDir(dir, ['ips', 'list'])).code).toBe(0);
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEYS.noDomain}`);
  });
});

describe('a refused key', () => {
  it('from LOOPS_API_KEY says that the variable is what is wrong', async () => {
    const result = await inDir(tempDir(), ['ips', 'list'], { LOOPS_API_KEY: 'wrong-key-0000000' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Error: .* \(the key in the environment variable LOOPS_API_KEY\)\n/);
    expect(result.stderr).toContain('Hint: check the value of LOOPS_API_KEY, or unset it to use a stored profile');
    expect(result.stderr).not.toContain('wrong-key-0000000');
  });

  it('of --profile x keeps --profile x in the commands it suggests', async () => {
    const dir = tempDir();
    await inDir(dir, ['auth', 'login', '--with-key-stdin', '--skip-verify', '--profile', 'x'], {}, { input: 'wrong-key-0000000' });
    const result = await inDir(dir, ['--profile', 'x', 'ips', 'list']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('(the key of profile "x")');
    expect(result.stderr).toContain('Hint: check the key with `loopsctl auth status --profile x`, or store a new one with `loopsctl auth login --profile x`\n');
    const status = await inDir(dir, ['--profile', 'x', 'auth', 'status']);
    expect(status.stderr).toContain('Hint: run `loopsctl auth login --profile x` to store a new key\n');
  });
});

describe('auth login', () => {
  it('warns that LOOPS_API_KEY will be used instead of the key it stored, as gh does for GH_TOKEN', async () => {
    const dir = tempDir();
    const result = await inDir(dir, ['auth', 'login', '--with-key-stdin'], { LOOPS_API_KEY: KEYS.noContent }, { input: KEYS.valid });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Warning: LOOPS_API_KEY is set in this environment and is used instead of stored keys; unset it to use this one.\n');
    // --profile wins over the variable: no warning.
    const named = await inDir(dir, ['auth', 'login', '--with-key-stdin', '--profile', 'p'], { LOOPS_API_KEY: KEYS.noContent }, { input: KEYS.valid });
    expect(named.stderr).toBe('');
  });

  it('warns too when a first login with --profile makes that profile the default, which the variable overrides', async () => {
    const result = await inDir(tempDir(), ['auth', 'login', '--with-key-stdin', '--profile', 'p'], { LOOPS_API_KEY: KEYS.noContent }, { input: KEYS.valid });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Commands use profile "p" by default');
    expect(result.stderr).toBe('Warning: LOOPS_API_KEY is set in this environment and is used instead of stored keys; unset it to use this one.\n');
  });

  it('refuses an unknown LOOPSCTL_KEY_STORAGE before reading the key', async () => {
    const result = await inDir(tempDir(), ['auth', 'login', '--with-key-stdin'], { LOOPSCTL_KEY_STORAGE: 'cloud' }, { input: KEYS.valid });
    expect(result).toMatchObject({ code: 2, stderr: expect.stringContaining('LOOPSCTL_KEY_STORAGE must be "keychain" or "file", not "cloud"') });
  });
});
