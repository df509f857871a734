/**
 * The two accounts of the environments tests: two sandbox servers stand for staging and production,
 * each a profile logged in with --base-url, both teams "Acme Sandbox" unless production's is
 * renamed, and a tree pulled from staging whose environments.json gives each its values.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

export const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');
export const ONLY = ['--only', 'transactional,components,themes'];

export const ENVIRONMENTS = {
  environments: {
    staging: {
      profile: 'staging',
      values: { appUrl: 'https://staging.example.com', support: 'help+staging@example.com', brand: 'Acme Labs (staging)' },
      hosts: ['*.staging.example.com'],
    },
    production: { profile: 'production', values: { appUrl: 'https://app.example.com', support: 'help@example.com', brand: 'Acme Labs' } },
  },
};

export interface Setup {
  staging: RecordingSandbox;
  production: RecordingSandbox;
  root: string;
  /** Runs loopsctl with the two profiles and no key of the environment's. */
  loopsctl(args: string[]): ReturnType<typeof run>;
  /** The password reset's draft directory. */
  reset: string;
  /** The config directory that holds the two profiles. */
  config: string;
}

/**
 * Two accounts, their profiles, and a tree pulled from staging with environments and placeholders
 * written into its password reset: each test's own, its servers closed and its directory removed after it.
 */
export function environmentAccounts(): (options?: { productionTeam?: string }) => Promise<Setup> {
  const directories: string[] = [];
  afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
  const sandboxes = sandboxEachTest();
  return setUp;

  async function setUp(options: { productionTeam?: string } = {}): Promise<Setup> {
    const staging = await sandboxes();
    const production = await sandboxes();
    // Before the login, which records the team each profile is.
    const { productionTeam } = options;
    if (productionTeam !== undefined)
      production.server.update((state) => {
        state.teamName = productionTeam;
      });
    const directory = tempDir('loopsctl-environments-');
    directories.push(directory);
    const config = join(directory, 'config');
    const loopsctl = (args: string[], input?: string) => run(args, { env: { LOOPSCTL_CONFIG_DIR: config }, input });
    for (const [profile, server] of [
      ['staging', staging],
      ['production', production],
    ] as const) {
      const login = await loopsctl(['auth', 'login', '--with-key-stdin', '--base-url', server.server.url, '--profile', profile], 'sandbox-key');
      expect(login.code, login.stderr).toBe(0);
    }
    const root = join(directory, 'loops');
    const pull = await loopsctl(['content', 'pull', root, ...ONLY, '--profile', 'staging']);
    expect(pull.code, pull.stderr).toBe(0);
    const reset = join(root, 'transactional', readdirSync(join(root, 'transactional')).find((name) => name.startsWith('password-reset--'))!);
    writeFileSync(join(root, 'environments.json'), JSON.stringify(ENVIRONMENTS, null, 2));
    writeFileSync(
      join(reset, 'draft.lmx'),
      '<H1>Reset your password</H1>\n<Paragraph>Open <Link href="{env.appUrl}/reset?token={data.token}">{env.appUrl}</Link>, or write to {env.support}.</Paragraph>\n<Button href="{env.appUrl}/reset?token={data.token}">Reset</Button>\n',
    );
    const fields = JSON.parse(readFileSync(join(reset, 'draft.json'), 'utf8'));
    writeFileSync(join(reset, 'draft.json'), `${JSON.stringify({ ...fields, subject: 'Reset your {env.brand} password' }, null, 2)}\n`);
    staging.requests.length = 0;
    production.requests.length = 0;
    return { staging, production, root, loopsctl: (args) => loopsctl(args), reset, config };
  }
}

/** The LMX and subject the requests sent for the password reset's draft. */
export function sentMessages(requests: Recorded[]): { lmx?: string; subject?: string }[] {
  return writes(requests)
    .filter((request) => request.path.includes('email-messages'))
    .map((request) => ({ lmx: request.body?.lmx, subject: request.body?.subject }));
}
