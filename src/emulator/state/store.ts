/**
 * The sandbox's state file: a SQLite database (node:sqlite), so that a change writes what it
 * changed, not the account. Each slice of the state is a row of `members` holding its JSON, parsed
 * when a request first reads it; the slices that grow with the audience (contacts) are rows of
 * `rows`, one a record, found by id or by one of two keys through an index, so that a request
 * costs the same at 100,000 contacts as at ten.
 *
 * Every request is one transaction: a reader sees one state whole (the database is in WAL mode, so
 * readers never wait for the writer), and a writer holds the state file's lock (state.ts) as every
 * writer of the sandbox does, then SQLite's own. A process keeps what it read between requests and
 * reads again only once another connection has committed (`PRAGMA data_version`) or the file was
 * replaced or removed.
 */
import { closeSync, type FSWatcher, fsyncSync, lstatSync, openSync, renameSync, rmSync, type Stats, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { builtinModule } from '../../base/builtin.js';
import { LocalFileError } from '../../base/errors.js';
import { quietSqlite } from '../../base/sqlite.js';
import { type KeptRows, keepRowsIn, type RowKind, type StateCore } from '../module.js';
import { BUSY_WAIT_MS, beginWriting, hasTables, isDatabaseFile } from './opening.js';
import { ROW_SLICES, readOnUse, SliceRows, type Statement, unparsed } from './rows.js';

/** The part of node:sqlite the store uses. */
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (path: string) => Database;
}

/** node:sqlite, loaded on first use (quietly: see base/sqlite.ts). */
function sqliteModule(): Sqlite {
  const sqlite = quietSqlite() as unknown as Sqlite | undefined;
  if (sqlite === undefined)
    throw new LocalFileError(`the sandbox keeps its state with node:sqlite, which Node.js ${process.versions.node} does not have`, {
      hint: 'run loopsctl with Node.js 22.13 or later',
    });
  return sqlite;
}

/** What marks a database as a sandbox's state ("Loop" in ASCII), told apart from any other SQLite file. */
const APPLICATION_ID = 0x4c6f6f70;
/** The layout of the tables below: 2 added each row's place in its slice's queues. */
const LAYOUT = 2;
/** How many pages (4 KiB) of the write-ahead log a checkpoint waits for: a log of about 40 MB beside the file. */
const CHECKPOINT_PAGES = 10_000;

/** What layout 2 added to layout 1's table of rows: each row's place in its slice's queues. */
const PLACES = 'ALTER TABLE rows ADD COLUMN place TEXT';

/**
 * The indexes of the rows, by name. Most rows hold no second key (a contact without a userId) and
 * no place (any row but a journey's), and a look-up never asks for either as null: the indexes of
 * those leave such rows out, so that writing one changes two pages fewer. Indexes are no part of
 * the layout: a loopsctl that made them whole reads and writes the same tables through these, and
 * a file whose indexes differ from these has them made again at its first write.
 */
const INDEXES: Record<string, string> = {
  rows_by_id: 'CREATE INDEX rows_by_id ON rows (slice, id)',
  rows_by_key0: 'CREATE INDEX rows_by_key0 ON rows (slice, key0)',
  rows_by_key1: 'CREATE INDEX rows_by_key1 ON rows (slice, key1) WHERE key1 IS NOT NULL',
  rows_by_place: 'CREATE INDEX rows_by_place ON rows (slice, place) WHERE place IS NOT NULL',
};

const TABLES = `
  CREATE TABLE members (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE row_slices (key TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TABLE rows (position INTEGER PRIMARY KEY, slice TEXT NOT NULL, id TEXT NOT NULL, key0 TEXT NOT NULL, key1 TEXT, value TEXT NOT NULL);
  ${PLACES};
  ${Object.values(INDEXES).join(';\n  ')};
  PRAGMA user_version = ${LAYOUT};
  PRAGMA application_id = ${APPLICATION_ID};`;

/**
 * Brings a database up to date, within a write transaction (read as it is, it is changed at its
 * first write): a table of layout 1, then any index that is not as INDEXES says.
 */
function upToDate(database: Database): void {
  const layout = Number(database.prepare('SELECT user_version AS layout FROM pragma_user_version').get()!.layout);
  if (layout < LAYOUT) database.exec(`${PLACES}; PRAGMA user_version = ${LAYOUT}`);
  const made = new Map<string, string>();
  for (const { name, sql } of database.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'rows'").all())
    made.set(String(name), String(sql));
  for (const [name, sql] of Object.entries(INDEXES)) if (made.get(name) !== sql) database.exec(`DROP INDEX IF EXISTS ${name}; ${sql}`);
}

function openDatabase(file: string, refuse: (reason: string) => Error): Database {
  const database = new (sqliteModule().DatabaseSync)(file);
  try {
    database.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    const identity = database
      .prepare('SELECT (SELECT application_id FROM pragma_application_id) AS app, (SELECT user_version FROM pragma_user_version) AS layout')
      .get()!;
    if (Number(identity.app) !== APPLICATION_ID) throw refuse('it is a SQLite database, but not a sandbox state');
    if (Number(identity.layout) > LAYOUT) throw refuse(`it was written by a newer loopsctl (store layout ${identity.layout}; this one reads up to ${LAYOUT})`);
    // Readers never wait for the writer; a commit is made durable at the next checkpoint, not by a
    // sync of its own. A checkpoint syncs twice and copies each page once however often it was
    // written since: one every CHECKPOINT_PAGES pages of log rather than SQLite's 1,000.
    database.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    return database;
  } catch (error) {
    database.close();
    throw error;
  }
}

/**
 * How many writes after a loop's turn a process makes before it watches the file rather than
 * look at its path before each: a watch's first start costs about half a millisecond (Node loads
 * its watchers), a look about 3 µs. A server taking an import passes it in its first second; a
 * `--sandbox` command that writes a few times never does.
 */
export const WATCH_AFTER = 200;

/** A state read from a database, with what it was read as (to write only what changed). */
interface Held {
  state: StateCore;
  /** Each member's JSON as the database holds it. */
  texts: Map<string, string>;
  /** The row slices, by key. */
  rows: Map<string, SliceRows<object>>;
}

/**
 * A sandbox's state file held open by a process that serves it (a server, or a `--sandbox`
 * command's sandbox): the state read once and kept until another process changes the file.
 */
export class StateDatabase {
  private database: Database | undefined;
  private openedInode: number | undefined;
  /**
   * On Linux, a watch on the file opened: the kernel reports a change of its link count, so its
   * path replaced (renamed over) or removed, as well as a write to it. Until it reports something,
   * a write made after a turn of the event loop (which hears every report made before) needs no
   * look at the path.
   */
  private pathWatch: FSWatcher | undefined;
  private pathMayHaveChanged = true;
  private writesAfterTurns = 0;
  private dataVersion: unknown | undefined;
  private held: Held | undefined;
  /** The state of the transaction under way, if any. */
  private open: StateCore | undefined;
  private statements = new Map<string, Statement>();
  /** Whether the database opened is of the current layout (brought up to date at its first write). */
  private upToDate = false;

  constructor(
    readonly file: string,
    private readonly how: {
      /** What a file that is no database is read as (JSON of an older loopsctl, read whole); undefined when there is none. */
      readOther(): StateCore | undefined;
      /** The state a missing file starts from. */
      startOver(): StateCore;
      /** Checks a state as read (its layout), and has its slices checked on first use. */
      prepare(state: StateCore): void;
      /** Writes the whole state as a new database, holding the state file's lock. */
      writeWhole(state: StateCore): void;
      /** Runs fn holding the state file's lock: a write to a file that is no database yet. */
      locked<T>(fn: () => T): T;
      /** What a file or a row that cannot be used throws. */
      refuse(reason: string): Error;
    },
  ) {}

  /**
   * Runs `fn` on the state as the file holds it now, in one transaction; a `write` one holds the
   * database's write lock (SQLite's, which every writer of the file takes), and ends with `save`
   * when `fn` changed the state. With no database yet, a write holds the state file's lock instead,
   * as the file is then made whole. `afterTurn`: the event loop has turned since the request came,
   * so that a watch has reported any change of the path made before it (see pathWatch).
   */
  transaction<T>(write: boolean, fn: (state: StateCore) => T, afterTurn = false): T {
    // Within one already (the sandbox's clock read while a change is made): the same state.
    if (this.open !== undefined) return fn(this.open);
    const database = this.opened(write && afterTurn);
    if (database === undefined) {
      // No database (none yet, or a file of another kind): the state is read whole, and a save writes a database.
      this.held = undefined;
      const whole = () => {
        this.open = this.how.readOther() ?? this.how.startOver();
        try {
          return fn(this.open);
        } finally {
          this.open = undefined;
        }
      };
      if (!write) return whole();
      // Another process may have made the database while this one waited for the lock: it is then the state.
      return this.how.locked(() => (this.opened(false) === undefined ? whole() : this.transaction(true, fn)));
    }
    if (write) beginWriting(database);
    else database.exec('BEGIN');
    try {
      if (write && !this.upToDate) {
        upToDate(database);
        this.upToDate = true;
      }
      const version = this.statement('PRAGMA data_version').get()!.data_version!;
      if (version !== this.dataVersion) this.held = undefined;
      this.dataVersion = version;
      this.held ??= this.read();
      this.open = this.held.state;
      const result = fn(this.held.state);
      database.exec('COMMIT');
      for (const rows of this.held?.rows.values() ?? []) rows.letGo();
      return result;
    } catch (error) {
      database.exec('ROLLBACK');
      // What fn did to the state held is not in the file.
      this.held = undefined;
      throw error;
    } finally {
      this.open = undefined;
    }
  }

  /** Writes what changed in `state` since it was read, within a write transaction. */
  save(state: StateCore): void {
    if (this.database === undefined || this.held?.state !== state) {
      this.how.writeWhole(state);
      this.forget();
      return;
    }
    writeChanges(this.held, (sql) => this.statement(sql), true);
  }

  /** Forgets the state held: the next transaction reads the file again. */
  forget(): void {
    this.held = undefined;
  }

  close(): void {
    this.stopWatching();
    this.database?.close();
    this.database = undefined;
    this.statements.clear();
    this.held = undefined;
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) this.statements.set(sql, (statement = this.database!.prepare(sql)));
    return statement;
  }

  /**
   * The database, opened again when the file was replaced; undefined when the file is missing or
   * no database. The path is looked at unless `watched` and the watch has reported nothing since.
   */
  private opened(watched: boolean): Database | undefined {
    if (watched) this.writesAfterTurns += 1;
    if (watched && this.pathWatch !== undefined && !this.pathMayHaveChanged) return this.database;
    let found: Stats | undefined;
    try {
      found = lstatSync(this.file);
    } catch {
      found = undefined;
    }
    if (this.database !== undefined && found?.ino === this.openedInode) {
      this.pathMayHaveChanged = false;
      if (watched && this.pathWatch === undefined && this.writesAfterTurns >= WATCH_AFTER) this.watchPath(found!);
      return this.database;
    }
    this.close();
    if (found === undefined || !isDatabaseFile(this.file)) return undefined;
    this.database = openDatabase(this.file, this.how.refuse);
    this.upToDate = false;
    this.openedInode = found.ino;
    this.dataVersion = undefined;
    return this.database;
  }

  /** Watches the file opened, on Linux (whose reports are those pathWatch reads), where its path is no symlink. */
  private watchPath(found: Stats): void {
    if (process.platform !== 'linux' || found.isSymbolicLink()) return;
    try {
      this.pathWatch = watch(this.file, { persistent: false }, () => (this.pathMayHaveChanged = true));
      this.pathWatch.on('error', () => this.stopWatching());
      // The file replaced between the look and the watch: the watch is on the new one, not the one open.
      if (lstatSync(this.file).ino !== this.openedInode) this.stopWatching();
    } catch {
      // Without a watch, each write looks at the path.
      this.stopWatching();
    }
  }

  /** Ends the watch, if any: until one starts again, each write looks at the path. */
  private stopWatching(): void {
    this.pathWatch?.close();
    this.pathWatch = undefined;
    this.pathMayHaveChanged = true;
  }

  private read(): Held {
    const held = readHeld((sql) => this.statement(sql), this.how.refuse);
    this.how.prepare(held.state);
    return held;
  }
}

/** The state a database holds: each member parsed on first use, each row slice read a row at a time. */
function readHeld(statement: (sql: string) => Statement, refuse: (reason: string) => Error): Held {
  const state = {} as StateCore;
  const texts = new Map<string, string>();
  for (const { key, value } of statement('SELECT key, value FROM members').all()) {
    const text = String(value);
    texts.set(String(key), text);
    readOnUse(state, String(key), () => parseMember(String(key), text, refuse));
  }
  const held: Held = { state, texts, rows: new Map() };
  for (const { key } of statement('SELECT key FROM row_slices').all()) {
    const rows = new SliceRows(String(key), statement, state, refuse);
    held.rows.set(String(key), rows);
    rows.unload();
  }
  keepRowsIn(state, {
    rows: <T extends object>(kind: RowKind<T>) => held.rows.get(kind.key)?.bind(kind as RowKind<object>) as KeptRows<T> | undefined,
  });
  return held;
}

/** A member's JSON parsed; text that does not parse makes the file unusable, said as such. */
function parseMember(key: string, text: string, refuse: (reason: string) => Error): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw refuse(`${key}: it is not valid JSON`);
  }
}

/**
 * How many ids a process that keeps the state takes ahead. The file's counter (the member
 * `sequence`) is written a block past the ids handed out, so that a run of creates writes it once a
 * block rather than at each commit (a page of the log each). No id handed out is above the file's
 * counter; a process that reads the file again goes on from there, and the rest of its block is
 * never used.
 */
export const SEQUENCE_BLOCK = 64;

/**
 * Writes the members that changed, and each row slice's changes, into the open transaction; with
 * `idsAhead`, the state's counter of ids a block ahead (SEQUENCE_BLOCK).
 */
function writeChanges(held: Held, statement: (sql: string) => Statement, idsAhead: boolean): void {
  const { state, texts } = held;
  const upsert = statement('INSERT INTO members (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const present = new Set<string>();
  for (const key of Object.keys(state)) {
    const rows = held.rows.get(key);
    if (rows !== undefined) {
      present.add(key);
      rows.flush();
      continue;
    }
    if (unparsed(state, key)) {
      present.add(key);
      continue;
    }
    const value = state[key];
    if (Object.hasOwn(ROW_SLICES, key) && (Array.isArray(value) || ROW_SLICES[key]!.rowsOf !== undefined)) {
      // A row slice a file held as a member (or not at all), or in the member's layout before: from now on, rows.
      const rows = new SliceRows<object>(key, statement, state, (reason) => new Error(reason));
      held.rows.set(key, rows);
      statement('INSERT OR IGNORE INTO row_slices (key) VALUES (?)').run(key);
      statement('DELETE FROM members WHERE key = ?').run(key);
      texts.delete(key);
      present.add(key);
      rows.flush();
      continue;
    }
    let text = JSON.stringify(value) as string | undefined;
    if (text === undefined) continue;
    present.add(key);
    if (texts.get(key) === text) continue;
    if (idsAhead && key === ('sequence' satisfies keyof StateCore) && typeof value === 'number') {
      if (Number(texts.get(key)) >= value) continue;
      text = String(value + SEQUENCE_BLOCK);
    }
    upsert.run(key, text);
    texts.set(key, text);
  }
  // What is present is held (a member's text or a slice's rows): as many of each, none is gone.
  if (present.size === texts.size + held.rows.size) return;
  for (const key of [...texts.keys()])
    if (!present.has(key)) {
      statement('DELETE FROM members WHERE key = ?').run(key);
      texts.delete(key);
    }
  for (const [key, rows] of [...held.rows])
    if (!present.has(key)) {
      rows.drop();
      held.rows.delete(key);
    }
}

/**
 * The state a database file holds, for a command that reads it once: each member, and each row
 * slice as an array, parsed when first read.
 */
export function readDatabase(file: string, refuse: (reason: string) => Error): StateCore {
  const database = openDatabase(file, refuse);
  try {
    database.exec('BEGIN');
    const state = {} as StateCore;
    for (const { key, value } of database.prepare('SELECT key, value FROM members').all())
      readOnUse(state, String(key), () => parseMember(String(key), String(value), refuse));
    const rowsOf = database.prepare('SELECT value FROM rows WHERE slice = ? ORDER BY position');
    for (const { key } of database.prepare('SELECT key FROM row_slices').all()) {
      // The rows' text, read now while the database is open, each row parsed when the slice is first used (never joined: no text is that long).
      const texts = rowsOf.all(key).map(({ value }) => String(value));
      readOnUse(state, String(key), () => {
        const all = texts.map((text, index) => parseMember(`${String(key)} (row ${index + 1})`, text, refuse) as Record<string, unknown>);
        return ROW_SLICES[String(key)]?.fromRows?.(all) ?? all;
      });
    }
    database.exec('COMMIT');
    return state;
  } finally {
    database.close();
  }
}

/**
 * Writes the whole state as the file's content: in place, in one transaction, when the file is a
 * sandbox's database that can take it (a server holding it open sees the change at its next
 * request); else as a new database (0600) made beside it and renamed over it, which replaces
 * whatever was there, a symlink, a database missing a table or a damaged one included. To be
 * called holding the state file's lock.
 */
export function writeDatabase(file: string, state: StateCore): void {
  if (isDatabaseFile(file) && writtenInPlace(file, state)) return;
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${builtinModule('node:crypto').randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, '', { mode: 0o600, flag: 'wx' });
    const database = new (sqliteModule().DatabaseSync)(temporary);
    try {
      // No process reads the file before it is renamed into place, and one that stops before leaves
      // it unused: no journal, nor SQLite's syncs (eight), but one of the whole file below.
      database.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN; ${TABLES}`);
      writeWhole(database, state);
      database.exec('COMMIT');
      // Recorded in the file, so that no process opening it has to change it (which takes the database whole).
      database.exec('PRAGMA journal_mode = WAL');
    } finally {
      database.close();
    }
    syncFile(temporary);
    // A journal left beside the path by a database that was there would be read with the new one.
    for (const leftover of [`${file}-wal`, `${file}-shm`, `${file}-journal`]) rmSync(leftover, { force: true });
    renameSync(temporary, file);
  } catch (error) {
    for (const leftover of ['', '-journal', '-wal', '-shm']) rmSync(`${temporary}${leftover}`, { force: true });
    throw error;
  }
}

/** SQLite's primary result codes that say the database is busy or the disk failed: replacing the file would not mend them, and would lose another writer's work. */
const NOT_MENDED_BY_REPLACING = new Set([5 /* BUSY */, 6 /* LOCKED */, 10 /* IOERR */, 13 /* FULL */]);

/**
 * Writes the whole state into the sandbox's database at the path, in place, in one transaction;
 * false when the file cannot take it (not a sandbox's state, a table missing, damaged), which is
 * then replaced whole.
 */
function writtenInPlace(file: string, state: StateCore): boolean {
  let database: Database;
  try {
    database = openDatabase(file, (reason) => new Error(reason));
  } catch {
    return false;
  }
  try {
    // A sandbox's database that lost a table (a person's edit, another program's) is replaced.
    if (!hasTables(database)) return false;
    database.exec('BEGIN IMMEDIATE');
    try {
      upToDate(database);
      database.exec('DELETE FROM members; DELETE FROM rows; DELETE FROM row_slices');
      writeWhole(database, state);
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
    return true;
  } catch (error) {
    const code = (error as { errcode?: number }).errcode;
    if (code !== undefined && NOT_MENDED_BY_REPLACING.has(code & 0xff)) throw error;
    return false;
  } finally {
    database.close();
  }
}

/** Makes what was written to a file durable before it is renamed into place. */
function syncFile(file: string): void {
  const descriptor = openSync(file, 'r+');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

function writeWhole(database: Database, state: StateCore): void {
  const held: Held = { state: {} as StateCore, texts: new Map(), rows: new Map() };
  // Written as a change from nothing: every member and every row is new.
  for (const key of Object.keys(state)) held.state[key] = state[key];
  writeChanges(held, (sql) => database.prepare(sql), false);
}
