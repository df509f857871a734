import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../src/config/store.js';
import { tempConfigDir } from '../support/run-cli.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('ProfileStore', () => {
  it('keeps the file 0600 in a 0700 directory, even when both were looser before', () => {
    const dir = join(tempConfigDir(), 'nested');
    const store = new ProfileStore(dir);
    store.setKey('default', 'sk-one');
    expect(mode(dir)).toBe(0o700);
    expect(mode(store.path)).toBe(0o600);

    writeFileSync(store.path, '{"profiles":{}}', { mode: 0o644 });
    const again = new ProfileStore(dir);
    again.setKey('default', 'sk-two');
    expect(mode(store.path)).toBe(0o600);
    expect(again.getKey('default')).toBe('sk-two');
  });

  it('writes atomically: a new file is renamed over the old one, and no temporary file is left', () => {
    const dir = tempConfigDir();
    const store = new ProfileStore(dir);
    store.setKey('default', 'sk-one');
    const before = statSync(store.path).ino;
    store.setKey('staging', 'sk-two');
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
