/**
 * Everything a sandbox account holds, and the file that keeps it between runs. The file is
 * replaced atomically (a temporary file renamed over it, see writeFileBytes), so a crash mid-write
 * leaves either the old state or the new one, never half of each.
 */
import { dirname, join } from 'node:path';
import { z } from '../base/shapes.js';
import { LocalFileError } from '../base/errors.js';
import { parseJson, readFileBytes, UnusableFileError, writeFileBytes } from '../base/json-file.js';
import { LockTimeoutError, withFileLock, type LockOptions } from '../base/lock.js';
import { ensureDirectory, inKeptDirectory } from '../base/private-dir.js';
import { checkSlicesOnUse, type SandboxModule, type SeedKind, type StateCore } from './module.js';
import { isIndexKey, membersOf, parseMember, stateBytes, type StoredMember } from './state-text.js';

/**
 * The version of the state file's layout. Version 1 files hold the same slices under the same
 * keys; a slice an older file lacks (an area added since) is filled in from the seed.
 */
export const STATE_VERSION = 2;

const stateCore = z.object({
  version: z.number().int(),
  teamName: z.string(),
  sequence: z.number().int().nonnegative(),
});

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

const STATE_FILE_NAME = 'sandbox-state.json';

export function defaultStatePath(configDir: string): string {
  return join(configDir, STATE_FILE_NAME);
}

/**
 * Reads a state file, or returns undefined when there is none. An older layout is brought up to
 * date; one that cannot be (a newer loopsctl's, or a slice of the wrong shape) is refused. The
 * slices of `modules` are checked now (a slice a file lacks taken from the seed); without
 * modules, each slice is parsed and checked when a route first uses it (see storedState and
 * checkSlicesOnUse), so a request pays only for the slices it reads.
 */
export function readState(file: string, modules?: SandboxModule[]): StateCore | undefined {
  return readStateAndBytes(file, modules)?.state;
}

/** What readState reads, with the bytes of the file it was read from. */
export function readStateAndBytes(file: string, modules?: SandboxModule[]): { state: StateCore; bytes: Buffer } | undefined {
  let read: { stored: StateCore; bytes: Buffer } | undefined;
  try {
    read = storedState(file);
  } catch (error) {
    if (error instanceof UnusableFileError) throw unusableState(file, error.message);
    throw error;
  }
  if (read === undefined) return undefined;
  const { stored, bytes } = read;
  if (stored.version > STATE_VERSION)
    throw unusableState(file, `it was written by a newer loopsctl (layout ${stored.version}; this one reads up to ${STATE_VERSION})`);
  if (stored.version < 1) throw unusableState(file, `layout ${stored.version} is not one loopsctl ever wrote`);
  stored.version = STATE_VERSION;
  checkSlicesOnUse(stored, (problem) => unusableState(file, problem));
  for (const part of (modules ?? []).flatMap((module) => module.slices)) part.of(stored);
  return { state: stored, bytes };
}

/** The members every request needs, parsed with the file; the slices wait for their first use. */
const CORE_KEYS = new Set(['version', 'teamName', 'sequence', 'seed']);

/**
 * From this size on, a file loopsctl wrote is parsed a slice at a time. A smaller one parses whole
 * in less time than proving it unchanged takes: loading node:crypto costs about 5 ms, as much as
 * parsing some 300 KB of state, and hashing costs a tenth of parsing.
 */
const PARSED_BY_SLICE_FROM_BYTES = 512 * 1024;

/**
 * The state a file holds. A large file as writeState wrote it (see state-text.ts) has its slices
 * parsed on first use; any other is parsed whole.
 */
function storedState(file: string): { stored: StateCore; bytes: Buffer } | undefined {
  const bytes = readFileBytes(file);
  if (bytes === undefined) return undefined;
  const members = bytes.length < PARSED_BY_SLICE_FROM_BYTES ? undefined : membersOf(bytes);
  let stored: Record<string, unknown>;
  if (members === undefined) {
    const parsed = parseJson(bytes);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UnusableFileError('the file: it is not a JSON object');
    stored = parsed as Record<string, unknown>;
    for (const key of Object.keys(stored)) if (isIndexKey(key)) delete stored[key];
  } else {
    stored = {};
    for (const member of members) {
      if (CORE_KEYS.has(member.key)) stored[member.key] = parseMember(member);
      else parseOnUse(stored, member);
    }
  }
  const core = stateCore.safeParse({ version: stored.version, teamName: stored.teamName, sequence: stored.sequence });
  if (!core.success) {
    const issue = core.error.issues[0]!;
    throw new UnusableFileError(`${issue.path.join('.')}: ${issue.message}`);
  }
  return { stored: stored as StateCore, bytes };
}

/** For each state read a slice at a time, its members not parsed yet: their bytes, and the accessor that parses them. */
const unparsedMembers = new WeakMap<object, Map<string, { value: Buffer; get: () => unknown }>>();

/** Makes the member a property that parses its bytes when first read (then an ordinary property), or takes a value set before that. */
function parseOnUse(state: Record<string, unknown>, member: StoredMember): void {
  let pending = unparsedMembers.get(state);
  if (pending === undefined) unparsedMembers.set(state, (pending = new Map()));
  const settle = (value: unknown) => {
    pending.delete(member.key);
    Object.defineProperty(state, member.key, { value, writable: true, enumerable: true, configurable: true });
  };
  const get = () => {
    const value = parseMember(member);
    settle(value);
    return value;
  };
  pending.set(member.key, { value: member.value, get });
  Object.defineProperty(state, member.key, { get, set: settle, enumerable: true, configurable: true });
}

/** The bytes of a member still as it was read, or undefined once it was parsed, set or removed. */
function unparsedBytes(state: StateCore, key: string): Buffer | undefined {
  const entry = unparsedMembers.get(state)?.get(key);
  return entry !== undefined && Object.getOwnPropertyDescriptor(state, key)?.get === entry.get ? entry.value : undefined;
}

/**
 * Writes the state (0600) under a temporary name beside the file, then renames it into place. A
 * missing directory is created 0700; an existing one (the current directory, for
 * `--state ./file.json`) is left as it is. Nothing is written when the file already holds this
 * state; returns whether it wrote. Slices never parsed since the read are written as they were read.
 */
export function writeState(file: string, state: StateCore): boolean {
  return saveState(file, state).wrote;
}

/** What writeState does, with the bytes the file then holds. */
export function saveState(file: string, state: StateCore): { wrote: boolean; bytes: Buffer } {
  return inKeptDirectory(dirname(file), () => {
    ensureDirectory(dirname(file));
    const bytes = stateBytes(state, (key) => unparsedBytes(state, key));
    return { wrote: writeFileBytes(file, bytes), bytes };
  });
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

function unusableState(file: string, reason: string): LocalFileError {
  return new LocalFileError(`the sandbox state file ${file} could not be read: ${reason}`, {
    hint: 'start over from the seed data with `loopsctl sandbox reset`',
  });
}
