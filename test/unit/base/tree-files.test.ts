/**
 * The one way a tree's files are read and written: never through a symbolic link, wherever on the
 * path it stands (the file, a directory on the way, dangling or not), and only regular files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTreeFile, readTreeFileAsync, TreeFileTooLargeError, treeDirectory, treeEntries, treeEntryKind } from '../../../src/base/tree-files.js';
import { makeTreeDirectory, removeTreeFile, writeTreeFile, writeTreeFiles } from '../../../src/base/tree-writes.js';
import { tempDir } from '../../support/temp.js';

/** A root with a/b.txt, and beside it a secret file and a directory that must stay as they are. */
function layout() {
  const base = tempDir('loopsctl-tree-');
  const root = join(base, 'root');
  mkdirSync(join(root, 'a'), { recursive: true });
  writeFileSync(join(root, 'a', 'b.txt'), 'inside\n');
  const secret = join(base, 'secret.txt');
  writeFileSync(secret, 'LOOPS_API_KEY=not-a-real-key\n');
  const outside = join(base, 'outside');
  mkdirSync(outside);
  return { root, secret, outside };
}

const LINK = /is a symbolic link: content is never read or written through a link/;

const WINDOWS = process.platform === 'win32';
const NOT_REGULAR = `refuses what is not a regular file: a directory, a FIFO (without waiting for a writer)${WINDOWS ? ' (skipped on Windows, which has no FIFOs)' : ''}`;

describe('reading a tree', () => {
  it('reads a regular file, and says undefined for one that is not there (or whose directory is not)', async () => {
    const { root } = layout();
    expect(readTreeFile(root, 'a/b.txt', 100)?.toString()).toBe('inside\n');
    expect((await readTreeFileAsync(root, 'a/b.txt', 100))?.toString()).toBe('inside\n');
    expect(readTreeFile(root, 'a/missing.txt', 100)).toBeUndefined();
    expect(readTreeFile(root, 'missing/b.txt', 100)).toBeUndefined();
    expect(await readTreeFileAsync(root, 'missing/b.txt', 100)).toBeUndefined();
    // A directory read file by file: its entries, and each file by its name.
    const directory = treeDirectory(root, 'a')!;
    expect(directory.entries).toEqual([{ name: 'b.txt', kind: 'file' }]);
    expect(directory.read('b.txt', 100)?.toString()).toBe('inside\n');
    expect(directory.read('missing.txt', 100)).toBeUndefined();
    expect(treeDirectory(root, 'missing')).toBeUndefined();
  });

  it('refuses a link at the file, at a directory on the way, and a dangling one', async () => {
    const { root, secret, outside } = layout();
    symlinkSync(secret, join(root, 'a', 'linked.txt'));
    writeFileSync(join(outside, 'b.txt'), 'outside\n');
    symlinkSync(outside, join(root, 'dir'));
    symlinkSync(join(outside, 'nothing-yet'), join(root, 'a', 'dangling.txt'));
    // A link that stays inside the tree is refused too: one rule, no judging where a link leads.
    symlinkSync(join(root, 'a', 'b.txt'), join(root, 'a', 'inner.txt'));
    for (const path of ['a/linked.txt', 'dir/b.txt', 'a/dangling.txt', 'a/inner.txt']) {
      expect(() => readTreeFile(root, path, 1000), path).toThrow(LINK);
      await expect(readTreeFileAsync(root, path, 1000), path).rejects.toThrow(LINK);
      expect(() => treeEntryKind(root, path), path).toThrow(LINK);
    }
    expect(() => treeEntries(root, 'dir')).toThrow(LINK);
    // Read by name in a directory looked at once: the link at the name is refused when opened.
    expect(() => treeDirectory(root, 'dir')).toThrow(LINK);
    const directory = treeDirectory(root, 'a')!;
    for (const name of ['linked.txt', 'dangling.txt', 'inner.txt']) expect(() => directory.read(name, 1000), name).toThrow(LINK);
  });

  it.skipIf(WINDOWS)(NOT_REGULAR, async () => {
    const { root } = layout();
    expect(() => readTreeFile(root, 'a', 100)).toThrow(/is not a regular file/);
    execFileSync('mkfifo', [join(root, 'a', 'pipe')]);
    expect(() => readTreeFile(root, 'a/pipe', 100)).toThrow(/is not a regular file/);
    await expect(readTreeFileAsync(root, 'a/pipe', 100)).rejects.toThrow(/is not a regular file/);
    mkdirSync(join(root, 'a', 'c'));
    const directory = treeDirectory(root, 'a')!;
    expect(() => directory.read('pipe', 100)).toThrow(/is not a regular file/);
    expect(() => directory.read('c', 100)).toThrow(/is not a regular file/);
  });

  it('refuses a path that climbs out or is absolute', () => {
    const { root, secret } = layout();
    expect(() => readTreeFile(root, '../secret.txt', 100)).toThrow(/is not a path inside/);
    expect(() => readTreeFile(root, secret, 100)).toThrow(/is not a path inside/);
    // A directory's file is read by its name alone, not by a path through another directory.
    mkdirSync(join(root, 'a', 'c'));
    writeFileSync(join(root, 'a', 'c', 'd.txt'), 'deeper\n');
    const directory = treeDirectory(root, 'a')!;
    expect(() => directory.read('../../secret.txt', 100)).toThrow(/is not a path inside/);
    for (const name of ['c/d.txt', './b.txt', 'c//d.txt']) expect(() => directory.read(name, 100), name).toThrow(/is not a name in/);
  });

  it('refuses a file larger than the limit before reading it, saying its size', async () => {
    const { root } = layout();
    writeFileSync(join(root, 'big.lmx'), 'x'.repeat(101));
    expect(readTreeFile(root, 'big.lmx', 101)?.length).toBe(101);
    const error = (() => {
      try {
        readTreeFile(root, 'big.lmx', 100);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(TreeFileTooLargeError);
    expect(error).toMatchObject({ size: 101, limit: 100 });
    await expect(readTreeFileAsync(root, 'big.lmx', 100)).rejects.toBeInstanceOf(TreeFileTooLargeError);
    expect(treeDirectory(root, '')!.read('big.lmx', 101)?.length).toBe(101);
    expect(() => treeDirectory(root, '')!.read('big.lmx', 100)).toThrow(expect.objectContaining({ size: 101, limit: 100 }));
  });

  it('lists a directory as lstat sees it, links named as links', () => {
    const { root, secret } = layout();
    symlinkSync(secret, join(root, 'a', 'linked.txt'));
    mkdirSync(join(root, 'a', 'c'));
    expect(treeEntries(root, 'a')).toEqual([
      { name: 'b.txt', kind: 'file' },
      { name: 'c', kind: 'directory' },
      { name: 'linked.txt', kind: 'link' },
    ]);
    expect(treeEntries(root, 'missing')).toEqual([]);
  });
});

describe('writing a tree', () => {
  it('writes a new file and replaces one, making the directories, leaving no temporary file', () => {
    const { root } = layout();
    writeTreeFile(root, 'x/y/z.json', '{}\n');
    writeTreeFile(root, 'a/b.txt', 'replaced\n');
    expect(readFileSync(join(root, 'x', 'y', 'z.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(root, 'a', 'b.txt'), 'utf8')).toBe('replaced\n');
    expect(readdirSync(join(root, 'a'))).toEqual(['b.txt']);
  });

  it('never writes through a link: at the name (dangling or not), or at a directory on the way; the targets stay as they are', () => {
    const { root, secret, outside } = layout();
    symlinkSync(secret, join(root, 'a', 'values.json'));
    const dangling = join(outside, 'authorized_keys');
    symlinkSync(dangling, join(root, 'a', 'out.html'));
    symlinkSync(outside, join(root, 'dir'));
    expect(() => writeTreeFile(root, 'a/values.json', '{}')).toThrow(LINK);
    expect(() => writeTreeFile(root, 'a/out.html', 'ssh-ed25519 AAAA')).toThrow(LINK);
    expect(() => writeTreeFile(root, 'dir/new.txt', 'x')).toThrow(LINK);
    expect(() => makeTreeDirectory(root, 'dir/deeper')).toThrow(LINK);
    expect(readFileSync(secret, 'utf8')).toBe('LOOPS_API_KEY=not-a-real-key\n');
    expect(existsSync(dangling)).toBe(false);
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(root, 'a')).sort()).toEqual(['b.txt', 'out.html', 'values.json']);
  });

  it("writes a record's files together, below it too, and never through a link on the way", () => {
    const { root, outside } = layout();
    writeTreeFiles(root, 'x', [
      ['meta.json', '{}\n'],
      ['emails/step-1/email.json', '{"subject":"Hi"}\n'],
      ['emails/step-1/email.lmx', '<Paragraph>Hi</Paragraph>\n'],
    ]);
    expect(readFileSync(join(root, 'x', 'meta.json'), 'utf8')).toBe('{}\n');
    expect(readdirSync(join(root, 'x', 'emails', 'step-1')).sort()).toEqual(['email.json', 'email.lmx']);
    symlinkSync(outside, join(root, 'x', 'linked'));
    expect(() => writeTreeFiles(root, 'x', [['linked/new.txt', 'x']])).toThrow(LINK);
    expect(() => writeTreeFiles(root, 'x', [['../../escape.txt', 'x']])).toThrow(/is not a path inside/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('removes a link itself, never its target, and refuses to remove through a linked directory', () => {
    const { root, secret, outside } = layout();
    symlinkSync(secret, join(root, 'a', 'linked.txt'));
    writeFileSync(join(outside, 'keep.txt'), 'keep\n');
    symlinkSync(outside, join(root, 'dir'));
    removeTreeFile(root, 'a/linked.txt');
    expect(lstatSync(join(root, 'a', 'linked.txt'), { throwIfNoEntry: false })).toBeUndefined();
    expect(existsSync(secret)).toBe(true);
    expect(() => removeTreeFile(root, 'dir/keep.txt')).toThrow(LINK);
    expect(readdirSync(outside)).toEqual(['keep.txt']);
  });
});
