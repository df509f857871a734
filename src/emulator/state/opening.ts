/**
 * How the sandbox's state file is opened: only once it is known to be a regular file, and never
 * waiting for a writer of a FIFO; and how a write takes SQLite's write lock, a wait a signal ends.
 * Each of these would otherwise hold the process past SIGTERM: a synchronous open or wait never
 * lets it hear one. And whether a database opened has the tables a write in place needs.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { signalsEndWait } from '../../base/blocking-wait.js';

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * The state's path opened to be read, only once it is known to be a regular file (stat, which
 * follows a link as the state's readers do), and even then without waiting for a writer
 * (O_NONBLOCK, where the system has it), should a FIFO be put there in between: a FIFO opened
 * would hold the process until a writer came, past a SIGTERM, which a synchronous open never lets
 * it hear. Its descriptor; what it is instead, in words, when it is no regular file; undefined
 * when there is nothing there.
 */
export function openIfRegular(file: string): number | string | undefined {
  let looked: Stats;
  try {
    looked = statSync(file);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
  if (!looked.isFile()) return kindOf(looked);
  const descriptor = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const opened = fstatSync(descriptor);
  if (opened.isFile()) return descriptor;
  closeSync(descriptor);
  return kindOf(opened);
}

/** What a path that is no regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/** Whether the file is a regular file that starts as every SQLite database does; false for JSON, an empty file, a FIFO or none. */
export function isDatabaseFile(file: string): boolean {
  let descriptor: number | undefined;
  try {
    const opened = openIfRegular(file);
    if (typeof opened !== 'number') return false;
    descriptor = opened;
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(descriptor, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** How long a connection waits for another's write lock (SQLite's busy timeout). */
export const BUSY_WAIT_MS = 5_000;
const SQLITE_BUSY = 5;

/**
 * Begins a write transaction, which takes SQLite's write lock: at once when no other connection
 * holds it, else waiting for it as the busy timeout says, a wait a signal ends (blocking-wait.ts).
 */
export function beginWriting(database: { exec(sql: string): void }): void {
  database.exec('PRAGMA busy_timeout = 0');
  try {
    database.exec('BEGIN IMMEDIATE');
    return;
  } catch (error) {
    if ((((error as { errcode?: number }).errcode ?? 0) & 0xff) !== SQLITE_BUSY) throw error;
  } finally {
    database.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
  }
  signalsEndWait(() => database.exec('BEGIN IMMEDIATE'));
}

/** The tables of a sandbox's state (state/store.ts's TABLES), with the columns the store writes. */
const TABLE_COLUMNS: Record<string, string[]> = {
  members: ['key', 'value'],
  row_slices: ['key'],
  rows: ['position', 'slice', 'id', 'key0', 'key1', 'value'],
};

/** Whether the database has every table the store writes, each with its columns (a layout-1 table of rows lacks its places, which upToDate adds). */
export function hasTables(database: { prepare(sql: string): { all(...parameters: string[]): Record<string, unknown>[] } }): boolean {
  const columns = database.prepare('SELECT name FROM pragma_table_info(?)');
  return Object.entries(TABLE_COLUMNS).every(([table, wanted]) => {
    const found = new Set(columns.all(table).map((column) => String(column.name)));
    return wanted.every((column) => found.has(column));
  });
}
