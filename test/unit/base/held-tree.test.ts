/**
 * A tree held in memory (a side of a review) is read by the tree's readers at its root as a
 * directory there would be, nothing written to disk, until it is released.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HeldTree,
  readTreeFile,
  readTreeFileAsync,
  TreeFileTooLargeError,
  treeDirectory,
  treeEntries,
  treeEntryKind,
  treeHasEntry,
  walkTree,
} from '../../../src/base/tree-files.js';
import { tempDir } from '../../support/temp.js';

function held() {
  const root = join(tempDir('loopsctl-held-'), 'side', 'loops');
  const tree = new HeldTree(root);
  tree.writeFile('b/two.txt', 'two\n');
  tree.writeFile('a/one.txt', Buffer.from('one\n'));
  tree.writeFile('a/deeper/three.txt', 'three\n');
  tree.addDirectory('empty');
  return { root, tree };
}

describe('a tree held in memory', () => {
  it('is read at its root as a directory would be, and nothing is on disk', async () => {
    const { root, tree } = held();
    const release = tree.hold();
    try {
      expect(readTreeFile(root, 'a/one.txt', 100)?.toString()).toBe('one\n');
      expect((await readTreeFileAsync(`${root}/a`, 'deeper/three.txt', 100))?.toString()).toBe('three\n');
      expect(readTreeFile(root, 'a/none.txt', 100)).toBeUndefined();
      expect(readTreeFile(root, 'none/one.txt', 100)).toBeUndefined();
      expect(treeEntries(root, '')).toEqual([
        { name: 'a', kind: 'directory' },
        { name: 'b', kind: 'directory' },
        { name: 'empty', kind: 'directory' },
      ]);
      expect(treeEntries(root, 'a')).toEqual([
        { name: 'deeper', kind: 'directory' },
        { name: 'one.txt', kind: 'file' },
      ]);
      expect(treeEntries(root, 'none')).toEqual([]);
      const directory = treeDirectory(root, 'a')!;
      expect(directory.entries).toEqual(treeEntries(root, 'a'));
      expect([directory.read('one.txt', 100)?.toString(), directory.read('none.txt', 100)]).toEqual(['one\n', undefined]);
      expect(() => directory.read('deeper/three.txt', 100)).toThrow('is not a name in');
      expect(treeDirectory(root, 'none')).toBeUndefined();
      expect([treeEntryKind(root, 'a'), treeEntryKind(root, 'a/one.txt'), treeEntryKind(root, 'c')]).toEqual(['directory', 'file', undefined]);
      expect([treeHasEntry(root, 'b'), treeHasEntry(root, 'c')]).toEqual([true, false]);
      expect(walkTree(root, () => true).map((entry) => entry.path)).toEqual(['a', 'b', 'empty', 'a/deeper', 'a/one.txt', 'b/two.txt', 'a/deeper/three.txt']);
      expect(existsSync(root)).toBe(false);
    } finally {
      release();
    }
    expect(readTreeFile(root, 'a/one.txt', 100)).toBeUndefined();
    expect(treeHasEntry(root, 'a')).toBe(false);
  });

  it('refuses what a directory on disk would: a file larger than the limit, a directory read as a file, a file listed', () => {
    const { root, tree } = held();
    const release = tree.hold();
    try {
      expect(() => readTreeFile(root, 'a/one.txt', 3)).toThrow(TreeFileTooLargeError);
      expect(() => readTreeFile(root, 'a', 100)).toThrow('is not a regular file');
      expect(() => treeEntries(root, 'a/one.txt')).toThrow('is not a directory');
      expect(() => treeDirectory(root, 'a/one.txt')).toThrow('is not a directory');
      expect(() => treeDirectory(root, 'a')!.read('one.txt', 3)).toThrow(TreeFileTooLargeError);
      expect(() => treeDirectory(root, '')!.read('a', 100)).toThrow('is not a regular file');
      expect(() => readTreeFile(root, '../secret', 100)).toThrow('is not a path inside');
    } finally {
      release();
    }
  });

  it('is changed as a record is replaced: a file removed leaves its directory, a file over a directory (or under a file) refused', () => {
    const { root, tree } = held();
    tree.removeFile('b/two.txt');
    tree.removeFile('b/gone.txt');
    tree.writeFile('a/one.txt', 'one, again\n');
    expect(() => tree.writeFile('a/deeper', 'x')).toThrow('is not a regular file');
    expect(() => tree.writeFile('a/one.txt/x', 'x')).toThrow('is not a directory');
    expect(() => tree.removeFile('a')).toThrow('is not a regular file');
    const release = tree.hold();
    try {
      expect(treeEntries(root, 'b')).toEqual([]);
      expect(readTreeFile(root, 'a/one.txt', 100)?.toString()).toBe('one, again\n');
    } finally {
      release();
    }
  });
});
