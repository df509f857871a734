/**
 * Where a run's API key comes from, in the words of the errors that say it is missing or refused:
 * what picked it (--profile, LOOPS_API_KEY, LOOPSCTL_PROFILE, the default profile), a key kept in
 * the system keychain, and the hint that names the variable or profile to check.
 */

import { AuthError, featureOfKeyHint, WRONG_KEY_HINT, withDetails } from '../base/errors.js';
import type { KeyStorage } from '../config/store.js';
import { profileFlag } from './team.js';

export interface Credentials {
  apiKey: string;
  source: 'environment' | 'profile' | 'sandbox';
  profile?: string;
  /** What picked the key: the flag or variable that named it, or the default. */
  chosenBy: ProfileChoice | 'LOOPS_API_KEY' | 'sandbox';
  /** Where a stored key lives. */
  storage?: KeyStorage;
  /** A profile's recorded team. */
  teamName?: string;
  /** A profile marked read-only (`auth login --read-only`, `auth read-only`). */
  readOnly?: boolean;
}

/** How a plan and a change name the account of a key that came from no stored profile: the sandbox's, or LOOPS_API_KEY's. */
export const SANDBOX_ACCOUNT = '--sandbox';
export const ENVIRONMENT_ACCOUNT = 'LOOPS_API_KEY';

/** The account a key reaches, as a plan and a change name it: the stored profile, or where else the key came from. */
export function accountOf(credentials: Pick<Credentials, 'source' | 'profile'>): string {
  if (credentials.source === 'profile' && credentials.profile !== undefined) return credentials.profile;
  return credentials.source === 'sandbox' ? SANDBOX_ACCOUNT : ENVIRONMENT_ACCOUNT;
}

/** What named a profile: --profile, LOOPSCTL_PROFILE, the default made with `auth switch`, or the one named "default". */
export type ProfileChoice = '--profile' | 'LOOPSCTL_PROFILE' | 'auth switch' | 'default';

/** A key that lives in the system keychain: the keychain module is loaded only here. */
export async function keyFromKeychain(
  profile: string,
  account: string | undefined,
  flagGiven: boolean,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const { openKeychain, KeychainUnavailableError } = await import('../config/keychain.js');
  const flag = flagGiven ? ` --profile ${profile}` : '';
  if (account === undefined) return undefined;
  try {
    const apiKey = await (await openKeychain(signal)).get(account);
    if (apiKey !== undefined) return apiKey;
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    throw new AuthError(`the key of profile "${profile}" is in the system keychain, which could not be read: ${error.message}`, {
      code: 'keychain',
      cause: error,
      hint: `unlock the keychain and try again, or store the key in the config file instead: loopsctl auth login --insecure-storage${flag}`,
    });
  }
  throw new AuthError(`the system keychain has no key for profile "${profile}" (it was removed there)`, {
    code: 'no_key',
    hint: `store the key again: loopsctl auth login${flag}`,
  });
}

/** No key for the chosen profile: how to store one, the stored profiles, and, unless --profile named it, the variable or the sandbox. */
export function noKeyError(profile: string, chosenBy: ProfileChoice, stored: string[], flagGiven: boolean): AuthError {
  const named = chosenBy === 'default' ? '' : ` for profile "${profile}"`;
  const login = `run \`loopsctl auth login${named ? ` --profile ${profile}` : ''}\``;
  // --profile overrides LOOPS_API_KEY, so pointing to the variable would not help.
  const hint = flagGiven
    ? `${login}${stored.length > 0 ? `, or use a stored profile: ${stored.join(', ')}` : ''}`
    : `${login} or set LOOPS_API_KEY${stored.length > 0 ? `; stored profiles: ${stored.join(', ')} (see \`loopsctl auth list\`)` : ''}; or try it with no key against the built-in sandbox: --sandbox`;
  return new AuthError(`no API key${named}${chosenBy === 'LOOPSCTL_PROFILE' ? ' (named by LOOPSCTL_PROFILE)' : ''}`, { code: 'no_key', hint });
}

/**
 * A refused key is explained by where it came from: the variable to check or unset, or the
 * profile to check, keeping --profile in the command to run when the person gave it.
 */
export async function keyHinted(error: unknown, asked: Promise<Credentials>): Promise<unknown> {
  if (!(error instanceof AuthError)) return error;
  // A part of the API the team must have enabled: the key, or the part, may be what is missing.
  const feature = featureOfKeyHint(error.hint);
  if (error.hint !== WRONG_KEY_HINT && feature === undefined) return error;
  const orFeature = feature === undefined ? '' : `; or the key is right and the ${feature} API is not enabled for this team (ask Loops support to enable it)`;
  const credentials = await asked;
  if (credentials.source === 'environment') {
    return withDetails(error, {
      message: `${error.message} (the key in the environment variable LOOPS_API_KEY)`,
      hint: `check the value of LOOPS_API_KEY, or unset it to use a stored profile (\`loopsctl auth status\` shows which key a command uses)${orFeature}`,
    });
  }
  if (credentials.source !== 'profile') return error;
  const flag = profileFlag(credentials);
  return withDetails(error, {
    message: `${error.message} (the key of profile "${credentials.profile}")`,
    hint: `check the key with \`loopsctl auth status${flag}\`, or store a new one with \`loopsctl auth login${flag}\`${orFeature}`,
  });
}
