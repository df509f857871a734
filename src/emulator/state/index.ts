/**
 * Everything a sandbox account holds, and the file that keeps it between runs: a SQLite database
 * (state/store.ts), changed a transaction at a time, so that a crash leaves the state before a
 * change or after it, never half of it. A file of an older loopsctl (the state as JSON) is read
 * whole, and becomes a database at the first change.
 */
import { closeSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { LocalFileError } from '../../base/errors.js';
import { parseJson, UnusableFileError } from '../../base/json-file.js';
import { lazily } from '../../base/lazily.js';
import { type LockOptions, LockTimeoutError, withFileLock } from '../../base/lock.js';
import { ensureDirectory, inKeptDirectory } from '../../base/private-dir.js';
import { z } from '../../base/shapes.js';
import { checkSlicesOnUse, type SandboxModule, type SeedKind, type StateCore } from '../module.js';
import { isDatabaseFile, openIfRegular } from './opening.js';
import { readDatabase, StateDatabase, writeDatabase } from './store.js';

/**
 * The version of the state file's layout. Version 1 files hold the same slices under the same
 * keys; a slice an older file lacks (an area added since) is filled in from the seed.
 */
export const STATE_VERSION = 2;

/**
 * The state's own members. A state that has them right, as every state loopsctl wrote has, is
 * checked without zod, whose schema (its integer check a class of its own that a start would set
 * up for this alone) is made only to word what is wrong with one that has not.
 */
const stateCore = lazily(() =>
  z.object({
    version: z.int(),
    teamName: z.string(),
    sequence: z.int().check(z.nonnegative()),
  }),
);

/** What is wrong with a state's own members, in zod's words; undefined when nothing is. */
function coreProblem(stored: StateCore): string | undefined {
  if (Number.isInteger(stored.version) && typeof stored.teamName === 'string' && Number.isInteger(stored.sequence) && stored.sequence >= 0) return undefined;
  const core = stateCore().safeParse({ version: stored.version, teamName: stored.teamName, sequence: stored.sequence });
  if (core.success) return undefined;
  const issue = core.error.issues[0]!;
  return `${issue.path.join('.')}: ${issue.message}`;
}

/** A new state: the team, and the seed its slices come from when first used. */
export function seedCore(seed: SeedKind = 'demo'): StateCore {
  return { version: STATE_VERSION, teamName: 'Acme Sandbox', sequence: 0, seed };
}

/** A fresh copy of a seed (the demo data unless told otherwise), safe to change, every slice of `modules` in it. */
export function seedState(modules: SandboxModule[], seed: SeedKind = 'demo'): StateCore {
  const state = seedCore(seed);
  for (const module of modules) for (const part of module.slices) state[part.key] = seed === 'empty' ? part.empty() : part.seed();
  return state;
}

const STATE_FILE_NAME = 'sandbox-state.db';
/** Where loopsctl before the database kept the state, as JSON: read (and removed) when no database is there yet. */
const JSON_STATE_FILE_NAME = 'sandbox-state.json';

export function defaultStatePath(configDir: string): string {
  return join(configDir, STATE_FILE_NAME);
}

/** The JSON file of an older loopsctl that stands in for a default database not made yet. */
function olderFileOf(file: string): string | undefined {
  return basename(file) === STATE_FILE_NAME ? join(dirname(file), JSON_STATE_FILE_NAME) : undefined;
}

/** Whether there is a state to read: the file, or the older JSON file a default database stands in for. */
export function stateFileExists(file: string): boolean {
  const older = olderFileOf(file);
  return existsSync(file) || (older !== undefined && existsSync(older));
}

/**
 * Reads a state file, or returns undefined when there is none. An older layout is brought up to
 * date; one that cannot be (a newer loopsctl's, or a slice of the wrong shape) is refused. The
 * slices of `modules` are checked now (a slice a file lacks taken from the seed); without
 * modules, each slice is checked when a route first uses it (checkSlicesOnUse).
 */
export function readState(file: string, modules?: SandboxModule[]): StateCore | undefined {
  const read = isDatabaseFile(file) ? { state: inDatabase(file, () => readDatabase(file, refusal(file))), source: file } : readJsonState(file);
  if (read === undefined) return undefined;
  const stored = read.state;
  prepareState(stored, refusal(read.source));
  for (const part of (modules ?? []).flatMap((module) => module.slices)) part.of(stored);
  return stored;
}

/** What a database's own errors (a damaged file) mean: the file cannot be read. */
function inDatabase<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof LocalFileError) throw error;
    throw unusableState(file, error instanceof Error ? error.message : String(error));
  }
}

/** A state kept as JSON (by an older loopsctl, or by hand), read whole; the older default file (whatever it holds) for a default database not made yet. */
function readJsonState(file: string): { state: StateCore; source: string } | undefined {
  const older = olderFileOf(file);
  const source = !existsSync(file) && older !== undefined && existsSync(older) ? older : file;
  // A database under the older name (copied there by hand): read as the database it is.
  if (source !== file && isDatabaseFile(source)) return { state: inDatabase(source, () => readDatabase(source, refusal(source))), source };
  try {
    const bytes = readStateBytes(source);
    if (bytes === undefined) return undefined;
    const parsed = parseJson(bytes);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UnusableFileError('the file: it is not a JSON object');
    const stored = parsed as Record<string, unknown>;
    // The member that said where the others were, in the layout of the files before the database.
    delete stored.index;
    return { state: stored as StateCore, source };
  } catch (error) {
    if (error instanceof UnusableFileError) throw unusableState(source, error.message);
    throw error;
  }
}

/** A state file's bytes, or undefined when there is none: read only once it is known to be a regular file (openIfRegular). */
function readStateBytes(file: string): Buffer | undefined {
  let opened: number | string | undefined;
  try {
    opened = openIfRegular(file);
  } catch (error) {
    throw new UnusableFileError((error as Error).message, { cause: error });
  }
  if (typeof opened === 'string') throw new UnusableFileError(`it is ${opened}, not a file`);
  if (opened === undefined) return undefined;
  try {
    return readFileSync(opened);
  } finally {
    closeSync(opened);
  }
}

/** Checks a state's own members and layout, brings an older layout up to date, and has its slices checked on first use. */
function prepareState(stored: StateCore, refuse: (reason: string) => Error): void {
  const problem = coreProblem(stored);
  if (problem !== undefined) throw refuse(problem);
  if (stored.version > STATE_VERSION) throw refuse(`it was written by a newer loopsctl (layout ${stored.version}; this one reads up to ${STATE_VERSION})`);
  if (stored.version < 1) throw refuse(`layout ${stored.version} is not one loopsctl ever wrote`);
  stored.version = STATE_VERSION;
  checkSlicesOnUse(stored, refuse);
}

/**
 * Writes the whole state as the file's content (0600), holding the state file's lock (withStateLock). A missing
 * directory is created 0700; an existing one (the current directory, for `--state ./file.db`) is
 * left as it is. The JSON file of an older loopsctl that it stands in for is removed.
 */
export function writeState(file: string, state: StateCore): void {
  inKeptDirectory(dirname(file), () => {
    ensureDirectory(dirname(file));
    inDatabase(file, () => writeDatabase(file, state));
    const older = olderFileOf(file);
    if (older !== undefined) rmSync(older, { force: true });
  });
}

/**
 * The state file held open by a process that serves it: each request a transaction, the state
 * kept between requests until another process changes the file. A missing file starts from
 * `startOver`, and is made at the first change.
 */
export function openStateFile(file: string, startOver: () => StateCore): StateDatabase {
  const refuse = refusal(file);
  return new StateDatabase(file, {
    readOther: () => {
      const read = readJsonState(file);
      if (read !== undefined) prepareState(read.state, refusal(read.source));
      return read?.state;
    },
    startOver,
    prepare: (state) => prepareState(state, refuse),
    writeWhole: (state) => writeState(file, state),
    locked: (fn) => withStateLock(file, fn),
    refuse,
  });
}

/** Runs a database's work, its own errors (a damaged file) said as the file being unusable. */
export function withStateDatabase<T>(database: StateDatabase, fn: () => T): T {
  return inDatabase(database.file, fn);
}

/**
 * Runs fn holding the state file's lock: wrap each read-modify-write of the file in it (readState,
 * change, writeState when something changed), so that several sandboxes sharing one file never
 * lose each other's changes. The lock file sits beside the state file, whose directory is created
 * if missing.
 */
export function withStateLock<T>(file: string, fn: () => T, options?: LockOptions): T {
  try {
    return inKeptDirectory(dirname(file), () => {
      ensureDirectory(dirname(file));
      return withFileLock(file, fn, options);
    });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    throw new LocalFileError(`the sandbox state file ${file} is locked: ${error.message}`, {
      cause: error,
      hint: `another sandbox is changing it; if none runs, remove ${error.lockFile}`,
    });
  }
}

function refusal(file: string): (reason: string) => LocalFileError {
  return (reason) => unusableState(file, reason);
}

/** A state file that cannot be read or written as it is, and why: `sandbox reset` starts it over. */
export class UnusableStateError extends LocalFileError {
  constructor(
    file: string,
    readonly reason: string,
  ) {
    super(`the sandbox state file ${file} could not be read: ${reason}`, { hint: 'start over from the seed data with `loopsctl sandbox reset`' });
  }
}

function unusableState(file: string, reason: string): LocalFileError {
  return new UnusableStateError(file, reason);
}
