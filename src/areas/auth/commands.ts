/** What the `auth` commands do. */
import { AuthError, LocalFileError, ProtectedError, UsageError } from '../../base/errors.js';
import { redactUrl } from '../../base/redact-url.js';
import { sanitize } from '../../base/sanitize.js';
import { checkProfileName, type KeyStorage, noSuchProfile, type ProfileStore, type StoredProfile, storageOf } from '../../config/store.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import type { Credentials } from '../../core/credentials.js';
import { confirm, promptHidden, readStdin } from '../../core/prompt.js';
import { profileFlag, profileTeamRemedy, sameTeam } from '../../core/team.js';
import { renderRecord, renderTable } from '../../render/table.js';
import { checkApiKey } from './client.js';

/** Enough of a key to tell two apart, never enough to use: the first four characters. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 4)}…` : '…';
}

async function teamName(context: Uses<'client'>, apiKey: string): Promise<string> {
  const checked = await checkApiKey(await context.transport(apiKey));
  if ('error' in checked) throw checked.error;
  return checked.teamName;
}

/** On a terminal an empty entry asks again; from a pipe it is an error. */
async function readKey(context: Uses<'prompts'>, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readStdin(context.runtime)).trim();
  context.runtime.stderr.write('Paste an API key from the Loops app, Settings > API (https://app.loops.so/settings?page=api); it is not shown as you type.\n');
  for (;;) {
    const entered = (await promptHidden(context.runtime, 'Loops API key: ')).trim();
    if (entered !== '') return entered;
    context.runtime.stderr.write('The key is empty; paste the key from Settings > API in the Loops app.\n');
  }
}

/** Where keys go: LOOPSCTL_KEY_STORAGE=file (or --insecure-storage) never tries the keychain; =keychain insists on it. */
function storagePreference(context: Uses<'env'>, insecureStorage: boolean | undefined): KeyStorage | 'keychain-or-file' {
  const setting = context.env.LOOPSCTL_KEY_STORAGE?.trim().toLowerCase();
  if (setting && setting !== 'file' && setting !== 'keychain') {
    throw new UsageError(`LOOPSCTL_KEY_STORAGE must be "keychain" or "file", not "${sanitize(setting)}"`);
  }
  if (insecureStorage || setting === 'file') return 'file';
  return setting === 'keychain' ? 'keychain' : 'keychain-or-file';
}

interface StoredKey {
  storage: KeyStorage;
  /** Why the keychain was not used when it was tried. */
  fallback?: string;
}

/**
 * Stores the key where the person wants it, and removes a copy left in the other storage by an
 * earlier login: the keychain entry is written before the config file points to it, the old
 * keychain entry removed only once the config no longer does.
 */
async function storeKey(
  context: Uses<'out' | 'config' | 'env'>,
  store: ProfileStore,
  profile: string,
  apiKey: string,
  teamName: string | undefined,
  insecureStorage: boolean | undefined,
): Promise<StoredKey> {
  const wanted = storagePreference(context, insecureStorage);
  let fallback: string | undefined;
  if (wanted !== 'file') {
    const { openKeychain, keychainAccount, KeychainUnavailableError } = await import('../../config/keychain.js');
    const before = store.profile(profile);
    const account =
      (before !== undefined && storageOf(before) === 'keychain' ? before.keychainAccount : undefined) ??
      unusedAccount(store, keychainAccount(profile, context.configDir));
    try {
      await (await openKeychain(context.runtime.signal)).set(account, apiKey);
    } catch (error) {
      if (!(error instanceof KeychainUnavailableError)) throw error;
      if (wanted === 'keychain') {
        throw new LocalFileError(`the key was not stored: ${error.message}`, {
          code: 'keychain',
          cause: error,
          hint: 'unlock or start the keychain, or store the key in the config file: unset LOOPSCTL_KEY_STORAGE, or pass --insecure-storage',
        });
      }
      fallback = error.message;
    }
    if (fallback === undefined) {
      const previous = store.saveProfile(profile, { keyStorage: 'keychain', keychainAccount: account, teamName });
      await removeFromKeychain(context, previous, account);
      return { storage: 'keychain' };
    }
  }
  const previous = store.saveProfile(profile, { keyStorage: 'file', apiKey, teamName });
  await removeFromKeychain(context, previous);
  return { storage: 'file', fallback };
}

/** The account name, or one numbered after it when another profile has it (it was renamed from this name). */
function unusedAccount(store: ProfileStore, account: string): string {
  const taken = new Set(store.profiles().map(([, profile]) => profile.keychainAccount));
  let candidate = account;
  for (let number = 2; taken.has(candidate); number += 1) candidate = `${account}#${number}`;
  return candidate;
}

/** Deletes a profile's keychain entry, unless it is the one still in use; a failure is said, not fatal. */
async function removeFromKeychain(context: Uses<'out'>, profile: StoredProfile | undefined, keep?: string): Promise<void> {
  const account = profile !== undefined && storageOf(profile) === 'keychain' ? profile.keychainAccount : undefined;
  if (account === undefined || account === keep) return;
  const { openKeychain, KeychainUnavailableError } = await import('../../config/keychain.js');
  try {
    await (await openKeychain(context.runtime.signal)).delete(account);
  } catch (error) {
    if (!(error instanceof KeychainUnavailableError)) throw error;
    context.runtime.stderr.write(
      `Warning: the old copy of the key in the system keychain could not be removed (${error.message}); remove the entry "${account}" of service "loopsctl" by hand.\n`,
    );
  }
}

function describeStorage(storage: KeyStorage, store: ProfileStore): string {
  return storage === 'keychain' ? 'the system keychain' : `${store.path} (readable by you only)`;
}

export const login: Handler<[], { withKeyStdin?: boolean; skipVerify?: boolean; insecureStorage?: boolean; readOnly?: boolean }> = handler(
  ['out', 'client', 'config', 'prompts', 'env', 'globals'],
  async (context, _args, options) => {
    const store = await context.profileStore();
    const { name: profile } = await context.chosenProfile(store);
    // Refused before the key is asked for.
    checkProfileName(profile);
    storagePreference(context, options.insecureStorage);
    const apiKey = await readKey(context, options.withKeyStdin === true);
    if (apiKey === '') throw new UsageError('the key is empty', { hint: 'pipe the key in: printenv LOOPS_KEY | loopsctl auth login --with-key-stdin' });
    if (/\s/.test(apiKey)) throw new UsageError('the key contains whitespace');
    let team: string | undefined;
    if (!options.skipVerify) {
      try {
        team = await teamName(context, apiKey);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        throw new AuthError(`${error.message}; the key was not stored`, {
          code: error.code,
          status: error.status,
          hint: 'check that you copied the whole key from Settings > API in the Loops app',
        });
      }
    }
    const defaultBefore = store.recordedDefault();
    const { storage, fallback } = await storeKey(context, store, profile, apiKey, team, options.insecureStorage);
    const madeDefault = defaultBefore === undefined && store.recordedDefault() === profile;
    // A profile marked before keeps its mark when its key is stored again.
    if (options.readOnly) store.setReadOnly(profile, true);
    // A key logged in at another address (a staging API, a local server) keeps it: the profile's
    // commands go there unless a run names another (--base-url, LOOPS_BASE_URL).
    const baseUrl = await keptBaseUrl(context);
    if (baseUrl !== 'unchanged') store.setBaseUrl(profile, baseUrl);
    const keptUrl = store.profile(profile)?.baseUrl;
    const readOnly = store.profile(profile)?.readOnly === true;
    const { out } = context;
    const stderr = context.runtime.stderr;
    if (fallback !== undefined) stderr.write(`Note: ${fallback}; the key is stored in the config file instead.\n`);
    // gh warns the same way about GH_TOKEN: the variable wins over what was just stored, for every
    // command without --profile (a named profile made the default is one of them).
    if (context.env.LOOPS_API_KEY && (context.globals.profile === undefined || madeDefault)) {
      stderr.write('Warning: LOOPS_API_KEY is set in this environment and is used instead of stored keys; unset it to use this one.\n');
    }
    if (out.json) {
      return out.writeJson({
        profile,
        teamName: team ?? null,
        verified: team !== undefined,
        storage,
        default: madeDefault || profile === (store.recordedDefault() ?? 'default'),
        readOnly,
        ...(keptUrl === undefined ? {} : { baseUrl: keptUrl }),
      });
    }
    const lines = [
      team === undefined ? `Stored the key for profile "${profile}" without checking it.` : `Logged in to ${sanitize(team)} (profile "${profile}").`,
      `The key is in ${describeStorage(storage, store)}.`,
      ...(madeDefault ? [`Commands use profile "${profile}" by default (change it with \`loopsctl auth switch\`).`] : []),
      ...(keptUrl === undefined ? [] : [`Its commands go to ${redactUrl(keptUrl)} (another run can name another with --base-url or LOOPS_BASE_URL).`]),
      ...(readOnly
        ? [`The profile is read-only: commands that change the account need --allow-writes (lift it with \`loopsctl auth read-write ${profile}\`).`]
        : []),
    ];
    await out.write(`${lines.join('\n')}\n`);
  },
);

/**
 * The base URL a login records: the one --base-url names (none for the platform's own); 'unchanged'
 * without --base-url, so that a key stored again keeps the address its profile had.
 */
async function keptBaseUrl(context: Uses<'globals'>): Promise<string | undefined | 'unchanged'> {
  if (context.globals.baseUrl === undefined || context.globals.sandbox) return 'unchanged';
  const { parseBaseUrl, DEFAULT_BASE_URL } = await import('../../api/base-url.js');
  const url = parseBaseUrl(context.globals.baseUrl, '--base-url');
  return url === DEFAULT_BASE_URL ? undefined : url;
}

const CHOSEN_BY: Record<Credentials['chosenBy'], string> = {
  '--profile': 'named by --profile',
  LOOPSCTL_PROFILE: 'named by LOOPSCTL_PROFILE',
  'auth switch': 'the default profile (set with `loopsctl auth switch`)',
  default: 'the default profile',
  LOOPS_API_KEY: 'LOOPS_API_KEY is set, and no --profile was given',
  sandbox: '--sandbox',
};

export const status: Handler<[], { recordTeam?: boolean }> = handler(['out', 'client', 'key', 'config'], async (context, _args, options) => {
  const credentials = await context.credentials();
  const source = {
    environment: 'environment (LOOPS_API_KEY)',
    profile: `profile "${credentials.profile}"`,
    sandbox: 'the built-in sandbox (--sandbox)',
  }[credentials.source];
  const store = credentials.source === 'profile' ? await context.profileStore() : undefined;
  const flag = profileFlag(credentials);
  let team: string;
  try {
    team = await teamName(context, credentials.apiKey);
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`${error.message} (key ${maskKey(credentials.apiKey)} from ${source})`, {
        code: error.code,
        status: error.status,
        hint:
          credentials.source === 'environment'
            ? 'check the value of LOOPS_API_KEY, or unset it to use a stored profile'
            : `run \`loopsctl auth login${flag}\` to store a new key`,
      });
    }
    throw error;
  }
  // The recorded team is what the team check holds writes to: reading the key's team never changes
  // it, or a read (an agent's, through `loopsctl mcp`) could point a production profile elsewhere.
  const recorded = credentials.profile === undefined ? undefined : store?.profile(credentials.profile)?.teamName;
  if (options.recordTeam === true) {
    if (store === undefined || credentials.profile === undefined) {
      throw new UsageError(`--record-team records the team of a stored profile, and this key comes from ${source}`);
    }
    store.setTeamName(credentials.profile, team);
  }
  const mismatched = options.recordTeam !== true && recorded !== undefined && !sameTeam(team, recorded);
  const found = {
    profile: credentials.profile ?? null,
    source: credentials.source,
    chosenBy: credentials.chosenBy,
    storage: credentials.storage ?? null,
    key: maskKey(credentials.apiKey),
    teamName: team,
    readOnly: credentials.readOnly === true,
  };
  await context.out.present(found, (o) =>
    renderRecord(o, {
      profile: found.profile ?? '-',
      source,
      why: CHOSEN_BY[credentials.chosenBy],
      storage: credentials.storage === undefined || store === undefined ? '-' : describeStorage(credentials.storage, store),
      key: found.key,
      teamName: team,
      readOnly: found.readOnly ? 'yes' : 'no',
    }),
  );
  if (mismatched) {
    throw new ProtectedError(
      `the key of profile "${credentials.profile}" belongs to team ${JSON.stringify(team)}, but the profile records ${JSON.stringify(recorded)}: its writes are refused`,
      { code: 'wrong_team', hint: profileTeamRemedy(flag, recorded, team) },
    );
  }
  if (store !== undefined && recorded === undefined && options.recordTeam !== true) {
    context.runtime.stderr.write(
      `Note: profile "${credentials.profile}" records no team, so its writes are not checked; record ${JSON.stringify(team)} with \`loopsctl auth status${flag} --record-team\`.\n`,
    );
  }
});

export const list: Handler = handler(['out', 'config', 'env'], async (context) => {
  const store = await context.profileStore();
  const defaultName = store.recordedDefault() ?? (await import('../../config/store.js')).DEFAULT_PROFILE;
  const profiles = store.profiles().map(([name, profile]) => ({
    profile: name,
    default: name === defaultName,
    storage: storageOf(profile),
    teamName: profile.teamName ?? null,
    readOnly: profile.readOnly === true,
    // Only for a profile that goes elsewhere than the platform, and its column only then.
    ...(profile.baseUrl === undefined ? {} : { baseUrl: profile.baseUrl }),
  }));
  const elsewhere = profiles.some((row) => row.baseUrl !== undefined);
  const { out } = context;
  if (out.json) return out.writeJson(profiles);
  if (profiles.length === 0) return out.writeProse('No profiles are stored; store a key with `loopsctl auth login`.');
  await out.write(
    renderTable(
      out,
      [
        { header: 'PROFILE' },
        { header: 'DEFAULT' },
        { header: 'KEY IN' },
        { header: 'READ-ONLY' },
        { header: 'TEAM', truncate: true },
        ...(elsewhere ? [{ header: 'BASE URL', truncate: true }] : []),
      ],
      profiles.map((row) => [
        row.profile,
        row.default ? 'yes' : '',
        row.storage === 'keychain' ? 'keychain' : 'file',
        row.readOnly ? 'yes' : '',
        row.teamName ?? '-',
        ...(elsewhere ? [row.baseUrl === undefined ? '-' : redactUrl(row.baseUrl)] : []),
      ]),
    ),
  );
  // A profile is not what commands use while something overrides the default.
  if (context.env.LOOPS_API_KEY) out.note('Note: LOOPS_API_KEY is set: commands without --profile use it, not a stored profile.');
  else if (context.env.LOOPSCTL_PROFILE) out.note(`Note: LOOPSCTL_PROFILE is set: commands without --profile use profile "${context.env.LOOPSCTL_PROFILE}".`);
});

/** `auth read-only` and `auth read-write`: the mark, set or lifted. */
function marking(readOnly: boolean): Handler<[string]> {
  return handler(['out', 'config'], async (context, [profile]) => {
    (await context.profileStore()).setReadOnly(profile, readOnly);
    const { out } = context;
    if (out.json) return out.writeJson({ profile, readOnly });
    await out.write(
      readOnly
        ? `Profile "${profile}" is read-only: commands that change the account are refused unless a run says --allow-writes.\n`
        : `Profile "${profile}" may change the account again.\n`,
    );
  });
}

export const markReadOnly = marking(true);
export const markReadWrite = marking(false);

export const switchProfile: Handler<[string]> = handler(['out', 'config', 'env'], async (context, [profile]) => {
  const store = await context.profileStore();
  store.setDefault(profile);
  const { out } = context;
  if (context.env.LOOPS_API_KEY) out.note('Note: LOOPS_API_KEY is set, and is used instead of any profile until it is unset.');
  else if (context.env.LOOPSCTL_PROFILE && context.env.LOOPSCTL_PROFILE !== profile)
    out.note(`Note: LOOPSCTL_PROFILE names profile "${context.env.LOOPSCTL_PROFILE}", which commands use until it is unset.`);
  if (out.json) return out.writeJson({ profile, default: true });
  await out.write(`Commands now use profile "${profile}" by default.\n`);
});

export const rename: Handler<[string, string]> = handler(['out', 'config'], async (context, [from, to]) => {
  (await context.profileStore()).rename(from, to);
  const { out } = context;
  if (out.json) return out.writeJson({ from, to });
  await out.write(`Renamed profile "${from}" to "${to}".\n`);
});

/** Forgets a profile and its key, wherever the key lives. */
async function forget(context: Uses<'out' | 'config'>, profile: string): Promise<StoredProfile | undefined> {
  const removed = (await context.profileStore()).deleteProfile(profile);
  await removeFromKeychain(context, removed);
  return removed;
}

export const remove: Handler<[string], { yes?: boolean }> = handler(['out', 'config', 'prompts'], async (context, [profile], options) => {
  const store = await context.profileStore();
  if (store.profile(profile) === undefined) throw noSuchProfile(profile, store.profileNames());
  await confirm(context.runtime, `Remove profile "${profile}" and its key?`, options.yes);
  const removed = await forget(context, profile);
  const { out } = context;
  if (out.json) return out.writeJson({ profile, removed: removed !== undefined });
  await out.write(`Removed profile "${profile}" and its key.\n`);
});

export const logout: Handler = handler(['out', 'config'], async (context) => {
  const { name: profile } = await context.chosenProfile();
  const removed = (await forget(context, profile)) !== undefined;
  const { out } = context;
  if (out.json) return out.writeJson({ profile, removed });
  await out.write(removed ? `Removed the key of profile "${profile}".\n` : `No key was stored for profile "${profile}".\n`);
});

/** The key a command would use, for another tool: never onto a terminal unless asked. */
export const token: Handler<[], { show?: boolean }> = handler(['out', 'key'], async (context, _args, options) => {
  if (context.runtime.stdout.isTTY && !options.show) {
    throw new UsageError('the key is not printed on a terminal', { hint: 'pipe it into the tool that needs it (loopsctl auth token | …), or pass --show' });
  }
  const { apiKey } = await context.credentials();
  await context.out.write(`${apiKey}\n`);
});
