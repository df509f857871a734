import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, lockFileFor, withFileLock } from '../../../src/base/lock.js';
import { tempDir } from '../../support/temp.js';

function target(): string {
  return join(tempDir('loopsctl-lock-'), 'config.json');
}

/** The pid of a process that has ended. */
function goneProcessPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('withFileLock', () => {
  it('holds a lock file with its pid while the work runs, and removes it after, also when the work throws', () => {
    const file = target();
    const seen = withFileLock(file, () => JSON.parse(readFileSync(lockFileFor(file), 'utf8')));
    expect(seen.pid).toBe(process.pid);
    expect(existsSync(lockFileFor(file))).toBe(false);
    expect(() =>
      withFileLock(file, () => {
        throw new Error('work failed');
      }),
    ).toThrow('work failed');
    expect(existsSync(lockFileFor(file))).toBe(false);
  });

  it('waits a bounded time for a live holder, then gives up naming it', () => {
    const file = target();
    writeFileSync(lockFileFor(file), JSON.stringify({ pid: process.pid, since: Date.now() }));
    let ran = false;
    const attempt = () => withFileLock(file, () => (ran = true), { waitMs: 100 });
    expect(attempt).toThrow(LockTimeoutError);
    expect(attempt).toThrow(`${lockFileFor(file)} is held by process ${process.pid}`);
    expect(ran).toBe(false);
    // The holder's lock is still there: giving up never removes it.
    expect(existsSync(lockFileFor(file))).toBe(true);
  });

  it('takes over a lock whose process is gone', () => {
    const file = target();
    writeFileSync(lockFileFor(file), JSON.stringify({ pid: goneProcessPid(), since: Date.now() }));
    expect(withFileLock(file, () => 'done', { waitMs: 0 })).toBe('done');
  });

  it('takes over a lock older than the stale limit, even of a live pid or with unreadable content', () => {
    for (const content of [JSON.stringify({ pid: process.pid }), 'garbage']) {
      const file = target();
      writeFileSync(lockFileFor(file), content);
      const old = new Date(Date.now() - 120_000);
      utimesSync(lockFileFor(file), old, old);
      expect(withFileLock(file, () => 'done', { waitMs: 0, staleMs: 60_000 })).toBe('done');
    }
  });

  it('does not take over a fresh lock with unreadable content (one being written)', () => {
    const file = target();
    writeFileSync(lockFileFor(file), '');
    expect(() => withFileLock(file, () => 'done', { waitMs: 50 })).toThrow('is held by another process');
  });
});
