/**
 * A file that loopsctl reads only as it wrote it: a regular file, never through a link, never
 * waiting on a writer (a FIFO), and never past a bound (/dev/zero). The lock files and the kept
 * before-images are read so; each names its refusals in its own words.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was refused: a link, not a regular file, or more than its bound. */
export type RegularFileRefusal = 'link' | 'not-file' | 'too-large';

/**
 * Opened without following a link (O_NOFOLLOW) and without waiting for a writer (O_NONBLOCK, for
 * a FIFO), where the system has them; Windows has neither, and no FIFOs or /dev/zero either.
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The file's bytes and time, at most `limit` bytes of them; undefined when it is gone, `refuse`'s error otherwise. */
export function readRegularFile(file: string, limit: number, refuse: (why: RegularFileRefusal) => Error): { bytes: Buffer; modified: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw refuse('link');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw refuse('not-file');
    if (stats.size > limit) throw refuse('too-large');
    // One byte more than the bound tells a file that grew past it since.
    const buffer = Buffer.alloc(stats.size + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > limit) throw refuse('too-large');
    return { bytes: buffer.subarray(0, length), modified: stats.mtimeMs };
  } finally {
    closeSync(fd);
  }
}
