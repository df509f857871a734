import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageIds, imagesDirectory, isImageId, keepImage, newImageId, readImage } from '../../../src/config/before-images.js';
import { cutWritesShort } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

const mode = (path: string) => statSync(path).mode & 0o777;
const at = (n: number) => newImageId(new Date(Date.UTC(2026, 10, 1, 0, n)));

describe('the before-images of changes', () => {
  it('are kept privately beside the journal: 0600 files in a 0700 directory, read back by id', () => {
    const dir = tempDir();
    const id = at(1);
    expect(isImageId(id)).toBe(true);
    const file = keepImage(dir, id, { records: ['a'] });
    expect(file).toBe(join(imagesDirectory(dir), `${id}.json`));
    expect(imagesDirectory(dir)).toBe(join(dir, 'journal', 'before'));
    expect(mode(imagesDirectory(dir))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(readImage(dir, id)).toEqual({ records: ['a'] });
    keepImage(dir, id, { records: ['b'] });
    expect(readImage(dir, id)).toEqual({ records: ['b'] });
    expect(readImage(dir, at(2))).toBeUndefined();
    expect(readImage(dir, '../changes')).toBeUndefined();
  });

  it('are written whole when the system takes a few bytes at a time: undo puts back all of one', () => {
    const dir = tempDir();
    const image = { records: [{ id: 't1', name: 'A theme whose image is longer than a write' }] };
    const id = at(1);
    cutWritesShort();
    keepImage(dir, id, image);
    expect(readImage(dir, id)).toEqual(image);
  });

  it('are bounded: the oldest beyond the number kept are dropped', () => {
    const dir = tempDir();
    const ids = Array.from({ length: 6 }, (_unused, n) => at(n));
    for (const id of ids) keepImage(dir, id, { id }, 4);
    expect(imageIds(dir)).toEqual(ids.slice(2));
  });

  it('refuses a directory that is a symbolic link, and writes nothing through it', () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    mkdirSync(join(dir, 'journal'), { mode: 0o700 });
    symlinkSync(elsewhere, imagesDirectory(dir));
    expect(() => keepImage(dir, at(1), {})).toThrow(/cannot be kept in .*before: the directory is a symbolic link; nothing was sent/);
    expect(imageIds(elsewhere)).toEqual([]);
  });

  it('never reads or writes through a link at an image’s place', () => {
    const dir = tempDir();
    const id = at(1);
    keepImage(dir, at(0), {});
    const target = join(tempDir(), 'target.json');
    writeFileSync(target, '{"secret":true}');
    symlinkSync(target, join(imagesDirectory(dir), `${id}.json`));
    expect(() => readImage(dir, id)).toThrow(/it is a symbolic link/);
    keepImage(dir, id, { mine: true });
    expect(readFileSync(target, 'utf8')).toBe('{"secret":true}');
    expect(lstatSync(join(imagesDirectory(dir), `${id}.json`)).isSymbolicLink()).toBe(false);
    expect(readImage(dir, id)).toEqual({ mine: true });
  });
});
