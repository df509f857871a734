import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { pipeBytes, standardStream } from '../../../src/core/standard-stream.js';

const DIRECT_BYTES = pipeBytes('linux');

import { socketDir, tempDir } from '../../support/temp.js';

const scratch = tempDir('loopsctl-standard-stream-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Node's stream as the tests stand it in: what was written to it, and how often it was made. */
class RecordingStream extends Writable {
  readonly chunks: Buffer[] = [];
  isTTY?: boolean;
  columns?: number;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk);
    done();
  }

  get text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function opening(stream = new RecordingStream()) {
  const made = { count: 0, stream };
  return {
    made,
    open: () => {
      made.count += 1;
      return stream;
    },
  };
}

/** A named pipe with both ends open; the reading end does not wait. */
function fifo(name: string): { reader: number; writer: number; close(): void } {
  const path = join(scratch, name);
  execFileSync('mkfifo', [path]);
  const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writer = openSync(path, constants.O_WRONLY);
  const open = new Set([reader, writer]);
  return {
    reader,
    writer,
    close: () => {
      for (const fd of open) closeSync(fd);
      open.clear();
    },
  };
}

function drain(fd: number): string {
  const buffer = Buffer.alloc(256 * 1024);
  let text = '';
  for (;;) {
    try {
      const read = readSync(fd, buffer);
      if (read === 0) return text;
      text += buffer.toString('utf8', 0, read);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return text;
      throw error;
    }
  }
}

// Windows's standard streams are not descriptors of these kinds: skipped there, saying so.
const posix = process.platform === 'win32' ? (name: string, body: () => void) => describe.skip(`${name} (skipped on Windows)`, body) : describe;

posix('a standard stream before Node makes its stream', () => {
  it('writes short output to a pipe itself, and says it is no terminal, without the stream', () => {
    const pipe = fifo('short');
    try {
      const { made, open } = opening();
      const stdout = standardStream(pipe.writer, 'linux', open, () => {});
      expect(stdout.stream.isTTY).toBe(false);
      expect(stdout.stream.columns).toBeUndefined();
      expect(stdout.stream.write('Usage: loopsctl\n')).toBe(true);
      expect(stdout.stream.write(Buffer.from('é\n'))).toBe(true);
      expect(stdout.stream.writableLength).toBe(0);
      expect(stdout.stream.destroyed).toBe(false);
      expect(drain(pipe.reader)).toBe('Usage: loopsctl\né\n');
      expect(made.count).toBe(0);
      expect(stdout.opened).toBe(false);
    } finally {
      pipe.close();
    }
  });

  it.each([
    ['linux', 32 * 1024],
    ['darwin', 16 * 1024],
  ] as const)('hands output past what a pipe surely holds on %s (%d bytes) to the stream, in order', (platform, holds) => {
    expect(pipeBytes(platform)).toBe(holds);
    const pipe = fifo(`long-${platform}`);
    try {
      const { made, open } = opening();
      const stdout = standardStream(pipe.writer, platform, open, () => {});
      const first = 'a'.repeat(holds - 10);
      stdout.stream.write(first);
      stdout.stream.write('b'.repeat(20));
      stdout.stream.write('c');
      expect(drain(pipe.reader)).toBe(first);
      expect(made.stream.text).toBe(`${'b'.repeat(20)}c`);
      expect(made.count).toBe(1);
      expect(stdout.opened).toBe(true);
    } finally {
      pipe.close();
    }
  });

  it('writes all of its output to a file itself, as Node does', () => {
    const file = join(scratch, 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const { made, open } = opening();
      const stdout = standardStream(fd, 'linux', open, () => {});
      const long = 'x'.repeat(DIRECT_BYTES * 4);
      stdout.stream.write(long);
      stdout.stream.write('end\n');
      expect(readFileSync(file, 'utf8')).toBe(`${long}end\n`);
      expect(made.count).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it('takes the null device for no terminal', () => {
    const fd = openSync('/dev/null', 'w');
    try {
      const { made, open } = opening();
      const stderr = standardStream(fd, 'linux', open, () => {});
      expect(stderr.stream.isTTY).toBe(false);
      stderr.stream.write('x'.repeat(DIRECT_BYTES * 2));
      expect(made.count).toBe(0);
    } finally {
      closeSync(fd);
    }
  });

  it('makes the stream for any other device, which then answers', () => {
    // /dev/zero: a character device, as a terminal is, that only the stream can tell from one.
    const fd = openSync('/dev/zero', 'w');
    try {
      const stream = Object.assign(new RecordingStream(), { isTTY: true, columns: 120 });
      const { made, open } = opening(stream);
      const stdout = standardStream(fd, 'linux', open, () => {});
      expect(stdout.stream.isTTY).toBe(true);
      expect(stdout.stream.columns).toBe(120);
      stdout.stream.write('to the stream');
      expect(made.stream.text).toBe('to the stream');
      expect(made.count).toBe(1);
    } finally {
      closeSync(fd);
    }
  });

  it('makes the stream for anything else asked of it, bound to the stream', () => {
    const pipe = fifo('other');
    try {
      const { made, open } = opening();
      const stdout = standardStream(pipe.writer, 'linux', open, () => {});
      const listener = () => {};
      expect(stdout.stream.on('drain', listener)).toBe(made.stream);
      expect(made.stream.listeners('drain')).toEqual([listener]);
      expect('fd' in stdout.stream).toBe(false);
      expect(made.count).toBe(1);
      // From then on, writes keep the stream's order.
      stdout.stream.write('later');
      expect(made.stream.text).toBe('later');
      expect(drain(pipe.reader)).toBe('');
    } finally {
      pipe.close();
    }
  });

  it('reports a reader that went away once the write has returned, and writes nothing more', async () => {
    const pipe = fifo('gone');
    closeSync(pipe.reader);
    try {
      const { made, open } = opening();
      const failures: string[] = [];
      const stdout = standardStream(pipe.writer, 'linux', open, (error) => failures.push(error.code ?? ''));
      expect(stdout.stream.write('lost\n')).toBe(false);
      expect(failures).toEqual([]);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(failures).toEqual(['EPIPE']);
      expect(stdout.stream.destroyed).toBe(true);
      expect(stdout.stream.write('more\n')).toBe(false);
      expect(failures).toEqual(['EPIPE']);
      expect(made.count).toBe(0);
    } finally {
      closeSync(pipe.writer);
    }
  });

  it('hands the rest of a write that would wait to the stream', () => {
    const path = join(scratch, 'full');
    execFileSync('mkfifo', [path]);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    // Another writer fills the pipe through a descriptor that does not wait, as a shared,
    // non-blocking pipe would make this one.
    const writer = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      let filled = 0;
      try {
        for (;;) filled += writeSync(writer, Buffer.alloc(4096, 'f'));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
      }
      const { made, open } = opening();
      const stdout = standardStream(writer, 'linux', open, () => {});
      expect(stdout.stream.write('waits')).toBe(true);
      expect(made.stream.text).toBe('waits');
      expect(drain(reader)).toBe('f'.repeat(filled));
    } finally {
      closeSync(reader);
      closeSync(writer);
    }
  });

  it('writes less to a local socket on macOS, where one holds 8 KiB', async () => {
    // A socket's path is short whatever TMPDIR's depth only in the run's directory for sockets.
    const sockets = socketDir('stream-');
    const path = join(sockets, 'socket');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect(path);
    await once(client, 'connect');
    const peer = await accepted;
    try {
      const fd = (client as unknown as { _handle: { fd: number } })._handle.fd;
      for (const [platform, direct] of [
        ['darwin', 8 * 1024],
        ['linux', DIRECT_BYTES],
      ] as const) {
        const { made, open } = opening();
        const stdout = standardStream(fd, platform, open, () => {});
        stdout.stream.write('x'.repeat(direct));
        expect(made.count, platform).toBe(0);
        stdout.stream.write('y');
        expect(made.count, platform).toBe(1);
      }
    } finally {
      client.destroy();
      peer.destroy();
      await new Promise((resolve) => server.close(resolve));
      rmSync(sockets, { recursive: true, force: true });
    }
  });

  it('on Windows leaves everything to the stream', () => {
    const pipe = fifo('windows');
    try {
      const { made, open } = opening();
      const stdout = standardStream(pipe.writer, 'win32', open, () => {});
      stdout.stream.write('x');
      expect(made.stream.text).toBe('x');
      expect(drain(pipe.reader)).toBe('');
    } finally {
      pipe.close();
    }
  });
});
