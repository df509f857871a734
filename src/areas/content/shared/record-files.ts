/**
 * An account's emails, components and themes as files: one directory per record
 * (`transactional/password-reset--<id>/`), each file small and stable so that a pull request's diff
 * reads well, read and written never through a link.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { LocalFileError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { TreeFileTooLargeError } from '../../../base/tree-files.js';
import { removeTreeFile, writeTreeFiles } from '../../../base/tree-writes.js';
import { LMX_MAX_BYTES } from '../../../lmx/index.js';
import { type EnvValues, fillFiles } from './env-values.js';
import { type Files, parseJson, REFERENCE_FILES, shownDirectory, shownEntries } from './files.js';
import { type EmailDirectory, KINDS } from './lmx-files.js';

/** The largest record file read: the API takes no more than this of LMX, and a record's other files are far smaller. */
const MAX_RECORD_FILE_BYTES = LMX_MAX_BYTES;

/** One record as files: where it lives, what it is, and its content. */
export interface RecordFiles {
  kind: EmailDirectory;
  /** `transactional/password-reset--cxyz`: the key of the record in the state file. */
  path: string;
  name: string;
  files: Files;
  /**
   * The files as they name components and themes by id where `files` names them by directory
   * (lmx-names.ts): on disk, as an older pull wrote them, or, for the account's record, as it holds them.
   */
  withIds?: Files;
  /** The files as written, where `files` holds them filled with an environment's values (env-values.ts): never written over. */
  written?: Files;
}

/** The name every record keeps in its meta file. */
export const META_FILE: Record<EmailDirectory, string> = {
  transactional: 'transactional.json',
  campaigns: 'campaign.json',
  components: 'component.json',
  themes: 'theme.json',
};

/** A digest of the published files kept for review, or undefined for a record without them. */
export function referenceDigestOf(files: Files): string | undefined {
  const names = [...REFERENCE_FILES].filter((file) => files.has(file)).sort();
  if (names.length === 0) return undefined;
  const hash = createHash('sha256');
  for (const name of names) hash.update(`${name}\0${files.get(name)!}\0`);
  return hash.digest('hex');
}

/**
 * Every record directory under `root`, of the kinds asked for, with an environment's values filled
 * when given: what is compared with that environment's account and sent to it. A symbolic link in
 * the tree (which a pull request can add, as git keeps links) is refused, never followed (src/base/tree-files.ts).
 */
export function readRecords(root: string, kinds: readonly EmailDirectory[], values?: EnvValues): RecordFiles[] {
  const records: RecordFiles[] = [];
  for (const kind of kinds) {
    for (const entry of shownEntries(root, kind)) {
      const path = `${kind}/${entry.name}`;
      if (entry.kind === 'link') throw linkRefused(root, path);
      if (entry.kind !== 'directory') continue;
      const files: Files = new Map();
      const directory = shownDirectory(root, path);
      for (const file of directory?.entries ?? []) {
        if (file.kind !== 'file')
          throw new LocalFileError(`${join(root, path, file.name)}: not a regular file`, {
            hint: 'a record directory holds only the files `content pull` writes',
          });
        files.set(
          file.name,
          readRecordFile(join(root, path, file.name), () => directory!.read(file.name, MAX_RECORD_FILE_BYTES)),
        );
      }
      const filled = values === undefined ? files : fillFiles(files, values);
      records.push({ kind, path, name: metaName(kind, join(root, path), filled), files: filled, ...(filled === files ? {} : { written: files }) });
    }
  }
  return records;
}

/** A record's file; its size is checked before reading: hundreds of megabytes would exhaust memory, and the API would refuse them anyway. */
function readRecordFile(file: string, read: () => Buffer | undefined): string {
  try {
    const bytes = read();
    if (bytes === undefined) throw new LocalFileError(`${file} was removed while it was read`, { hint: 'run the command again' });
    return bytes.toString('utf8');
  } catch (error) {
    if (!(error instanceof TreeFileTooLargeError)) throw error;
    throw new LocalFileError(`${error.file} is ${error.size} bytes, more than the API takes (${LMX_MAX_BYTES / 1024} KB of LMX); it was not read`, {
      hint: 'move large parts into components or images, or remove the file if it does not belong to the record',
    });
  }
}

function linkRefused(root: string, path: string): LocalFileError {
  return new LocalFileError(`${join(root, path)} is a symbolic link: content is never read or written through a link`, {
    hint: 'remove the link (its target is left as it is), then pull again',
  });
}

const meta = z.looseObject({ name: z.string().check(z.minLength(1)) });

function metaName(kind: EmailDirectory, directory: string, files: Files): string {
  const file = META_FILE[kind];
  const text = files.get(file);
  if (text === undefined)
    throw new LocalFileError(`${join(directory, file)} is missing`, { hint: 'each record directory keeps its name there; pull again to restore it' });
  return parseJson(join(directory, file), text, meta).name;
}

/**
 * Makes a record directory hold exactly these files: each written under a temporary name and
 * renamed into place, and files it no longer has removed.
 */
export function writeRecord(root: string, record: RecordFiles): void {
  writeRecordFiles(root, record.path, record.files);
  for (const { name } of shownEntries(root, record.path)) if (!record.files.has(name)) removeTreeFile(root, `${record.path}/${name}`);
}

/** Writes some of a record's files (by name), leaving its others as they are. */
export function writeRecordFiles(root: string, path: string, files: Files): void {
  writeTreeFiles(root, path, files);
}

/** Writes a record's reference files (what is live) as the account now holds them, after a publish; its other files are left as they are. */
export function writeReferenceFiles(root: string, record: RecordFiles): void {
  writeRecordFiles(root, record.path, new Map([...record.files].filter(([name]) => REFERENCE_FILES.has(name))));
}

/**
 * Whether the directory holds record directories as a pull names them (`welcome--<id>`): with no
 * state file beside them, it was lost.
 */
export function holdsRecords(root: string): boolean {
  return KINDS.some((kind) => shownEntries(root, kind).some((entry) => /.--./.test(entry.name) && entry.kind === 'directory'));
}
