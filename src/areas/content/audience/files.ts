/**
 * What a content tree's records stand on, as files: the audience segments
 * (`segments/<slug>--<id>/segment.json`), the transactional and campaign groups
 * (`groups/transactional/…/group.json`, `groups/campaigns/…/group.json`), the custom contact
 * properties (`contact-properties.json`), and, read-only, the account's mailing lists and event
 * patterns (`lists.json`, `event-patterns.json`). Files name records by name; the ids are kept in
 * the state file alone, per account. Every file is read and written through the tree's files
 * module, never through a link.
 */
import { join } from 'node:path';
import { LocalFileError } from '../../../base/errors.js';
import { z } from '../../../base/shapes.js';
import { readTreeFile, TreeFileTooLargeError, treeEntries, treeEntryKind } from '../../../base/tree-files.js';
import { removeTreeFile, writeTreeFile, writeTreeFiles } from '../../../base/tree-writes.js';
import { slugOf } from '../../../platform/words.js';
import type { AudienceKind } from '../shared/audience-state.js';
import { type Files, parseJson } from '../shared/files.js';

/** The kinds kept as one directory per record, and the file each record's directory holds. */
export const RECORD_FILE = { segments: 'segment.json', 'groups/transactional': 'group.json', 'groups/campaigns': 'group.json' } as const;
export type DirectoryKind = keyof typeof RECORD_FILE;
export const DIRECTORY_KINDS = Object.keys(RECORD_FILE) as DirectoryKind[];

/** The kinds kept as one file at the top of the tree. */
export const SINGLE_FILE = { 'contact-properties': 'contact-properties.json', lists: 'lists.json', 'event-patterns': 'event-patterns.json' } as const;
export type SingleKind = keyof typeof SINGLE_FILE;

/** A record of the audience half, as files: a segment or group directory, or one of the three single files. */
export interface AudienceRecord {
  kind: AudienceKind;
  /** From the tree's root: `segments/dormant--<id>`, or `contact-properties.json`. */
  path: string;
  name: string;
  files: Files;
}

/** The files are a few fields each; a segment's filter, a few dozen conditions. */
const MAX_FILE_BYTES = 1024 * 1024;

/** JSON as the tree's other files are written: two spaces, a final line break. */
export function audienceJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A directory name for a segment or group: a slug of its name, then its id, percent-encoded. */
export function audiencePath(kind: DirectoryKind, name: string, id: string): string {
  return `${kind}/${slugOf(name)}--${encodeURIComponent(id)}`;
}

/** The file of a record as text, never through a link; undefined when it is not there. */
function readText(root: string, path: string): string | undefined {
  try {
    return readTreeFile(root, path, MAX_FILE_BYTES)?.toString('utf8');
  } catch (error) {
    if (!(error instanceof TreeFileTooLargeError)) throw error;
    throw new LocalFileError(`${error.file} is ${error.size} bytes, more than loopsctl reads of it (${MAX_FILE_BYTES / 1024} KB); it was not read`, {
      hint: 'it is not a file `content pull` wrote: remove it, or pull again',
    });
  }
}

const named = z.looseObject({ name: z.string().check(z.minLength(1)) });

/**
 * A file's text as the tree's records are compared: JSON that parses in the layout a pull writes
 * (two spaces, a final line break), so that a file written by hand that says what the account
 * holds (without its final line break, on one line) is in step with it, before and after a push,
 * and never blocks a pull; text that does not parse as it stands, for `content check` to place.
 */
function asPulled(text: string): string {
  try {
    return audienceJson(JSON.parse(text));
  } catch {
    return text;
  }
}

/** Every audience record of the tree: the directories of segments and groups, and the single files there are. */
export function readAudience(root: string): AudienceRecord[] {
  const records: AudienceRecord[] = [];
  for (const kind of DIRECTORY_KINDS) {
    if (treeEntryKind(root, kind) !== 'directory') continue;
    for (const entry of treeEntries(root, kind)) {
      if (entry.name.startsWith('.')) continue;
      const path = `${kind}/${entry.name}`;
      if (entry.kind === 'link') throw new LocalFileError(`${join(root, path)} is a symbolic link: content is never read or written through a link`);
      if (entry.kind !== 'directory') continue;
      const file = `${path}/${RECORD_FILE[kind]}`;
      const text = readText(root, file);
      if (text === undefined)
        throw new LocalFileError(`${join(root, file)} is missing`, {
          hint: `each directory of ${kind}/ holds its ${RECORD_FILE[kind]}; pull again to restore it`,
        });
      const { name } = parseJson(join(root, file), text, named);
      records.push({ kind, path, name, files: new Map([[RECORD_FILE[kind], asPulled(text)]]) });
    }
  }
  for (const [kind, file] of Object.entries(SINGLE_FILE) as [SingleKind, string][]) {
    const text = readText(root, file);
    if (text !== undefined) records.push({ kind, path: file, name: file, files: new Map([[file, asPulled(text)]]) });
  }
  return records;
}

/** Makes a record hold exactly these files: each renamed into place, never through a link. */
export function writeAudienceRecord(root: string, record: AudienceRecord): void {
  if (record.kind in SINGLE_FILE) {
    writeTreeFile(root, record.path, record.files.get(record.path)!);
    return;
  }
  writeTreeFiles(root, record.path, record.files);
  for (const { name, kind } of treeEntries(root, record.path))
    if (kind === 'file' && !name.startsWith('.') && !record.files.has(name)) removeTreeFile(root, `${record.path}/${name}`);
}

/** The path a record's file has in the tree, for a message that names it. */
export function fileOf(record: Pick<AudienceRecord, 'kind' | 'path'>): string {
  return record.kind in SINGLE_FILE ? record.path : `${record.path}/${RECORD_FILE[record.kind as DirectoryKind]}`;
}
