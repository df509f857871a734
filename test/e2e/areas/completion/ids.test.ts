import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxServer } from '../../../../src/emulator/server.js';
import { json, startApiServer } from '../../../support/api-server.js';
import { envelope } from '../../../support/fixtures.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';
import { needs } from '../../../support/programs.js';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sandboxWithCount() {
  const seen: string[] = [];
  server = await startTestSandbox({ onRequest: (req) => seen.push(req.path) });
  // The sandbox answers: a loaded machine must not cut it off at the second a Tab waits.
  return { seen, env: { ...sandboxEnv(server), LOOPSCTL_CONFIG_DIR: tempDir(), LOOPSCTL_COMPLETE_TIMEOUT: '100' } };
}

describe('completion of ids', () => {
  it('prints the ids of a list with their names, from one request', async () => {
    const { seen, env } = await sandboxWithCount();
    const themes = (await run(['themes', 'list', '--json'], { env })).json<{ id: string; name: string }[]>();
    seen.length = 0;
    const result = await run(['completion', '__ids', 'themes'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(themes.map((theme) => `${theme.id}\t${theme.name}\n`).join(''));
    expect(seen).toEqual(['/v1/themes']);
  });

  it('answers again from its cache for a minute, then asks the API', async () => {
    const { seen, env } = await sandboxWithCount();
    const start = Date.parse('2026-01-01T10:00:00Z');
    const at = (seconds: number) => ({ env, now: () => new Date(start + seconds * 1000) });
    const first = await run(['completion', '__ids', 'workflows'], at(0));
    const cached = await run(['completion', '__ids', 'workflows'], at(30));
    expect(cached.stdout).toBe(first.stdout);
    expect(seen).toHaveLength(1);
    await run(['completion', '__ids', 'workflows'], at(61));
    expect(seen).toHaveLength(2);
  });

  it("keeps the ids of one server apart from another's, under the same key", async () => {
    const { seen, env } = await sandboxWithCount();
    const other: string[] = [];
    const second = await startTestSandbox({ onRequest: (req) => other.push(req.path) });
    try {
      await run(['completion', '__ids', 'themes'], { env });
      const otherEnv = { ...sandboxEnv(second), LOOPSCTL_CONFIG_DIR: env.LOOPSCTL_CONFIG_DIR };
      expect(otherEnv.LOOPS_API_KEY).toBe(env.LOOPS_API_KEY);
      expect(otherEnv.LOOPS_BASE_URL).not.toBe(env.LOOPS_BASE_URL);
      await run(['completion', '__ids', 'themes'], { env: otherEnv });
      expect(seen).toEqual(['/v1/themes']);
      expect(other).toEqual(['/v1/themes']);
    } finally {
      await second.close();
    }
  });

  it('prints nothing and succeeds when the API cannot be reached, or what the cache still holds', async () => {
    const { env } = await sandboxWithCount();
    const start = Date.parse('2026-01-01T10:00:00Z');
    const cachedLines = (await run(['completion', '__ids', 'themes'], { env, now: () => new Date(start) })).stdout;
    await server!.close();
    server = undefined;
    const stale = await run(['completion', '__ids', 'themes'], { env, now: () => new Date(start + 3600_000) });
    expect(stale).toMatchObject({ code: 0, stdout: cachedLines, stderr: '' });
    const nothing = await run(['completion', '__ids', 'themes'], { env: { ...env, LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(nothing).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const noKey = await run(['completion', '__ids', 'themes'], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(noKey).toMatchObject({ code: 0, stdout: '' });
  });

  it('makes one attempt only, whatever --retries says, so a Tab never waits for retries', async () => {
    const api = await startApiServer({ 'GET /v1/themes': (_req, res) => json(res, 503, { message: 'busy' }) });
    try {
      const result = await run(['--retries', '5', 'completion', '__ids', 'themes'], {
        env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url, LOOPSCTL_CONFIG_DIR: tempDir() },
      });
      expect(result).toMatchObject({ code: 0, stdout: '' });
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('waits a second for the API, or the seconds of LOOPSCTL_COMPLETE_TIMEOUT', async () => {
    // A slow line: the list comes a little after the second a Tab waits.
    const api = await startApiServer({
      'GET /v1/themes': (_req, res) => void setTimeout(() => json(res, 200, envelope([{ id: 'cw1', name: 'Welcome' }])), 1200),
    });
    try {
      const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url };
      const cut = await run(['completion', '__ids', 'themes'], { env: { ...env, LOOPSCTL_CONFIG_DIR: tempDir() } });
      expect(cut).toMatchObject({ code: 0, stdout: '' });
      const waited = await run(['completion', '__ids', 'themes'], { env: { ...env, LOOPSCTL_CONFIG_DIR: tempDir(), LOOPSCTL_COMPLETE_TIMEOUT: '100' } });
      expect(waited).toMatchObject({ code: 0, stdout: 'cw1\tWelcome\n' });
    } finally {
      await api.close();
    }
  });

  it('keeps the key out of its cache file', async () => {
    const { env } = await sandboxWithCount();
    await run(['completion', '__ids', 'themes'], { env });
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(`${env.LOOPSCTL_CONFIG_DIR}/completion-ids.json`, 'utf8')).not.toContain(env.LOOPS_API_KEY);
  });

  it('is hidden from help', async () => {
    expect((await run(['completion', '--help'])).stdout).not.toContain('__ids');
  });

  it('is asked by the bash script only with LOOPSCTL_COMPLETE_IDS=1, with the account the line chooses', async () => {
    const script = (await run(['completion', 'bash'])).stdout;
    // A function stands in for loopsctl: it records how it was called and answers two ids.
    const complete = (words: string[], ids: boolean) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${script}
loopsctl() { echo "$*" > "$CALLS"; printf 'cw1\\tWelcome\\ncw2\\tOnboarding\\n'; }
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
__loopsctl_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8', env: { PATH: process.env.PATH, CALLS: `${tempDir()}/calls`, LOOPSCTL_COMPLETE_IDS: ids ? '1' : '' } },
      );
    const withIds = complete(['loopsctl', '--sandbox', 'workflows', 'get', 'cw'], true);
    expect(withIds.stdout).toBe('cw1\ncw2\n');
    const themes = complete(['loopsctl', '--profile', 'work', 'themes', 'get', ''], true);
    expect(themes.stdout).toBe('cw1\ncw2\n');
    expect(complete(['loopsctl', 'workflow', 'show', ''], false).stdout.trim()).toBe('');
    expect(complete(['loopsctl', 'themes', 'list', ''], true).stdout.trim()).toBe('');
  });

  it('passes the list and the chosen account to loopsctl', async () => {
    const script = (await run(['completion', 'bash'])).stdout;
    const calls = `${tempDir()}/calls`;
    spawnSync(
      'bash',
      ['-c', `${script}\nloopsctl() { echo "$*" > "$CALLS"; }\nCOMP_WORDS=(loopsctl --profile work workflow show ''); COMP_CWORD=5\n__loopsctl_complete`],
      { encoding: 'utf8', env: { PATH: process.env.PATH, CALLS: calls, LOOPSCTL_COMPLETE_IDS: '1' } },
    );
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(calls, 'utf8').trim().split(/\s+/)).toEqual(['--profile', 'work', 'completion', '__ids', 'workflows']);
  });

  const zsh = needs('zsh');
  const fish = needs('fish');

  it.skipIf(zsh.skip)(zsh.title('zsh offers the ids with their names, asking with the account the line chooses'), async () => {
    const script = (await run(['completion', 'zsh'])).stdout;
    const calls = `${tempDir()}/calls`;
    // Stand-ins for compsys print what they are given; one for loopsctl records its arguments.
    const driver = `${script}
compdef() { :; }
_describe() { local name=$4; print -l -- "\${(@P)name}"; }
_files() { print FILES; }
loopsctl() { print -r -- "\${(j:|:)@}" > "$CALLS"; printf 'cw1\tWelcome: new\ncw2\tOnboarding\n'; }
words=(loopsctl --sandbox workflows get ''); CURRENT=5
_loopsctl`;
    // From a file: the whole script is too long for one command-line argument.
    const driverFile = `${tempDir()}/driver.zsh`;
    writeFileSync(driverFile, driver);
    const result = spawnSync('zsh', [driverFile], { encoding: 'utf8', env: { PATH: process.env.PATH, CALLS: calls, LOOPSCTL_COMPLETE_IDS: '1' } });
    expect(result.stdout).toBe('cw1:Welcome: new\ncw2:Onboarding\n');
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(calls, 'utf8')).toBe('--sandbox|completion|__ids|workflows\n');
  });

  it.skipIf(fish.skip)(fish.title('fish offers the ids with their names'), async () => {
    const script = (await run(['completion', 'fish'])).stdout;
    const driver = `${script}
function loopsctl; printf 'cw1\tWelcome\ncw2\tOnboarding\n'; end
complete -C 'loopsctl --sandbox themes get '`;
    // From a file, as for zsh: the whole script is too long for one command-line argument.
    const driverFile = `${tempDir()}/driver.fish`;
    writeFileSync(driverFile, driver);
    const result = spawnSync('fish', ['--no-config', driverFile], { encoding: 'utf8', env: { PATH: process.env.PATH, LOOPSCTL_COMPLETE_IDS: '1' } });
    expect(result.error).toBeUndefined();
    expect(result.stdout).toBe('cw1\tWelcome\ncw2\tOnboarding\n');
  });

  describe('--profile=<name> chooses the account as --profile <name> does', () => {
    const calls = () => `${tempDir()}/calls`;
    const asked = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split(/[\s|]+/);
    const chosen = ['--profile', 'staging', 'completion', '__ids', 'workflows'];

    it('in bash, which splits it into three words: --profile, =, staging', async () => {
      const script = (await run(['completion', 'bash'])).stdout;
      const file = calls();
      spawnSync(
        'bash',
        [
          '-c',
          `${script}\nloopsctl() { echo "$*" > "$CALLS"; }\nCOMP_WORDS=(loopsctl --profile = staging workflow show ''); COMP_CWORD=6\n__loopsctl_complete`,
        ],
        { env: { PATH: process.env.PATH, CALLS: file, LOOPSCTL_COMPLETE_IDS: '1' } },
      );
      expect(asked(file)).toEqual(chosen);
    });

    it.skipIf(zsh.skip)(zsh.title('in zsh'), async () => {
      const file = calls();
      const driverFile = `${tempDir()}/driver.zsh`;
      writeFileSync(
        driverFile,
        `compdef() { :; }\n${(await run(['completion', 'zsh'])).stdout}
_describe() { :; }
loopsctl() { print -r -- "\${(j:|:)@}" > "$CALLS"; }
words=(loopsctl --profile=staging workflow show ''); CURRENT=5
_loopsctl`,
      );
      spawnSync('zsh', [driverFile], { env: { PATH: process.env.PATH, CALLS: file, LOOPSCTL_COMPLETE_IDS: '1' } });
      expect(asked(file)).toEqual(chosen);
    });

    it.skipIf(fish.skip)(fish.title('in fish'), async () => {
      const file = calls();
      const driverFile = `${tempDir()}/driver.fish`;
      writeFileSync(
        driverFile,
        `${(await run(['completion', 'fish'])).stdout}
function loopsctl; echo $argv > $CALLS; end
complete -C 'loopsctl --profile=staging workflow show '`,
      );
      spawnSync('fish', ['--no-config', driverFile], { env: { PATH: process.env.PATH, CALLS: file, LOOPSCTL_COMPLETE_IDS: '1' } });
      expect(asked(file)).toEqual(chosen);
    });
  });

  it('is wired into the zsh and fish scripts too', async () => {
    const zsh = (await run(['completion', 'zsh'])).stdout;
    // Its branch, which the other paths that complete workflow ids share.
    expect(zsh).toMatch(/[\s|]'workflow show'(\|'[^']*')*\) echo workflows ;;/);
    expect(zsh).toContain('_describe -t ids id entries');
    const fish = (await run(['completion', 'fish'])).stdout;
    expect(fish).toContain("-a '(__loopsctl_complete_ids themes)'");
    expect(fish).toContain('completion __ids $argv[1]');
  });
});

describe('the id completion cache', () => {
  const start = Date.parse('2026-01-01T10:00:00Z');
  const at = (env: Record<string, string>, seconds: number) => ({ env, now: () => new Date(start + seconds * 1000) });

  /** A cache made by one run, then changed as an attacker would: the same account's entry, other lines. */
  async function poisonedCache(change: (entry: { at: number; lines: string[] }) => void) {
    const { seen, env } = await sandboxWithCount();
    const honest = (await run(['completion', '__ids', 'themes'], at(env, 0))).stdout;
    const file = join(env.LOOPSCTL_CONFIG_DIR, 'completion-ids.json');
    const cache = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { at: number; lines: string[] }>;
    for (const entry of Object.values(cache)) change(entry);
    writeFileSync(file, JSON.stringify(cache), { mode: 0o600 });
    seen.length = 0;
    return { seen, env, honest, file };
  }

  it('prints what it holds with control characters escaped, and no id outside the safe alphabet', async () => {
    const { env, seen } = await poisonedCache((entry) => (entry.lines = ['ok1\tRed\u001b]0;pwned\u0007', '$(touch pwned)\tx', '`id`\ty', 'ok2']));
    const result = await run(['completion', '__ids', 'themes'], at(env, 10));
    expect(result.stdout).toBe('ok1\tRed\\x1b]0;pwned\\x07\nok2\t\n');
    expect(seen).toEqual([]);
  });

  it('takes an entry dated in the future for expired', async () => {
    const { env, seen, honest } = await poisonedCache((entry) => {
      entry.at = start + 365 * 86400_000;
      entry.lines = ['planted\tForever'];
    });
    const result = await run(['completion', '__ids', 'themes'], at(env, 10));
    expect(result.stdout).toBe(honest);
    expect(seen).toEqual(['/v1/themes']);
  });

  it('neither reads nor writes a cache in a directory others can write', async () => {
    const { env, seen, honest, file } = await poisonedCache((entry) => (entry.lines = ['planted\tBy others']));
    chmodSync(env.LOOPSCTL_CONFIG_DIR, 0o777);
    const result = await run(['completion', '__ids', 'themes'], at(env, 10));
    expect(result.stdout).toBe(honest);
    expect(seen).toEqual(['/v1/themes']);
    expect(readFileSync(file, 'utf8')).toContain('planted');
  });

  it('neither follows nor writes through a symlink planted at its path', async () => {
    const { env } = await sandboxWithCount();
    const target = join(tempDir(), 'target.json');
    const file = join(env.LOOPSCTL_CONFIG_DIR, 'completion-ids.json');
    symlinkSync(target, file);
    const result = await run(['completion', '__ids', 'themes'], { env });
    expect(result.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    // A cache read through a link is not trusted either.
    const elsewhere = join(tempDir(), 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(file));
    const cache = JSON.parse(readFileSync(elsewhere, 'utf8')) as Record<string, { at: number; lines: string[] }>;
    for (const entry of Object.values(cache)) entry.lines = ['linked\tVia a link'];
    writeFileSync(elsewhere, JSON.stringify(cache));
    rmSync(file);
    symlinkSync(elsewhere, file);
    expect((await run(['completion', '__ids', 'themes'], { env })).stdout).not.toContain('linked');
  });

  it('ignores a cache larger than any it writes, and keeps its own small', async () => {
    const { env, seen } = await poisonedCache((entry) => (entry.lines = Array.from({ length: 100_000 }, (_, index) => `id${index}\tPadding to make it large`)));
    const result = await run(['completion', '__ids', 'themes'], at(env, 10));
    expect(result.stdout).not.toContain('Padding');
    expect(seen).toEqual(['/v1/themes']);
    expect(statSync(join(env.LOOPSCTL_CONFIG_DIR, 'completion-ids.json')).size).toBeLessThan(64 * 1024);
  });
});
