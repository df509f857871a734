/**
 * A profile logged in with --base-url keeps it: its commands go there (not to the platform) unless
 * a run names another address with --base-url or LOOPS_BASE_URL; `auth list` shows it. Requests
 * that would leave for the platform go to a proxy that is not there, so nothing leaves the machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../../support/fixture-sandbox.js';
import { run, tempDir } from '../../support/main.js';

let api: FixtureSandbox;
beforeAll(async () => {
  api = await startFixtureSandbox();
});
afterAll(() => api.close());

/** Nothing for the platform gets further than this address, where nothing listens. */
const NOWHERE = 'http://127.0.0.1:9';

function inDir(dir: string, args: string[], env: Record<string, string> = {}, input?: string) {
  return run(args, { env: { LOOPSCTL_CONFIG_DIR: dir, HTTPS_PROXY: NOWHERE, ...env }, input });
}

async function loggedInAt(url: string, profile?: string): Promise<string> {
  const dir = tempDir();
  const login = await inDir(dir, ['auth', 'login', '--with-key-stdin', '--base-url', url, ...(profile ? ['--profile', profile] : [])], {}, KEYS.valid);
  expect(login.code, login.stderr).toBe(0);
  expect(login.stdout).toContain(`Its commands go to ${url}`);
  return dir;
}

describe('a profile logged in with --base-url', () => {
  it('keeps the address: its next commands go there', async () => {
    const dir = await loggedInAt(api.url);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.baseUrl).toBe(api.url);
    const listed = await inDir(dir, ['themes', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json<unknown[]>().length).toBeGreaterThan(0);
  });

  it('is shown by auth list', async () => {
    const dir = await loggedInAt(api.url, 'staging');
    const listed = await inDir(dir, ['auth', 'list', '--json']);
    expect(listed.json()).toEqual([expect.objectContaining({ profile: 'staging', baseUrl: api.url })]);
    const text = await inDir(dir, ['auth', 'list']);
    expect(text.stdout).toContain('BASE URL');
    expect(text.stdout).toContain(api.url);
  });

  it('gives way to --base-url and LOOPS_BASE_URL for one run', async () => {
    const dir = await loggedInAt(api.url);
    for (const [args, env] of [
      [['--base-url', 'http://127.0.0.1:9'], {}],
      [[], { LOOPS_BASE_URL: 'http://127.0.0.1:9' }],
    ] as const) {
      const result = await inDir(dir, ['themes', 'list', '--json', '--retries', '0', ...args], env);
      expect(result.code).toBe(7);
      expect(result.stderr).toContain('127.0.0.1:9');
    }
  });

  it('is not used for a key from LOOPS_API_KEY, and a login again without --base-url keeps it', async () => {
    const dir = await loggedInAt(api.url);
    const fromEnv = await inDir(dir, ['themes', 'list', '--json', '--retries', '0'], { LOOPS_API_KEY: KEYS.valid });
    // To the platform, through the proxy where nothing listens (exit 10), not to the profile's address.
    expect(fromEnv.code).toBe(10);
    expect(fromEnv.stderr).toContain('127.0.0.1:9');
    const again = await inDir(dir, ['auth', 'login', '--with-key-stdin'], {}, KEYS.valid);
    expect(again.code, again.stderr).toBe(0);
    expect((await inDir(dir, ['auth', 'list', '--json'])).json()).toEqual([expect.objectContaining({ baseUrl: api.url })]);
  });
});
