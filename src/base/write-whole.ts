/**
 * A write of all it is given: the system may take fewer bytes than a write hands it (a signal,
 * a disk that fills part-way, some file systems), and a file holding part of a line, a lock or a
 * before-image without an error would be read later as if it were whole. A write the system
 * refuses for the machine's reasons (a full disk, a file larger than the process may write) is
 * said as such, naming the file: the machine's, never a bug of loopsctl's.
 */
import { writeSync } from 'node:fs';
import { LocalFileError } from './errors.js';

/** Writes all of `data` at `fd`, the descriptor of `file`, continuing a write the system cut short from where it stopped. */
export function writeWholeSync(fd: number, data: string | Uint8Array, file: string): void {
  try {
    if (typeof data === 'string') {
      // Text goes as text, which most often lands whole; only the rest of a write cut short is copied out as bytes.
      const written = writeSync(fd, data);
      const length = Buffer.byteLength(data);
      if (written === length) return;
      const bytes = Buffer.from(data);
      for (let offset = written; offset < length; ) offset += writeSync(fd, bytes, offset, length - offset);
      return;
    }
    for (let offset = 0; offset < data.length; ) offset += writeSync(fd, data, offset, data.length - offset);
  } catch (error) {
    throw refusedWrite(error, file) ?? error;
  }
}

/**
 * The system's refusals of a local write that no care of loopsctl's prevents, each in words, and
 * what to do: a full disk or quota, a file larger than the process may write (`ulimit -f`, whose
 * SIGXFSZ Node ignores), a failing or read-only disk.
 */
const FULL_OR_FAILING: Record<string, { why: string; hint: string }> = {
  ENOSPC: { why: 'the disk is full', hint: 'free some space on the disk, then run it again' },
  EDQUOT: { why: 'the disk quota is used up', hint: 'free some space within the quota, then run it again' },
  EFBIG: { why: 'it would be larger than this process may write (ulimit -f)', hint: 'raise the limit (`ulimit -f unlimited`), then run it again' },
  EIO: { why: 'the disk failed to write it', hint: 'check the disk, then run it again' },
  EROFS: { why: 'the file system is read-only', hint: 'run it where loopsctl can write its files (LOOPSCTL_CONFIG_DIR), or make the file system writable' },
};

/**
 * A write the system refused for the machine's reasons as a LocalFileError (exit 2) naming the
 * file where it is known; undefined for any other error.
 */
export function refusedWrite(error: unknown, file?: string): LocalFileError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const refusal = typeof code === 'string' && Object.hasOwn(FULL_OR_FAILING, code) ? FULL_OR_FAILING[code]! : undefined;
  if (refusal === undefined) return undefined;
  return new LocalFileError(`${file ?? 'a local file'} could not be written: ${refusal.why} (${(error as Error).message})`, {
    cause: error,
    hint: refusal.hint,
  });
}
