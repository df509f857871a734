/**
 * The journal of changes: one JSON line for each write loopsctl made to an account's configuration
 * (src/platform/configuration-writes.ts says which), read by `loopsctl log`.
 *
 * It lives in `journal/` under the config directory, made for the user alone (0700), in files of
 * the user alone (0600): `changes.jsonl`, and, once it passes its size, the older lines renamed to
 * `changes.1.jsonl` … `changes.<KEEP_FILES - 1>.jsonl`, the oldest dropped. Each line is appended
 * with one write to a file opened O_APPEND, under the file lock of src/base/lock.ts, so that runs
 * at the same time neither interleave their lines nor rotate under each other. A journal that is a
 * symbolic link, not a regular file, or cannot be written is refused before the change is sent:
 * no change is made that the journal could not keep.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError } from '../base/errors.js';
import { takeFileLock } from '../base/lock.js';
import { ensureDirectory, inKeptDirectory } from '../base/private-dir.js';
import { writeWholeSync } from '../base/write-whole.js';

export const JOURNAL_DIR = 'journal';
const JOURNAL_NAME = 'changes';
/** A file is rotated once it passes this size: about 2,000 lines. */
export const ROTATE_BYTES = 1024 * 1024;
/** The live file and the rotated ones kept behind it. */
export const KEEP_FILES = 5;

/** One line of the journal: one configuration write, as `loopsctl log --json` prints it. */
export interface JournalEntry {
  /** When the answer came (or the write failed), ISO 8601, by this machine's clock. */
  at: string;
  /**
   * When the account answered, by its own clock (the answer's Date header), ISO 8601: what the
   * metrics, dated the same way, are set against. Absent without a dated answer, and in lines
   * written before loopsctl kept it: `at` stands for it then (accountTime).
   */
  accountAt?: string;
  /** One run's writes share it. */
  run: string;
  profile?: string;
  /** The account: its team, when the run knew it (a profile's, or --expect-team's, checked), and the base URL. */
  team?: string;
  baseUrl: string;
  /** The terminal's user, or the MCP client that called the tool. */
  who: string;
  via: 'terminal' | 'mcp';
  /** The command, as typed words: `workflow node update`. */
  command: string;
  /** The local files the command was given (a plan file, a content tree), as given. */
  files?: string[];
  method: string;
  path: string;
  /** The API's operationId. */
  operation: string;
  /** What kind of record it changed: `workflow node`. */
  kind: string;
  /** The ids of the path, then those of the answer. */
  ids: Record<string, string>;
  /** The revision the write was made against (expectedRevisionId), then those of the answer. */
  revisions: Record<string, string>;
  /** The record's name, when the answer or the request had one. */
  name?: string;
  /** done: the API answered 2xx; refused: it answered 4xx; unknown: no answer, or a 5xx, the change may or may not be made. */
  outcome: 'done' | 'refused' | 'unknown';
  status?: number;
  error?: string;
}

/** When a change was made by the account's clock: its answer's Date, else this machine's time for it. */
export function accountTime(entry: JournalEntry): number {
  const account = entry.accountAt === undefined ? Number.NaN : Date.parse(entry.accountAt);
  return Number.isNaN(account) ? Date.parse(entry.at) : account;
}

export function journalDirectory(configDir: string): string {
  return join(configDir, JOURNAL_DIR);
}

/** The journal's files, newest first: the live one, then the rotated ones. */
export function journalFiles(configDir: string): string[] {
  const dir = journalDirectory(configDir);
  return Array.from({ length: KEEP_FILES }, (_unused, index) => join(dir, index === 0 ? `${JOURNAL_NAME}.jsonl` : `${JOURNAL_NAME}.${index}.jsonl`));
}

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);

/**
 * Opens the live file for appending, refusing a link, anything but a regular file of the user's,
 * a directory that is a link, and one that cannot be written; the caller closes what it returns.
 */
function openJournal(configDir: string): { fd: number; file: string; size: number } {
  const dir = journalDirectory(configDir);
  const file = journalFiles(configDir)[0]!;
  return inKeptDirectory(dir, () => {
    ensureDirectory(dir);
    if (lstatSync(dir).isSymbolicLink()) throw refusal(dir, 'the directory is a symbolic link');
    let fd: number;
    try {
      fd = openSync(file, APPEND_FLAGS, 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'EMLINK') throw refusal(file, 'it is a symbolic link');
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw refusal(file, 'it cannot be written');
      if (code === 'EISDIR') throw refusal(file, 'it is not a regular file');
      throw error;
    }
    const stats = fstatSync(fd);
    if (!stats.isFile() || (process.getuid !== undefined && stats.uid !== process.getuid())) {
      closeSync(fd);
      throw refusal(file, stats.isFile() ? 'it belongs to another user' : 'it is not a regular file');
    }
    return { fd, file, size: stats.size };
  });
}

/** The code of a journal's refusal of a write, made before the write is sent: nothing of it reached the account. */
export const JOURNAL_REFUSED = 'journal';

function refusal(path: string, reason: string): LocalFileError {
  return new LocalFileError(`the journal of changes cannot be kept in ${path}: ${reason}; nothing was sent`, {
    code: JOURNAL_REFUSED,
    hint: `move ${path} aside (loopsctl makes it again), or set LOOPSCTL_CONFIG_DIR to a directory of your own`,
  });
}

/** Refuses, before a change is sent, a journal that could not keep it. */
export function checkJournal(configDir: string): void {
  closeSync(openJournal(configDir).fd);
}

/** Appends one entry as one line: rotated first when the live file has passed ROTATE_BYTES. */
export function appendEntry(configDir: string, entry: JournalEntry, rotateBytes = ROTATE_BYTES): void {
  const line = Buffer.from(`${JSON.stringify(entry)}\n`);
  const live = journalFiles(configDir)[0]!;
  const release = inKeptDirectory(journalDirectory(configDir), () => {
    ensureDirectory(journalDirectory(configDir));
    return takeFileLock(live);
  });
  try {
    let opened = openJournal(configDir);
    if (opened.size > 0 && opened.size + line.length > rotateBytes) {
      closeSync(opened.fd);
      rotate(configDir);
      opened = openJournal(configDir);
    }
    try {
      // The whole line, to a file opened O_APPEND under the journal's lock: it lands after every
      // other, and a write the system cuts short is continued, so no line is left half written.
      writeWholeSync(opened.fd, line, opened.file);
    } finally {
      closeSync(opened.fd);
    }
  } finally {
    release();
  }
}

/** Each file moves one place older; the oldest is dropped. Under the journal's lock. */
function rotate(configDir: string): void {
  const files = journalFiles(configDir);
  rmSync(files.at(-1)!, { force: true });
  for (let index = files.length - 2; index >= 0; index -= 1) {
    try {
      renameSync(files[index]!, files[index + 1]!);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/**
 * Every entry kept, oldest first. A file that is a link or not a regular file is skipped rather
 * than read through; a line that is not an entry (cut short by a full disk) is skipped.
 */
export function readEntries(configDir: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const file of journalFiles(configDir).reverse()) {
    const text = readPlainFile(file);
    if (text === undefined) continue;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as JournalEntry;
        if (typeof entry === 'object' && entry !== null && typeof entry.at === 'string' && typeof entry.path === 'string') entries.push(entry);
      } catch {
        // A line cut short is no entry.
      }
    }
  }
  return entries;
}

function readPlainFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') return undefined;
    throw new LocalFileError(`cannot read the journal of changes ${file}: ${code ?? (error as Error).message}`, { code: 'journal', cause: error });
  }
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } finally {
    closeSync(fd);
  }
}
