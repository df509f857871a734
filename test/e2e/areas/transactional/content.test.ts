import { afterEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';
import { expectDescribed, recordingSandbox } from '../../../support/recording.js';

const RESET = seedId('transactional/Password reset');
const RECEIPT = seedId('transactional/Order receipt');
const SIGN_IN = seedId('transactional/Magic sign-in link');
const PAYMENT_FAILED = seedId('transactional/Payment failed');
const SECURITY_GROUP = seedId('transactional-group/Security');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sandbox() {
  const recording = await recordingSandbox();
  closers.push(recording.close);
  return { seen: recording.requests, env: { ...recording.env, NO_COLOR: '1' } };
}

async function apiServer(): Promise<ApiServer> {
  const server = await startApiServer();
  closers.push(() => server.close());
  return server;
}

describe('transactional get', () => {
  it('shows the record within 80 columns; show and view are aliases; --json passes it through', async () => {
    const { env } = await sandbox();
    const text = await run(['transactional', 'get', RESET], { env, tty: { columns: 80 } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`draftEmailMessageId      ${seedId('transactional/Password reset/draft')}`);
    for (const line of text.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect((await run(['transactional', 'show', RESET], { env })).stdout).toBe((await run(['transactional', 'view', RESET], { env })).stdout);
    const listed = (await run(['--json', 'transactional', 'list'], { env })).json().find((email: { id: string }) => email.id === RESET);
    expect((await run(['--json', 'transactional', 'get', RESET], { env })).json()).toEqual(listed);
  });

  it("lists each email's group by its name, read once before the emails; --json keeps the API's ids and reads no group", async () => {
    const { env, seen } = await sandbox();
    const text = await run(['transactional', 'list'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')).toContain(`${RESET}\tPassword reset\tSecurity\tyes\tyes\t2024-10-22T18:00:00.000Z`);
    expect(text.stdout).not.toContain(SECURITY_GROUP);
    expect(seen.map((request) => request.path)).toEqual(['/v1/transactional-groups', '/v1/transactional-emails']);
    seen.length = 0;
    const listed = await run(['transactional', 'list', '--json'], { env });
    expect(listed.json().find((email: { id: string }) => email.id === RESET).transactionalGroupId).toBe(SECURITY_GROUP);
    expect(seen.map((request) => request.path)).toEqual(['/v1/transactional-emails']);
  });

  it('lists groups by id when the API will not give their names (no content API), as it always did', async () => {
    const server = await apiServer();
    const email = {
      id: RESET,
      name: 'Password reset',
      transactionalGroupId: SECURITY_GROUP,
      publishedEmailMessageId: null,
      draftEmailMessageId: 'cd1',
      createdAt: '2024-10-01T18:00:00.000Z',
      updatedAt: '2024-10-22T18:00:00.000Z',
      dataVariables: [],
    };
    const page = { pagination: { totalResults: 1, returnedResults: 1, perPage: 20, totalPages: 1, nextCursor: null, nextPage: null }, data: [email] };
    server.route('GET /v1/transactional-groups', (_req, res) => json(res, 401, { message: 'Content API is not enabled for this team.' }));
    server.route('GET /v1/transactional-emails', (_req, res) => json(res, 200, page));
    const text = await run(['transactional', 'list'], { env: { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key-not-real' } });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout.split('\n')).toContain(`${RESET}\tPassword reset\t${SECURITY_GROUP}\tno\tyes\t2024-10-22T18:00:00.000Z`);
  });

  it('hints at the list when the id is unknown, for every command that takes one', async () => {
    const { env } = await sandbox();
    for (const argv of [['get'], ['draft'], ['metrics'], ['publish'], ['update', '--name', 'x']]) {
      const [verb, ...options] = argv;
      const result = await run(['transactional', verb!, 'cunknown', ...options], { env });
      expect(result.code, verb).toBe(4);
      expect(result.stderr, verb).toContain('Hint: see the ids with `loopsctl transactional list`');
    }
  });
});

describe('transactional update', () => {
  it('renames and moves an email, sending only what was given', async () => {
    const { seen, env } = await sandbox();
    const result = await run(['--json', 'transactional', 'update', RECEIPT, '--name', 'Receipt', '--group', SECURITY_GROUP], { env });
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ id: RECEIPT, name: 'Receipt', transactionalGroupId: SECURITY_GROUP });
    expect(seen[0]!.body).toEqual({ name: 'Receipt', transactionalGroupId: SECURITY_GROUP });
    await run(['transactional', 'update', RECEIPT, '--name', 'Receipt 2'], { env });
    expect(seen[1]!.body).toEqual({ name: 'Receipt 2' });
    expectDescribed(seen);
  });

  it('refuses an empty update before sending, and explains an unknown group', async () => {
    const { seen, env } = await sandbox();
    const empty = await run(['transactional', 'update', RECEIPT], { env });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/nothing to update/);
    expect(seen).toHaveLength(0);
    const group = await run(['transactional', 'update', RECEIPT, '--group', 'cnogroup'], { env });
    expect(group.code).toBe(5);
    expect(group.stderr).toMatch(/loopsctl groups list/);
  });
});

describe('transactional create', () => {
  it('explains an unknown --group as update does', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'create', '--name', 'Receipt', '--group', 'cnogroup'], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Hint: the group must exist: see the ids with `loopsctl groups list`');
  });
});

describe('transactional draft', () => {
  it('tells how to make the first content update, and that command works as printed', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'draft', RECEIPT], { env });
    expect(result.code).toBe(0);
    const draft = /email-messages update (\S+) \\\n {4}--expected-revision-id (\S+)/.exec(result.stderr);
    expect(draft).not.toBeNull();
    for (const line of result.stderr.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const [, draftId, revision] = draft!;
    // The new draft starts from the published content.
    const lmx = await run(['email-messages', 'get', draftId!, '--lmx'], { env });
    expect(lmx.stdout).toContain('{data.invoiceUrl}');
    const updated = await run(['email-messages', 'update', draftId!, '--expected-revision-id', revision!, '--subject', 'Receipt'], { env });
    expect(updated.code).toBe(0);
  });
});

describe('transactional draft on a narrow terminal', () => {
  it('prints the commands to run whole, each continued line ending in a backslash, so they can be pasted', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'draft', RECEIPT], { env, tty: { columns: 60 } });
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    const start = lines.findIndex((line) => line.startsWith('  loopsctl email-messages update '));
    expect(start).toBeGreaterThan(-1);
    const command: string[] = [];
    for (const line of lines.slice(start)) {
      command.push(line.replace(/ \\$/, ''));
      if (!line.endsWith(' \\')) break;
    }
    const words = command.join(' ').trim().split(/\s+/);
    expect(words.slice(0, 3)).toEqual(['loopsctl', 'email-messages', 'update']);
    expect(words).toEqual(expect.arrayContaining(['--expected-revision-id', '--lmx-file', 'email.lmx']));
    expect(lines).toContain(`  loopsctl transactional publish ${RECEIPT}`);
    // The command as pasted: the draft's LMX from a file, then publishing.
    const [draftId, , revision] = words.slice(3);
    const lmx = (await run(['email-messages', 'get', draftId!, '--lmx'], { env })).stdout;
    const updated = await run(['email-messages', 'update', draftId!, '--expected-revision-id', revision!, '--lmx-file', '-'], { env, input: lmx });
    expect(updated.code).toBe(0);
  });
});

describe('transactional publish', () => {
  it('publishes the draft: content copied to the published message, data variables from the LMX, draft cleared', async () => {
    const { seen, env } = await sandbox();
    const draftId = seedId('transactional/Magic sign-in link/draft');
    const lmx = '<Paragraph>Hi {data.name}</Paragraph>\n<Button href="{data.signInUrl}">Sign in</Button>\n';
    expect((await run(['email-messages', 'update', draftId, '--lmx-file', '-', '--subject', 'New subject', '--force'], { env, input: lmx })).code).toBe(0);
    const result = await run(['--json', 'transactional', 'publish', SIGN_IN], { env });
    expect(result.code).toBe(0);
    const published = result.json();
    expect(published).toMatchObject({
      id: SIGN_IN,
      draftEmailMessageId: null,
      publishedEmailMessageId: seedId('transactional/Magic sign-in link/published'),
      dataVariables: ['name', 'signInUrl'],
    });
    const message = (await run(['--json', 'email-messages', 'get', published.publishedEmailMessageId], { env })).json();
    expect(message).toMatchObject({ subject: 'New subject', lmx, transactionalId: SIGN_IN });
    const discarded = await run(['email-messages', 'get', draftId], { env });
    expect(discarded.code).toBe(4);
    expect(discarded.stderr).toContain(`Error: Email message ${draftId} not found\n`);
    expectDescribed(seen);
  });

  it('explains a 409: there is no draft, and how to make one', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'publish', RECEIPT], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`make one with \`loopsctl transactional draft ${RECEIPT}\``);
  });

  it('explains a 422 with the command that shows what Guardian finds in the draft', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'publish', PAYMENT_FAILED], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/Draft failed validation: missingButtonHrefs/);
    expect(result.stderr).toContain(`loopsctl email-messages check ${seedId('transactional/Payment failed/draft')}`);
    expect(result.stderr).toMatch(/verified sending domain/);
  });

  it('a team without a verified sending domain cannot publish (422)', async () => {
    const { env } = await sandbox();
    const result = await run(['transactional', 'publish', SIGN_IN], { env: { ...env, LOOPS_API_KEY: 'sandbox-no-domain' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/sending domain is not verified/);
  });

  it('explains a 401 as the content API not being enabled', async () => {
    const { env } = await sandbox();
    for (const argv of [
      ['get', RESET],
      ['publish', SIGN_IN],
      ['update', RECEIPT, '--name', 'x'],
    ]) {
      const result = await run(['transactional', ...argv], { env: { ...env, LOOPS_API_KEY: 'sandbox-no-content' } });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/content API is not enabled/);
    }
  });
});

describe('documented error statuses', () => {
  const record = {
    id: RESET,
    name: 'x',
    draftEmailMessageId: 'cdraft',
    publishedEmailMessageId: null,
    transactionalGroupId: null,
    createdAt: 't',
    updatedAt: 't',
    dataVariables: [],
  };
  const cases: { route: string; argv: string[]; status: number; code: number }[] = [
    ...[400, 401, 404, 405].map((status) => ({
      route: 'GET /v1/transactional-emails/:id',
      argv: ['get', RESET],
      status,
      code: { 400: 5, 401: 3, 404: 4, 405: 5 }[status]!,
    })),
    ...[400, 401, 404, 405].map((status) => ({
      route: 'POST /v1/transactional-emails/:id',
      argv: ['update', RESET, '--name', 'n'],
      status,
      code: { 400: 5, 401: 3, 404: 4, 405: 5 }[status]!,
    })),
    ...[400, 401, 404, 405, 409, 422].map((status) => ({
      route: 'POST /v1/transactional-emails/:id/publish',
      argv: ['publish', RESET],
      status,
      code: { 400: 5, 401: 3, 404: 4, 405: 5, 409: 5, 422: 5 }[status]!,
    })),
  ];
  it.each(cases)('$route answering $status: exit $code', async ({ route, argv, status, code }) => {
    const server = await apiServer();
    // Read first by some commands, and by the explanation of some refusals.
    server.route('GET /v1/transactional-emails/:id', (_req, res) => json(res, 200, record), { optional: true });
    server.route(route, (_req, res) => json(res, status, { message: `documented failure ${status}` }));
    const result = await run(['transactional', ...argv], { env: { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key' } });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(`documented failure ${status}`);
    if (status === 422) expect(result.stderr).toContain('loopsctl email-messages check cdraft');
  });
});
