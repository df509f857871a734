/**
 * The root of `loopsctl mcp`: a path under it is taken only when no part of it that exists is a
 * symbolic link, wherever the link leads (out, nowhere yet, back inside).
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathUnder, placeUnder } from '../../../src/core/root.js';
import { tempDir } from '../../support/temp.js';

function root(): { root: string; outside: string } {
  const dir = tempDir('loopsctl-root-');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'file.txt'), 'x');
  return { root: dir, outside: tempDir('loopsctl-outside-') };
}

describe('pathUnder', () => {
  it('takes a path under the root, existing or not, as the root and the path below it', () => {
    const { root: dir } = root();
    const real = realpathSync(dir);
    expect(placeUnder(dir, 'sub/file.txt', 'file')).toEqual({ root: real, path: join('sub', 'file.txt'), full: join(real, 'sub', 'file.txt') });
    expect(pathUnder(dir, 'sub/new/out.html', 'out')).toBe(join(real, 'sub', 'new', 'out.html'));
  });

  it('refuses .. and an absolute path elsewhere', () => {
    const { root: dir, outside } = root();
    for (const path of ['../x', join(outside, 'x'), 'sub/../../x'])
      expect(() => pathUnder(dir, path, '"out"'), path).toThrow(`"out" "${path}" is outside the directory this server may use`);
  });

  it('refuses a link out, a dangling link (a write would create its target), and a link that stays inside', () => {
    const { root: dir, outside } = root();
    symlinkSync(outside, join(dir, 'out'));
    symlinkSync(join(outside, 'authorized_keys'), join(dir, 'dangling.html'));
    symlinkSync(join(dir, 'sub'), join(dir, 'inner'));
    expect(() => pathUnder(dir, 'out/x', '"out"')).toThrow('is outside the directory this server may use');
    expect(() => pathUnder(dir, 'dangling.html', '"out"')).toThrow('"out" "dangling.html" passes through a symbolic link (dangling.html)');
    expect(() => pathUnder(dir, 'inner/file.txt', '"file"')).toThrow('"file" "inner/file.txt" passes through a symbolic link (inner)');
  });
});
