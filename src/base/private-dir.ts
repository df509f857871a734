/**
 * The directories loopsctl keeps its files in. A missing one is created for the user alone (0700);
 * an existing one is never chmodded: it may be the current directory, or anybody's.
 */
import { mkdirSync, type Stats, statSync } from 'node:fs';
import { LocalFileError } from './errors.js';

/** Creates the directory (and missing parents) 0700 when it does not exist; leaves an existing one as it is. */
export function ensureDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** What the system's refusals mean for a directory loopsctl keeps files in, in a person's words. */
const UNUSABLE_DIRECTORY = new Map([
  ['EACCES', 'this user cannot write in it'],
  ['EPERM', 'this user cannot write in it'],
  ['EROFS', 'it is on a read-only file system'],
  ['EEXIST', 'it is a file, not a directory'],
  ['ENOTDIR', 'it, or a folder above it, is a file, not a directory'],
]);

/**
 * Why the system refused a directory loopsctl keeps files in, and the way out; undefined for an
 * error that is not about the directory (code: the error's, as ENOTDIR).
 */
export function directoryRefusal(dir: string, code: string | undefined): { reason: string; fix: string } | undefined {
  const reason = UNUSABLE_DIRECTORY.get(code ?? '');
  if (reason === undefined) return undefined;
  const fix = reason.includes('not a directory') ? `move the file at ${dir} aside` : `fix its permissions (\`chmod u+rwx ${dir}\`)`;
  return { reason, fix: `${fix}, or set LOOPSCTL_CONFIG_DIR to a directory of your own` };
}

/**
 * Runs fn, which makes the directory or opens files in it (a file loopsctl keeps, its lock, the new
 * copy renamed over it), and turns a refusal of the directory itself into one line naming it and
 * the way out, rather than the system's words about one file in it.
 */
export function inKeptDirectory<T>(dir: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    const refusal = directoryRefusal(dir, (error as NodeJS.ErrnoException).code);
    if (refusal === undefined) throw error;
    throw new LocalFileError(`loopsctl cannot keep its files in ${dir}: ${refusal.reason}`, { code: 'config', cause: error, hint: refusal.fix });
  }
}

/**
 * Why an existing directory is no safe place for a secret: owned by another user, or writable by group or
 * others (who could swap the file for their own). Undefined when it is fine, or when the platform
 * has no such owners (Windows).
 */
export function unsafeDirectoryReason(dir: string): { reason: string; fix: string } | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const stats = statSync(dir);
  if (stats.uid !== uid) {
    return {
      reason: `it belongs to another user (uid ${stats.uid})`,
      fix: `use a directory of your own (LOOPSCTL_CONFIG_DIR), or make it yours with \`chown ${uid} ${dir}\``,
    };
  }
  if ((stats.mode & 0o022) !== 0) {
    return {
      reason: `others can write in it (mode ${(stats.mode & 0o777).toString(8).padStart(3, '0')})`,
      fix: `run \`chmod go-w ${dir}\`, or use another directory (LOOPSCTL_CONFIG_DIR)`,
    };
  }
  return undefined;
}

/**
 * Why an existing file is no safe place for a secret: another user's, or writable by group or
 * others (who could put a key of theirs in it), or, when it holds a secret, readable by them.
 * Undefined when it is fine, when there is no such file, or on a platform without such owners.
 */
export function unsafeFileReason(file: string, holdsSecret: boolean): { reason: string; fix: string } | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const mode = (stats.mode & 0o777).toString(8).padStart(3, '0');
  if (stats.uid !== uid)
    return {
      reason: `it belongs to another user (uid ${stats.uid})`,
      fix: `move it aside and store the key again, or make it yours with \`chown ${uid} ${file}\``,
    };
  if ((stats.mode & 0o022) !== 0)
    return { reason: `others can write to it (mode ${mode})`, fix: `run \`chmod 600 ${file}\`, and check that its keys are yours` };
  if (holdsSecret && (stats.mode & 0o044) !== 0) {
    return {
      reason: `it holds an API key and others can read it (mode ${mode})`,
      fix: `run \`chmod 600 ${file}\`; if others may have read it, make a new key in Loops' settings`,
    };
  }
  return undefined;
}
