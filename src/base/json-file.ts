/** Reading and writing the JSON files loopsctl keeps for itself: the stored keys and the sandbox's state. */
import { lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { builtinModule } from './builtin.js';
import type { z } from './shapes.js';

/** Why a file cannot be used, in words that never quote its content: it may hold a key. */
export class UnusableFileError extends Error {}

/**
 * The file's content checked against the schema, or undefined when there is no such file. `plain`,
 * when given, says without zod that a value is right as the schema would take it, so that a file
 * that is (as every file loopsctl wrote) needs no schema made: the schema words what is wrong.
 */
export function readJsonFile<S extends z.ZodMiniType>(file: string, schema: S, plain?: (value: unknown) => value is z.infer<S>): z.infer<S> | undefined {
  const bytes = readFileBytes(file);
  if (bytes === undefined) return undefined;
  const value = parseJson(bytes);
  if (plain?.(value)) return value;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new UnusableFileError(`${issue.path.length === 0 ? 'the file' : issue.path.join('.')}: ${issue.message}`);
  }
  return result.data;
}

/** The file's bytes, or undefined when there is no such file. */
export function readFileBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    // ENOTDIR: a folder on the path is a file, so there is no such file either; writing it says why.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw new UnusableFileError((error as Error).message, { cause: error });
  }
}

/**
 * The JSON value the bytes hold (UTF-8). A byte order mark before it, which some editors save
 * UTF-8 with (Notepad, PowerShell's `-Encoding utf8`), is not part of the text: JSON allows a
 * reader to ignore it, and no one sees it to remove it.
 */
export function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    // The parser's message quotes the text around the fault.
    throw new UnusableFileError('it is not valid JSON');
  }
}

/**
 * Replaces the file with the value as JSON, readable by the user only (0600): written under a new
 * name in the same directory, then renamed over the path. The rename replaces whatever is at the
 * path, a symlink included, so the write never goes through a link to another file; and a crash
 * leaves the old file or the new one, never half of each. Returns false, writing nothing, when the
 * file already holds exactly that text.
 */
export function writeJsonFile(file: string, value: unknown): boolean {
  return writeFileBytes(file, Buffer.from(`${JSON.stringify(value, null, 2)}\n`));
}

/** Replaces the file with these bytes, as writeJsonFile does; false, writing nothing, when it already holds them. */
export function writeFileBytes(file: string, bytes: Buffer): boolean {
  if (alreadyHolds(file, bytes)) return false;
  // node:crypto is loaded here, on a write: the many runs that only read the stored key never need it.
  const { randomBytes } = builtinModule('node:crypto');
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    // 'wx': never reuse a file someone placed under the temporary name.
    writeFileSync(temporary, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return true;
}

/** Whether the path is already a private regular file (not a link) with exactly these bytes. */
function alreadyHolds(file: string, bytes: Buffer): boolean {
  try {
    const stats = lstatSync(file);
    return stats.isFile() && (stats.mode & 0o077) === 0 && readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}
