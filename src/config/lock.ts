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
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** How long to wait for one other process's lock before giving up. */
  waitMs?: number;
  /** A lock older than this is taken to be left behind by a process that hung or whose pid was reused. */
  staleMs?: number;
}

export const DEFAULT_LOCK_WAIT_MS = 5_000;
export const DEFAULT_LOCK_STALE_MS = 30_000;
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
  const lockFile = lockFileFor(target);
  acquire(lockFile, options.waitMs ?? DEFAULT_LOCK_WAIT_MS, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
  try {
    return fn();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function acquire(lockFile: string, waitMs: number, staleMs: number): void {
  let giveUpAt = Date.now() + waitMs;
  let waitingFor: string | undefined;
  for (;;) {
    if (tryCreate(lockFile)) return;
    const holder = readHolder(lockFile);
    if (holder !== undefined && holder.text !== waitingFor) {
      waitingFor = holder.text;
      giveUpAt = Date.now() + waitMs;
    }
    if (holder !== undefined && isStale(holder, staleMs)) {
      // Only the lock judged stale is removed: if another process took it over meanwhile, its content differs.
      if (readHolder(lockFile)?.text === holder.text) rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() >= giveUpAt) throw new LockTimeoutError(lockFile, holder?.pid);
    pause(RETRY_EVERY_MS + Math.random() * RETRY_EVERY_MS);
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
    writeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }));
  } finally {
    closeSync(fd);
  }
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
    text = readFileSync(lockFile, 'utf8');
    modified = statSync(lockFile).mtimeMs;
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

function isStale(holder: Holder, staleMs: number): boolean {
  if (Date.now() - holder.since > staleMs) return true;
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
