/**
 * Everything a sandbox account holds, and the file that keeps it between runs. The file is
 * replaced atomically (a temporary file renamed over it, see writeJsonFile), so a crash mid-write
 * leaves either the old state or the new one, never half of each.
 */
import { dirname, join } from 'node:path';
import { z } from '../platform/schemas.js';
import { LocalFileError } from '../api/errors.js';
import { readJsonFile, UnusableFileError, writeJsonFile } from '../config/json-file.js';
import { LockTimeoutError, withFileLock, type LockOptions } from '../config/lock.js';
import { ensureDirectory, inKeptDirectory } from '../config/private-dir.js';
import { checkSlicesOnUse, type SandboxModule, type SeedKind, type StateCore } from './module.js';

/**
 * The version of the state file's layout. Version 1 files hold the same slices under the same
 * keys; a slice an older file lacks (an area added since) is filled in from the seed.
 */
export const STATE_VERSION = 2;

const stateCore = z.looseObject({
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
 * modules, each slice is checked when a route first uses it (see checkSlicesOnUse), so a request
 * pays only for the slices it reads.
 */
export function readState(file: string, modules?: SandboxModule[]): StateCore | undefined {
  let stored: StateCore | undefined;
  try {
    stored = readJsonFile(file, stateCore);
  } catch (error) {
    if (error instanceof UnusableFileError) throw unusableState(file, error.message);
    throw error;
  }
  if (stored === undefined) return undefined;
  if (stored.version > STATE_VERSION)
    throw unusableState(file, `it was written by a newer loopsctl (layout ${stored.version}; this one reads up to ${STATE_VERSION})`);
  if (stored.version < 1) throw unusableState(file, `layout ${stored.version} is not one loopsctl ever wrote`);
  stored.version = STATE_VERSION;
  checkSlicesOnUse(stored, (problem) => unusableState(file, problem));
  for (const part of (modules ?? []).flatMap((module) => module.slices)) part.of(stored);
  return stored;
}

/**
 * Writes the state (0600) under a temporary name beside the file, then renames it into place. A
 * missing directory is created 0700; an existing one (the current directory, for
 * `--state ./file.json`) is left as it is. Nothing is written when the file already holds this
 * state; returns whether it wrote.
 */
export function writeState(file: string, state: StateCore): boolean {
  return inKeptDirectory(dirname(file), () => {
    ensureDirectory(dirname(file));
    return writeJsonFile(file, state);
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
