import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { ProfileStore, plainConfig, storedConfig } from '../../../src/config/store.js';

/** Stores a key in the file, as `auth login --insecure-storage` does. */
const setKey = (store: ProfileStore, profile: string, apiKey: string) => store.saveProfile(profile, { keyStorage: 'file', apiKey });

import { tempConfigDir } from '../../support/run-cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('ProfileStore', () => {
  it('keeps the file 0600 in a 0700 directory it created, even when the file was looser before', () => {
    const dir = join(tempConfigDir(), 'nested');
    const store = new ProfileStore(dir);
    setKey(store, 'default', 'sk-one');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);

    writeFileSync(store.path, '{"profiles":{}}', { mode: 0o644 });
    const again = new ProfileStore(dir);
    setKey(again, 'default', 'sk-two');
    expect(mode(store.path)).toBe(0o600);
    expect(again.profile('default')?.apiKey).toBe('sk-two');
  });

  it('writes atomically: a new file is renamed over the old one, and no temporary file is left', () => {
    const dir = tempConfigDir();
    const store = new ProfileStore(dir);
    setKey(store, 'default', 'sk-one');
    const before = statSync(store.path).ino;
    setKey(store, 'staging', 'sk-two');
    expect(statSync(store.path).ino).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(new ProfileStore(dir).profileNames()).toEqual(['default', 'staging']);
  });

  it('refuses a file of the wrong shape instead of rewriting it', () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": "none"}');
    expect(() => new ProfileStore(dir)).toThrow(/config file .*config\.json could not be read: profiles/);
  });
});

describe('ProfileStore changes', () => {
  it('keeps what else the file holds, and deletes only the profile named', () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { a: { apiKey: 'sk-a', note: 'kept' } }, other: 1 }), { mode: 0o600 });
    const store = new ProfileStore(dir);
    setKey(store, 'b', 'sk-b');
    expect(store.deleteProfile('missing')).toBeUndefined();
    expect(store.deleteProfile('b')).toEqual({ keyStorage: 'file', apiKey: 'sk-b' });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({ profiles: { a: { apiKey: 'sk-a', note: 'kept' } }, other: 1 });
  });

  it('waits for a lock held by another process, and ends with exit 2 naming the lock when it stays', () => {
    const dir = tempConfigDir();
    const store = new ProfileStore(dir, { waitMs: 50 });
    writeFileSync(`${store.path}.lock`, JSON.stringify({ pid: process.pid, since: Date.now() }));
    let error: unknown;
    try {
      setKey(store, 'default', 'sk-locked');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(LocalFileError);
    expect(error).toMatchObject({
      code: 'config',
      exitCode: 2,
      message: `the config file ${store.path} is locked: ${store.path}.lock is held by process ${process.pid}`,
    });
    expect((error as LocalFileError).hint).toContain(`${store.path}.lock`);
    expect(store.profile('default')).toBeUndefined();
  });

  it('refuses a config file others can write, or read while it holds a key, naming the fix', () => {
    const dir = tempConfigDir();
    const store = new ProfileStore(dir);
    setKey(store, 'default', 'sk-kept');
    chmodSync(store.path, 0o644);
    expect(() => new ProfileStore(dir)).toThrow(/config file .*config\.json is not safe for API keys: it holds an API key and others can read it \(mode 644\)/);
    // Caught, not in a catch block of the test's own, where the checks would vanish if nothing threw.
    expect(() => new ProfileStore(dir)).toThrow(
      expect.objectContaining({
        code: 'config',
        exitCode: 2,
        message: `the config file ${store.path} is not safe for API keys: it holds an API key and others can read it (mode 644)`,
        hint: expect.stringContaining(`chmod 600 ${store.path}`),
      }),
    );
    chmodSync(store.path, 0o640);
    expect(() => new ProfileStore(dir)).toThrow(/others can read it \(mode 640\)/);
    chmodSync(store.path, 0o600);
    expect(new ProfileStore(dir).profile('default')?.apiKey).toBe('sk-kept');

    // Without a key in it, reading is harmless; writable by others, it never is.
    writeFileSync(store.path, '{"profiles":{"work":{"keyStorage":"keychain","keychainAccount":"work@x"}}}');
    chmodSync(store.path, 0o644);
    expect(new ProfileStore(dir).profileNames()).toEqual(['work']);
    chmodSync(store.path, 0o666);
    expect(() => new ProfileStore(dir)).toThrow(/is not safe for API keys: others can write to it \(mode 666\)/);

    // One key in the file is enough, whatever the other profiles keep in the keychain.
    writeFileSync(store.path, '{"profiles":{"work":{"keyStorage":"keychain","keychainAccount":"work@x"},"ci":{"keyStorage":"file","apiKey":"sk-ci"}}}');
    chmodSync(store.path, 0o644);
    expect(() => new ProfileStore(dir)).toThrow(/it holds an API key and others can read it \(mode 644\)/);
  });

  it('refuses a config file that belongs to another user', (context) => {
    if (process.getuid?.() !== 0) {
      console.warn('skipped: giving a file to another user (chown) needs root');
      context.skip();
    }
    const dir = tempConfigDir();
    const store = new ProfileStore(dir);
    setKey(store, 'default', 'sk-kept');
    chownSync(store.path, 65534, 65534);
    expect(() => new ProfileStore(dir)).toThrow(/is not safe for API keys: it belongs to another user \(uid 65534\)/);
  });

  it("opens no file when the directory is not the user's own to keep keys in", () => {
    const dir = join(tempConfigDir(), 'open');
    mkdirSync(dir, { mode: 0o700 });
    chmodSync(dir, 0o770);
    expect(() => new ProfileStore(dir)).toThrow(/config directory .* is not safe for API keys: others can write in it \(mode 770\)/);
    expect(mode(dir)).toBe(0o770);
  });
});

describe('the config file read without zod', () => {
  const profile = { apiKey: 'k', keyStorage: 'file', keychainAccount: 'a', teamName: 't', readOnly: true, baseUrl: 'https://x.example' };
  const right = [
    {},
    { defaultProfile: 'work' },
    { profiles: {} },
    { profiles: { default: {} } },
    { profiles: { default: profile, other: { keyStorage: 'keychain', keychainAccount: 'other@x' } } },
    { profiles: { default: { apiKey: 'k', future: { kept: [1] } } }, later: 'kept as it is' },
  ];
  const wrong = [
    null,
    [],
    'text',
    { defaultProfile: 3 },
    { profiles: [] },
    { profiles: { default: null } },
    { profiles: { default: [] } },
    ...Object.keys(profile).flatMap((field) => [null, 1, { nested: true }].map((value) => ({ profiles: { default: { ...profile, [field]: value } } }))),
    { profiles: { default: { keyStorage: 'vault' } } },
    { profiles: { default: { readOnly: 'yes' } } },
  ];

  it('takes each value the schema takes, as the schema reads it', () => {
    for (const value of right) {
      expect(plainConfig(value), JSON.stringify(value)).toBe(true);
      expect(storedConfig.parse(value)).toEqual(value);
    }
  });

  it('keeps a profile named __proto__ a profile, where the schema would drop it', () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles":{"__proto__":{"keyStorage":"file","apiKey":"sk-proto"}}}', { mode: 0o600 });
    const store = new ProfileStore(dir);
    expect(store.profileNames()).toEqual(['__proto__']);
    expect(store.profile('__proto__')?.apiKey).toBe('sk-proto');
    expect(Object.prototype).not.toHaveProperty('apiKey');
  });

  it('leaves to the schema, which refuses it, each value of another shape', () => {
    for (const value of wrong) {
      expect(plainConfig(value), JSON.stringify(value)).toBe(false);
      expect(storedConfig.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });
});
