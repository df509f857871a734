/**
 * Content given as a file name, or `-` for stdin: LMX bodies, filters, theme styles, webhook bodies,
 * allow-lists. Reading stops at MAX_INPUT_BYTES, so a mistaken /dev/zero or a huge file ends with
 * an error instead of filling memory.
 */
import { closeSync, constants, fstatSync, lstatSync, open, openSync, read, readSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { builtinModule } from '../base/builtin.js';
import { LocalFileError, LoopsctlError } from '../base/errors.js';
import { isNullDevice } from './null-device.js';
import type { InputSource } from './runtime.js';

/** No input loopsctl takes comes near this: 64 MiB. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

export interface Input {
  /** How errors name where the content came from: the file name, or "stdin". */
  source: string;
  text: string;
}

/**
 * The whole of a file, or of stdin for `-`, as text. Bytes that are not UTF-8 text (an image, a
 * UTF-16 file, a zip) are refused with their first bytes in hex, never echoed as garbled text in a
 * message that quotes the input.
 */
export async function readInput(runtime: InputSource, file: string, what: string): Promise<Input> {
  const { source, bytes } = await readInputBytes(runtime, file, what);
  return { source, text: textOf(bytes, source, what) };
}

/** How many of the first bytes of binary input a message shows. */
const SHOWN_BYTES = 8;

function textOf(bytes: Buffer, source: string, what: string): string {
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Not UTF-8.
  }
  if (text !== undefined && !text.includes('\0')) return text;
  throw notUtf8Text(`the ${what} in ${source}`, bytes, `give the ${what} as UTF-8 text`);
}

/**
 * Why bytes that do not decode are not text: binary data when they hold a NUL (an image, a zip,
 * UTF-16), shown by their first bytes, else text in another encoding (Latin-1, Windows-1252),
 * named by its first byte that is not UTF-8. `offset` is where `bytes` stand in the whole input,
 * whose first bytes are `start`.
 */
export function notUtf8Text(subject: string, bytes: Uint8Array, binaryHint: string, offset = 0, start: Uint8Array = bytes): LocalFileError {
  if (bytes.includes(0) || start.includes(0))
    return new LocalFileError(`${subject} is binary data, not text (it starts with bytes ${describeBytes(start)})`, { hint: binaryHint });
  const decoded = new TextDecoder('utf-8').decode(bytes);
  const replaced = decoded.indexOf('\ufffd');
  const at = replaced === -1 ? bytes.length - 1 : Buffer.byteLength(decoded.slice(0, replaced));
  return new LocalFileError(
    `${subject} is not UTF-8: byte ${offset + at + 1} (0x${bytes[at]!.toString(16).padStart(2, '0')}) is not, so it is text in another encoding`,
    {
      hint: 'save it as UTF-8 (iconv -f <its encoding> -t UTF-8)',
    },
  );
}

/** The first bytes as hex pairs: "89 50 4e 47 0d 0a 1a 0a …". */
export function describeBytes(bytes: Uint8Array): string {
  const shown = Array.from(bytes.subarray(0, SHOWN_BYTES), (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > SHOWN_BYTES ? `${shown} …` : shown;
}

/**
 * The bytes of a file, or of stdin for `-`, exactly as they are, up to MAX_INPUT_BYTES. Both are
 * read with plain reads of their file descriptor: a stream would load Node's stream machinery for
 * files, which takes a start about 4 ms. Stdin given as a stream (in tests) is read as one.
 */
export async function readInputBytes(
  runtime: InputSource,
  file: string,
  what: string,
  limit = MAX_INPUT_BYTES,
  /** The error for more than `limit` bytes, when the command has its own words for it. */
  tooLarge?: (source: string) => LocalFileError,
): Promise<{ source: string; bytes: Buffer }> {
  const source = file === '-' ? 'stdin' : file;
  const inline = runtime.files?.inline.get(file);
  try {
    if (inline !== undefined) {
      if (inline.length > limit) throw new TooLarge();
      return { source, bytes: inline };
    }
    if (runtime.files !== undefined) {
      if (runtime.files.root === undefined) throw new LocalFileError(`the ${what} "${file}" is no content this call gave`, { hint: `give the ${what} inline` });
      // Only a tool call of `loopsctl mcp` gets here: a run of the CLI loads none of it.
      return { source, bytes: await readUnderRoot(runtime.files.root, file, what, limit) };
    }
    return { source, bytes: file === '-' ? await readStdin(runtime, limit) : await readFile(file, limit) };
  } catch (error) {
    if (error instanceof LoopsctlError) throw error;
    if (error instanceof TooLarge) {
      throw (
        tooLarge?.(source) ??
        new LocalFileError(`the ${what} in ${source} is larger than ${limit} bytes, more than loopsctl reads`, { hint: `give a file holding the ${what}` })
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (isLinkRefusal(error))
      throw new LocalFileError(`the ${what} file "${file}" is a symbolic link: content is never read through a link`, {
        hint: `give the file itself, or - to read the ${what} from stdin`,
      });
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new LocalFileError(`cannot read the ${what} file "${file}": ${reason}`, { hint: `give a file holding the ${what}, or - to read it from stdin` });
  }
}

/**
 * Whether stdin is a terminal (a person rather than input), known without opening its stream; and
 * for a pipe, a file or the null device without loading Node's tty module either.
 */
export function stdinIsTerminal(runtime: InputSource): boolean {
  if (runtime.stdinFd === undefined) return runtime.stdin.isTTY === true;
  const stats = fstatSync(runtime.stdinFd);
  return stats.isCharacterDevice() && !isNullDevice(stats) && builtinModule('node:tty').isatty(runtime.stdinFd);
}

class TooLarge extends Error {}
class LinkRefused extends Error {}

/** Whether opening a named file failed because it is a link (readFlags' refusal, or the system's O_NOFOLLOW). */
export function isLinkRefusal(error: unknown): boolean {
  return error instanceof LinkRefused || (error as NodeJS.ErrnoException | undefined)?.code === 'ELOOP';
}

/** A file under the root of `loopsctl mcp`, read without following a link anywhere under the root. */
async function readUnderRoot(root: string, file: string, what: string, limit: number): Promise<Buffer> {
  const [{ placeUnder }, { readTreeFileAsync, TreeFileTooLargeError }] = await Promise.all([import('./root.js'), import('../base/tree-files.js')]);
  const place = placeUnder(root, file, `the ${what}`);
  try {
    const bytes = await readTreeFileAsync(place.root, place.path, limit);
    if (bytes === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
    return bytes;
  } catch (error) {
    if (error instanceof TreeFileTooLargeError) throw new TooLarge();
    throw error;
  }
}

/**
 * How a named file is opened: never through a link at its own name (O_NOFOLLOW, checked before by
 * lstat where the system has no such flag), since a repository can commit `footer.lmx ->
 * ~/.aws/credentials` and a script that names the file would send or show what it reaches. The
 * system's own links to a descriptor (/dev/stdin, /dev/fd/N of a shell's `<(…)`) are followed.
 */
export function readFlags(file: string): number {
  if (/^\/(dev|proc)\//.test(file)) return constants.O_RDONLY;
  if (lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) throw new LinkRefused();
  return constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
}

/**
 * The file's bytes, at most `limit` (one more byte read says it is larger): whatever the path names
 * by the time it is opened, only what that descriptor holds is read, however it changes.
 */
async function readFile(file: string, limit: number): Promise<Buffer> {
  const flags = readFlags(file);
  const promptly = statSync(file).isFile();
  const fd = promptly
    ? openSync(file, flags)
    : await new Promise<number>((resolve, reject) => open(file, flags, (error, opened) => (error ? reject(error) : resolve(opened))));
  try {
    if (fstatSync(fd).isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
    return await readDescriptor(fd, limit, [], promptly && fstatSync(fd).isFile());
  } finally {
    closeSync(fd);
  }
}

/**
 * Stdin from its descriptor; when that turns out to be non-blocking (a pipe that another process
 * sharing it put in that mode), a read finds nothing yet, and the rest is read from the stream,
 * which waits for data.
 */
async function readStdin(runtime: InputSource, limit: number): Promise<Buffer> {
  const fd = runtime.stdinFd;
  if (fd === undefined) return readAtMost(runtime.stdin, limit);
  const stats = fstatSync(fd);
  const promptly = stats.isFile() || (stats.isCharacterDevice() && !stdinIsTerminal(runtime));
  const chunks: Buffer[] = [];
  try {
    return await readDescriptor(fd, limit, chunks, promptly);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
    const read = chunks.reduce((size, chunk) => size + chunk.length, 0);
    return Buffer.concat([...chunks, await readAtMost(runtime.stdin, limit - read)]);
  }
}

/**
 * Reads until the end, keeping what was read in `chunks`, so that a caller can go on elsewhere.
 * What ends `promptly` (a file, a device such as /dev/null that is not a terminal) is read here
 * and now; a pipe, a socket or a terminal waits for its writer, so it is read on Node's thread
 * pool, while Ctrl-C can still be heard.
 */
async function readDescriptor(fd: number, limit: number, chunks: Buffer[], promptly: boolean): Promise<Buffer> {
  let size = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, limit - size + 1));
    const count = promptly
      ? readSync(fd, buffer, 0, buffer.length, null)
      : await new Promise<number>((resolve, reject) =>
          read(fd, buffer, 0, buffer.length, null, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
        );
    if (count === 0) return Buffer.concat(chunks, size);
    size += count;
    if (size > limit) throw new TooLarge();
    chunks.push(buffer.subarray(0, count));
  }
}

async function readAtMost(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) {
      stream.destroy();
      throw new TooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** A file (or stdin) that must hold JSON; the error says where the JSON breaks. */
export async function readJsonInput(
  runtime: InputSource,
  file: string,
  what: string,
  hint = `give the ${what} as a JSON object`,
): Promise<{ source: string; value: unknown }> {
  const { source, text } = await readInput(runtime, file, what);
  try {
    return { source, value: JSON.parse(text) };
  } catch {
    // Content a tool call of `loopsctl mcp` gave inline is named by its input: no file to point to.
    const where = runtime.files?.inline.has(file) === true ? '' : `${source}: `;
    // Loaded only here: what reads input (most starts that take content) does without it.
    const { jsonFault } = await import('../base/parse-faults.js');
    throw new LocalFileError(`${where}the ${what} cannot be read as JSON: ${jsonFault(text)}`, { hint });
  }
}
