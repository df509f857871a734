/**
 * Writing a tree's files, with the rules of src/base/tree-files.ts: never through a symbolic link.
 * A directory is made one segment at a time, each looked at with lstat; a file goes to a new file
 * beside it (created exclusively, so never through a link) and is renamed over the name, which
 * replaces a name, never what a link at that name points to.
 */
import { closeSync, constants, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError } from './errors.js';
import { directoryOf, kindOf, lstatOf, NO_FOLLOW, refused, segmentsOf } from './tree-files.js';

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** Makes the directories of a path under the root, one segment at a time, none of them through a link. */
export function makeTreeDirectory(root: string, path: string): string {
  let full = root;
  for (const segment of segmentsOf(root, path)) {
    full = join(full, segment);
    let stats = lstatOf(full);
    if (stats === undefined) {
      try {
        mkdirSync(full);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new LocalFileError(`${full}: ${(error as Error).message}`, { cause: error });
      }
      stats = lstatOf(full);
    }
    if (stats === undefined || !stats.isDirectory()) throw refused(full, stats === undefined ? 'other' : kindOf(stats), 'directory');
  }
  return full;
}

/**
 * Writes a file under the root: its directories made as needed, the text written to a new file
 * beside it (created exclusively, so never through a link) and renamed over the name. A link or
 * anything but a regular file at that name is refused rather than replaced.
 */
export function writeTreeFile(root: string, path: string, data: string | Uint8Array): void {
  writeTreeFiles(root, '', [[path, data]]);
}

/**
 * Writes files under `directory` of the root (a record's, by their names below it), each as
 * writeTreeFile does, the directories on their way made and looked at once for all of them.
 */
export function writeTreeFiles(root: string, directory: string, files: Iterable<readonly [string, string | Uint8Array]>): void {
  const made = new Map<string, string>();
  for (const [name, data] of files) {
    const segments = segmentsOf(root, directory === '' ? name : `${directory}/${name}`);
    if (segments.length === 0) throw refused(root, 'directory', 'regular file');
    const parent = segments.slice(0, -1).join('/');
    const full = made.get(parent) ?? makeTreeDirectory(root, parent);
    made.set(parent, full);
    writeFileIn(full, segments.at(-1)!, data);
  }
}

/** A file written in a directory already looked at: to a new file beside it, renamed over the name. */
function writeFileIn(directory: string, name: string, data: string | Uint8Array): void {
  const full = join(directory, name);
  const existing = lstatOf(full);
  if (existing !== undefined && !existing.isFile()) throw refused(full, kindOf(existing), 'regular file');
  const temporary = join(directory, `.${name}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    const fd = openSync(temporary, CREATE_FLAGS, 0o666);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      // Continued where the system cut a write short, as writeWholeSync does; this file keeps its own
      // loop, since it is in a bundle of its own (build.mjs), which the offline commands read without the client's.
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written, bytes.length - written);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, full);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new LocalFileError(`${full}: ${(error as Error).message}`, { cause: error });
  }
}

/** Removes a file under the root (a link there is removed itself, its target left alone); nothing when it is not there. */
export function removeTreeFile(root: string, path: string): void {
  const segments = segmentsOf(root, path);
  const directory = directoryOf(root, segments.slice(0, -1));
  if (directory === undefined || segments.length === 0) return;
  const full = join(directory, segments.at(-1)!);
  const stats = lstatOf(full);
  if (stats === undefined) return;
  if (stats.isDirectory()) throw refused(full, 'directory', 'regular file');
  rmSync(full, { force: true });
}
