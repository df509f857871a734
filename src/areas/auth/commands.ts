/** What the `auth` commands do. */
import { AuthError, UsageError } from '../../api/errors.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler } from '../../core/declare.js';
import { promptHidden, readStdin } from '../../core/prompt.js';
import { sanitize } from '../../render/sanitize.js';
import { renderRecord } from '../../render/table.js';
import { apiKeyInfo } from './schemas.js';

/** Enough of a key to tell two apart, never enough to use: the first four characters. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 4)}…` : '…';
}

async function teamName(context: CommandContext, apiKey: string): Promise<string> {
  const client = await context.clientWithKey(apiKey);
  return (await client.call({ method: 'GET', idempotent: true, path: '/v1/api-key' }, apiKeyInfo)).teamName;
}

/** On a terminal an empty entry asks again; from a pipe it is an error. */
async function readKey(context: CommandContext, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await readStdin(context.runtime)).trim();
  for (;;) {
    const entered = (await promptHidden(context.runtime, 'Loops API key: ')).trim();
    if (entered !== '') return entered;
    context.runtime.stderr.write('The key is empty; paste the key from Settings > API in the Loops app.\n');
  }
}

export const login: Handler<[], { withKeyStdin?: boolean; skipVerify?: boolean }> = async (context, _args, options) => {
  const profile = context.profile;
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
  (await context.profileStore()).setKey(profile, apiKey);
  const { out } = context;
  // gh warns the same way about GH_TOKEN: the variable wins over what was just stored.
  if (context.env.LOOPS_API_KEY && context.globals.profile === undefined) {
    context.runtime.stderr.write('Note: LOOPS_API_KEY is set in this environment and is used instead of stored keys; unset it to use this one.\n');
  }
  if (out.json) return out.writeJson({ profile, teamName: team ?? null, verified: team !== undefined });
  await out.write(team === undefined ? `Stored the key for profile "${profile}" without checking it.\n` : `Logged in to ${sanitize(team)} (profile "${profile}").\n`);
};

export const status: Handler = async (context) => {
  const credentials = await context.credentials();
  const source = {
    environment: 'environment (LOOPS_API_KEY)',
    profile: `profile "${credentials.profile}"`,
    sandbox: 'the built-in sandbox (--sandbox)',
  }[credentials.source];
  let team: string;
  try {
    team = await teamName(context, credentials.apiKey);
  } catch (error) {
    if (error instanceof AuthError) {
      throw new AuthError(`${error.message} (key ${maskKey(credentials.apiKey)} from ${source})`, {
        code: error.code,
        status: error.status,
        hint: 'run `loopsctl auth login` to store a new key',
      });
    }
    throw error;
  }
  const found = { profile: credentials.profile ?? null, source: credentials.source, key: maskKey(credentials.apiKey), teamName: team };
  await context.out.present(found, (o) => renderRecord(o, { ...found, source, profile: found.profile ?? '-' }));
};

export const logout: Handler = async (context) => {
  const profile = context.profile;
  const removed = (await context.profileStore()).deleteKey(profile);
  const { out } = context;
  if (out.json) return out.writeJson({ profile, removed });
  await out.write(removed ? `Removed the key of profile "${profile}".\n` : `No key was stored for profile "${profile}".\n`);
};
