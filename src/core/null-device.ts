/**
 * The null device (/dev/null), which a job's stdin and a discarded stdout often are: a character
 * device, as a terminal is, but known for one without Node's tty module, whose socket and stream
 * modules take a start a few milliseconds to load.
 */
import { type Stats, statSync } from 'node:fs';

let nullDevice: number | undefined;

/** Whether a descriptor's stats are the null device's (none on Windows, where stdin and stdout keep Node's own ways). */
export function isNullDevice(stats: Stats): boolean {
  if (!stats.isCharacterDevice()) return false;
  if (nullDevice === undefined) {
    try {
      nullDevice = statSync('/dev/null').rdev;
    } catch {
      nullDevice = -1;
    }
  }
  return nullDevice !== -1 && stats.rdev === nullDevice;
}
