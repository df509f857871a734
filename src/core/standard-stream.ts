/**
 * stdout or stderr of the real process, with Node's stream for it made only when something needs
 * that stream. Making it loads Node's stream and socket modules, a few milliseconds of a start
 * that many runs never use: their whole output is a short text to a pipe or a file (help, a
 * signature, a version), and their stderr is only asked whether it is a terminal.
 *
 * Until the stream is made, a descriptor that is a pipe, a socket, a file or the null device (never
 * a terminal, on Windows never at all) is answered from what it is: not a terminal, nothing
 * waiting to be written. Writes go straight to it: to a file or the null device all of them, as
 * Node's stream for a file does; to a pipe or a socket while everything written so far fits in
 * what an empty pipe takes at once (pipeBytes). Output larger than that goes through the
 * stream, which waits for a slow reader without holding up Ctrl-C. A write that would wait (a
 * descriptor another program made non-blocking) hands the rest to the stream, in order. Anything
 * else makes the stream, which answers from then on.
 */
import { fstatSync, writeSync } from 'node:fs';
import { isNullDevice } from './null-device.js';

/**
 * How much a direct write may put into a pipe without waiting for a reader. A new pipe holds
 * 16 KiB on macOS, all of which this is, and 64 KiB on Linux, of which this is half: room is left
 * for what another writer of a shared pipe may have put in first. (A Linux user past the system's
 * limit on pipe memory gets pipes of a page or two, which either amount fills.) So on Linux a
 * shell's completion script, 26 KB, still goes without Node's stream. A local socket (the stdout
 * of a program another Node program started) holds more on Linux, but only 8 KiB on macOS.
 */
export function pipeBytes(platform: NodeJS.Platform): number {
  return platform === 'linux' ? 32 * 1024 : 16 * 1024;
}
const MACOS_SOCKET_BYTES = 8 * 1024;

export interface StandardStream<Stream> {
  /** The stream to write to, made on first need. */
  readonly stream: Stream;
  /** Whether Node's stream was made, so that what it holds must be waited for. */
  readonly opened: boolean;
}

/**
 * `open` makes Node's stream (process.stdout), with its error handling; `failed` hears of a direct
 * write that failed (EPIPE: the reader went away), as the stream's 'error' listener would, after
 * which nothing more is written.
 */
export function standardStream<Stream extends NodeJS.WritableStream>(
  fd: number,
  platform: NodeJS.Platform,
  open: () => Stream,
  failed: (error: NodeJS.ErrnoException) => void,
): StandardStream<Stream> {
  let opened: Stream | undefined;
  /** How many bytes may go straight to the descriptor in all: 0 when none may. */
  let directLimit: number | undefined;
  let writtenDirectly = 0;
  let failure: NodeJS.ErrnoException | undefined;
  const stream = () => (opened ??= open());
  const isDirect = () => (directLimit ??= opened === undefined && platform !== 'win32' ? directBytes(fd, platform) : 0) > 0;

  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const whole = typeof encoding !== 'function' && callback === undefined && (typeof chunk === 'string' || chunk instanceof Uint8Array);
    if (failure !== undefined) return false;
    const data = whole ? (typeof chunk === 'string' ? Buffer.from(chunk, encoding as BufferEncoding | undefined) : (chunk as Uint8Array)) : undefined;
    if (data === undefined || opened !== undefined || writtenDirectly + data.length > directLimit!)
      return (stream().write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
    let offset = 0;
    try {
      while (offset < data.length) offset += writeSync(fd, data, offset);
      writtenDirectly += data.length;
      return true;
    } catch (error) {
      writtenDirectly += offset;
      const { code } = error as NodeJS.ErrnoException;
      // Only the system's refusals are the descriptor's; anything else is a bug, as from the stream.
      if (code === undefined) throw error;
      if (code === 'EAGAIN') return stream().write(data.subarray(offset));
      failure = error as NodeJS.ErrnoException;
      // The stream reports its errors once the write has returned: so does this.
      process.nextTick(failed, failure);
      return false;
    }
  };

  const boundMethods = new Map<unknown, unknown>();
  const proxy = new Proxy({} as Stream, {
    get(_target, key) {
      if (opened === undefined && isDirect()) {
        switch (key) {
          case 'write':
            return write;
          case 'isTTY':
          case 'writableNeedDrain':
          case 'writableEnded':
            return false;
          case 'columns':
            return undefined;
          case 'writableLength':
            return 0;
          case 'destroyed':
            return failure !== undefined;
        }
      }
      const target = stream();
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      // Bound once per method: output written a line at a time asks for write() thousands of times.
      let forwarded = boundMethods.get(value);
      if (forwarded === undefined) boundMethods.set(value, (forwarded = value.bind(target)));
      return forwarded;
    },
    has: (_target, key) => Reflect.has(stream(), key),
    set: (_target, key, value) => Reflect.set(stream(), key, value),
  });
  return {
    stream: proxy,
    get opened() {
      return opened !== undefined;
    },
  };
}

/**
 * How much may be written straight to the descriptor: all of it to a file or the null device, which
 * never make a writer wait, pipeBytes to a pipe or a socket (less to a socket on macOS), and
 * nothing to a terminal.
 */
function directBytes(fd: number, platform: NodeJS.Platform): number {
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() || isNullDevice(stats)) return Number.POSITIVE_INFINITY;
    if (stats.isSocket()) return platform === 'darwin' ? MACOS_SOCKET_BYTES : pipeBytes(platform);
    return stats.isFIFO() ? pipeBytes(platform) : 0;
  } catch {
    // A closed descriptor: the stream has Node's own way with it.
    return 0;
  }
}
