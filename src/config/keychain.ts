/**
 * API keys in the system keychain: the macOS Keychain, the Secret Service on Linux (GNOME Keyring,
 * KWallet, KeePassXC), the Windows Credential Manager, through @napi-rs/keyring. The library is an
 * optional native dependency, loaded only by a command that reads or writes a key that lives there;
 * where it is missing or no keychain answers, `auth login` falls back to the config file.
 */
import type { AsyncEntry } from '@napi-rs/keyring';

/** The service every entry of loopsctl is filed under; the account names the profile. */
const KEYCHAIN_SERVICE = 'loopsctl';

/** Why the keychain could not be used, in words for a message. */
export class KeychainUnavailableError extends Error {}

export interface Keychain {
  /** The key stored under the account, or undefined when there is none. */
  get(account: string): Promise<string | undefined>;
  set(account: string, apiKey: string): Promise<void>;
  /** Returns whether there was an entry to delete. */
  delete(account: string): Promise<boolean>;
}

/** The account name of a profile's entry: the profile, and the config directory it belongs to, so that two directories never share an entry. */
export function keychainAccount(profile: string, configDir: string): string {
  return `${profile}@${configDir}`;
}

export async function openKeychain(signal?: AbortSignal): Promise<Keychain> {
  let keyring: typeof import('@napi-rs/keyring');
  try {
    const { loadKeyring } = await import('./keyring-loader.cjs');
    keyring = loadKeyring();
  } catch (error) {
    throw new KeychainUnavailableError('the keychain module (@napi-rs/keyring) is not installed for this platform', { cause: error });
  }
  // On Linux only the Secret Service keeps a key past a restart; the kernel keyring the library
  // would otherwise fall back to forgets it.
  const entry = (account: string): AsyncEntry => {
    try {
      return new keyring.AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } });
    } catch (error) {
      throw unavailable(error);
    }
  };
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw unavailable(error);
    }
  };
  return {
    get: (account) => call(async () => (await entry(account).getPassword(signal)) ?? undefined),
    set: (account, apiKey) => call(() => entry(account).setPassword(apiKey, signal)),
    delete: (account) => call(() => entry(account).deletePassword(signal)),
  };
}

/**
 * Why no keychain answered, in a person's words: D-Bus's own (an autolaunch disabled at compile
 * time, a socket path) say nothing to someone on a headless machine. Other platforms' words are
 * kept, on one line; the library's error stays the cause.
 */
function unavailable(error: unknown): KeychainUnavailableError {
  let cause = error as { message?: string; cause?: unknown } | undefined;
  while (cause?.cause instanceof Error) cause = cause.cause;
  const words = (cause?.message ?? String(error)).replace(/\s+/g, ' ').trim();
  return new KeychainUnavailableError(`no system keychain answered (${plainReason(words)})`, { cause: error });
}

function plainReason(words: string): string {
  if (/org\.freedesktop\.secrets|ServiceUnknown|secret service/i.test(words))
    return 'no Secret Service, such as GNOME Keyring or KWallet, runs in this session';
  if (/dbus|d-bus|session bus|connect to socket/i.test(words))
    return 'this session has no D-Bus session bus, so no Secret Service such as GNOME Keyring can answer';
  return words;
}
