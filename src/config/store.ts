/**
 * Stored API keys, one per named profile, in a JSON file only the user can read (0600) in a
 * directory only the user can change. Every change is a read-modify-write under a lock file, so
 * parallel `auth login` runs all keep their keys; and every write is a new file renamed over the
 * old one (see writeJsonFile), so a crash leaves the old file or the new one, and a symlink planted
 * at the path is replaced, never written through. A file that is not what loopsctl wrote is
 * reported and left alone, never replaced. LOOPSCTL_CONFIG_DIR moves the directory.
 */
import { join } from 'node:path';
import { z } from '../api/schemas.js';
import { LocalFileError } from '../api/errors.js';
import { readJsonFile, UnusableFileError, writeJsonFile } from './json-file.js';
import { LockTimeoutError, withFileLock, type LockOptions } from './lock.js';
import { ensureDirectory, unsafeDirectoryReason } from './private-dir.js';

const storedConfig = z.looseObject({
  profiles: z.record(z.string(), z.looseObject({ apiKey: z.string() })),
});
type StoredConfig = z.infer<typeof storedConfig>;

const CONFIG_FILE = 'config.json';

export class ProfileStore {
  readonly path: string;

  constructor(
    readonly directory: string,
    /** How long a change waits for another process's lock, and when a lock counts as stale. */
    private readonly lock: LockOptions = {},
  ) {
    this.path = join(directory, CONFIG_FILE);
    checkConfigDirectory(directory);
    // Read once at the start, so that a file of the wrong shape is reported before anything else.
    this.read();
  }

  getKey(profile: string): string | undefined {
    return this.read().profiles[profile]?.apiKey;
  }

  setKey(profile: string, apiKey: string): void {
    this.update((config) => ({ ...config, profiles: { ...config.profiles, [profile]: { apiKey } } }));
  }

  /** Returns whether the profile existed. */
  deleteKey(profile: string): boolean {
    let existed = false;
    this.update((config) => {
      existed = Object.hasOwn(config.profiles, profile);
      const profiles = { ...config.profiles };
      delete profiles[profile];
      return { ...config, profiles };
    });
    return existed;
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles);
  }

  private read(): StoredConfig {
    try {
      return readJsonFile(this.path, storedConfig) ?? { profiles: {} };
    } catch (error) {
      if (error instanceof UnusableFileError) throw corruptConfigError(error, this.path);
      throw error;
    }
  }

  /** One read-modify-write of the file, under its lock; other keys of the file are kept as they were. */
  private update(change: (config: StoredConfig) => StoredConfig): void {
    try {
      withFileLock(this.path, () => writeJsonFile(this.path, change(this.read())), this.lock);
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
  try {
    ensureDirectory(directory);
  } catch (error) {
    throw new LocalFileError(`the config directory ${directory} could not be created: ${(error as Error).message}`, {
      code: 'config',
      cause: error,
      hint: 'set LOOPSCTL_CONFIG_DIR to a directory of your own',
    });
  }
  const unsafe = unsafeDirectoryReason(directory);
  if (unsafe === undefined) return;
  throw new LocalFileError(`the config directory ${directory} is not safe for API keys: ${unsafe.reason}`, { code: 'config', hint: unsafe.fix });
}

function corruptConfigError(error: UnusableFileError, file: string): LocalFileError {
  return new LocalFileError(`the config file ${file} could not be read: ${error.message}`, {
    code: 'config',
    cause: error,
    hint: 'fix the file by hand, or move it aside and run `loopsctl auth login` again',
  });
}
