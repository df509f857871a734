/**
 * `content promote --from staging --to production`: staging's account, not the tree, made
 * production's, with production's values filled in, through push's change cycle.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMcp } from '../../../support/mcp.js';
import { ENVIRONMENTS, environmentAccounts, ONLY, type Setup, sentMessages, writes } from './environment-accounts.js';

const setUp = environmentAccounts();
const PROMOTE = ['content', 'promote', '--from', 'staging', '--to', 'production', ...ONLY];

/** The set-up, with the tree's placeholders pushed to staging: staging's account holds staging's values written out. */
async function stagingPushed(): Promise<Setup> {
  const setup = await setUp();
  const push = await setup.loopsctl(['content', 'push', setup.root, ...ONLY, '--env', 'staging', '--yes']);
  expect(push.code, push.stdout + push.stderr).toBe(0);
  setup.staging.requests.length = 0;
  return setup;
}

const PRODUCTION_LINK = '<Link href="https://app.example.com/reset?token={data.token}">https://app.example.com</Link>';

describe('content promote', () => {
  it("sends staging's records to production with production's values, and a second promote sends nothing", async () => {
    const { staging, production, root, loopsctl, reset } = await stagingPushed();
    const tree = readFileSync(join(reset, 'draft.lmx'), 'utf8');
    // Production holds a password reset this tree was never in step with: replaced only with --force.
    const held = await loopsctl([...PROMOTE, root, '--yes']);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(held.stdout).toMatch(/conflict\ttransactional\/password-reset--\S+\tthe account has a record of this name that these files were never pulled from/);
    expect(writes(production.requests)).toEqual([]);
    const promoted = await loopsctl([...PROMOTE, root, '--yes', '--force']);
    expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('password-reset');
    const sent = sentMessages(production.requests);
    expect(sent.some((message) => message.lmx?.includes(PRODUCTION_LINK) && message.lmx.includes('help@example.com'))).toBe(true);
    expect(sent.some((message) => message.subject === 'Reset your Acme Labs password')).toBe(true);
    const bodies = JSON.stringify(production.requests.map((request) => request.body));
    expect(bodies).not.toContain('{env.');
    expect(bodies).not.toContain('staging.example.com');
    // Staging was only read, and the tree's files are as they were.
    expect(writes(staging.requests)).toEqual([]);
    expect(readFileSync(join(reset, 'draft.lmx'), 'utf8')).toBe(tree);
    production.requests.length = 0;
    const again = await loopsctl([...PROMOTE, root, '--yes', '--json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(writes(production.requests)).toEqual([]);
    expect(again.json()).toEqual({ account: 'Acme Sandbox (production)', records: [], published: [] });
    // The same tree pushed to production finds it in step too: the state learned production's ids.
    const diff = await loopsctl(['content', 'diff', root, ...ONLY, '--env', 'production']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  });

  it('writes a plan that `loopsctl apply` sends, and `undo` puts production back', async () => {
    const { production, root, loopsctl } = await stagingPushed();
    const before = JSON.stringify(production.server.state());
    expect(before).not.toContain('app.example.com');
    const plan = join(root, '..', 'promote.json');
    const planned = await loopsctl([...PROMOTE, root, '--force', '--plan', '--out', plan]);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).toContain('https://app.example.com/reset');
    expect(writes(production.requests)).toEqual([]);
    const file = readFileSync(plan, 'utf8');
    expect(file).not.toContain('{env.');
    expect(file).toContain('https://app.example.com/reset');
    // The plan is reviewed as a push's is: production's emails, filled.
    const review = await loopsctl(['content', 'review', plan, '--profile', 'production', '--json']);
    expect(review.code, review.stdout + review.stderr).toBe(0);
    expect(review.stdout).toContain('https://app.example.com/reset');
    expect(review.stdout).not.toContain('staging.example.com');
    const applied = await loopsctl(['apply', plan]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(sentMessages(production.requests).some((message) => message.lmx?.includes(PRODUCTION_LINK))).toBe(true);
    const id = /`loopsctl undo (\S+)`/.exec(applied.stderr)?.[1];
    expect(id, applied.stderr).toBeDefined();
    // The plan and the journal name the promotion, not a push.
    expect(JSON.parse(file).command).toBe('content promote');
    const undone = await loopsctl(['undo', id!, '--yes']);
    expect(undone.code, undone.stdout + undone.stderr).toBe(0);
    expect(JSON.stringify(production.server.state())).not.toContain('app.example.com');
  });

  it('records an applied plan with a promote that finds it in step, so the next promotion needs no --force', async () => {
    const { staging, production, root, loopsctl, reset } = await stagingPushed();
    const plan = join(root, '..', 'promote.json');
    const planned = await loopsctl([...PROMOTE, root, '--force', '--plan', '--out', plan]);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect((await loopsctl(['apply', plan])).code).toBe(0);
    production.requests.length = 0;
    const recorded = await loopsctl([...PROMOTE, root, '--yes']);
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(writes(production.requests)).toEqual([]);
    // Staging moves on; production follows it without --force, nothing of its own having changed.
    writeFileSync(join(reset, 'draft.lmx'), readFileSync(join(reset, 'draft.lmx'), 'utf8').replace('Reset your password', 'Choose a new password'));
    expect((await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging'])).code).toBe(0);
    expect(writes(staging.requests).length).toBeGreaterThan(0);
    const followed = await loopsctl([...PROMOTE, root, '--yes']);
    expect(followed.code, followed.stdout + followed.stderr).toBe(0);
    expect(sentMessages(production.requests).some((message) => message.lmx?.includes('Choose a new password') && message.lmx.includes(PRODUCTION_LINK))).toBe(
      true,
    );
  });

  it('writes nothing under --dry-run, not even the state a promotion finding production in step records', async () => {
    const { production, root, loopsctl } = await stagingPushed();
    const plan = join(root, '..', 'promote.json');
    expect((await loopsctl([...PROMOTE, root, '--force', '--plan', '--out', plan])).code).toBe(0);
    expect((await loopsctl(['apply', plan])).code).toBe(0);
    production.requests.length = 0;
    const stateFile = join(root, 'loopsctl-state.json');
    const before = { text: readFileSync(stateFile, 'utf8'), stat: statSync(stateFile) };
    const dry = await loopsctl([...PROMOTE, root, '--dry-run']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(writes(production.requests)).toEqual([]);
    expect(readFileSync(stateFile, 'utf8')).toBe(before.text);
    expect(statSync(stateFile).ino).toBe(before.stat.ino);
    expect(statSync(stateFile).mtimeMs).toBe(before.stat.mtimeMs);
    // The same promotion without --dry-run records production's revisions: there was something to write.
    const recorded = await loopsctl([...PROMOTE, root, '--yes']);
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(readFileSync(stateFile, 'utf8')).not.toBe(before.text);
  });

  it('names what is left to do by hand in the account promoted to, with the commands that do it there', async () => {
    const { root, loopsctl } = await stagingPushed();
    const promoted = await loopsctl(['content', 'promote', '--from', 'staging', '--to', 'production', root, '--force', '--yes']);
    expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0);
    // The drafts are published in production, by id: `content push --publish` would push the tree, not staging's records.
    expect(promoted.stderr).toContain(
      'publish the transactional emails pushed as drafts (`loopsctl transactional publish <id> --profile production` for each, or in the app)',
    );
    expect(promoted.stderr).not.toContain('content push');
    // A push to an environment names its own --publish, with the environment: a whole tree of staging's, pushed to production.
    const whole = join(root, '..', 'whole');
    mkdirSync(whole);
    writeFileSync(join(whole, 'environments.json'), JSON.stringify(ENVIRONMENTS));
    expect((await loopsctl(['content', 'pull', whole, '--env', 'staging'])).code).toBe(0);
    const pushed = await loopsctl(['content', 'push', whole, '--env', 'production', '--force', '--yes']);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain('publish the transactional emails pushed as drafts (`loopsctl content push --env production --publish`, or in the app)');
  });

  it("refuses a staging value written out in staging's content, with nothing sent to production", async () => {
    const { production, root, loopsctl, reset } = await setUp();
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>See <Link href="https://docs.staging.example.com/help">help</Link> or {env.appUrl}.</Paragraph>\n');
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging', '--yes']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    production.requests.length = 0;
    const before = JSON.stringify(production.server.state());
    for (const args of [['--yes'], ['--plan', '--out', join(root, '..', 'promote.json')]]) {
      const promoted = await loopsctl([...PROMOTE, root, ...args]);
      expect(promoted.code).toBe(1);
      // Named as the record's file in the tree, where staging's content is pulled to be mended.
      expect(promoted.stdout).toContain(
        `${join(reset, 'draft.lmx')}:1:36 env-leak docs.staging.example.com is staging's host, written out in an email for production`,
      );
      expect(promoted.stderr).toContain('nothing was sent');
      expect(promoted.stderr).toContain("mend staging's content: `loopsctl content pull --env staging`");
    }
    expect(production.requests).toEqual([]);
    expect(JSON.stringify(production.server.state())).toBe(before);
  });

  it('refuses an environment environments.json lacks, the same one twice, and a promotion nobody confirmed', async () => {
    const { production, root, loopsctl } = await stagingPushed();
    const unknown = await loopsctl(['content', 'promote', root, '--from', 'staging', '--to', 'qa', '--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--to: unknown environment "qa"; environments.json names staging, production');
    const same = await loopsctl(['content', 'promote', root, '--from', 'staging', '--to', 'staging', '--yes']);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--from and --to are both "staging"');
    const unasked = await loopsctl([...PROMOTE, root]);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('--yes');
    expect(writes(production.requests)).toEqual([]);
  });

  it("is no tool of loopsctl mcp: it reads another account than the server's, and asks", async () => {
    const { staging, production, root, config } = await setUp();
    const mcp = await startMcp(['--profile', 'production', '--allow-destructive', '--root', join(root, '..')], { env: { LOOPSCTL_CONFIG_DIR: config } });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('content_promote');
      expect(tools.map((tool) => tool.name)).toContain('content_push');
      const answer = (await mcp.client.callTool({
        name: 'run_command',
        arguments: { command: 'content promote', arguments: { dir: 'loops', from: 'staging', to: 'production', plan: true } },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toContain('no command is named "content promote"');
    } finally {
      await mcp.close();
    }
    expect(staging.requests).toEqual([]);
    expect(writes(production.requests)).toEqual([]);
  });
});
