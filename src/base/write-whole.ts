/**
 * A write of all it is given: the system may take fewer bytes than a write hands it (a signal,
 * a disk that fills part-way, some file systems), and a file holding part of a line, a lock or a
 * before-image without an error would be read later as if it were whole.
 */
import { writeSync } from 'node:fs';

/** Writes all of `data` at `fd`, continuing a write the system cut short from where it stopped. */
export function writeWholeSync(fd: number, data: string | Uint8Array): void {
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
}
