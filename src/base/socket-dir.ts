/**
 * Temporary directories that hold Unix sockets (Chromium's, a session bus's). A socket's path is at
 * most 103 bytes on macOS and 107 on Linux, so a directory deep in a long TMPDIR (a clone's own, a
 * CI runner's) cannot hold one: the directory is made there only while its path leaves room for
 * what goes in it, else in /tmp, which every Unix has.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The longest path a Unix socket can have everywhere: macOS's 104 bytes of sun_path, less the NUL. */
export const SOCKET_PATH_MAX = 103;

/** What mkdtemp adds to the prefix. */
const UNIQUE = 'XXXXXX'.length;

/**
 * A new empty directory of the prefix's name whose path leaves `room` bytes (a `/` and all below
 * it) for a socket's path: in the temporary directory when it is short enough, else in /tmp.
 * Windows's named pipes have no such limit.
 */
export function socketTempDir(prefix: string, room: number, tmp = tmpdir(), platform = process.platform): string {
  const fits = join(tmp, prefix).length + UNIQUE + room <= SOCKET_PATH_MAX;
  return mkdtempSync(join(fits || platform === 'win32' ? tmp : '/tmp', prefix));
}
