/**
 * A tree's file swapped between the `lstat` that looks at it and the `open` that reads it: put
 * back as a link (refused by O_NOFOLLOW, named as a link), or as another file (refused as changed,
 * since the opened file is not the one looked at). The swap is made by the test's own lstat, run
 * right after the module's, so nothing here depends on timing.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readTreeFile, readTreeFileAsync } from '../../../src/base/tree-files.js';
import { patchBuiltin } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

/** What to do right after the module looks at this path with lstat, once. */
const swaps = new Map<string, () => void>();

/** Wraps lstatSync for the rest of the test, to make the swaps set for the paths it looks at. */
function swapping(): void {
  patchBuiltin(fs, {
    lstatSync: (lstatSync) =>
      ((path: fs.PathLike, options?: fs.StatSyncOptions) => {
        const stats = lstatSync(path, options);
        const swap = swaps.get(String(path));
        if (swap !== undefined) {
          swaps.delete(String(path));
          swap();
        }
        return stats;
      }) as typeof lstatSync,
  });
}

let root: string;
let secret: string;
beforeEach(() => {
  swaps.clear();
  swapping();
  const base = tempDir('loopsctl-swap-');
  root = join(base, 'root');
  fs.mkdirSync(root);
  fs.writeFileSync(join(root, 'email.json'), '{"subject": "Hello"}\n');
  secret = join(base, 'secret');
  fs.writeFileSync(secret, 'LOOPS_API_KEY=not-a-real-key\n');
});

/** After the lstat, the file is removed and a link (or another file) put at its name. */
function swapAfterLstat(to: 'link' | 'file'): void {
  const file = join(root, 'email.json');
  swaps.set(file, () => {
    // Made beside it, then renamed over it: the new file cannot take the inode of the one it replaces.
    if (to === 'link') fs.symlinkSync(secret, `${file}.new`);
    else fs.writeFileSync(`${file}.new`, 'another file, written after the look\n');
    fs.renameSync(`${file}.new`, file);
  });
}

const WINDOWS = process.platform === 'win32';
const SWAPPED = `a file swapped between lstat and open${WINDOWS ? ' (skipped on Windows, which has no O_NOFOLLOW: lstat alone guards there)' : ''}`;

describe.skipIf(WINDOWS)(SWAPPED, () => {
  it('for a link: refused as a link, the target never read', async () => {
    swapAfterLstat('link');
    expect(() => readTreeFile(root, 'email.json', 1000)).toThrow(/email\.json is a symbolic link: content is never read or written through a link/);
    expect(swaps.size).toBe(0);
    swapAfterLstat('link');
    await expect(readTreeFileAsync(root, 'email.json', 1000)).rejects.toThrow(/email\.json is a symbolic link/);
    expect(swaps.size).toBe(0);
  });

  it('for another file: refused as changed, nothing of it returned', async () => {
    swapAfterLstat('file');
    expect(() => readTreeFile(root, 'email.json', 1000)).toThrow(/email\.json changed while it was being opened; it was not read/);
    fs.writeFileSync(join(root, 'email.json'), '{"subject": "Hello"}\n');
    swapAfterLstat('file');
    await expect(readTreeFileAsync(root, 'email.json', 1000)).rejects.toThrow(/changed while it was being opened/);
    expect(swaps.size).toBe(0);
  });

  it('reads the file when nothing is swapped', () => {
    expect(readTreeFile(root, 'email.json', 1000)?.toString()).toBe('{"subject": "Hello"}\n');
  });
});
