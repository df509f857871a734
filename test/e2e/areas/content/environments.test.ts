/**
 * One tree, two accounts: two sandbox servers stand for staging and production, each a profile
 * logged in with --base-url, both teams "Acme Sandbox" (production's renamed where a test says
 * so). environments.json gives each its values; loopsctl fills {env.NAME} for the environment a
 * command is for, and refuses to send one environment's values to another.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, startRun } from '../../../support/main.js';
import { startMcp } from '../../../support/mcp.js';

type Answer = { isError?: boolean; content: { type: string; text: string }[] };

import { ENVIRONMENTS, environmentAccounts, ONLY, sentMessages, writes } from './environment-accounts.js';

const setUp = environmentAccounts();

describe('environments', () => {
  it('fills each environment its own values, in the LMX and the fields, and sends no placeholder', async () => {
    const { staging, root, loopsctl, reset } = await setUp();
    const check = await loopsctl(['content', 'check', root]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const sent = sentMessages(staging.requests);
    expect(sent.length).toBeGreaterThan(0);
    expect(JSON.stringify(staging.requests.map((request) => request.body))).not.toContain('{env.');
    expect(
      sent.some((message) => message.lmx?.includes('<Link href="https://staging.example.com/reset?token={data.token}">https://staging.example.com</Link>')),
    ).toBe(true);
    expect(sent.some((message) => message.lmx?.includes('help+staging@example.com'))).toBe(true);
    expect(sent.some((message) => message.subject === 'Reset your Acme Labs (staging) password')).toBe(true);
    // The files keep their placeholders; a diff for the same environment finds nothing.
    expect(readFileSync(join(reset, 'draft.lmx'), 'utf8')).toContain('<Link href="{env.appUrl}/reset?token={data.token}">');
    expect(readFileSync(join(reset, 'draft.json'), 'utf8')).toContain('"subject": "Reset your {env.brand} password"');
    const diff = await loopsctl(['content', 'diff', root, ...ONLY, '--env', 'staging']);
    expect(diff.code, diff.stdout + diff.stderr).toBe(0);
  });

  it('refuses a production push that carries a staging host, with nothing sent to production', async () => {
    const { production, root, loopsctl, reset } = await setUp();
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>See <Link href="https://docs.staging.example.com/help">help</Link> or {env.appUrl}.</Paragraph>\n');
    const before = JSON.stringify(production.server.state());
    for (const args of [
      ['content', 'push', root, ...ONLY, '--env', 'production', '--yes'],
      ['content', 'push', root, ...ONLY, '--env', 'production', '--plan', '--out', join(root, '..', 'change.json')],
    ]) {
      const push = await loopsctl(args);
      expect(push.code).toBe(1);
      expect(push.stdout).toMatch(/draft\.lmx:1:36 env-leak docs\.staging\.example\.com is staging's host, written out in an email for production/);
      expect(push.stderr).toContain("1 problem with production's values in 1 file; nothing was sent");
    }
    expect(production.requests).toEqual([]);
    expect(JSON.stringify(production.server.state())).toBe(before);
    const json = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'production', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr).error.message).toBe("1 problem with production's values in 1 file; nothing was sent");
    expect(json.json()).toEqual([
      {
        file: join(reset, 'draft.lmx'),
        kind: null,
        errors: [expect.objectContaining({ line: 1, column: 36, rule: 'env-leak' })],
        warnings: [],
      },
    ]);
    // content check names it for production, and for staging finds nothing wrong.
    const check = await loopsctl(['content', 'check', root, '--env', 'production']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('Checked 11 files: 1 error,');
    expect(check.stdout).toContain('env-leak');
    expect((await loopsctl(['content', 'check', root, '--env', 'staging'])).code).toBe(0);
  });

  it('refuses an environment that names another profile, one it does not know, and a run in none of them', async () => {
    const { root, loopsctl } = await setUp();
    const clash = await loopsctl(['content', 'diff', root, '--env', 'production', '--profile', 'staging']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--env production runs with profile "production", not --profile staging');
    const unknown = await loopsctl(['content', 'push', root, '--env', 'qa', '--plan']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--env: unknown environment "qa"; environments.json names staging, production');
    const none = await run(['content', 'diff', root], { env: { LOOPS_API_KEY: 'sandbox-key', LOOPS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('has environments (staging, production), and the run uses no stored profile: say which with --env');
    // The profile in use picks its environment.
    const taken = await loopsctl(['content', 'diff', root, ...ONLY, '--profile', 'staging', '--json']);
    expect(taken.code, taken.stderr).toBe(1);
    expect(taken.stderr).toBe('');
    expect(JSON.stringify(taken.json())).toContain('https://staging.example.com/reset');
  });

  it('applies the values a plan was written with, whatever environments.json says since', async () => {
    const { staging, root, loopsctl } = await setUp();
    const plan = join(root, '..', 'change.json');
    const planned = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(readFileSync(plan, 'utf8')).not.toContain('{env.');
    expect(readFileSync(plan, 'utf8')).toContain('https://staging.example.com/reset');
    const edited = structuredClone(ENVIRONMENTS);
    edited.environments.staging.values.appUrl = 'https://elsewhere.example.com';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(edited));
    staging.requests.length = 0;
    const applied = await loopsctl(['apply', plan]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const sent = JSON.stringify(writes(staging.requests).map((request) => request.body));
    expect(sent).toContain('https://staging.example.com/reset');
    expect(sent).not.toContain('elsewhere.example.com');
  });

  it('escapes a value with markup: it can add no element or attribute to the email', async () => {
    const { staging, root, loopsctl } = await setUp();
    const hostile = structuredClone(ENVIRONMENTS);
    hostile.environments.staging.values.support = '"><Image src="https://evil.example/x.png" /><Paragraph a=\'';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(hostile));
    const rendered = await loopsctl([
      'content',
      'render',
      join(root, 'transactional', readdirSync(join(root, 'transactional')).find((name) => name.startsWith('password-reset--'))!, 'draft.lmx'),
      '--env',
      'staging',
      '--json',
    ]);
    expect(rendered.code, rendered.stderr).toBe(0);
    const { html, errors } = rendered.json();
    expect(errors).toEqual([]);
    expect(html).not.toContain('evil.example/x.png"');
    expect(html).toContain('&lt;Image src=');
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const lmx = sentMessages(staging.requests).find((message) => message.lmx?.includes('write to'))!.lmx!;
    expect(lmx).toContain('write to &quot;&gt;&lt;Image src=&quot;https://evil.example/x.png&quot; /&gt;&lt;Paragraph a=&apos;.');
  });

  it("keeps each environment's ids apart in the state, though both teams have one name and one seed", async () => {
    const { staging, production, root, loopsctl } = await setUp();
    // Production's password reset was never pulled here: --force takes the files' side.
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'production', '--force', '--json']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    // Production was written to, and only with production's values.
    expect(sentMessages(production.requests).some((message) => message.lmx?.includes('https://app.example.com/reset'))).toBe(true);
    expect(writes(staging.requests)).toEqual([]);
    const state = JSON.parse(readFileSync(join(root, 'loopsctl-state.json'), 'utf8'));
    expect(state.where).toEqual({
      'Acme Sandbox': { team: 'Acme Sandbox', baseUrl: staging.server.url, profiles: ['staging'] },
      'Acme Sandbox (production)': { team: 'Acme Sandbox', baseUrl: production.server.url, profiles: ['production'], environment: 'production' },
    });
    // Each environment is in step with its own account: nothing to send to either, nothing differs.
    for (const environment of ['staging', 'production']) {
      const diff = await loopsctl(['content', 'diff', root, ...ONLY, '--env', environment, '--json']);
      expect(
        diff.json().records.map((record: { path: string; standing: string }) => `${record.path} ${record.standing}`),
        environment,
      ).toEqual(environment === 'staging' ? [expect.stringMatching(/^transactional\/password-reset--\S+ local$/)] : []);
    }
    production.requests.length = 0;
    const again = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'production']);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(production.requests)).toEqual([]);
    expect(JSON.parse(readFileSync(join(root, 'loopsctl-state.json'), 'utf8')).where['Acme Sandbox'].environment).toBeUndefined();
    const toStaging = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging']);
    expect(toStaging.code, toStaging.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(root, 'loopsctl-state.json'), 'utf8')).where['Acme Sandbox'].environment).toBe('staging');
  });

  it('checks every environment offline: a name none defines, one an environment lacks, a {env. left, with file, line and column', async () => {
    const { root, loopsctl, reset } = await setUp();
    const partial = structuredClone(ENVIRONMENTS) as { environments: Record<string, { values: Record<string, string> }> };
    partial.environments.staging!.values.docs = 'https://staging.example.com/docs';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(partial));
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>See {env.docs}, {env.nope} or {env.app url}.</Paragraph>\n');
    const check = await run(['content', 'check', root], {});
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('Checked 11 files: 3 errors,');
    const file = join(reset, 'draft.lmx');
    expect(check.stdout).toContain(`${file}:1:16 env-missing {env.docs} has no value in production`);
    expect(check.stdout).toContain(`${file}:1:28 env-unknown {env.nope}: no environment defines nope (staging, production)`);
    expect(check.stdout).toContain(`${file}:1:42 env-syntax {env. opens no placeholder: it would be sent as written`);
    // The LMX itself is checked filled: no variable-syntax for the placeholders.
    expect(check.stdout).not.toContain('variable-syntax');
    const json = await loopsctl(['content', 'check', root, '--json']);
    expect(
      json
        .json()
        .find((record: { file: string }) => record.file === file)
        .errors.map((problem: { rule: string }) => problem.rule),
    ).toEqual(['env-missing', 'env-unknown', 'env-syntax']);
    // For staging alone, docs has its value.
    const forStaging = await loopsctl(['content', 'check', root, '--env', 'staging', '--json']);
    expect(
      forStaging
        .json()
        .find((record: { file: string }) => record.file === file)
        .errors.map((problem: { rule: string }) => problem.rule),
    ).toEqual(['env-unknown', 'env-syntax']);
  });

  it("checks the LMX filled with each environment's values: a value that breaks its place in one environment only", async () => {
    const { root, loopsctl, reset } = await setUp();
    const broken = structuredClone(ENVIRONMENTS) as { environments: Record<string, { values: Record<string, string> }> };
    // Production's address has a scheme no email follows: a link refused in production's emails alone.
    broken.environments.production!.values.appUrl = 'ftp://app.example.com';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(broken));
    const file = join(reset, 'draft.lmx');
    const rulesOf = async (args: string[]) =>
      (await loopsctl(['content', 'check', ...args, '--json'])).json().find((record: { file: string }) => record.file === file)?.errors ?? [];
    const every = await loopsctl(['content', 'check', root]);
    expect(every.code).toBe(1);
    expect(every.stdout).toMatch(new RegExp(`${file}:2:23 attribute-value .*\\(in production\\)`));
    expect(every.stdout).toMatch(new RegExp(`${file}:3:9 attribute-value .*\\(in production\\)`));
    expect((await rulesOf([root])).map((problem: { rule: string }) => problem.rule)).toEqual(['attribute-value', 'attribute-value']);
    expect((await rulesOf([root, '--env', 'production'])).map((problem: { message: string }) => problem.message)).not.toContainEqual(
      expect.stringContaining('(in '),
    );
    expect(await rulesOf([root, '--env', 'staging'])).toEqual([]);
    // A file named alone is checked for each environment too.
    const alone = await loopsctl(['content', 'check', file]);
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('(in production)');
    expect((await loopsctl(['content', 'check', file, '--env', 'staging'])).code).toBe(0);
  });

  it("checks a record, a workflow or a file named inside the tree against the tree's environments, and only what was named", async () => {
    const { staging, production, root, loopsctl, reset } = await setUp();
    expect((await loopsctl(['content', 'pull', root, '--only', 'workflows', '--env', 'staging'])).code).toBe(0);
    const workflow = join(root, 'workflows', readdirSync(join(root, 'workflows'))[0]!);
    const email = join(workflow, 'emails', readdirSync(join(workflow, 'emails'))[0]!, 'email.lmx');
    writeFileSync(email, '<Paragraph>Start at {env.appUrl}/start or {env.nope}.</Paragraph>\n');
    const file = join(reset, 'draft.lmx');
    writeFileSync(file, '<Paragraph>{env.appUrl} or https://docs.staging.example.com/help, {env.gone}.</Paragraph>\n');
    const rulesOf = async (args: string[]) => {
      const result = await loopsctl(['content', 'check', ...args, '--json']);
      return result
        .json()
        .filter((record: { errors: unknown[] }) => record.errors.length > 0)
        .map((record: { file: string; errors: { rule: string; line: number; column: number }[] }) => [
          relative(root, record.file),
          record.errors.map((problem) => `${problem.line}:${problem.column} ${problem.rule}`),
        ]);
    };
    const draft = relative(root, file);
    const welcome = relative(root, email);
    for (const named of [reset, join(root, 'transactional'), file]) {
      const every = await loopsctl(['content', 'check', named]);
      expect(every.code, named).toBe(1);
      expect(every.stdout).toContain(`${file}:1:67 env-unknown {env.gone}: no environment defines gone (staging, production)`);
      expect(every.stdout).not.toContain('variable-syntax');
      expect(every.stdout).not.toContain(email);
      expect(await rulesOf([named])).toEqual([[draft, ['1:67 env-unknown']]]);
      expect(await rulesOf([named, '--env', 'production'])).toEqual([[draft, ['1:36 env-leak', '1:67 env-unknown']]]);
      expect(await rulesOf([named, '--env', 'staging'])).toEqual([[draft, ['1:67 env-unknown']]]);
    }
    for (const named of [workflow, join(workflow, 'workflow.yaml'), email]) {
      const every = await loopsctl(['content', 'check', named]);
      expect(every.code, named).toBe(1);
      expect(every.stdout).toContain(`${email}:1:43 env-unknown {env.nope}: no environment defines nope (staging, production)`);
      expect(every.stdout).not.toContain('variable-syntax');
      expect(every.stdout).not.toContain(file);
      expect(await rulesOf([named, '--env', 'production'])).toEqual([[welcome, ['1:43 env-unknown']]]);
    }
    // --account reads the names of --env's account, found from the record as from the tree.
    staging.requests.length = 0;
    const account = await loopsctl(['content', 'check', reset, '--account', '--env', 'production']);
    expect(account.code, account.stderr).toBe(1);
    expect(account.stdout).toContain('env-leak');
    expect(production.requests.length).toBeGreaterThan(0);
    expect(staging.requests).toEqual([]);
    const unknown = await loopsctl(['content', 'check', reset, '--env', 'qa']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--env: unknown environment "qa"; environments.json names staging, production');
  });

  it('stops at an environments.json that is not JSON, naming it and where it breaks', async () => {
    const { root, loopsctl } = await setUp();
    writeFileSync(join(root, 'environments.json'), '{\n  "environments": {\n    "staging": { "profile": "staging" },\n  }\n}\n');
    for (const args of [
      ['content', 'check', root],
      ['content', 'push', root, '--env', 'staging', '--plan'],
      ['content', 'diff', root],
    ]) {
      const result = await loopsctl(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${join(root, 'environments.json')}:4:3: not valid JSON`);
    }
  });

  it("pulls each account's values back to their placeholders: two trees the same, a value two names share listed", async () => {
    const { root, loopsctl, reset } = await setUp();
    expect((await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging'])).code).toBe(0);
    const forced = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'production', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const trees: Record<string, string> = {};
    for (const environment of ['staging', 'production']) {
      const tree = join(root, '..', environment);
      mkdirSync(tree);
      writeFileSync(join(tree, 'environments.json'), JSON.stringify(ENVIRONMENTS));
      const pull = await loopsctl(['content', 'pull', tree, ...ONLY, '--env', environment]);
      expect(pull.code, pull.stderr).toBe(0);
      trees[environment] = tree;
    }
    const draft = (tree: string, file: string) => readFileSync(join(tree, 'transactional', basename(reset), file), 'utf8');
    for (const file of ['draft.lmx', 'draft.json']) {
      expect(draft(trees.production!, file)).toBe(draft(trees.staging!, file));
      expect(draft(trees.production!, file)).toBe(readFileSync(join(reset, file), 'utf8'));
    }
    expect(draft(trees.production!, 'draft.lmx')).toContain('<Link href="{env.appUrl}/reset?token={data.token}">{env.appUrl}</Link>');
    // Each diffs clean against its own account.
    const diff = await loopsctl(['content', 'diff', trees.production!, ...ONLY, '--env', 'production']);
    expect(diff.code, diff.stdout).toBe(0);

    // A value two names share could be either: it is left as the account holds it, and said.
    const shared = structuredClone(ENVIRONMENTS) as { environments: Record<string, { values: Record<string, string> }> };
    shared.environments.production!.values.home = 'https://app.example.com';
    writeFileSync(join(trees.production!, 'environments.json'), JSON.stringify(shared));
    rmSync(join(trees.production!, 'transactional', basename(reset)), { recursive: true });
    const again = await loopsctl(['content', 'pull', trees.production!, ...ONLY, '--env', 'production']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('"https://app.example.com" is the value of {env.appUrl} and {env.home} in production: left as written.');
    rmSync(join(trees.production!, 'transactional', basename(reset)), { recursive: true });
    const json = await loopsctl(['content', 'pull', trees.production!, ...ONLY, '--env', 'production', '--json']);
    expect(json.json().shared).toEqual([{ value: 'https://app.example.com', names: ['appUrl', 'home'] }]);
    expect(draft(trees.production!, 'draft.lmx')).toContain(
      '<Link href="https://app.example.com/reset?token={data.token}">https://app.example.com</Link>, or write to {env.support}.',
    );
  });

  it("gives an environment's ids from its own account, keyed as in every environment", async () => {
    const { staging, production, root, loopsctl } = await setUp();
    const env = await loopsctl(['types', '--env', 'production', '--format', 'env', '--tree', root]);
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toMatch(/^LOOPS_TX_PASSWORD_RESET='\w+'$/m);
    expect(production.requests.length).toBeGreaterThan(0);
    expect(staging.requests).toEqual([]);
    const clash = await loopsctl(['types', '--env', 'production', '--profile', 'staging', '--tree', root, '--format', 'json']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('Error: --env production runs with profile "production", not --profile staging');
  });

  it("takes an environment in a tool call of loopsctl mcp only when it is the server's account", async () => {
    const { staging, root, config } = await setUp();
    const mcp = await startMcp(['--profile', 'staging', '--root', join(root, '..')], { env: { LOOPSCTL_CONFIG_DIR: config } });
    try {
      const refused = (await mcp.client.callTool({ name: 'content_diff', arguments: { dir: 'loops', env: 'production' } })) as Answer;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toContain('"env" production runs with profile "production", and this server runs with profile "staging"');
      const taken = (await mcp.client.callTool({ name: 'content_diff', arguments: { dir: 'loops', env: 'staging', only: 'transactional' } })) as Answer;
      expect(JSON.stringify(taken)).toContain('https://staging.example.com/reset');
      expect(staging.requests.length).toBeGreaterThan(0);
    } finally {
      await mcp.close();
    }
  });

  it("pushes from a tool call of loopsctl mcp the filled request, to the server's account alone, asking with it filled", async () => {
    const { staging, production, root, config } = await setUp();
    const push = { dir: 'loops', env: 'production', only: 'transactional', force: true };
    // A push that needs a person's yes (--live): the question names production's account and shows the emails filled.
    const asked: string[] = [];
    const asking = await startMcp(['--profile', 'production', '--allow-destructive', '--root', join(root, '..')], {
      env: { LOOPSCTL_CONFIG_DIR: config },
      person: (request) => {
        asked.push(request.message);
        return { action: 'decline' };
      },
    });
    try {
      const declined = (await asking.client.callTool({ name: 'content_push', arguments: { ...push, live: true } })) as Answer;
      expect(declined.isError).toBe(true);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain('asks to change team "Acme Sandbox" (profile production):\n  loopsctl content push loops --env production');
      expect(asked[0]).toContain('changed transactional "Password reset": body, subject, variables');
      const page = readFileSync(/See them before and after in (\S+)\.\n/.exec(asked[0]!)![1]!, 'utf8');
      expect(page).toContain('https://app.example.com/reset');
      expect(page).toContain('Reset your Acme Labs password');
      expect(page).not.toContain('{env.');
      expect(page).not.toContain('staging.example.com');
      expect(page).not.toContain('Acme Labs (staging)');
    } finally {
      await asking.close();
    }
    expect(writes(production.requests)).toEqual([]);
    const mcp = await startMcp(['--profile', 'production', '--allow-writes', '--root', join(root, '..')], { env: { LOOPSCTL_CONFIG_DIR: config } });
    try {
      const refused = (await mcp.client.callTool({ name: 'content_push', arguments: { ...push, env: 'staging' } })) as Answer;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toContain('"env" staging runs with profile "staging", and this server runs with profile "production"');
      const pushed = (await mcp.client.callTool({ name: 'content_push', arguments: push })) as Answer;
      expect(pushed.isError, JSON.stringify(pushed)).toBeFalsy();
      const sent = sentMessages(production.requests);
      expect(sent.some((message) => message.lmx?.includes('https://app.example.com/reset') && message.subject === 'Reset your Acme Labs password')).toBe(true);
      expect(JSON.stringify(production.requests.map((request) => request.body))).not.toContain('{env.');
      expect(writes(staging.requests)).toEqual([]);
    } finally {
      await mcp.close();
    }
  });

  it("draws each email with an environment's values: render's text and preview's page", async () => {
    const { root, config, reset } = await setUp();
    const env = { LOOPSCTL_CONFIG_DIR: config };
    const file = join(reset, 'draft.lmx');
    const rendered = await run(['content', 'render', file, '--env', 'production'], { env });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain('href="https://app.example.com/reset?token=');
    expect(rendered.stdout).toContain('<title>Reset your Acme Labs password</title>');
    expect(rendered.stdout).not.toContain('{env.');
    // The profile in use picks the environment; a loose file from stdin has none.
    const byProfile = await run(['content', 'render', file, '--profile', 'staging'], { env });
    expect(byProfile.stdout).toContain('href="https://staging.example.com/reset?token=');
    const piped = await run(['content', 'render', '-', '--kind', 'transactional'], {
      env: { ...env, LOOPS_API_KEY: 'k' },
      input: '<Paragraph>{env.appUrl}</Paragraph>',
    });
    expect(piped.code, piped.stderr).toBe(0);
    // A loose file beside an environments.json takes it only when --env names one.
    const loose = join(root, '..', 'loose');
    mkdirSync(loose);
    writeFileSync(join(loose, 'environments.json'), JSON.stringify(ENVIRONMENTS));
    writeFileSync(join(loose, 'note.lmx'), '<Paragraph>{env.appUrl}</Paragraph>\n');
    const alone = await run(['content', 'render', join(loose, 'note.lmx'), '--kind', 'transactional'], { env: { ...env, LOOPS_API_KEY: 'k' } });
    expect(alone.code, alone.stderr).toBe(0);
    const named = await run(['content', 'render', join(loose, 'note.lmx'), '--kind', 'transactional', '--env', 'staging'], { env });
    expect(named.stdout).toContain('https://staging.example.com');
    const preview = startRun(['content', 'preview', root, '--port', '0', '--env', 'production'], { env });
    try {
      const [, url] = await preview.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
      const page = await fetch(`${url}email.html?path=${encodeURIComponent(relative(root, file))}`);
      const html = await page.text();
      expect(page.status, html).toBe(200);
      expect(html).toContain('https://app.example.com/reset?token=');
      expect(html).not.toContain('{env.');
    } finally {
      await preview.stop();
    }
  });

  it('reviews the emails as an environment sends them', async () => {
    const { root, loopsctl, reset } = await setUp();
    const review = await loopsctl(['content', 'review', root, '--against', 'account', '--env', 'production', '--json']);
    expect(review.code, review.stderr).toBe(0);
    const text = JSON.stringify(review.json());
    expect(text).toContain('https://app.example.com/reset');
    expect(text).not.toContain('{env.');
    const words = await loopsctl(['content', 'review', root, '--against', 'account', '--env', 'staging']);
    expect(words.code, words.stderr).toBe(0);
    expect(words.stderr + words.stdout).toContain('the working tree for staging');
    // Against the git history: both sides filled for the environment.
    const git = (...args: string[]) =>
      expect(spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root }).status).toBe(
        0,
      );
    git('init', '--quiet', '--template=', '--initial-branch=main');
    git('add', '.');
    git('commit', '--quiet', '-m', 'tree');
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Go to {env.appUrl}/account now.</Paragraph>\n');
    const byGit = await loopsctl(['content', 'review', root, '--base', 'main', '--env', 'production', '--json']);
    expect(byGit.code, byGit.stderr).toBe(0);
    expect(JSON.stringify(byGit.json())).toContain('https://app.example.com/account');
    expect(JSON.stringify(byGit.json())).not.toContain('{env.');
    // It reads no account: a pull request's job without any environment's key reviews each one.
    const keyless = await run(['content', 'review', root, '--base', 'main', '--env', 'production', '--json'], {});
    expect(keyless.code, keyless.stderr).toBe(0);
    expect(keyless.stdout).toBe(byGit.stdout);
  });

  it("sends previews of the emails as an environment's account holds them, filled with its values", async () => {
    const { staging, production, root, loopsctl, reset, config } = await setUp();
    const git = (...args: string[]) =>
      expect(spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root }).status).toBe(
        0,
      );
    git('init', '--quiet', '--template=', '--initial-branch=main');
    git('add', '.');
    git('commit', '--quiet', '-m', 'tree');
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Go to <Link href="{env.appUrl}/account">{env.support}</Link> now.</Paragraph>\n');
    expect((await loopsctl(['content', 'push', root, ...ONLY, '--env', 'production', '--force', '--yes'])).code).toBe(0);
    production.requests.length = 0;
    const env = { LOOPSCTL_CONFIG_DIR: config, XDG_CACHE_HOME: join(root, '..', 'cache') };
    const sendTo = (...args: string[]) =>
      run(['content', 'review', root, '--base', 'main', '--send-previews', 'ada@example.com', '--yes', '--json', ...args], { env });
    const review = await sendTo('--env', 'production');
    expect(review.code, review.stderr).toBe(0);
    const { previews } = review.json() as { previews: { sent: { path: string; emailMessageId: string }[] } };
    expect(previews.sent.map((email) => email.path)).toEqual([relative(root, reset)]);
    const sent = production.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview'));
    expect(sent.map((request) => request.path)).toEqual([`/v1/email-messages/${previews.sent[0]!.emailMessageId}/preview`]);
    // What the platform sends is the message the account holds: production's values, no placeholder.
    const message = JSON.stringify(production.server.state()).match(new RegExp(`"id":"${previews.sent[0]!.emailMessageId}"[^}]*`))?.[0] ?? '';
    expect(message).toContain('https://app.example.com/account');
    expect(message).toContain('help@example.com');
    expect(message).not.toContain('{env.');
    // Staging's account holds the email otherwise: for staging, nothing is sent, and it says why.
    const forStaging = await sendTo('--env', 'staging');
    expect(forStaging.code, forStaging.stderr).toBe(0);
    expect(JSON.stringify(forStaging.json())).toContain("the account's draft is not this change");
    expect(staging.requests.filter((request) => request.path.endsWith('/preview'))).toEqual([]);
    // Without --env, the run's profile says which environment: the same account, whose preview was sent already.
    const byProfile = await sendTo('--profile', 'production');
    expect(byProfile.code, byProfile.stderr).toBe(0);
    expect(JSON.stringify(byProfile.json())).toContain('a preview of this email as reviewed was sent to ada@example.com before');
  });

  it("fills a workflow's emails too, and keeps their placeholders in the files", async () => {
    const { staging, root, loopsctl } = await setUp();
    const pull = await loopsctl(['content', 'pull', root, '--only', 'workflows', '--env', 'staging']);
    expect(pull.code, pull.stderr).toBe(0);
    const workflow = readdirSync(join(root, 'workflows'))[0]!;
    const emails = join(root, 'workflows', workflow, 'emails');
    const email = join(emails, readdirSync(emails)[0]!, 'email.lmx');
    writeFileSync(email, '<Paragraph>Welcome: {env.appUrl}/start</Paragraph>\n');
    staging.requests.length = 0;
    const push = await loopsctl(['content', 'push', root, '--only', 'workflows', '--env', 'staging', '--live']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    const sent = JSON.stringify(writes(staging.requests).map((request) => request.body));
    expect(sent).toContain('Welcome: https://staging.example.com/start');
    expect(sent).not.toContain('{env.');
    expect(readFileSync(email, 'utf8')).toBe('<Paragraph>Welcome: {env.appUrl}/start</Paragraph>\n');
    const diff = await loopsctl(['content', 'diff', root, '--only', 'workflows', '--env', 'staging']);
    expect(diff.code, diff.stdout).toBe(0);
    // Checked filled with each environment's values: a link production's value breaks is named there alone.
    writeFileSync(email, '<Paragraph><Link href="{env.appUrl}/start">Start</Link></Paragraph>\n');
    const broken = structuredClone(ENVIRONMENTS) as { environments: Record<string, { values: Record<string, string> }> };
    broken.environments.production!.values.appUrl = 'ftp://app.example.com';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(broken));
    const check = await loopsctl(['content', 'check', join(root, 'workflows', workflow)]);
    expect(check.code, check.stdout + check.stderr).toBe(1);
    expect(check.stdout).toMatch(new RegExp(`${email}:1:18 attribute-value .*\\(in production\\)`));
    expect(check.stdout).not.toMatch(/attribute-value [^\n]*\(in staging/);
  });

  it('writes back what the account filled in with its placeholders kept', async () => {
    const { root, loopsctl, reset } = await setUp();
    // A field left out comes back from the account, which a push writes into the file.
    const { previewText: _left, ...fields } = JSON.parse(readFileSync(join(reset, 'draft.json'), 'utf8'));
    const written = `${JSON.stringify(fields, null, 2)}\n`;
    writeFileSync(join(reset, 'draft.json'), written);
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging']);
    expect(push.code, push.stdout + push.stderr).toBe(0);
    // It comes back with the account's field, its placeholder kept.
    expect(JSON.parse(readFileSync(join(reset, 'draft.json'), 'utf8'))).toEqual({ ...fields, previewText: _left });
    expect(readFileSync(join(reset, 'draft.json'), 'utf8')).toContain('"subject": "Reset your {env.brand} password"');
    const diff = await loopsctl(['content', 'diff', root, ...ONLY, '--env', 'staging']);
    expect(diff.code, diff.stdout).toBe(0);
  });

  it("refuses a placeholder in the audience's files, which a push sends as written", async () => {
    const { staging, root, loopsctl } = await setUp();
    expect((await loopsctl(['content', 'pull', root, '--only', 'audience', '--env', 'staging'])).code).toBe(0);
    const segment = join(root, 'segments', readdirSync(join(root, 'segments'))[0]!, 'segment.json');
    const fields = JSON.parse(readFileSync(segment, 'utf8'));
    writeFileSync(segment, `${JSON.stringify({ ...fields, name: 'Visited {env.appUrl}' }, null, 2)}\n`);
    const check = await loopsctl(['content', 'check', root]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('Checked 47 files: 1 error,');
    expect(check.stdout).toContain(`${segment}:2:20 env-unfilled {env. is not filled in this file: it would be sent as written`);
    staging.requests.length = 0;
    const push = await loopsctl(['content', 'push', root, '--only', 'audience', '--env', 'staging', '--yes']);
    expect(push.code).toBe(1);
    expect(push.stderr).toContain("Error: 1 problem with staging's values in 1 file; nothing was sent");
    expect(writes(staging.requests)).toEqual([]);
  });

  it("reads the names of --env's account for content check --account", async () => {
    const { staging, production, root, loopsctl } = await setUp();
    const check = await loopsctl(['content', 'check', root, '--account', '--env', 'production']);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(production.requests.length).toBeGreaterThan(0);
    expect(staging.requests).toEqual([]);
  });

  it('holds the account to the team an environment names, as --expect-team does', async () => {
    const { staging, root, loopsctl } = await setUp();
    const named = structuredClone(ENVIRONMENTS) as { environments: Record<string, { expectTeam?: string }> };
    named.environments.staging!.expectTeam = 'Acme Staging';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(named));
    const push = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging']);
    expect(push.code).toBe(11);
    expect(push.stderr).toContain(
      'the key belongs to team "Acme Sandbox", not "Acme Staging" (expected by environment "staging" of environments.json); nothing was sent',
    );
    expect(writes(staging.requests)).toEqual([]);
    // A plan too: its apply, which knows no environment, would send it to the key's team.
    const plan = join(root, '..', 'staging.json');
    const planned = await loopsctl(['content', 'push', root, ...ONLY, '--env', 'staging', '--plan', '--out', plan]);
    expect(planned.code).toBe(11);
    expect(planned.stderr).toContain('the key belongs to team "Acme Sandbox", not "Acme Staging" (expected by environment "staging" of environments.json)');
    expect(existsSync(plan)).toBe(false);
    const clash = await loopsctl(['content', 'diff', root, '--env', 'staging', '--expect-team', 'Acme Sandbox']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--env staging expects team "Acme Staging", not --expect-team Acme Sandbox');
  });

  it("works production under its own team's name, and refuses the other team's, in text and --json, with nothing sent", async () => {
    const { staging, production, root, loopsctl, reset } = await setUp({ productionTeam: 'Acme Production' });
    const named = structuredClone(ENVIRONMENTS) as { environments: Record<string, { expectTeam?: string }> };
    named.environments.production!.expectTeam = 'Acme Production';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(named));
    const ok = async (args: string[]) => {
      const result = await loopsctl(args);
      expect(result.code, `${args.join(' ')}\n${result.stdout}${result.stderr}`).toBe(0);
      return result;
    };
    // Production's password reset was never pulled here: the plan takes the files' side.
    const plan = join(root, '..', 'production.json');
    await ok(['content', 'push', root, ...ONLY, '--env', 'production', '--force', '--plan', '--out', plan]);
    expect(writes(production.requests)).toEqual([]);
    await ok(['apply', plan]);
    expect(sentMessages(production.requests).some((message) => message.lmx?.includes('https://app.example.com/reset'))).toBe(true);
    await ok(['content', 'push', root, ...ONLY, '--env', 'staging', '--yes']);
    const tree = readFileSync(join(reset, 'draft.lmx'), 'utf8');
    for (const json of [[], ['--json']]) {
      production.requests.length = 0;
      for (const args of [
        ['content', 'push', root, ...ONLY, '--env', 'production'],
        ['content', 'push', root, ...ONLY, '--env', 'production', '--plan'],
        ['content', 'diff', root, ...ONLY, '--env', 'production'],
        ['content', 'pull', root, ...ONLY, '--env', 'production'],
        ['content', 'promote', '--from', 'staging', '--to', 'production', root, ...ONLY, '--yes'],
        ['types', '--env', 'production', '--tree', root, '--format', 'env'],
      ])
        await ok([...args, ...json]);
      // In step everywhere: nothing written to production, the tree as it was.
      expect(writes(production.requests)).toEqual([]);
      expect(production.requests.length).toBeGreaterThan(0);
      expect(readFileSync(join(reset, 'draft.lmx'), 'utf8')).toBe(tree);
    }
    // The state keys production's account by its own team's name.
    expect(JSON.parse(readFileSync(join(root, 'loopsctl-state.json'), 'utf8')).where['Acme Production']).toEqual({
      team: 'Acme Production',
      baseUrl: production.server.url,
      profiles: ['production'],
      environment: 'production',
    });
    const diff = await ok(['content', 'diff', root, ...ONLY, '--env', 'production', '--json']);
    expect(diff.json().account).toBe('Acme Production');

    // The team staging is named, expected of production: every command stops before it sends.
    named.environments.production!.expectTeam = 'Acme Sandbox';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(named));
    writeFileSync(join(reset, 'draft.lmx'), '<Paragraph>Changed: {env.appUrl}</Paragraph>\n');
    // Staging changed too, so a promotion has something to send.
    await ok(['content', 'push', root, ...ONLY, '--env', 'staging', '--yes']);
    const before = JSON.stringify(production.server.state());
    production.requests.length = 0;
    staging.requests.length = 0;
    for (const json of [[], ['--json']])
      for (const args of [
        ['content', 'push', root, ...ONLY, '--env', 'production', '--yes'],
        ['content', 'push', root, ...ONLY, '--env', 'production', '--plan', '--out', join(root, '..', 'refused.json')],
        ['content', 'promote', '--from', 'staging', '--to', 'production', root, ...ONLY, '--yes'],
        ['content', 'promote', '--from', 'staging', '--to', 'production', root, ...ONLY, '--plan', '--out', join(root, '..', 'refused.json')],
      ]) {
        const refused = await loopsctl([...args, ...json]);
        expect(refused.code, `${args.join(' ')}\n${refused.stdout}${refused.stderr}`).toBe(11);
        const message = 'the key belongs to team "Acme Production", not "Acme Sandbox" (expected by environment "production" of environments.json)';
        if (json.length === 0) expect(refused.stderr).toContain(message);
        else expect(JSON.parse(refused.stderr).error.message).toContain(message);
      }
    expect(writes(production.requests)).toEqual([]);
    expect(writes(staging.requests)).toEqual([]);
    expect(JSON.stringify(production.server.state())).toBe(before);
    expect(existsSync(join(root, '..', 'refused.json'))).toBe(false);
  });

  it('holds a tool call of loopsctl mcp to the team its environment names, nothing sent to another', async () => {
    const { production, root, config } = await setUp();
    const named = structuredClone(ENVIRONMENTS) as { environments: Record<string, { expectTeam?: string }> };
    named.environments.production!.expectTeam = 'Acme Production';
    writeFileSync(join(root, 'environments.json'), JSON.stringify(named));
    const mcp = await startMcp(['--profile', 'production', '--allow-writes', '--root', join(root, '..')], { env: { LOOPSCTL_CONFIG_DIR: config } });
    try {
      for (const env of [{ env: 'production' }, {}]) {
        const refused = (await mcp.client.callTool({
          name: 'content_push',
          arguments: { dir: 'loops', only: 'transactional', force: true, ...env },
        })) as Answer;
        expect(refused.isError).toBe(true);
        expect(refused.content[0]!.text).toContain(
          'the key belongs to team "Acme Sandbox", not "Acme Production" (expected by environment "production" of environments.json); nothing was sent',
        );
      }
      expect(writes(production.requests)).toEqual([]);
    } finally {
      await mcp.close();
    }
  });
});
