/** Every command against the built-in sandbox: `loopsctl --sandbox ...`, no key, no server to start. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../../../support/run-cli.js';
import { SEED_IDS, seedState } from '../../../support/sandbox.js';

const seed = seedState();
const sandbox = (args: string[], configDir = tempConfigDir()) => runCli(['--sandbox', ...args], { env: { LOOPSCTL_CONFIG_DIR: configDir } });

describe('loopsctl --sandbox', () => {
  it('lists themes as tab-separated rows when piped, every page of them', async () => {
    const { code, stdout, stderr } = await sandbox(['themes', 'list']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ID\tNAME\tDEFAULT\tBACKGROUND\tBODY\tTEXT\tBUTTON\tUPDATED');
    expect(lines).toHaveLength(seed.themes.length + 1);
    expect(lines.at(-1)).toMatch(/^c[a-z0-9]{24}\tDefault\tyes\t#f5f5f5\t/);
  });

  it('runs every read command', async () => {
    const [workflow, workflows, node, metrics, transactional, groups, group, campaignGroups, segments, ips, auth] = await Promise.all([
      sandbox(['workflow', 'show', SEED_IDS.trialWorkflow]),
      sandbox(['workflow', 'list', '--json']),
      sandbox(['workflow', 'show', SEED_IDS.experimentWorkflow, '--node', seed.workflows[2]!.nodes[1]!.id]),
      sandbox(['transactional', 'metrics', SEED_IDS.passwordReset, SEED_IDS.welcomeEmail]),
      sandbox(['transactional', 'list', '--limit', '2', '--json']),
      sandbox(['groups', 'list', '--per-page', '10']),
      sandbox(['groups', 'get', SEED_IDS.defaultTransactionalGroup, '--json']),
      sandbox(['campaign-groups', 'list']),
      sandbox(['segments', 'list']),
      sandbox(['ips', 'list', '--plain']),
      sandbox(['auth', 'status', '--json']),
    ]);
    for (const result of [workflow, workflows, node, metrics, transactional, groups, group, campaignGroups, segments, ips, auth]) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    expect(workflow.stdout).toContain('Trial conversion');
    expect(workflow.stdout).toMatch(/BranchNode[\s\S]*AudienceFilter[\s\S]*\(shown above\)/);
    expect(JSON.parse(workflows.stdout).map((item: { name: string }) => item.name)).toEqual(seed.workflows.map((item) => item.name).reverse());
    expect(node.stdout).toMatch(/experimentType\s+autosplit/);
    expect(node.stdout).toMatch(/samplingRate\s+50/);
    expect(metrics.stdout).toContain(`${SEED_IDS.passwordReset}\tPassword reset\t52907\t52518\t99.26%`);
    expect(JSON.parse(transactional.stdout)).toHaveLength(2);
    expect(groups.stdout.trimEnd().split('\n')).toHaveLength(seed.transactionalGroups.length + 1);
    expect(JSON.parse(group.stdout)).toMatchObject({ id: SEED_IDS.defaultTransactionalGroup, name: 'General' });
    expect(campaignGroups.stdout).toContain('Unsorted');
    expect(segments.stdout).toContain('plan equal trial and region equal EU');
    expect(ips.stdout).toBe(`${seed.sendingIps.join('\n')}\n`);
    expect(JSON.parse(auth.stdout)).toEqual({
      profile: null,
      source: 'sandbox',
      chosenBy: 'sandbox',
      storage: null,
      key: '…',
      teamName: 'Acme Sandbox',
      readOnly: false,
    });
  });

  it('keeps changes in the config dir from one command to the next', async () => {
    const configDir = tempConfigDir();
    const created = await sandbox(['transactional', 'create', '--name', 'Sandbox test', '--json'], configDir);
    expect(created.code).toBe(0);
    const record = JSON.parse(created.stdout);
    expect(record).toMatchObject({
      name: 'Sandbox test',
      publishedEmailMessageId: null,
      transactionalGroupId: SEED_IDS.defaultTransactionalGroup,
      dataVariables: [],
    });

    const listed = await sandbox(['transactional', 'list'], configDir);
    expect(listed.stdout.split('\n')[1]).toMatch(new RegExp(`^${record.id}\tSandbox test\t`));

    const drafted = await sandbox(['transactional', 'draft', SEED_IDS.welcomeEmail, '--json'], configDir);
    expect(JSON.parse(drafted.stdout).draftEmailMessageId).toEqual(expect.any(String));
    const again = await sandbox(['transactional', 'draft', SEED_IDS.welcomeEmail, '--json'], configDir);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(drafted.stdout));

    const renamed = await sandbox(['campaign-groups', 'update', SEED_IDS.newslettersCampaignGroup, '--name', 'Monthly news'], configDir);
    expect(renamed.code).toBe(0);
    expect((await sandbox(['campaign-groups', 'get', SEED_IDS.newslettersCampaignGroup, '--json'], configDir)).stdout).toContain('"Monthly news"');
  });

  it('reports the API refusals as loopsctl errors', async () => {
    const [unsorted, missing, badCursor] = await Promise.all([
      sandbox(['campaign-groups', 'update', SEED_IDS.unsortedCampaignGroup, '--description', 'mine']),
      sandbox(['workflow', 'show', 'cmissing', '--json']),
      sandbox(['themes', 'list', '--cursor', 'not-a-cursor']),
    ]);
    expect(unsorted.code).toBe(5);
    expect(unsorted.stderr).toContain('cannot be edited');
    expect(missing.code).toBe(4);
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { status: 404, exitCode: 4, message: 'workflow cmissing not found' } });
    expect(badCursor.code).toBe(5);
    expect(badCursor.stderr).toContain('invalid cursor');
  });

  it('cannot be combined with --base-url, nor used where no API is called', async () => {
    const withBaseUrl = await runCli(['--sandbox', '--base-url', 'http://127.0.0.1:9', 'themes', 'list']);
    expect(withBaseUrl.code).toBe(2);
    expect(withBaseUrl.stderr).toContain('--sandbox and --base-url cannot be combined');
    const login = await runCli(['--sandbox', 'auth', 'login', '--with-key-stdin'], { input: 'sandbox-key\n' });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('--sandbox cannot be used with `auth login`');
    const sign = await runCli(['--sandbox', 'webhooks', 'sign', '--secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'], { input: '{}' });
    expect(sign.code).toBe(2);
    expect(sign.stderr).toContain('--sandbox does not apply to `webhooks sign`');
  });

  it('refuses a state file it cannot read with exit 2 and the way out, and leaves the file as it is', async () => {
    const configDir = tempConfigDir();
    const stateFile = join(configDir, 'sandbox-state.json');
    for (const content of ['{"version": 2, "themes": [', JSON.stringify({ ...seed, version: 99 })]) {
      writeFileSync(stateFile, content);
      const { code, stdout, stderr } = await sandbox(['themes', 'list'], configDir);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`the sandbox state file ${stateFile} could not be read`);
      expect(stderr).toContain('loopsctl sandbox reset');
      expect(readFileSync(stateFile, 'utf8')).toBe(content);
    }
  });

  it('never touches stored keys: --sandbox auth logout and login are refused with the config file unchanged', async () => {
    const configDir = tempConfigDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    expect((await runCli(['auth', 'login', '--with-key-stdin', '--skip-verify'], { env, input: 'real-key-0123456789\n' })).code).toBe(0);
    const before = readFileSync(join(configDir, 'config.json'), 'utf8');
    const logout = await runCli(['--sandbox', 'auth', 'logout'], { env });
    expect(logout.code).toBe(2);
    expect(logout.stderr).toBe('Error: --sandbox does not apply to `auth logout`, which does not call the API\n');
    const login = await runCli(['--sandbox', 'auth', 'login', '--skip-verify', '--with-key-stdin'], { env, input: 'sandbox-key\n' });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('Error: --sandbox cannot be used with `auth login`: it would change stored keys\n');
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).toBe(before);
  });
});
