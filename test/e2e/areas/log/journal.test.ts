/**
 * The journal of changes through main() against a sandbox: each configuration write any command
 * makes is one line (who, the account, the call, the ids and the outcome), whatever the command;
 * reads, contacts and --dry-run are not; a journal that is a link refuses the write before it is
 * sent; lines stay whole under runs at the same time; the files rotate; `loopsctl log` filters.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type JournalEntry, journalFiles, ROTATE_BYTES } from '../../../../src/config/change-journal-files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { run, tempDir } from '../../../support/main.js';
import { startMcp } from '../../../support/mcp.js';
import { type RecordingSandbox, recordingSandbox } from '../../../support/recording.js';

const MIDNIGHT = seedId('theme/Midnight');
const KEY = 'sandbox-key';

const lines = (config: string): JournalEntry[] =>
  existsSync(journalFiles(config)[0]!)
    ? readFileSync(journalFiles(config)[0]!, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as JournalEntry)
    : [];

describe('the journal of changes', () => {
  let sandbox: RecordingSandbox;
  let config: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    sandbox = await recordingSandbox();
    config = tempDir();
    env = { LOOPSCTL_CONFIG_DIR: config, LOOPS_BASE_URL: sandbox.env.LOOPS_BASE_URL! };
    const login = await run(['auth', 'login', '--with-key-stdin', '--profile', 'prod'], { env, input: KEY });
    expect(login.code, login.stderr).toBe(0);
  });
  afterEach(() => sandbox.close());

  const writes = () => sandbox.requests.filter(({ method }) => method !== 'GET');

  it('keeps a write as one line: who, the profile and team, the command and its file, the call, the ids, the outcome; never the key', async () => {
    const styles = join(tempDir(), 'styles.json');
    writeFileSync(styles, '{"buttonBodyColor": "#0057ff"}');
    const result = await run(['--profile', 'prod', 'themes', 'update', MIDNIGHT, '--styles-file', styles, '--name', 'Night'], { env });
    expect(result.code, result.stderr).toBe(0);
    const [entry, ...more] = lines(config);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      profile: 'prod',
      team: expect.any(String),
      baseUrl: sandbox.env.LOOPS_BASE_URL,
      who: expect.any(String),
      via: 'terminal',
      command: 'themes update',
      files: [styles],
      method: 'POST',
      path: `/v1/themes/${MIDNIGHT}`,
      operation: 'updateTheme',
      kind: 'theme',
      ids: { themeId: MIDNIGHT, id: MIDNIGHT },
      name: 'Night',
      outcome: 'done',
      status: 200,
    });
    expect(Date.parse(entry!.at)).not.toBeNaN();
    expect(readFileSync(journalFiles(config)[0]!, 'utf8')).not.toContain(KEY);
    expect(readFileSync(journalFiles(config)[0]!, 'utf8')).not.toContain('0057ff');
  });

  it('keeps a workflow edit with the revision it was made against and the one it made', async () => {
    const created = await run(['--profile', 'prod', 'workflow', 'create', '--name', 'Onboarding', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const workflow = created.json<{ id: string; workflowRevisionId: string }>();
    const renamed = await run(['--profile', 'prod', 'workflow', 'update', workflow.id, '--name', 'Onboarding 2', '--json'], { env });
    expect(renamed.code, renamed.stderr).toBe(0);
    const last = lines(config).at(-1)!;
    expect(last).toMatchObject({ operation: 'updateWorkflowProperties', ids: { workflowId: workflow.id } });
    expect(last.revisions.expectedRevisionId).toBe(workflow.workflowRevisionId);
    expect(last.revisions.workflowRevisionId).toBe(renamed.json<{ workflowRevisionId: string }>().workflowRevisionId);
  });

  it('keeps no read, no contact, and nothing --dry-run held', async () => {
    expect((await run(['--profile', 'prod', 'themes', 'list'], { env })).code).toBe(0);
    const contact = await run(['--profile', 'prod', 'contacts', 'create', '--email', 'ana@example.com'], { env });
    expect(contact.code, contact.stderr).toBe(0);
    const dry = await run(['--profile', 'prod', 'themes', 'update', MIDNIGHT, '--name', 'Night', '--dry-run'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(join(config, 'journal'))).toBe(false);
  });

  it('keeps a refusal as refused, with the status', async () => {
    const result = await run(['--profile', 'prod', 'themes', 'update', 'cl00000000000000000000000', '--name', 'Night'], { env });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/not found/i);
    expect(lines(config)).toMatchObject([{ operation: 'updateTheme', outcome: 'refused', status: 404 }]);
  });

  it('refuses the write, sending nothing, when the journal is a symbolic link', async () => {
    const target = join(tempDir(), 'elsewhere.jsonl');
    writeFileSync(target, '');
    mkdirSync(join(config, 'journal'), { mode: 0o700 });
    symlinkSync(target, journalFiles(config)[0]!);
    const result = await run(['--profile', 'prod', 'themes', 'update', MIDNIGHT, '--name', 'Night'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/journal of changes cannot be kept in .*changes\.jsonl: it is a symbolic link; nothing was sent/);
    expect(writes()).toEqual([]);
    expect(readFileSync(target, 'utf8')).toBe('');
  });

  it('keeps every line whole when runs write at the same time', async () => {
    const names = Array.from({ length: 6 }, (_unused, index) => `Theme ${index}`);
    const results = await Promise.all(names.map((name) => run(['--profile', 'prod', 'themes', 'create', '--name', name], { env })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const kept = lines(config);
    expect(kept.map(({ name }) => name).sort()).toEqual(names);
    expect(new Set(kept.map(({ run }) => run)).size).toBe(names.length);
  });

  it('rotates a full journal: the older lines move to changes.1.jsonl', async () => {
    mkdirSync(join(config, 'journal'), { mode: 0o700 });
    const old = `${JSON.stringify({ at: '2026-01-01T00:00:00.000Z', path: '/v1/themes/old', ids: {}, revisions: {} })}\n`;
    writeFileSync(journalFiles(config)[0]!, old.repeat(Math.ceil(ROTATE_BYTES / old.length)), { mode: 0o600 });
    const result = await run(['--profile', 'prod', 'themes', 'update', MIDNIGHT, '--name', 'Night'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(config)).toMatchObject([{ operation: 'updateTheme' }]);
    expect(readFileSync(journalFiles(config)[1]!, 'utf8').startsWith(old)).toBe(true);
    const listed = await run(['log', '--json'], { env });
    expect(listed.json<JournalEntry[]>().at(-1)).toMatchObject({ operation: 'updateTheme' });
  });

  it('is read by `loopsctl log`, filtered by profile, team, record and date, as a table or --json', async () => {
    await run(['--profile', 'prod', 'themes', 'update', MIDNIGHT, '--name', 'Night'], { env });
    await run(['--profile', 'prod', 'themes', 'create', '--name', 'Dawn'], { env });
    const all = await run(['log', '--json'], { env });
    expect(all.json<JournalEntry[]>().map(({ name }) => name)).toEqual(['Night', 'Dawn']);
    const team = all.json<JournalEntry[]>()[0]!.team!;
    const byRecord = await run(['log', '--record', MIDNIGHT, '--json'], { env });
    expect(byRecord.json<JournalEntry[]>().map(({ name }) => name)).toEqual(['Night']);
    expect((await run(['log', '--record', 'Dawn', '--jq', '.[].operation'], { env })).stdout).toBe('createTheme\n');
    expect((await run(['log', '--profile', 'staging', '--json'], { env })).json()).toEqual([]);
    expect((await run(['log', '--profile', 'prod', '--team', team.toUpperCase(), '--json'], { env })).json()).toHaveLength(2);
    expect((await run(['log', '--team', 'Another team', '--json'], { env })).json()).toEqual([]);
    expect((await run(['log', '--since', '1h', '--json'], { env })).json()).toHaveLength(2);
    expect((await run(['log', '--until', '2020-01-01', '--json'], { env })).json()).toEqual([]);
    expect((await run(['log', '--since', '2020-01-01', '--limit', '1', '--json'], { env })).json<JournalEntry[]>().map(({ name }) => name)).toEqual(['Dawn']);
    const table = await run(['log'], { env: { ...env, NO_COLOR: '1' }, tty: { columns: 200 } });
    expect(table.stdout.split('\n')[0]).toMatch(/^TIME +WHO +ACCOUNT +COMMAND +CALL +RECORD +OUTCOME$/);
    expect(table.stdout).toContain(`theme "Night" ${MIDNIGHT}`);
    const narrow = await run(['log'], { env: { ...env, NO_COLOR: '1' }, tty: { columns: 60 } });
    for (const line of narrow.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    // The time of day is kept at every width a terminal has: cut to the minute, never to the date.
    for (const columns of [80, 120, 160]) {
      const fitted = await run(['log'], { env: { ...env, NO_COLOR: '1' }, tty: { columns } });
      expect(fitted.stdout.split('\n')[1], `${columns} columns`).toMatch(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/);
    }
    const bad = await run(['log', '--since', 'yesterday'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since takes a date/);
  });

  it('finds the changes of a content push by the record\'s name: `log --record "Password reset"`', async () => {
    const root = join(tempDir(), 'loops');
    expect((await run(['--profile', 'prod', 'content', 'pull', root, '--only', 'transactional'], { env })).code).toBe(0);
    const draft = join(root, 'transactional', `password-reset--${seedId('transactional/Password reset')}`, 'draft.lmx');
    writeFileSync(draft, '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    const push = await run(['--profile', 'prod', 'content', 'push', root, '--only', 'transactional', '--no-check'], { env });
    expect(push.code, push.stderr).toBe(0);
    const found = await run(['log', '--record', 'Password reset', '--json'], { env });
    expect(found.json<JournalEntry[]>().map(({ operation, name }) => [operation, name])).toEqual([['updateEmailMessage', 'Password reset']]);
  });

  it('names the MCP client as who made a change through `loopsctl mcp`', async () => {
    const mcp = await startMcp(['--profile', 'prod', '--allow-writes'], { env });
    try {
      const answer = (await mcp.client.callTool({ name: 'themes_update', arguments: { id: MIDNIGHT, name: 'Night' } })) as { isError?: boolean };
      expect(answer.isError).not.toBe(true);
    } finally {
      await mcp.close();
    }
    expect(lines(config)).toMatchObject([{ who: 'loopsctl-test (MCP)', via: 'mcp', command: 'themes update', profile: 'prod', operation: 'updateTheme' }]);
  });
});

describe('`loopsctl log` of the sandbox', () => {
  it('names the sandbox as such, and an email message by the email it belongs to, from the line that made it (--json as kept)', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const created = await run(['--sandbox', 'transactional', 'create', '--name', 'Invoice', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const { id, draftEmailMessageId, draftEmailMessageContentRevisionId } = created.json<Record<string, string>>();
    const edited = await run(
      [
        '--sandbox',
        'email-messages',
        'update',
        draftEmailMessageId!,
        '--subject',
        'Your invoice',
        '--expected-revision-id',
        draftEmailMessageContentRevisionId!,
      ],
      { env },
    );
    expect(edited.code, edited.stderr).toBe(0);
    const table = await run(['log'], { env });
    const [, create, update] = table.stdout.split('\n');
    expect(create).toContain(`\tsandbox\ttransactional create\tPOST /v1/transactional-emails\ttransactional email "Invoice" ${id}\tdone (201)`);
    expect(update).toContain(
      `\tsandbox\temail-messages update\tPOST /v1/email-messages/${draftEmailMessageId}\temail message "Invoice" ${draftEmailMessageId}\tdone (200)`,
    );
    expect(table.stdout).not.toContain('sandbox.invalid');
    // --record finds the message's change by the email's name; --json prints the lines as kept.
    const found = await run(['log', '--record', 'Invoice', '--json'], { env });
    expect(found.json<JournalEntry[]>().map(({ operation, name, baseUrl }) => [operation, name, baseUrl])).toEqual([
      ['createTransactionalEmail', 'Invoice', 'http://sandbox.invalid'],
      ['updateEmailMessage', undefined, 'http://sandbox.invalid'],
    ]);
  });
});
