/** `loopsctl auth`: store, check and forget API keys, one per profile. */
import type { Command } from 'commander';
import { LoopsClient } from '../api/client.js';
import { AuthError, UsageError } from '../api/errors.js';
import { ProfileStore } from '../config/store.js';
import { renderRecord } from '../render/table.js';
import { createTransport, globalOptions, outputFor, resolveCredentials, selectedProfile } from './context.js';
import { examples } from './options.js';
import { promptHidden, readStdin } from './prompt.js';
import { sanitize } from '../render/sanitize.js';

/** Enough of a key to tell two apart, never enough to use: the first four characters. */
export function maskKey(key: string): string {
  return key.length >= 12 ? `${key.slice(0, 4)}…` : '…';
}

async function teamName(command: Command, apiKey: string): Promise<string> {
  return (await new LoopsClient(createTransport(command, apiKey)).testApiKey()).teamName;
}

export function register(group: Command): void {
  examples(
    group
      .command('login')
      .description('Store an API key for a profile, after checking it with the API')
      .option('--with-key-stdin', 'read the key from standard input instead of asking')
      .option('--skip-verify', 'store the key without checking it'),
    ['loopsctl auth login', 'printenv LOOPS_KEY | loopsctl auth login --with-key-stdin --profile staging'],
  ).action(async (options: { withKeyStdin?: boolean; skipVerify?: boolean }, self: Command) => {
    const profile = selectedProfile(globalOptions(self));
    const apiKey = (options.withKeyStdin ? await readStdin() : await promptHidden('Loops API key: ')).trim();
    if (apiKey === '') throw new UsageError('the key is empty');
    if (/\s/.test(apiKey)) throw new UsageError('the key contains whitespace');
    const team = options.skipVerify ? undefined : await teamName(self, apiKey);
    new ProfileStore().setKey(profile, apiKey);
    const out = outputFor(self);
    if (out.json) return out.writeJson({ profile, teamName: team ?? null, verified: team !== undefined });
    await out.write(team === undefined ? `Stored the key for profile "${profile}" without checking it.\n` : `Logged in to ${sanitize(team)} (profile "${profile}").\n`);
  });

  examples(group.command('status').description('Show which key is in use, where it comes from, and its team'), [
    'loopsctl auth status',
    'LOOPS_API_KEY=... loopsctl auth status --json',
  ]).action(async (_options: unknown, self: Command) => {
    const credentials = await resolveCredentials(globalOptions(self));
    const source = {
      environment: 'environment (LOOPS_API_KEY)',
      profile: `profile "${credentials.profile}"`,
      sandbox: 'the built-in sandbox (--sandbox)',
    }[credentials.source];
    let team: string;
    try {
      team = await teamName(self, credentials.apiKey);
    } catch (error) {
      if (error instanceof AuthError) {
        throw new AuthError(`${error.message} (key ${maskKey(credentials.apiKey)} from ${source})`, { code: error.code, status: error.status, hint: 'run `loopsctl auth login` to store a new key' });
      }
      throw error;
    }
    const status = { profile: credentials.profile ?? null, source: credentials.source, key: maskKey(credentials.apiKey), teamName: team };
    const out = outputFor(self);
    await out.present(status, (o) => renderRecord(o, { ...status, source, profile: status.profile ?? '-' }));
  });

  examples(group.command('logout').description("Forget a profile's stored key"), ['loopsctl auth logout', 'loopsctl auth logout --profile staging']).action(
    async (_options: unknown, self: Command) => {
      const profile = selectedProfile(globalOptions(self));
      const removed = new ProfileStore().deleteKey(profile);
      const out = outputFor(self);
      if (out.json) return out.writeJson({ profile, removed });
      await out.write(removed ? `Removed the key of profile "${profile}".\n` : `No key was stored for profile "${profile}".\n`);
    },
  );
}
