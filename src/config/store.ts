/**
 * The config file: the named profiles, where each profile's key lives (in this file, or in the
 * system keychain, see keychain.ts), the team it was recorded with, and which profile commands
 * use by default. The file is readable by the user only (0600), in a directory only the user can
 * change. Every change is a read-modify-write under a lock file, so parallel `auth login` runs all
 * keep their keys; and every write is a new file renamed over the old one (see writeJsonFile), so a
 * crash leaves the old file or the new one, and a symlink planted at the path is replaced, never
 * written through. A file that is not what loopsctl wrote is reported and left alone, never
 * replaced. LOOPSCTL_CONFIG_DIR moves the directory.
 *
 * Profiles are kept in a Map: a name such as `__proto__` can neither reach an object's prototype
 * nor vanish when the file is read again; new names are also held to a plain alphabet.
 */
import { join } from 'node:path';
import { LocalFileError, UsageError } from '../base/errors.js';
import { readJsonFile, UnusableFileError, writeJsonFile } from '../base/json-file.js';
import { isJsonObject } from '../base/json-object.js';
import { type LockOptions, LockTimeoutError, withFileLock } from '../base/lock.js';
import { ensureDirectory, inKeptDirectory, unsafeDirectoryReason, unsafeFileReason } from '../base/private-dir.js';
import { madeOnUse, z } from '../base/shapes.js';
import { closeMatches } from '../base/suggest.js';

/** Where a profile's key lives. */
const KEY_STORAGES = ['file', 'keychain'] as const;
export type KeyStorage = (typeof KEY_STORAGES)[number];

/**
 * The file, with its profiles: made on first use, as a file that has them right, as every file
 * loopsctl wrote has, is read without zod (plainConfig). A command whose key is in this file would
 * otherwise set up five of zod's schema classes for them alone.
 */
export const storedConfig = madeOnUse(() =>
  z.looseObject({
    defaultProfile: z.optional(z.string()),
    profiles: z.optional(
      z.record(
        z.string(),
        z.looseObject({
          /** The key itself, for a profile whose key lives in this file. */
          apiKey: z.optional(z.string()),
          /** Absent in files written before the keychain was supported: the key is then in this file. */
          keyStorage: z.optional(z.enum(KEY_STORAGES)),
          /** The keychain entry's account name, for a profile whose key lives in the keychain. */
          keychainAccount: z.optional(z.string()),
          /** The team the key belonged to at `auth login` (or `auth status --record-team`): the one its writes must go to. */
          teamName: z.optional(z.string()),
          /** Commands that change the account are refused under this profile, unless a run says --allow-writes. */
          readOnly: z.optional(z.boolean()),
          /** The API's address the key was logged in at (`auth login --base-url`): where the profile's commands go unless a run names another. */
          baseUrl: z.optional(z.string()),
        }),
      ),
    ),
  }),
);
/** A profile as the file holds it. */
export type StoredProfile = NonNullable<z.infer<typeof storedConfig>['profiles']>[string];

/** The string fields of a stored profile. */
const PROFILE_STRINGS = ['apiKey', 'keychainAccount', 'teamName', 'baseUrl'] as const;

/**
 * Whether a config file's value is one storedConfig takes, told without zod; false for anything
 * else, which the schema then refuses, in its words (test/unit/config/store.test.ts holds the two
 * together).
 */
export function plainConfig(value: unknown): value is z.infer<typeof storedConfig> {
  if (!isJsonObject(value)) return false;
  const { defaultProfile, profiles } = value;
  if (defaultProfile !== undefined && typeof defaultProfile !== 'string') return false;
  return profiles === undefined || (isJsonObject(profiles) && Object.values(profiles).every(plainProfile));
}

function plainProfile(profile: unknown): boolean {
  return (
    isJsonObject(profile) &&
    PROFILE_STRINGS.every((field) => profile[field] === undefined || typeof profile[field] === 'string') &&
    (profile.keyStorage === undefined || KEY_STORAGES.includes(profile.keyStorage as KeyStorage)) &&
    (profile.readOnly === undefined || typeof profile.readOnly === 'boolean')
  );
}

interface Config {
  /** Whatever else the file holds, kept as it was. */
  rest: Record<string, unknown>;
  defaultProfile?: string;
  profiles: Map<string, StoredProfile>;
}

const CONFIG_FILE = 'config.json';

/** The profile commands use when nothing names one and none was made the default. */
export const DEFAULT_PROFILE = 'default';

/** Letters, digits, '.', '_' and '-', starting with a letter or digit: safe in a file, a keychain and a shell. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A profile name that names none: the stored names close to it (`stagin`, staging), else where to see them. */
export function noSuchProfile(name: string, names: readonly string[]): UsageError {
  const close = closeMatches(name, names, 3);
  const see = 'see the profiles with `loopsctl auth list`';
  return new UsageError(`there is no profile "${name}"`, { hint: close.length > 0 ? `did you mean ${close.join(', ')}? Or ${see}` : see });
}

/** Refuses a name that a new profile cannot have. */
export function checkProfileName(name: string): void {
  if (PROFILE_NAME.test(name)) return;
  throw new UsageError(`"${name.replace(/[^\x20-\x7e]/g, '?')}" cannot be a profile name`, {
    hint: 'use letters, digits, ".", "_" and "-", starting with a letter or digit (at most 64 characters)',
  });
}

/** Where a profile's key lives: the keychain if the config says so, else this file. */
export function storageOf(profile: StoredProfile): KeyStorage {
  return profile.keyStorage === 'keychain' ? 'keychain' : 'file';
}

export class ProfileStore {
  readonly path: string;
  /** The file as last read or written by this store: a command reads it once, however many questions it asks. */
  private known: Config;

  constructor(
    readonly directory: string,
    /** How long a change waits for another process's lock, and when a lock counts as stale. */
    private readonly lock: LockOptions = {},
  ) {
    this.path = join(directory, CONFIG_FILE);
    checkConfigDirectory(directory);
    // Read at the start, so that a file of the wrong shape is reported before anything else.
    this.known = this.read();
  }

  profile(name: string): StoredProfile | undefined {
    return this.known.profiles.get(name);
  }

  /** Every profile, in the order they were first stored. */
  profiles(): [string, StoredProfile][] {
    return [...this.known.profiles];
  }

  profileNames(): string[] {
    return [...this.known.profiles.keys()];
  }

  /** The profile `auth switch` made the default, if any. */
  recordedDefault(): string | undefined {
    return this.known.defaultProfile;
  }

  /**
   * Records where a profile's key now lives (and, in the file, the key), with its team name; what
   * else the profile held is kept. The first profile stored becomes the default. Returns what the
   * profile was before, so that the caller can remove a copy of the key left in the other storage.
   */
  saveProfile(
    name: string,
    where: { keyStorage: 'file'; apiKey: string; teamName?: string } | { keyStorage: 'keychain'; keychainAccount: string; teamName?: string },
  ): StoredProfile | undefined {
    checkProfileName(name);
    let previous: StoredProfile | undefined;
    this.update((config) => {
      previous = config.profiles.get(name);
      const { apiKey: _key, keychainAccount: _account, teamName: _team, keyStorage: _storage, ...kept } = previous ?? {};
      const profile: StoredProfile = { ...kept, ...where };
      if (where.teamName === undefined) delete profile.teamName;
      // The very first profile is what commands should use, whatever its name.
      if (config.profiles.size === 0 && config.defaultProfile === undefined && name !== DEFAULT_PROFILE) config.defaultProfile = name;
      config.profiles.set(name, profile);
    });
    return previous;
  }

  /** Records the team a profile's writes must go to: its key's, as `auth login` or `auth status --record-team` found it. */
  setTeamName(name: string, teamName: string): void {
    if (this.profile(name)?.teamName === teamName) return;
    this.update((config) => {
      const profile = config.profiles.get(name);
      if (profile !== undefined) config.profiles.set(name, { ...profile, teamName });
    });
  }

  /** Marks a profile read-only, or lifts the mark. */
  setReadOnly(name: string, readOnly: boolean): void {
    this.update((config) => {
      const profile = config.profiles.get(name);
      if (profile === undefined) throw new UsageError(`there is no profile "${name}"`, { hint: 'see the profiles with `loopsctl auth list`' });
      const { readOnly: _mark, ...rest } = profile;
      config.profiles.set(name, readOnly ? { ...rest, readOnly: true } : rest);
    });
  }

  /** Records the API's address a profile's commands go to; undefined for the platform's. */
  setBaseUrl(name: string, baseUrl: string | undefined): void {
    if (this.profile(name)?.baseUrl === baseUrl) return;
    this.update((config) => {
      const profile = config.profiles.get(name);
      if (profile === undefined) return;
      const { baseUrl: _before, ...rest } = profile;
      config.profiles.set(name, baseUrl === undefined ? rest : { ...rest, baseUrl });
    });
  }

  /** Forgets a profile; returns what it was, or undefined when there was none. */
  deleteProfile(name: string): StoredProfile | undefined {
    let removed: StoredProfile | undefined;
    this.update((config) => {
      removed = config.profiles.get(name);
      config.profiles.delete(name);
      if (config.defaultProfile === name) delete config.defaultProfile;
    });
    return removed;
  }

  /** Gives a profile a new name, keeping its place, its key and whether it is the default. */
  rename(from: string, to: string): void {
    checkProfileName(to);
    this.update((config) => {
      const profile = config.profiles.get(from);
      if (profile === undefined) throw noSuchProfile(from, [...config.profiles.keys()]);
      if (config.profiles.has(to))
        throw new UsageError(`there is already a profile "${to}"`, { hint: `remove it first with \`loopsctl auth remove ${to}\`, or choose another name` });
      config.profiles = new Map([...config.profiles].map(([name, entry]) => (name === from ? [to, profile] : [name, entry])));
      if (config.defaultProfile === from) config.defaultProfile = to;
    });
  }

  /** Makes a stored profile the one commands use when nothing else names one. */
  setDefault(name: string): void {
    this.update((config) => {
      if (!config.profiles.has(name)) throw noSuchProfile(name, [...config.profiles.keys()]);
      config.defaultProfile = name;
    });
  }

  private read(): Config {
    let stored: z.infer<typeof storedConfig> | undefined;
    try {
      stored = readJsonFile(this.path, storedConfig, plainConfig);
    } catch (error) {
      if (error instanceof UnusableFileError) throw corruptConfigError(error, this.path);
      throw error;
    }
    const { defaultProfile, profiles, ...rest } = stored ?? {};
    checkConfigFile(
      this.path,
      Object.values(profiles ?? {}).some((profile) => profile.apiKey !== undefined),
    );
    return { rest, defaultProfile, profiles: new Map(Object.entries(profiles ?? {})) };
  }

  /** One read-modify-write of the file, under its lock; what else the file holds is kept as it was. */
  private update(change: (config: Config) => void): void {
    try {
      inKeptDirectory(this.directory, () =>
        withFileLock(
          this.path,
          () => {
            // Read again under the lock: another process may have changed the file since.
            const config = this.read();
            change(config);
            const { rest, defaultProfile, profiles } = config;
            writeJsonFile(this.path, { ...rest, ...(defaultProfile === undefined ? {} : { defaultProfile }), profiles: Object.fromEntries(profiles) });
            this.known = config;
          },
          this.lock,
        ),
      );
    } catch (error) {
      if (!(error instanceof LockTimeoutError)) throw error;
      throw new LocalFileError(`the config file ${this.path} is locked: ${error.message}`, {
        code: 'config',
        cause: error,
        hint: `another loopsctl is changing it; try again, or if none runs, remove ${error.lockFile}`,
      });
    }
  }
}

/** Keys are kept only where nobody else can replace the file or read it through a link of theirs. */
function checkConfigDirectory(directory: string): void {
  inKeptDirectory(directory, () => ensureDirectory(directory));
  const unsafe = unsafeDirectoryReason(directory);
  if (unsafe === undefined) return;
  throw new LocalFileError(`the config directory ${directory} is not safe for API keys: ${unsafe.reason}`, { code: 'config', hint: unsafe.fix });
}

/** A file others can change, or read when it holds a key, is refused as its directory would be: nothing is read from it or sent with its key. */
function checkConfigFile(file: string, holdsKey: boolean): void {
  const unsafe = unsafeFileReason(file, holdsKey);
  if (unsafe === undefined) return;
  throw new LocalFileError(`the config file ${file} is not safe for API keys: ${unsafe.reason}`, { code: 'config', hint: unsafe.fix });
}

function corruptConfigError(error: UnusableFileError, file: string): LocalFileError {
  return new LocalFileError(`the config file ${file} could not be read: ${error.message}`, {
    code: 'config',
    cause: error,
    hint: 'fix the file by hand, or move it aside and run `loopsctl auth login` again',
  });
}
