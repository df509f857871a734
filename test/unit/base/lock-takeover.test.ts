/**
 * The take-over of a stale lock when another process moves at the worst moment: the stale lock's
 * owner releases it and a third process takes the lock, just after this one checked that the lock
 * is still the stale one and before it removes it. node:fs is wrapped so that this happens at
 * exactly that point, every time (test/support/patch-builtin.ts); the take-over must then leave
 * the new holder's lock alone.
 */
import fs, { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, withFileLock } from '../../../src/base/lock.js';
import { patchBuiltin } from '../../support/patch-builtin.js';

/**
 * Runs `act` once, when the lock file is opened to be read for the second time: the moment between
 * the check and the removal (what is read is the file opened, the stale lock).
 */
function onSecondRead(lockFile: string, act: () => void): void {
  let reads = 0;
  patchBuiltin(fs, {
    openSync: (openSync) =>
      ((path: fs.PathLike, flags?: fs.OpenMode, ...rest: unknown[]) => {
        const fd = (openSync as (...args: unknown[]) => number)(path, flags, ...rest);
        // Opened to read (numeric flags, as a lock is read), not created ('wx').
        if (path === lockFile && typeof flags === 'number' && ++reads === 2) act();
        return fd;
      }) as typeof openSync,
  });
}

describe('taking over a stale lock', () => {
  it('never removes the lock another process took meanwhile: it waits for that one instead', () => {
    const target = join(mkdtempSync(join(tmpdir(), 'loopsctl-lock-')), 'config.json');
    const lockFile = `${target}.lock`;
    // Stale by age: its owner is alive but was slow, and releases it at the worst moment.
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, since: 1 }));
    fs.utimesSync(lockFile, new Date(1_000), new Date(1_000));
    const newHolder = JSON.stringify({ pid: process.pid, since: Date.now(), holder: 'another process' });
    onSecondRead(lockFile, () => {
      fs.rmSync(lockFile);
      writeFileSync(lockFile, newHolder, { flag: 'wx' });
    });
    let ran = false;
    expect(() =>
      withFileLock(
        target,
        () => {
          ran = true;
        },
        { waitMs: 200, staleMs: 30_000 },
      ),
    ).toThrow(LockTimeoutError);
    expect(ran).toBe(false);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(newHolder);
    expect(fs.readdirSync(join(target, '..')).sort()).toEqual(['config.json.lock']);
    fs.rmSync(join(target, '..'), { recursive: true });
  });
});
