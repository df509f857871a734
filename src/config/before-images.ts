/**
 * The before-images of changes: what each record a plan changes held just before the plan was
 * applied (an email's LMX and fields, a workflow's graph, a group's fields), kept so that
 * `loopsctl undo` can put it back. Beside the journal of changes, with the same care: in
 * `journal/before/` under the config directory, made for the user alone (0700), each image a file
 * for the user alone (0600), written to a new file and renamed over its place (never through a
 * link), the newest KEEP_IMAGES kept and each at most MAX_IMAGE_BYTES.
 */

import { randomBytes } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError } from '../base/errors.js';
import { ensureDirectory, inKeptDirectory } from '../base/private-dir.js';
import { readRegularFile } from '../base/regular-file.js';
import { writeWholeSync } from '../base/write-whole.js';
import { journalDirectory } from './change-journal-files.js';

/** The images kept: the newest, about a month of a busy account's plans. */
export const KEEP_IMAGES = 200;
/** An image holds at most what a plan does (its LMX); far less than memory. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
const IMAGE_ID = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;

export function imagesDirectory(configDir: string): string {
  return join(journalDirectory(configDir), 'before');
}

/** Whether a text names a kept image (`20261125T101803Z-3f9a2c`), rather than a file. */
export function isImageId(text: string): boolean {
  return IMAGE_ID.test(text);
}

function refusal(path: string, reason: string): LocalFileError {
  return new LocalFileError(`the before-images of changes cannot be kept in ${path}: ${reason}; nothing was sent`, {
    code: 'journal',
    hint: `move ${path} aside (loopsctl makes it again), or set LOOPSCTL_CONFIG_DIR to a directory of your own`,
  });
}

/** The private directory, made when missing; a link or another user's is refused. */
function directory(configDir: string): string {
  const dir = imagesDirectory(configDir);
  return inKeptDirectory(dir, () => {
    ensureDirectory(dir);
    for (const each of [journalDirectory(configDir), dir]) {
      const stats = lstatSync(each);
      if (stats.isSymbolicLink()) throw refusal(each, 'the directory is a symbolic link');
      if (!stats.isDirectory()) throw refusal(each, 'it is not a directory');
      if (process.getuid !== undefined && stats.uid !== process.getuid()) throw refusal(each, 'it belongs to another user');
    }
    return dir;
  });
}

/** A new image's id: when it was taken, and enough chance to tell two of one second apart. */
export function newImageId(now: Date): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

/** Writes the image (new, or over its earlier self), then drops the oldest beyond `keep`. */
export function keepImage(configDir: string, id: string, image: unknown, keep = KEEP_IMAGES): string {
  if (!isImageId(id)) throw new LocalFileError(`${id} is not the id of a before-image`);
  const text = Buffer.from(`${JSON.stringify(image)}\n`);
  const dir = directory(configDir);
  const file = join(dir, `${id}.json`);
  if (text.length > MAX_IMAGE_BYTES) throw refusal(file, `the image would take ${text.length} bytes, more than the ${MAX_IMAGE_BYTES} kept`);
  const fresh = join(dir, `.${id}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(fresh, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeWholeSync(fd, text, file);
  } finally {
    closeSync(fd);
  }
  // A rename replaces whatever is at the place, a link included, and never follows it.
  renameSync(fresh, file);
  const ids = imageIds(configDir);
  for (const old of ids.slice(0, Math.max(0, ids.length - keep))) rmSync(join(dir, `${old}.json`), { force: true });
  return file;
}

/** Drops an image: one of a change that changed nothing, which would otherwise stand for the change to undo. */
export function dropImage(configDir: string, id: string): void {
  if (!isImageId(id)) throw new LocalFileError(`${id} is not the id of a before-image`);
  rmSync(join(directory(configDir), `${id}.json`), { force: true });
}

/** The ids of the kept images, oldest first. */
export function imageIds(configDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(imagesDirectory(configDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith('.json') && isImageId(name.slice(0, -5)))
    .map((name) => name.slice(0, -5))
    .sort();
}

/** An image's JSON, or undefined when none is kept by that id; a link or anything but a regular file is refused. */
export function readImage(configDir: string, id: string): unknown {
  if (!isImageId(id)) return undefined;
  const file = join(directory(configDir), `${id}.json`);
  const read = readRegularFile(file, MAX_IMAGE_BYTES, (why) => refusal(file, why === 'link' ? 'it is a symbolic link' : 'it is not an image loopsctl wrote'));
  if (read === undefined) return undefined;
  try {
    return JSON.parse(read.bytes.toString('utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw refusal(file, 'it is not valid JSON');
    throw error;
  }
}
