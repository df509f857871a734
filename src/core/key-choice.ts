/**
 * Which key and which address a run uses, and which team it must reach, by the precedence rules:
 * --profile, LOOPS_API_KEY, LOOPSCTL_PROFILE, the default profile (`auth switch`); --base-url,
 * LOOPS_BASE_URL, the profile's recorded address; --expect-team, LOOPSCTL_EXPECTED_TEAM, the
 * profile's team. The command context (context.ts) asks them once per run, the sandbox aside.
 */
import { UsageError } from '../base/errors.js';
import type { ProfileStore } from '../config/store.js';
import { type Credentials, keyFromKeychain, noKeyError, type ProfileChoice } from './credentials.js';
import type { GlobalOptions } from './global-options.js';

type Env = Record<string, string | undefined>;

/** The stored profile a command means: --profile, else LOOPSCTL_PROFILE, else the default one (`auth switch`), else "default". */
export async function chosenProfileOf(globals: GlobalOptions, env: Env, store: ProfileStore): Promise<{ name: string; chosenBy: ProfileChoice }> {
  if (globals.profile !== undefined) return { name: globals.profile, chosenBy: '--profile' };
  if (env.LOOPSCTL_PROFILE) return { name: env.LOOPSCTL_PROFILE, chosenBy: 'LOOPSCTL_PROFILE' };
  const recorded = store.recordedDefault();
  if (recorded !== undefined) return { name: recorded, chosenBy: 'auth switch' };
  return { name: (await import('../config/store.js')).DEFAULT_PROFILE, chosenBy: 'default' };
}

/** The key of LOOPS_API_KEY, or of the profile chosen, from the config file or the keychain; refused when there is none. */
export async function storedKeyOf(globals: GlobalOptions, env: Env, storeOf: () => Promise<ProfileStore>, signal: AbortSignal): Promise<Credentials> {
  // A key pasted with its line end (`export LOOPS_API_KEY="$(cat key.txt)"` keeps none, an editor may) still works.
  const fromEnv = env.LOOPS_API_KEY?.trim();
  if (globals.profile === undefined && fromEnv) return { apiKey: fromEnv, source: 'environment', chosenBy: 'LOOPS_API_KEY' };
  const store = await storeOf();
  const { name: profile, chosenBy } = await chosenProfileOf(globals, env, store);
  const entry = store.profile(profile);
  if (entry !== undefined) {
    const { storageOf } = await import('../config/store.js');
    const storage = storageOf(entry);
    const apiKey = (
      storage === 'keychain' ? await keyFromKeychain(profile, entry.keychainAccount, globals.profile !== undefined, signal) : entry.apiKey
    )?.trim();
    if (apiKey) return { apiKey, source: 'profile', profile, chosenBy, storage, teamName: entry.teamName, readOnly: entry.readOnly === true };
  }
  throw noKeyError(profile, chosenBy, store.profileNames(), globals.profile !== undefined);
}

/** The team the key must belong to: --expect-team, else LOOPSCTL_EXPECTED_TEAM, else the profile's recorded team. */
export async function expectedTeamOf(
  globals: GlobalOptions,
  env: Env,
  credentials: () => Promise<Credentials>,
): Promise<{ name: string; by: string } | undefined> {
  if (globals.expectTeam !== undefined) {
    if (globals.expectTeam.trim() === '')
      throw new UsageError('--expect-team needs the name of a team', { hint: 'see the team of a key with `loopsctl auth status`' });
    return { name: globals.expectTeam, by: '--expect-team' };
  }
  const fromEnv = env.LOOPSCTL_EXPECTED_TEAM;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { name: fromEnv, by: 'LOOPSCTL_EXPECTED_TEAM' };
  const { teamName, profile } = await credentials();
  return teamName === undefined ? undefined : { name: teamName, by: `profile "${profile}"` };
}

/** The API's address but the sandbox's: --base-url, LOOPS_BASE_URL, the one the profile in use was logged in at (`auth login --base-url`), or the platform's. */
export async function baseUrlOf(globals: GlobalOptions, env: Env, storeOf: () => Promise<ProfileStore>): Promise<string> {
  const { parseBaseUrl, DEFAULT_BASE_URL } = await import('../api/base-url.js');
  if (globals.baseUrl !== undefined) return parseBaseUrl(globals.baseUrl, '--base-url');
  if (env.LOOPS_BASE_URL) return parseBaseUrl(env.LOOPS_BASE_URL, 'LOOPS_BASE_URL');
  // None recorded when the key comes from LOOPS_API_KEY or no profile has one.
  if (globals.profile === undefined && env.LOOPS_API_KEY?.trim()) return DEFAULT_BASE_URL;
  const store = await storeOf();
  const { name } = await chosenProfileOf(globals, env, store);
  const url = store.profile(name)?.baseUrl;
  return url === undefined ? DEFAULT_BASE_URL : parseBaseUrl(url, `the base URL of profile "${name}"`);
}
