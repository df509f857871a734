/**
 * A lock around each read-modify-write of a file that several loopsctl processes may change at
 * once (the config file, the sandbox state): without it, two `auth login` run together would each
 * read the file, add their key, and the second rename would drop the first key.
 *
 * The lock is a file beside the target, created with O_EXCL (only one process can create it),
 * holding the owner's pid and start time. A lock whose process is gone, or that is older than
 * any read-modify-write takes, is stale and taken over. Waiting for any one holder is bounded;
 * a lock that changes hands is progress (several processes taking turns on a busy machine), and
 * the wait starts again for the new holder.
 *
 * Taking over is the delicate part: two processes that both judged the lock stale must not both
 * remove "it", or the second removes the lock the first has just created, and both change the file
 * at once (a key is lost). So a stale lock is removed only by the holder of a second, short-lived
 * lock (the take-over guard), which renames the stale lock away and checks that what it renamed is
 * the very lock it judged stale; if not, it puts it back.
 *
 * A lock file is read as every file from a place others can write is (tree-files.ts): never
 * through a link, only a regular file, and no more of it than a lock holds. One that is not (a link
 * to /dev/zero, a FIFO, a directory, as a commit can leave where a content tree keeps its run lock)
 * is refused, said, rather than read without end or waited on.
 */
import { closeSync, linkSync, openSync, renameSync, rmSync } from 'node:fs';
import { signalsEndWait } from './blocking-wait.js';
import { LocalFileError } from './errors.js';
import { readRegularFile } from './regular-file.js';
import { writeWholeSync } from './write-whole.js';

export interface LockOptions {
  /** How long to wait for one other process's lock before giving up. */
  waitMs?: number;
  /** A lock older than this is taken to be left behind by a process that hung or whose pid was reused. */
  staleMs?: number;
}

const DEFAULT_LOCK_WAIT_MS = 5_000;
const DEFAULT_LOCK_STALE_MS = 30_000;
/**
 * A lock file that names no process (empty, or not loopsctl's) is written by its creator in the
 * same instant it is created: one that still names none after this long was left by a process
 * that died in between, or put there by something else (a commit), and no live process holds it.
 */
export const UNREADABLE_LOCK_STALE_MS = 5_000;
const RETRY_EVERY_MS = 20;

/** The lock could not be had within the wait; names the lock file and who holds it. */
export class LockTimeoutError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holderPid: number | undefined,
  ) {
    super(`${lockFile} is held by ${holderPid === undefined ? 'another process' : `process ${holderPid}`}`);
  }
}

export function lockFileFor(target: string): string {
  return `${target}.lock`;
}

/** Runs fn while holding the lock for target, and releases it however fn ends. */
export function withFileLock<T>(target: string, fn: () => T, options: LockOptions = {}): T {
  const release = takeFileLock(target, options);
  try {
    return fn();
  } finally {
    release();
  }
}

/**
 * Takes the lock for target and returns what releases it: for work longer than one synchronous
 * call, such as a run of requests. A process that ends without releasing it leaves a lock the
 * next one takes over, its process being gone.
 */
export function takeFileLock(target: string, options: LockOptions = {}): () => void {
  const lockFile = lockFileFor(target);
  acquire(lockFile, options.waitMs ?? DEFAULT_LOCK_WAIT_MS, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
  return () => rmSync(lockFile, { force: true });
}

function acquire(lockFile: string, waitMs: number, staleMs: number): void {
  if (tryCreate(lockFile)) return;
  // A wait, synchronous: a signal ends it (blocking-wait.ts).
  signalsEndWait(() => waitFor(lockFile, waitMs, staleMs));
}

function waitFor(lockFile: string, waitMs: number, staleMs: number): void {
  let giveUpAt = Date.now() + waitMs;
  let waitingFor: string | undefined;
  for (;;) {
    if (tryCreate(lockFile)) return;
    const holder = readHolder(lockFile);
    if (holder !== undefined && holder.text !== waitingFor) {
      waitingFor = holder.text;
      giveUpAt = Date.now() + waitMs;
    }
    if (holder !== undefined && isStale(holder, staleMs) && takeOver(lockFile, holder, staleMs)) continue;
    if (Date.now() >= giveUpAt) throw new LockTimeoutError(lockFile, holder?.pid);
    pause(RETRY_EVERY_MS + Math.random() * RETRY_EVERY_MS);
  }
}

/**
 * Removes the stale lock, under the take-over guard; returns false when the guard is busy (another
 * process is taking over: wait and look again). The guard is held for a few system calls only; a
 * guard left by a process that died in them is itself taken over once stale, by removing it
 * directly: two processes dying in that instant is the only way this can fail.
 */
function takeOver(lockFile: string, stale: Holder, staleMs: number): boolean {
  const guard = `${lockFile}.takeover`;
  if (!tryCreate(guard)) {
    const guardHolder = readHolder(guard);
    if (guardHolder !== undefined && isStale(guardHolder, staleMs)) rmSync(guard, { force: true });
    return false;
  }
  try {
    const current = readHolder(lockFile);
    if (current?.text !== stale.text) return true;
    // Renamed, not removed: what the rename moved is exactly the file checked below, whoever wrote it meanwhile.
    const aside = `${lockFile}.${process.pid}.stale`;
    renameSync(lockFile, aside);
    if (readLockFile(aside)?.text !== stale.text) {
      // A holder that was judged stale by age released the lock just now, and another process took it:
      // put its lock back (link fails, leaving the newer one, if yet another was created meanwhile).
      try {
        linkSync(aside, lockFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    rmSync(aside, { force: true });
    return true;
  } catch (error) {
    // The stale lock went away meanwhile (its owner released it): look again.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  } finally {
    rmSync(guard, { force: true });
  }
}

function tryCreate(lockFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeWholeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }), lockFile);
  } catch (error) {
    // A full disk: no lock is left behind that would keep the next run out.
    closeSync(fd);
    rmSync(lockFile, { force: true });
    throw error;
  }
  closeSync(fd);
  return true;
}

interface Holder {
  text: string;
  pid?: number;
  /** When the lock was taken, in ms since the epoch. */
  since: number;
}

/** Who holds the lock; undefined when it was released meanwhile. */
function readHolder(lockFile: string): Holder | undefined {
  let text: string;
  let modified: number;
  try {
    const read = readLockFile(lockFile);
    if (read === undefined) return undefined;
    ({ text, modified } = read);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as { pid?: unknown };
    if (typeof parsed.pid === 'number' && Number.isSafeInteger(parsed.pid) && parsed.pid > 0) return { text, pid: parsed.pid, since: modified };
  } catch {
    // Created but not yet written, or written by something else: only its age can tell.
  }
  return { text, since: modified };
}

/** More than any lock loopsctl writes holds (a pid and a time, as JSON). */
const LOCK_FILE_LIMIT = 4096;

/** A lock file's text and time, read as a regular file and no further than a lock's size; undefined when it is gone. */
function readLockFile(lockFile: string): { text: string; modified: number } | undefined {
  const read = readRegularFile(lockFile, LOCK_FILE_LIMIT, (why) =>
    notALock(lockFile, { link: 'a symbolic link', 'not-file': 'not a regular file', 'too-large': `more than the ${LOCK_FILE_LIMIT} bytes a lock holds` }[why]),
  );
  return read === undefined ? undefined : { text: read.bytes.toString('utf8'), modified: read.modified };
}

function notALock(lockFile: string, what: string): LocalFileError {
  return new LocalFileError(`${lockFile} is ${what}, not a lock loopsctl wrote; it was not read`, {
    hint: `if no loopsctl run is under way, remove ${lockFile} (and keep it out of git)`,
  });
}

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.since > (holder.pid === undefined ? Math.min(staleMs, UNREADABLE_LOCK_STALE_MS) : staleMs)) return true;
  return holder.pid !== undefined && !processExists(holder.pid);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A synchronous pause: the stores are synchronous, and the wait is short and bounded. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
