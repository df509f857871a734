/**
 * A config directory or file someone else prepared: loopsctl refuses what it cannot trust, never
 * writes through a planted link, never chmods a directory it did not create, and logins at once
 * all keep their keys (in processes of their own over a stale lock: test/spawned/config/config-files.test.ts).
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../support/run-cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

function login(dir: string, profile: string, key: string, extra: string[] = []) {
  return runCli(['auth', 'login', '--with-key-stdin', '--skip-verify', '--profile', profile, ...extra], { env: { LOOPSCTL_CONFIG_DIR: dir }, input: key });
}

describe('the config directory', () => {
  it('writable by others is refused with exit 2, its path and how to fix it, and is not chmodded', async () => {
    const dir = join(tempConfigDir(), 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const result = await login(dir, 'default', 'sk-test-shared-dir', ['--json']);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr);
    expect(error).toMatchObject({ code: 'config', exitCode: 2 });
    expect(error.message).toBe(`the config directory ${dir} is not safe for API keys: others can write in it (mode 777)`);
    const text = await login(dir, 'default', 'sk-test-shared-dir');
    expect(text.stderr).toContain(`Hint: run \`chmod go-w ${dir}\`, or use another directory (LOOPSCTL_CONFIG_DIR)`);
    expect(mode(dir)).toBe(0o777);
    expect(() => lstatSync(join(dir, 'config.json'))).toThrow();
  });

  // Only root can give a file to another user.
  const root = process.getuid?.() === 0;
  it.runIf(root)(
    `owned by another user is refused, also for reading a key, and left as it was${root ? '' : ' (skipped: only root can make a file owned by another user)'}`,
    async () => {
      const dir = join(tempConfigDir(), 'theirs');
      mkdirSync(dir, { mode: 0o755 });
      writeFileSync(join(dir, 'config.json'), '{"profiles":{"default":{"apiKey":"sk-test-planted"}}}', { mode: 0o644 });
      chownSync(dir, 4242, 4242);
      for (const args of [
        ['auth', 'login', '--with-key-stdin', '--skip-verify'],
        ['ips', 'list'],
      ]) {
        const result = await runCli(args, { env: { LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: 'http://127.0.0.1:9' }, input: 'sk-test-mine' });
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`Error: the config directory ${dir} is not safe for API keys: it belongs to another user (uid 4242)`);
        expect(result.stderr).toContain(`Hint: use a directory of your own (LOOPSCTL_CONFIG_DIR), or make it yours with \`chown`);
      }
      expect(mode(dir)).toBe(0o755);
      expect(statSync(dir).uid).toBe(4242);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toContain('sk-test-planted');
    },
  );

  it('that is a file is refused with exit 2 and one line naming it, by a login and by sandbox commands', async () => {
    const dir = join(tempConfigDir(), 'a-file');
    writeFileSync(dir, '');
    for (const args of [
      ['auth', 'login', '--with-key-stdin', '--skip-verify'],
      ['sandbox', 'reset'],
      ['--sandbox', 'contacts', 'find', '--email', 'ada@example.com'],
    ]) {
      const result = await runCli(args, { env: { LOOPSCTL_CONFIG_DIR: dir }, input: 'sk-test-file-dir' });
      expect([result.code, result.stderr], args.join(' ')).toEqual([
        2,
        `Error: loopsctl cannot keep its files in ${dir}: it is a file, not a directory\nHint: move the file at ${dir} aside, or set LOOPSCTL_CONFIG_DIR to a directory of your own\n`,
      ]);
    }
    expect(readFileSync(dir, 'utf8')).toBe('');
  });

  // Root may write in any directory, whatever its mode.
  it.skipIf(root)(
    `that this user cannot write in is refused with exit 2 and one line naming it${root ? ' (skipped: root writes in any directory)' : ''}`,
    async () => {
      const dir = join(tempConfigDir(), 'read-only');
      mkdirSync(dir, { mode: 0o500 });
      for (const args of [
        ['auth', 'login', '--with-key-stdin', '--skip-verify'],
        ['sandbox', 'reset'],
        ['--sandbox', 'contacts', 'find', '--email', 'ada@example.com'],
      ]) {
        const result = await runCli(args, { env: { LOOPSCTL_CONFIG_DIR: dir }, input: 'sk-test-read-only-dir' });
        expect([result.code, result.stderr], args.join(' ')).toEqual([
          2,
          `Error: loopsctl cannot keep its files in ${dir}: this user cannot write in it\nHint: fix its permissions (\`chmod u+rwx ${dir}\`), or set LOOPSCTL_CONFIG_DIR to a directory of your own\n`,
        ]);
      }
      chmodSync(dir, 0o700);
    },
  );

  it('that does not exist yet is created for the user alone', async () => {
    const dir = join(tempConfigDir(), 'new', 'loopsctl');
    expect((await login(dir, 'default', 'sk-test-new-dir')).code).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });
});

describe('the config file', () => {
  it('holding a key that others can read is refused before the key is used, with the chmod that fixes it', async () => {
    const dir = tempConfigDir();
    expect((await login(dir, 'default', 'sk-test-readable')).code).toBe(0);
    chmodSync(join(dir, 'config.json'), 0o644);
    const result = await runCli(['ips', 'list'], { env: { LOOPSCTL_CONFIG_DIR: dir, LOOPS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Error: the config file ${join(dir, 'config.json')} is not safe for API keys: it holds an API key and others can read it (mode 644)`,
    );
    expect(result.stderr).toContain(`Hint: run \`chmod 600 ${join(dir, 'config.json')}\``);
    expect(result.stderr).not.toContain('sk-test-readable');
  });

  it('is never written through a symlink planted at its path: the link is replaced, its target untouched', async () => {
    const dir = tempConfigDir();
    const elsewhere = join(tempConfigDir(), 'collected.json');
    const planted = '{"profiles":{}}';
    writeFileSync(elsewhere, planted, { mode: 0o644 });
    symlinkSync(elsewhere, join(dir, 'config.json'));

    expect((await login(dir, 'default', 'sk-test-through-link')).code).toBe(0);
    expect(readFileSync(elsewhere, 'utf8')).toBe(planted);
    expect(mode(elsewhere)).toBe(0o644);
    const file = lstatSync(join(dir, 'config.json'));
    expect(file.isSymbolicLink()).toBe(false);
    expect(file.mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { apiKey: 'sk-test-through-link', keyStorage: 'file' } },
    });
  });

  it('keeps every key when several logins run at once', async () => {
    const dir = tempConfigDir();
    const profiles = Array.from({ length: 8 }, (_, index) => `p${index}`);
    const results = await Promise.all(profiles.map((profile) => login(dir, profile, `sk-test-parallel-${profile}`)));
    expect(results.map((result) => result.code)).toEqual(profiles.map(() => 0));
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(stored).sort()).toEqual(profiles);
    for (const profile of profiles) expect(stored[profile].apiKey).toBe(`sk-test-parallel-${profile}`);
    expect(() => lstatSync(join(dir, 'config.json.lock'))).toThrow();
  });
});
