/**
 * A lock file is read as every other file loopsctl reads from a place others can write (a content
 * tree, which a commit can fill): never through a link, only a regular file, no more than a lock
 * holds. A link to /dev/zero read through would grow without end; a FIFO would hold the run, past
 * SIGTERM, until something writes to it. Each is refused at once, said as the file's problem.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { lockFileFor, takeFileLock } from '../../../src/base/lock.js';
import { cutWritesShort } from '../../support/patch-builtin.js';
import { tempDir } from '../../support/temp.js';

/** A target whose lock file is already there, made by `make`. */
function lockedBy(make: (lockFile: string) => void): string {
  const target = join(tempDir('loopsctl-lock-'), '.loopsctl-run');
  make(lockFileFor(target));
  return target;
}

describe('a lock file that is not a lock', () => {
  it('is refused, not read, when it is a link to /dev/zero', () => {
    const target = lockedBy((lock) => symlinkSync('/dev/zero', lock));
    expect(() => takeFileLock(target, { waitMs: 0 })).toThrow(LocalFileError);
    expect(() => takeFileLock(target, { waitMs: 0 })).toThrow(/\.loopsctl-run\.lock is a symbolic link, not a lock loopsctl wrote; it was not read/);
  });

  it('is refused, without waiting for a writer, when it is a FIFO or a directory', () => {
    const fifo = lockedBy((lock) => expect(spawnSync('mkfifo', [lock]).status).toBe(0));
    expect(() => takeFileLock(fifo, { waitMs: 0 })).toThrow(/\.loopsctl-run\.lock is not a regular file, not a lock loopsctl wrote/);
    const directory = lockedBy((lock) => mkdirSync(lock));
    expect(() => takeFileLock(directory, { waitMs: 0 })).toThrow(/\.loopsctl-run\.lock is not a regular file, not a lock loopsctl wrote/);
  });

  it('is read no further than a lock holds: a large file is refused, not read whole', () => {
    const target = lockedBy((lock) => writeFileSync(lock, Buffer.alloc(64 * 1024, 0x20)));
    expect(() => takeFileLock(target, { waitMs: 0 })).toThrow(/is more than the 4096 bytes a lock holds/);
  });

  it('is still taken over when it is a regular file whose process is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const target = lockedBy((lock) => writeFileSync(lock, JSON.stringify({ pid: gone, since: 0 })));
    takeFileLock(target, { waitMs: 0 })();
  });
});

describe('a lock loopsctl takes', () => {
  it('is written whole when the system takes a few bytes at a time, so a run that waits for it reads it', () => {
    const target = join(tempDir('loopsctl-lock-'), '.loopsctl-run');
    cutWritesShort();
    const release = takeFileLock(target);
    try {
      expect(JSON.parse(readFileSync(lockFileFor(target), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      release();
    }
  });
});
