/** Content given as a file name, or `-` for stdin: LMX bodies, filters and theme styles. */
import { readFile } from 'node:fs/promises';
import { LocalFileError } from '../api/errors.js';
import { readStdin } from './prompt.js';
import type { Runtime } from './runtime.js';

export interface Input {
  /** How errors name where the content came from: the file name, or "stdin". */
  source: string;
  text: string;
}

/** The whole of a file, or of stdin for `-`. */
export async function readInput(runtime: Pick<Runtime, 'stdin'>, file: string, what: string): Promise<Input> {
  if (file === '-') return { source: 'stdin', text: await readStdin(runtime) };
  try {
    return { source: file, text: await readFile(file, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new LocalFileError(`cannot read the ${what} file "${file}": ${reason}`, { hint: `give a file holding the ${what}, or - to read it from stdin` });
  }
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
