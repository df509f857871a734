/**
 * Walking a directory costs what it holds, whatever its depth: a chain of 1,000 directories (which
 * a repository can hold, and `content convert` or `migrate report` is pointed at) is read with one
 * listing per directory, not by looking again at every directory on the way down to each one
 * (1,000 x 1,000 looks, each at a path 1,000 names long: cubic). node:fs is wrapped while a walk
 * runs to count what it asks of it (test/support/patch-builtin.ts).
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { templateFiles } from '../../../src/areas/migrate/templates.js';
import { walkTree } from '../../../src/base/tree-files.js';
import { sourcesOf } from '../../../src/convert/sources/files.js';
import { patchBuiltin } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

const DEPTH = 1000;
let root: string;
let bottom: string;

beforeAll(() => {
  root = tempDir('loopsctl-walk-');
  // Made a level at a time from the one above: each path stays short for mkdir.
  let at = root;
  const path: string[] = [];
  for (let level = 0; level < DEPTH; level += 1) {
    fs.mkdirSync(join(at, 'd'));
    at = join(at, 'd');
    path.push('d');
  }
  bottom = path.join('/');
  fs.writeFileSync(join(at, 'welcome.html'), '<html><body><p>Hello {{name}}</p></body></html>');
  fs.writeFileSync(join(root, 'top.html'), '<html><body><p>Hi {{name}}</p></body></html>');
});

const calls = { lstat: 0, readdir: 0, stat: 0 };
const counted =
  (name: keyof typeof calls) =>
  <F extends (...args: never[]) => unknown>(fn: F): F =>
    ((...args: Parameters<F>) => {
      calls[name] += 1;
      return fn(...args);
    }) as unknown as F;

function counting<T>(walk: () => T): { result: T; looks: number } {
  calls.lstat = calls.readdir = calls.stat = 0;
  const restore = patchBuiltin(fs, { lstatSync: counted('lstat'), readdirSync: counted('readdir'), statSync: counted('stat') });
  try {
    const result = walk();
    return { result, looks: calls.lstat + calls.readdir + calls.stat };
  } finally {
    restore();
  }
}

describe('a walk down a chain of 1,000 directories', () => {
  it('reads each directory once and looks at nothing again', () => {
    const { result, looks } = counting(() => walkTree(root, () => true));
    expect(result.filter(({ kind }) => kind === 'directory')).toHaveLength(DEPTH);
    expect(result.at(-1)).toEqual({ path: `${bottom}/welcome.html`, name: 'welcome.html', kind: 'file' });
    expect(calls.readdir).toBe(DEPTH + 1);
    expect(looks).toBe(DEPTH + 1);
  });

  it('costs content convert a listing per directory, and the way down once per file it reads', () => {
    const { result, looks } = counting(() => sourcesOf(root));
    expect(result.files.map(({ path }) => path)).toEqual([`${bottom}/welcome.html`, 'top.html']);
    expect(looks).toBeLessThan(3 * (DEPTH + 1));
  });

  it('costs migrate report the same', () => {
    const { result, looks } = counting(() => templateFiles(root, 'app'));
    expect(result.files.map(({ path }) => path)).toEqual([`${bottom}/welcome.html`, 'top.html']);
    expect(looks).toBeLessThan(3 * (DEPTH + 1));
  });
});
