/** Directories for Unix sockets: in the temporary directory while it leaves room for the socket, else in /tmp. */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { SOCKET_PATH_MAX, socketTempDir } from '../../../src/base/socket-dir.js';
import { tempDir } from '../../support/temp.js';

it('makes the directory in the temporary directory when a socket path of the room fits below it', () => {
  const tmp = tempDir('s-');
  const room = SOCKET_PATH_MAX - join(tmp, 'p-XXXXXX').length;
  const dir = socketTempDir('p-', room, tmp);
  expect(dirname(dir)).toBe(tmp);
  expect(dir.length + room).toBeLessThanOrEqual(SOCKET_PATH_MAX);
});

it('makes it in /tmp when the temporary directory is too deep for the room', () => {
  const tmp = join(tempDir('s-'), 'deep'.repeat(10));
  mkdirSync(tmp);
  const prefix = 'loopsctl-socket-dir-test-';
  const room = SOCKET_PATH_MAX - join(tmp, `${prefix}XXXXXX`).length + 1;
  const dir = socketTempDir(prefix, room, tmp);
  try {
    expect(dirname(dir)).toBe('/tmp');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps the temporary directory on Windows, whose named pipes have no such limit', () => {
  const tmp = join(tempDir('s-'), 'deep'.repeat(30));
  mkdirSync(tmp);
  expect(dirname(socketTempDir('p-', 60, tmp, 'win32'))).toBe(tmp);
});
