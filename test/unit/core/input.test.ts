/**
 * Whole inputs from files and stdin: read from the file descriptor where the runtime has one (the
 * real process), from the stream otherwise, and from the stream for what is left when the
 * descriptor turns out to be non-blocking.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileError } from '../../../src/base/errors.js';
import { readInputBytes, stdinIsTerminal } from '../../../src/core/input.js';
import type { InputSource, InStream } from '../../../src/core/runtime.js';
import { tempDir } from '../../support/temp.js';

const scratch = tempDir('loopsctl-input-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const noStream = Readable.from([]) as InStream;
const text = async (source: InputSource, file = '-', limit?: number) => (await readInputBytes(source, file, 'body', limit)).bytes.toString('utf8');

function withFd<T>(path: string, flags: number, use: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync(path, flags);
  return use(fd).finally(() => closeSync(fd));
}

describe('reading a whole input', () => {
  it('reads a file, and stdin from its descriptor, byte for byte', async () => {
    const body = Buffer.from('{"é": 1}\r\n\u0000tail');
    writeFileSync(join(scratch, 'body'), body);
    expect((await readInputBytes({ stdin: noStream }, join(scratch, 'body'), 'body')).bytes).toEqual(body);
    const fromFd = await withFd(join(scratch, 'body'), constants.O_RDONLY, (stdinFd) => readInputBytes({ stdin: noStream, stdinFd }, '-', 'body'));
    expect(fromFd).toEqual({ source: 'stdin', bytes: body });
  });

  it('reads an input larger than one read', async () => {
    const big = `${'x'.repeat(200_000)}end`;
    writeFileSync(join(scratch, 'big'), big);
    expect(await withFd(join(scratch, 'big'), constants.O_RDONLY, (stdinFd) => text({ stdin: noStream, stdinFd }))).toBe(big);
    expect(await text({ stdin: noStream }, join(scratch, 'big'))).toBe(big);
  });

  it('reads stdin given as a stream where there is no descriptor', async () => {
    expect(await text({ stdin: Readable.from([Buffer.from('a'), 'b']) as InStream })).toBe('ab');
  });

  it('stops past the limit, from a descriptor, a file and a stream', async () => {
    const tooLarge = /larger than 10 bytes/;
    await expect(withFd('/dev/zero', constants.O_RDONLY, (stdinFd) => text({ stdin: noStream, stdinFd }, '-', 10))).rejects.toThrow(tooLarge);
    await expect(text({ stdin: noStream }, '/dev/zero', 10)).rejects.toThrow(tooLarge);
    await expect(text({ stdin: Readable.from([Buffer.alloc(11)]) as InStream }, '-', 10)).rejects.toThrow(tooLarge);
    writeFileSync(join(scratch, 'ten'), '0123456789');
    expect(await text({ stdin: noStream }, join(scratch, 'ten'), 10)).toBe('0123456789');
  });

  it('says which file is missing or a directory', async () => {
    mkdirSync(join(scratch, 'dir'), { recursive: true });
    const missing = readInputBytes({ stdin: noStream }, join(scratch, 'nope'), 'body');
    await expect(missing).rejects.toThrow(LocalFileError);
    await expect(missing).rejects.toThrow(/cannot read the body file ".*nope": no such file/);
    await expect(readInputBytes({ stdin: noStream }, join(scratch, 'dir'), 'body')).rejects.toThrow(/: it is a directory/);
  });

  it('goes on with the stream when the descriptor is non-blocking and has nothing yet', async () => {
    const fifo = join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    writeSync(writer, 'first ');
    // As the process's own stdin, the stream is opened only when asked for: once the descriptor
    // had nothing more. Only then does the writer go on (a stream opened sooner would read the
    // descriptor alongside).
    let stream: InStream | undefined;
    const source = {
      stdinFd: reader,
      get stdin(): InStream {
        if (stream === undefined) {
          stream = new Socket({ fd: reader, readable: true, writable: false }) as unknown as InStream;
          writeSync(writer, 'then the rest');
          closeSync(writer);
        }
        return stream;
      },
    };
    expect(await text(source)).toBe('first then the rest');
  });
});

describe('stdin as a terminal', () => {
  it('is known from the descriptor without the stream, or from the stream', () => {
    const stream = new Readable() as InStream;
    const devNull = openSync('/dev/null', 'r');
    try {
      expect(
        stdinIsTerminal({
          get stdin(): InStream {
            throw new Error('stream opened');
          },
          stdinFd: devNull,
        }),
      ).toBe(false);
    } finally {
      closeSync(devNull);
    }
    expect(stdinIsTerminal({ stdin: stream })).toBe(false);
    stream.isTTY = true;
    expect(stdinIsTerminal({ stdin: stream })).toBe(true);
  });
});
