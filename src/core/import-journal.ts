/**
 * The journal of a bulk import: what each record of the input became, written as it happens, so
 * that a run stopped at any point (even by kill -9) resumes without sending a finished record again.
 *
 * It is JSON Lines: a header `{"journal": "loopsctl-import", "version", "kind", "runId", ...}`, then
 * for each record a `sending` line before its request goes out and an outcome line once it
 * completes, each with the record's number (`n`, from 1 in input order), the line it starts on and
 * a digest of its content (`d`). A record is skipped on resume only when its number and digest
 * both match a finished one: a journal meets an input that is not the one it was written for (a
 * record deleted, another stdin) and is refused, never taken for done.
 *
 * One run at a time: a run holds a lock the kernel releases when the process ends, however it
 * ends, named after the file's identity (device and inode), so two runs on one journal (whatever
 * path names it) can never both send. The file is opened without following a symlink and must be
 * a regular file, as the config file is.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, lstatSync, openSync, readSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileError, OutputError } from '../base/errors.js';
import { writeWholeSync } from '../base/write-whole.js';
import { sha256Hex } from './sha256.js';

const JOURNAL_MARK = 'loopsctl-import';
/** 2: records carry a digest of their content, and keys are made from it. */
const JOURNAL_VERSION = 2;

export type Status = 'created' | 'updated' | 'sent' | 'skipped' | 'excluded' | 'failed';

export interface Outcome {
  status: Status;
  /** Why it failed or was skipped; the API's message for a refusal. */
  message?: string;
  /** The exit code a failure stands for (5 for a refusal, 2 for an invalid record). */
  exitCode?: number;
  /** What the API returned that is worth keeping (a contact's id). */
  id?: string;
  /**
   * A failure after which the API may still have acted (a 5xx to a create that is not retried): a
   * rerun takes the record as one in flight, and looks before sending it again.
   */
  mayHaveSent?: boolean;
}

/** A record as the journal names it: its number, the line it starts on, the digest of its content. */
export interface JournalRecord {
  n: number;
  line: number;
  digest: string;
}

/** The digest the journal keeps of a record's content: 48 bits, enough to tell two inputs apart. */
export function recordDigest(source: string): string {
  return sha256Hex(source).slice(0, 12);
}

const NONE = 0;
const SENDING = 1;
const FINISHED = 2;
const FAILED = 3;

/**
 * What an earlier run left for each record number: its last state and digest, in two growing typed
 * arrays (9 bytes a record), which is all a resume needs; nothing is kept of this run's records.
 */
class RecordStates {
  private states = new Uint8Array(1024);
  private digests = new Float64Array(1024);

  set(n: number, state: number, digest: string): void {
    if (n >= this.states.length) {
      let size = this.states.length;
      while (size <= n) size *= 2;
      const states = new Uint8Array(size);
      states.set(this.states);
      const digests = new Float64Array(size);
      digests.set(this.digests);
      this.states = states;
      this.digests = digests;
    }
    this.states[n] = state;
    this.digests[n] = Number.parseInt(digest, 16);
  }

  get(n: number): { state: number; digest: number } {
    return n < this.states.length ? { state: this.states[n]!, digest: this.digests[n]! } : { state: NONE, digest: 0 };
  }
}

/** What the journal says of a record about to be sent. */
export type Earlier = 'new' | 'done' | 'in-flight' | 'failed';

export class Journal {
  private readonly earlier = new RecordStates();

  private constructor(
    readonly path: string,
    readonly runId: string,
    private fd: number | undefined,
    private lock: Server | undefined,
    /** Whether it is kept in its file; one that is not keeps nothing (a run whose writes are held for a person's question). */
    private readonly kept = true,
  ) {}

  /**
   * A journal of a run whose writes are held for a person to be asked about (src/core/write-path.ts):
   * each record is tried, so that its write is held, and nothing is kept, since nothing is sent.
   */
  static unkept(path: string): Journal {
    return new Journal(path, randomBytes(12).toString('hex'), undefined, undefined, false);
  }

  /** Opens the journal for a run, locked: reads what an earlier run recorded, or starts a new one. */
  static async open(path: string, kind: string, input: string, now: Date): Promise<Journal> {
    const fd = openJournal(path);
    let lock: Server | undefined;
    try {
      lock = await lockJournal(path, fd);
      const size = fstatSync(fd).size;
      if (size === 0) {
        const journal = new Journal(path, randomBytes(12).toString('hex'), fd, lock);
        journal.append({ journal: JOURNAL_MARK, version: JOURNAL_VERSION, kind, runId: journal.runId, input, startedAt: now.toISOString() });
        return journal;
      }
      return Journal.read(path, fd, lock, kind, size);
    } catch (error) {
      lock?.close();
      closeSync(fd);
      throw error;
    }
  }

  private static read(path: string, fd: number, lock: Server, kind: string, size: number): Journal {
    let journal: Journal | undefined;
    /** Where the last whole line ends: a line cut short after it is dropped. */
    let whole = 0;
    let torn: { start: number; text: string } | undefined;
    for (const { start, end, text } of fileLines(fd, size)) {
      if (torn !== undefined) throw unusableJournal(path, `line ${lineNumberAt(fd, torn.start)} is not JSON`);
      let entry: Record<string, unknown>;
      try {
        entry = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        // Only the last line may be broken: a write cut short by a crash.
        torn = { start, text };
        continue;
      }
      whole = end;
      if (text.trim() === '') continue;
      if (journal === undefined) {
        if (entry.journal !== JOURNAL_MARK || typeof entry.runId !== 'string') throw unusableJournal(path, 'it is not a loopsctl import journal');
        if (entry.version !== JOURNAL_VERSION)
          throw unusableJournal(
            path,
            `it was written by another version of loopsctl (journal version ${String(entry.version)})`,
            'finish the import with the version that started it',
          );
        if (entry.kind !== kind) throw unusableJournal(path, `it was written by \`${String(entry.kind)} import\`, not by \`${kind} import\``);
        journal = new Journal(path, entry.runId, fd, lock);
        continue;
      }
      // Each record takes a line of its own, so a number beyond the file's size was not written by loopsctl.
      if (typeof entry.n === 'number' && entry.n > size) throw unusableJournal(path, `line ${lineNumberAt(fd, start)} names record ${entry.n}`);
      journal.replay(entry);
    }
    if (journal === undefined) throw unusableJournal(path, 'it is not a loopsctl import journal');
    // A crash mid-write leaves part of a line: it is cut off, and the record it was about is sent
    // again under the same key, or found done by the API.
    if (whole < size) ftruncateSync(fd, whole);
    // A whole entry whose line end was lost gets it back, so the next entry starts a line.
    else if (!endsWithNewline(fd, size)) journal.appendText('\n');
    return journal;
  }

  private replay(entry: Record<string, unknown>): void {
    const { n, d } = entry;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || typeof d !== 'string' || !/^[0-9a-f]{12}$/.test(d)) return;
    const state = entry.status === 'sending' || entry.mayHaveSent === true ? SENDING : entry.status === 'failed' ? FAILED : FINISHED;
    this.earlier.set(n, state, d);
  }

  /**
   * What an earlier run did with the record. A record finished (or sent) under another content
   * means the input is not the one the journal was written for: the run stops, exit 2. A failed
   * record may have been fixed in place, and is tried again.
   */
  check(record: JournalRecord): Earlier {
    const { state, digest } = this.earlier.get(record.n);
    if (state === NONE) return 'new';
    if (state === FAILED) return 'failed';
    if (digest !== Number.parseInt(record.digest, 16)) {
      throw new LocalFileError(`the journal ${this.path} does not match its input: record ${record.n} (line ${record.line}) is not the one it recorded`, {
        hint: 'a journal goes with the input it was written for, records neither removed nor reordered; give another file with --journal to import this input anew',
      });
    }
    return state === SENDING ? 'in-flight' : 'done';
  }

  sending(record: JournalRecord): void {
    this.appendText(`${recordFields(record)},"status":"sending"}\n`);
  }

  outcome(record: JournalRecord, outcome: Outcome): void {
    const id = outcome.id === undefined ? '' : `,"id":${JSON.stringify(outcome.id)}`;
    const message = outcome.message === undefined ? '' : `,"message":${JSON.stringify(outcome.message)}`;
    const maybe = outcome.mayHaveSent === true ? ',"mayHaveSent":true' : '';
    this.appendText(`${recordFields(record)},"status":${JSON.stringify(outcome.status)}${id}${message}${maybe}}\n`);
  }

  private append(entry: object): void {
    this.appendText(`${JSON.stringify(entry)}\n`);
  }

  /** Written whole: a write the OS cuts short is continued. */
  private appendText(text: string): void {
    if (!this.kept) return;
    try {
      writeWholeSync(this.fd!, text, this.path);
    } catch (error) {
      throw new OutputError(`cannot write to the journal ${this.path}: ${(error as Error).message}`);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
      this.lock?.close();
      this.lock = undefined;
    }
  }
}

/**
 * A record's line up to its status, as JSON.stringify writes {n, line, d}: the two lines of each
 * record are put together from their parts, not from objects made to be written out.
 */
function recordFields(record: JournalRecord): string {
  return `{"n":${record.n},"line":${record.line},"d":${JSON.stringify(record.digest)}`;
}

/** The journal, created 0600 when missing; never through a symlink, and only a regular file. */
function openJournal(path: string): number {
  let fd: number;
  try {
    // Where O_NOFOLLOW is missing (Windows), a look first stands in for it.
    if (constants.O_NOFOLLOW === undefined && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink())
      throw Object.assign(new Error('it is a symbolic link'), { code: 'ELOOP' });
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link' : (error as Error).message;
    throw new LocalFileError(`cannot open the journal ${path}: ${reason}`, { hint: 'choose another place with --journal <file>' });
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new LocalFileError(`cannot open the journal ${path}: it is not a regular file`, { hint: 'choose another place with --journal <file>' });
  }
  return fd;
}

/**
 * Holds the journal for this process: a socket bound to a name made from the file's identity,
 * which the kernel frees when the process ends (abstract on Linux, a pipe on Windows; elsewhere a
 * socket file in the temporary directory, taken over when nobody answers on it).
 */
async function lockJournal(path: string, fd: number): Promise<Server> {
  const { dev, ino } = fstatSync(fd);
  const name = `loopsctl-journal-${sha256Hex(`${dev}:${ino}`).slice(0, 32)}`;
  const address = process.platform === 'linux' ? `\0${name}` : process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : join(tmpdir(), `${name}.sock`);
  const inUse = () =>
    new LocalFileError(`the journal ${path} is in use by another run`, {
      hint: 'wait for that run to finish; one run at a time keeps a record from being sent twice',
    });
  try {
    return await listen(address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw new LocalFileError(`cannot lock the journal ${path}: ${(error as Error).message}`);
    if (address.startsWith('\0') || address.startsWith('\\\\') || (await answers(address))) throw inUse();
    // A socket file left by a run that is gone.
    unlinkSync(address);
    try {
      return await listen(address);
    } catch {
      throw inUse();
    }
  }
}

function listen(address: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      // The lock never keeps the process alive.
      server.unref();
      resolve(server);
    });
  });
}

function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The file's lines with where each starts and ends (after its newline); the last may have none. */
function* fileLines(fd: number, size: number): Generator<{ start: number; end: number; text: string }> {
  const chunk = Buffer.alloc(64 * 1024);
  let pending = Buffer.alloc(0);
  let pendingStart = 0;
  for (let position = 0; position < size; ) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
    if (read === 0) break;
    position += read;
    let data = Buffer.concat([pending, chunk.subarray(0, read)]);
    let start = pendingStart;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      yield { start, end: start + newline + 1, text: data.subarray(0, newline).toString('utf8') };
      start += newline + 1;
      data = data.subarray(newline + 1);
    }
    pending = Buffer.from(data);
    pendingStart = start;
  }
  if (pending.length > 0) yield { start: pendingStart, end: pendingStart + pending.length, text: pending.toString('utf8') };
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** The line number at a byte offset, for a message. */
function lineNumberAt(fd: number, offset: number): number {
  let count = 1;
  for (const { end } of fileLines(fd, offset)) if (end <= offset) count += 1;
  return count;
}

function unusableJournal(path: string, reason: string, hint = 'give another file with --journal, or move this one away to start over'): LocalFileError {
  return new LocalFileError(`the journal ${path} cannot be used: ${reason}`, { hint });
}
