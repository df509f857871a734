/**
 * Stored API keys, one per named profile, kept by conf in a file only the user can read
 * (0600, in a 0700 directory). conf writes the file atomically (a temporary file renamed over it),
 * so a crash mid-write leaves the old file or the new one, never half of each. A file that is not
 * what loopsctl wrote is reported and left alone, never replaced. LOOPSCTL_CONFIG_DIR moves the
 * directory.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { z } from '../api/schemas.js';
import { AuthError } from '../api/errors.js';
import { readJsonFile, UnusableFileError } from './json-file.js';

const storedConfig = z.looseObject({
  profiles: z.record(z.string(), z.looseObject({ apiKey: z.string() })),
});
type StoredConfig = z.infer<typeof storedConfig>;

const CONFIG_FILE = 'config.json';

export class ProfileStore {
  private readonly conf: Conf<StoredConfig>;

  constructor(readonly directory: string) {
    ensurePrivateDir(directory);
    // Checked before conf opens it: conf would merge its defaults into a file of the wrong shape
    // and write the result back, losing what was there.
    checkExistingFile(join(directory, CONFIG_FILE));
    try {
      this.conf = new Conf<StoredConfig>({
        projectName: 'loopsctl',
        cwd: directory,
        configFileMode: 0o600,
        defaults: { profiles: {} },
        clearInvalidConfig: false,
      });
    } catch (error) {
      // The file changed since the check, or cannot be opened; anything else is a bug, not the file's fault.
      if (!(error instanceof SyntaxError) && (error as NodeJS.ErrnoException).code === undefined) throw error;
      throw corruptConfigError(error instanceof SyntaxError ? 'it is not valid JSON' : error, join(directory, CONFIG_FILE));
    }
  }

  get path(): string {
    return this.conf.path;
  }

  getKey(profile: string): string | undefined {
    return this.conf.get('profiles')[profile]?.apiKey;
  }

  setKey(profile: string, apiKey: string): void {
    this.conf.set('profiles', { ...this.conf.get('profiles'), [profile]: { apiKey } });
  }

  /** Returns whether the profile existed. */
  deleteKey(profile: string): boolean {
    const profiles = { ...this.conf.get('profiles') };
    if (!(profile in profiles)) return false;
    delete profiles[profile];
    this.conf.set('profiles', profiles);
    return true;
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles'));
  }
}

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

function checkExistingFile(file: string): void {
  try {
    readJsonFile(file, storedConfig);
  } catch (error) {
    if (error instanceof UnusableFileError) throw corruptConfigError(error, file);
    throw error;
  }
}

function corruptConfigError(error: unknown, file: string): AuthError {
  const reason = error instanceof Error ? error.message : String(error);
  return new AuthError(`the config file ${file} could not be read: ${reason}`, {
    code: 'config',
    cause: error,
    hint: 'fix the file by hand, or move it aside and run `loopsctl auth login` again',
  });
}
