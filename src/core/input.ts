/**
 * Content given as a file name, or `-` for stdin: LMX bodies, filters, theme styles, webhook bodies,
 * allow-lists. Reading stops at MAX_INPUT_BYTES, so a mistaken /dev/zero or a huge file ends with
 * an error instead of filling memory.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { LocalFileError } from '../api/errors.js';
import type { Runtime } from './runtime.js';

/** No input loopsctl takes comes near this: 64 MiB. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

export interface Input {
  /** How errors name where the content came from: the file name, or "stdin". */
  source: string;
  text: string;
}

/** The whole of a file, or of stdin for `-`, as text. */
export async function readInput(runtime: Pick<Runtime, 'stdin'>, file: string, what: string): Promise<Input> {
  const { source, bytes } = await readInputBytes(runtime, file, what);
  return { source, text: bytes.toString('utf8') };
}

/** The bytes of a file, or of stdin for `-`, exactly as they are, up to MAX_INPUT_BYTES. */
export async function readInputBytes(runtime: Pick<Runtime, 'stdin'>, file: string, what: string, limit = MAX_INPUT_BYTES): Promise<{ source: string; bytes: Buffer }> {
  const source = file === '-' ? 'stdin' : file;
  try {
    return { source, bytes: await readAtMost(file === '-' ? runtime.stdin : createReadStream(file), limit) };
  } catch (error) {
    if (error instanceof TooLarge) {
      throw new LocalFileError(`the ${what} in ${source} is larger than ${limit} bytes, more than loopsctl reads`, { hint: `give a file holding the ${what}` });
    }
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new LocalFileError(`cannot read the ${what} file "${file}": ${reason}`, { hint: `give a file holding the ${what}, or - to read it from stdin` });
  }
}

class TooLarge extends Error {}

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
export async function readJsonInput(runtime: Pick<Runtime, 'stdin'>, file: string, what: string): Promise<{ source: string; value: unknown }> {
  const { source, text } = await readInput(runtime, file, what);
  try {
    return { source, value: JSON.parse(text) };
  } catch (error) {
    throw new LocalFileError(`${source}: the ${what} is not valid JSON: ${(error as Error).message}`, { hint: `the ${what} is a JSON object` });
  }
}
