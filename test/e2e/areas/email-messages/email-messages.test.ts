import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { PREVIEWS_PER_DAY } from '../../../../src/platform/email-messages/previews.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { expectDescribed, recordingSandbox } from '../../../support/recording.js';

/** The "Password reset" draft, its seeded revision, and the "Payment failed" draft with a Guardian error. */
const DRAFT = seedId('transactional/Password reset/draft');
const REVISION = seedId('transactional/Password reset/draft/revision');
const PUBLISHED = seedId('transactional/Password reset/published');
const FAULTY = seedId('transactional/Payment failed/draft');
const WORKFLOW_EMAIL = seedId('email-message/trial-ending');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function sandbox(options?: Parameters<typeof recordingSandbox>[0]) {
  const recording = await recordingSandbox(options);
  closers.push(recording.close);
  return { seen: recording.requests, env: recording.env, server: recording.server };
}

async function apiServer(): Promise<ApiServer> {
  const server = await startApiServer();
  closers.push(() => server.close());
  return server;
}

const apiEnv = (server: ApiServer) => ({ LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key' });

const message = (overrides: Record<string, unknown> = {}) => ({
  id: DRAFT,
  subject: 'Hello',
  previewText: '',
  fromName: 'Acme',
  fromEmail: 'hello',
  replyToEmail: '',
  emailFormat: 'styled',
  lmx: '<Paragraph>Hi</Paragraph>',
  contentRevisionId: 'crev1',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

describe('email-messages get', () => {
  it('shows the fields within 80 columns, and --json passes the answer through', async () => {
    const text = await run(['--sandbox', 'emails', 'get', DRAFT], { tty: { columns: 80 }, env: { NO_COLOR: '1' } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`contentRevisionId  ${REVISION}`);
    expect(text.stdout).toContain('fallback           data.firstName = there');
    for (const line of text.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    const server = await apiServer();
    const answer = message({ futureField: { kept: true }, warnings: [{ rule: 'r', severity: 'warning', message: 'careful' }] });
    server.route('GET /v1/email-messages/:id', (_req, res) => json(res, 200, answer));
    const passed = await run(['--json', 'email-messages', 'get', DRAFT], { env: apiEnv(server) });
    expect(passed.json()).toEqual(answer);
    const shown = await run(['email-messages', 'show', DRAFT], { env: { ...apiEnv(server), NO_COLOR: '1' }, tty: { columns: 80 } });
    expect(shown.stdout).toContain('1 LMX warning:');
    // Piped, the record's fields as the API sent them, nested values as JSON.
    const piped = await run(['email-messages', 'show', DRAFT], { env: apiEnv(server) });
    expect(piped.stdout).toMatch(/^FIELD\tVALUE\n/);
    expect(piped.stdout).toContain('\nfutureField\t{"kept":true}\n');
    expect(piped.stdout).toContain(`\nwarnings\t${JSON.stringify([{ rule: 'r', severity: 'warning', message: 'careful' }])}\n`);
    expect(shown.stdout).toContain('r: careful');
  });

  it('--lmx prints the LMX source alone', async () => {
    const result = await run(['--sandbox', 'email-messages', 'get', DRAFT, '--lmx']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('<H1>Reset your password</H1>\n')).toBe(true);
    expect(result.stdout).not.toContain('contentRevisionId');
  });

  it('--lmx is exact into a pipe, and shows control characters as escapes on a terminal', async () => {
    const server = await apiServer();
    const lmx = '<Paragraph>\tHi \u001b[2J</Paragraph>';
    server.route('GET /v1/email-messages/:id', (_req, res) => json(res, 200, message({ lmx })));
    expect((await run(['email-messages', 'get', DRAFT, '--lmx'], { env: apiEnv(server) })).stdout).toBe(`${lmx}\n`);
    const terminal = await run(['email-messages', 'get', DRAFT, '--lmx'], { env: apiEnv(server), tty: { columns: 80 } });
    expect(terminal.stdout).toBe('<Paragraph>\tHi \\x1b[2J</Paragraph>\n');
  });

  it('checks and encodes ids before anything is sent', async () => {
    const server = await apiServer();
    server.route('GET /v1/email-messages/:id', (_req, res) => json(res, 200, message()));
    const spaced = await run(['email-messages', 'get', 'a b'], { env: apiEnv(server) });
    expect(spaced).toMatchObject({ code: 2, stderr: 'Error: email message id must not contain whitespace, control characters or broken characters\n' });
    expect(server.requests).toHaveLength(0);
    await run(['email-messages', 'get', 'a/b?c'], { env: apiEnv(server) });
    expect(server.requests[0]!.path).toBe('/v1/email-messages/a%2Fb%3Fc');
  });

  it('explains a 401 as the content API not being enabled', async () => {
    const { env } = await sandbox();
    const refused = await run(['email-messages', 'get', DRAFT], { env: { ...env, LOOPS_API_KEY: 'sandbox-no-content' } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/content API is not enabled/);
  });
});

describe('email-messages update', () => {
  it('refuses to overwrite without --expected-revision-id or --force, before any request', async () => {
    const { seen, env } = await sandbox();
    const result = await run(['email-messages', 'update', DRAFT, '--subject', 'New'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: give exactly one of --expected-revision-id or --force\n');
    expect(seen).toHaveLength(0);
  });

  it('round-trips LMX through a file: get --lmx > file, edit, update --lmx-file, get', async () => {
    const { seen, env } = await sandbox();
    const file = join(tempDir(), 'email.lmx');
    const got = await run(['email-messages', 'get', DRAFT, '--lmx'], { env });
    writeFileSync(file, got.stdout.replace('Choose a new password', 'Pick a new password'));
    const updated = await run(['email-messages', 'update', DRAFT, '--lmx-file', file, '--expected-revision-id', REVISION], { env });
    expect(updated.code).toBe(0);
    const newRevision = updated.stdout.trim();
    expect(newRevision).not.toBe(REVISION);
    expect(updated.stderr).toContain(`Next update: --expected-revision-id ${newRevision}`);
    const again = await run(['email-messages', 'get', DRAFT, '--lmx'], { env });
    expect(again.stdout).toBe(readFileSync(file, 'utf8'));
    const after = await run(['--json', 'email-messages', 'get', DRAFT], { env });
    expect(after.json().contentRevisionId).toBe(newRevision);
    const update = seen.find((request) => request.method === 'POST')!;
    expect(update.body).toEqual({ expectedRevisionId: REVISION, lmx: readFileSync(file, 'utf8') });
    expectDescribed(seen);
  });

  it('reads LMX from stdin with --lmx-file -, and shows the LMX warnings on stderr', async () => {
    const { env } = await sandbox();
    const lmx = '<Paragraph>Hello</Paragraph>\n<Image src="https://example.com/a.png" size="2" />\n';
    const result = await run(['email-messages', 'update', DRAFT, '--lmx-file', '-', '--force'], { env, input: lmx });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('1 LMX warning:\n  - unknown-attribute: <Image> has no attribute size; it has no effect');
    expect(result.stderr).toContain('(at line 2, column 40)');
    const json = await run(['--json', 'email-messages', 'update', DRAFT, '--lmx-file', '-', '--force'], { env, input: lmx });
    expect(json.json().warnings).toEqual([expect.objectContaining({ rule: 'unknown-attribute', severity: 'warning', path: 'line 2, column 40' })]);
    expect(json.stderr).toBe('');
  });

  it('with --force, sends the revision the message is at now', async () => {
    const { seen, env } = await sandbox();
    const result = await run(
      [
        '--json',
        'email-messages',
        'update',
        DRAFT,
        '--subject',
        'New',
        '--fallback',
        'data.resetUrl=https://acme.example',
        '--fallback',
        'data.firstName',
        '--force',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const body = seen.find((request) => request.method === 'POST')!.body;
    expect(body).toEqual({ expectedRevisionId: REVISION, subject: 'New', dataVariablesFallbacks: { resetUrl: 'https://acme.example', firstName: null } });
    expect(result.json()).toMatchObject({ subject: 'New', dataVariablesFallbacks: { resetUrl: 'https://acme.example' } });
    expect(result.json().dataVariablesFallbacks.firstName).toBeUndefined();
    expectDescribed(seen);
  });

  it('sends every field under the name the description gives it', async () => {
    const { seen, env } = await sandbox();
    const result = await run(
      [
        'email-messages',
        'update',
        DRAFT,
        '--force',
        '--subject',
        's',
        '--preview-text',
        'p',
        '--from-name',
        'n',
        '--from-email',
        'team',
        '--reply-to',
        'r@acme.example',
        '--cc',
        'c@acme.example',
        '--bcc',
        'b@acme.example',
        '--language',
        'fr',
        '--format',
        'plain',
        '--fallback',
        'contact.firstName=there',
        '--fallback',
        'event.plan=Pro',
      ],
      { env },
    );
    expect(result.code).toBe(0);
    const body = seen.find((request) => request.method === 'POST')!.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        'bccEmail',
        'ccEmail',
        'contactPropertiesFallbacks',
        'emailFormat',
        'eventPropertiesFallbacks',
        'expectedRevisionId',
        'fromEmail',
        'fromName',
        'languageCode',
        'previewText',
        'replyToEmail',
        'subject',
      ].sort(),
    );
    expectDescribed(seen);
  });

  it('a stale revision is exit 5, naming the current revision and how to see it', async () => {
    const { env } = await sandbox();
    await run(['email-messages', 'update', DRAFT, '--subject', 'First', '--expected-revision-id', REVISION], { env });
    const current = (await run(['--json', 'email-messages', 'get', DRAFT], { env })).json().contentRevisionId;
    const stale = await run(['email-messages', 'update', DRAFT, '--subject', 'Second', '--expected-revision-id', REVISION], { env });
    expect(stale.code).toBe(5);
    expect(stale.stderr).toContain(`changed since revision ${REVISION}: it is now at revision ${current}`);
    expect(stale.stderr).toContain(`loopsctl email-messages get ${DRAFT}`);
    expect(stale.stderr).toContain(`--expected-revision-id ${current}`);
    expect((await run(['--json', 'email-messages', 'get', DRAFT], { env })).json().subject).toBe('First');
  });

  it('with --force, a change between reading and writing is still a 409 that names the new revision', async () => {
    const server = await apiServer();
    let reads = 0;
    server.route('GET /v1/email-messages/:id', (_req, res) => json(res, 200, message({ contentRevisionId: reads++ === 0 ? 'crev1' : 'crev2' })));
    server.route('POST /v1/email-messages/:id', (_req, res) => json(res, 409, { message: 'contentRevisionId is stale' }));
    const result = await run(['email-messages', 'update', DRAFT, '--subject', 'x', '--force', '--live'], { env: apiEnv(server) });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('changed since revision crev1: it is now at revision crev2');
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('a 409 that is not about the revision keeps the API message and says what else blocks an update', async () => {
    const { env } = await sandbox();
    // A published message reaches people: without --live the gate refuses it first, and nothing is sent.
    const refused = await run(['email-messages', 'update', PUBLISHED, '--subject', 'x', '--force'], { env });
    expect(refused.code).toBe(11);
    expect(refused.stderr).toContain('edits an email message that is the published email of transactional email "Password reset"');
    const result = await run(['email-messages', 'update', PUBLISHED, '--subject', 'x', '--force', '--live'], { env });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('not in draft status');
    expect(result.stderr).toContain('loopsctl transactional draft');
  });

  it('explains LMX that does not compile (422)', async () => {
    const { env } = await sandbox();
    const result = await run(['email-messages', 'update', DRAFT, '--lmx-file', '-', '--force'], { env, input: '<Paragraph>Hi</Paragrap>' });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/LMX failed to compile/);
    expect(result.stderr).toMatch(/Hint: the LMX did not compile/);
  });

  it('refuses a body with variables its kind cannot use (422), naming each problem content check names', async () => {
    const { env, seen } = await sandbox();
    const dir = tempDir();
    // A transactional email takes {data.*} only; a workflow email {contact.*} and {event.*}.
    const cases = [
      { id: DRAFT, kind: 'transactional', lmx: '<Paragraph>Hi {contact.firstName}, your {event.planName}</Paragraph>\n' },
      { id: WORKFLOW_EMAIL, kind: 'workflow', lmx: '<Paragraph>Your code: {data.code}</Paragraph>\n' },
    ];
    for (const { id, kind, lmx } of cases) {
      const file = join(dir, `${kind}.lmx`);
      writeFileSync(file, lmx);
      const checked = await run(['content', 'check', file, '--kind', kind, '--json'], { env });
      expect(checked.code).toBe(1);
      const problems = (checked.json() as { errors: { line: number; column: number; rule: string; message: string }[] }[])[0]!.errors;
      expect(problems.map((problem) => problem.rule)).toEqual(kind === 'transactional' ? ['variable-namespace', 'variable-namespace'] : ['variable-namespace']);
      expect(checked.json()[0].errors[0].message).toContain(`in ${kind === 'transactional' ? 'a transactional email' : 'a workflow email'}, which takes`);
      // --live: the workflow email is a live workflow's.
      const refused = await run(['email-messages', 'update', id, '--lmx-file', file, '--force', '--live'], { env });
      expect(refused.code).toBe(5);
      for (const problem of problems) expect(refused.stderr).toContain(`line ${problem.line}, column ${problem.column}: ${problem.message} (${problem.rule};`);
    }
    const refusals = seen.filter((request) => request.method === 'POST');
    expect(refusals.map((request) => request.status)).toEqual([422, 422]);
    // The answers have the API's failure shape (EmailMessageFailureResponse).
    expectDescribed(seen);
  });

  it('with --dry-run, refuses LMX that would not compile, as the API would, and sends nothing', async () => {
    const { env, seen } = await sandbox();
    const file = join(tempDir(), 'blink.lmx');
    writeFileSync(file, '<Paragraph>Hi</Paragraph>\n<Blink>x</Blink>\n');
    const refused = await run(['email-messages', 'update', DRAFT, '--lmx-file', file, '--force', '--dry-run'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: ${file}:2:1: <Blink> is not an LMX tag: the API would refuse this LMX`);
    expect(refused.stderr).toContain(`see every problem with \`loopsctl content check ${file}\``);
    const components = await run(['components', 'create', '--name', 'Blink', '--lmx-file', file, '--dry-run'], { env });
    expect(components.code).toBe(2);
    expect(components.stderr).toContain(`Error: ${file}:2:1: <Blink> is not an LMX tag: the API would refuse this LMX`);
    writeFileSync(file, '<Paragraph>Hi {data.name}</Paragraph>\n');
    const valid = await run(['email-messages', 'update', DRAFT, '--lmx-file', file, '--force', '--dry-run'], { env });
    expect(valid.code, valid.stderr).toBe(0);
    expect(seen.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('names the option at fault', async () => {
    const cases: [string[], RegExp][] = [
      [['--from-email', 'hello@acme.com'], /--from-email takes the part before the @/],
      [['--reply-to', 'nobody'], /--reply-to must be an email address/],
      [['--language', 'english'], /--language takes a two-letter/],
      [['--fallback', 'user.name=x'], /--fallback "user.name=x" is not/],
      [['--fallback', 'data.first.name=1'], /--fallback "data.first.name=1" is not/],
      [['--lmx-file', '/nonexistent/email.lmx'], /cannot read the LMX file "\/nonexistent\/email.lmx"/],
      [[], /nothing to update/],
    ];
    const { seen, env } = await sandbox();
    for (const [options, message] of cases) {
      const result = await run(['email-messages', 'update', DRAFT, '--force', ...options], { env });
      expect(result.code, options.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(seen).toHaveLength(0);
  });
});

describe('email-messages preview', () => {
  it('sends a preview with the variables of a --vars-file, and records it in the sandbox', async () => {
    const { seen, env, server } = await sandbox();
    const file = join(tempDir(), 'vars.json');
    writeFileSync(file, JSON.stringify({ dataVariables: { firstName: 'Alex' } }));
    const result = await run(['email-messages', 'preview', DRAFT, '--to', 'alex@example.com', '--to', 'sam@example.com', '--vars-file', file], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Preview of email message ${DRAFT} sent to alex@example.com, sam@example.com\n`);
    expect(seen[0]!.body).toEqual({ emails: ['alex@example.com', 'sam@example.com'], dataVariables: { firstName: 'Alex' } });
    expect(server.state().previews).toEqual([expect.objectContaining({ emailMessageId: DRAFT, emails: ['alex@example.com', 'sam@example.com'] })]);
    expectDescribed(seen);
  });

  it('explains variables the email cannot use (400)', async () => {
    const { env } = await sandbox();
    const result = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com', '--vars-file', '-'], {
      env,
      input: '{"contactProperties": {"firstName": "A"}}',
    });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/contactProperties cannot be used in a transactional email preview/);
    expect(result.stderr).toMatch(/transactional emails take dataVariables/);
  });

  it('names the fault of a --vars-file before sending anything', async () => {
    const { seen, env } = await sandbox();
    const bad = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com', '--vars-file', '-'], {
      env,
      input: '{"dataVariables": {"total": 12}}',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/at dataVariables\.total/);
    const notJson = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com', '--vars-file', '-'], { env, input: 'firstName=A' });
    expect(notJson.stderr).toContain('the variables on stdin is not valid JSON at line 1, column 2\n');
    const address = await run(['email-messages', 'preview', DRAFT, '--to', 'alex'], { env });
    expect(address.stderr).toMatch(/--to must be an email address/);
    expect(seen).toHaveLength(0);
  });

  it('says a 429 is the daily preview limit, and does not retry it', async () => {
    const server = await apiServer();
    server.route('POST /v1/email-messages/:id/preview', (_req, res) => json(res, 429, { message: 'Daily preview limit reached' }, { 'retry-after': '1' }));
    const result = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com'], { env: apiEnv(server) });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/the daily preview limit is reached/);
    expect(result.stderr).toMatch(/100 previews a day/);
    expect(server.requests).toHaveLength(1);
  });

  it('the sandbox allows 100 previews a day, the rule book’s figure', async () => {
    // The preview operation's description: "Each team can send up to 100 preview emails per day."
    expect(PREVIEWS_PER_DAY).toBe(100);
    const { env } = await sandbox({
      initialState: (modules) => {
        const state = seedState(modules);
        state.previews = Array.from({ length: PREVIEWS_PER_DAY - 1 }, () => ({
          emailMessageId: DRAFT,
          emails: ['a@example.com'],
          sentAt: new Date().toISOString(),
        }));
        return state;
      },
    });
    // The hundredth is sent; the one past it is refused, and said to be the daily limit.
    const last = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com'], { env });
    expect(last.code, last.stderr).toBe(0);
    const result = await run(['email-messages', 'preview', DRAFT, '--to', 'a@example.com'], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/daily preview limit/);
    expect(result.stderr).toContain(`each team can send ${PREVIEWS_PER_DAY} previews a day`);
  });
});

describe('email-messages check', () => {
  it('exits 1 on the seed email with a Guardian error, listing the rule and its items', async () => {
    const result = await run(['--sandbox', 'email-messages', 'check', FAULTY], { tty: { columns: 80 }, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Guardian: 1 error, 0 warnings');
    expect(result.stdout).toMatch(/ERROR +missingButtonHrefs: Missing button link/);
    expect(result.stdout).toContain('- Update payment method');
    expect(result.stderr).toContain(`Guardian found 1 error in email message ${FAULTY}`);
    for (const line of result.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('passes warnings unless --strict, and prints the report with --json whatever the outcome', async () => {
    const lenient = await run(['--sandbox', 'email-messages', 'check', WORKFLOW_EMAIL]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(/WARNING +missingFallbackContactProperties/);
    const strict = await run(['--sandbox', '--json', 'email-messages', 'check', WORKFLOW_EMAIL, '--strict']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stderr).error.message).toBe(`Guardian found 0 errors and 1 warning (--strict) in email message ${WORKFLOW_EMAIL}`);
    expect(strict.json()).toEqual({
      errors: [],
      warnings: [expect.objectContaining({ rule: 'missingFallbackContactProperties', items: [{ label: 'firstName', codeName: 'firstName' }] })],
    });
    const clean = await run(['--sandbox', 'email-messages', 'check', DRAFT, '--strict']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('No problems found.');
  });

  it('every seeded transactional and workflow email message exists', async () => {
    for (const label of [
      'transactional/Welcome/published',
      'transactional/Order receipt/published',
      'transactional/Magic sign-in link/draft',
      'email-message/welcome-1',
      'email-message/win-back-offer',
    ]) {
      expect((await run(['--sandbox', 'email-messages', 'get', seedId(label)])).code, label).toBe(0);
    }
  });
});

describe('documented error statuses', () => {
  // --live: the answers are the subject here, not whether the message reaches people, which the gate would read first.
  const update = ['update', DRAFT, '--subject', 'x', '--expected-revision-id', 'crev1', '--live'];
  const preview = ['preview', DRAFT, '--to', 'a@example.com'];
  const exitFor: Record<number, number> = { 400: 5, 401: 3, 404: 4, 405: 5, 409: 5, 413: 5, 422: 5 };
  const hints: Record<string, Record<number, RegExp>> = {
    get: { 401: /content API/, 404: /transactional get/, 409: /MJML/ },
    update: { 401: /content API/, 404: /transactional get/, 409: /draft/, 413: /100 KB/, 422: /did not compile/ },
    preview: { 400: /dataVariables/, 401: /content API/ },
    check: { 401: /content API/, 409: /MJML/ },
  };
  // Every failure status the description documents for these operations (preview's 429 has its own test).
  const documented: [route: string, argv: string[], statuses: number[]][] = [
    ['GET /v1/email-messages/:id', ['get', DRAFT], [400, 401, 404, 405, 409]],
    ['POST /v1/email-messages/:id', update, [400, 401, 404, 405, 409, 413, 422]],
    ['POST /v1/email-messages/:id/preview', preview, [400, 401, 404, 405]],
    ['GET /v1/email-messages/:id/guardian', ['check', DRAFT], [400, 401, 404, 405, 409]],
  ];
  const cases = documented.flatMap(([route, argv, statuses]) =>
    statuses.map((status) => ({ route, argv, status, code: exitFor[status]!, hint: hints[argv[0]!]?.[status] })),
  );
  it.each(cases)('$route answering $status: exit $code', async ({ route, argv, status, code, hint }) => {
    const server = await apiServer();
    // Read first by some commands, and by the explanation of some refusals.
    server.route('GET /v1/email-messages/:id', (_req, res) => json(res, 200, message()), { optional: true });
    server.route(route, (_req, res) => json(res, status, { message: `documented failure ${status}` }));
    const result = await run(['email-messages', ...argv], { env: apiEnv(server) });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(`documented failure ${status}`);
    if (hint) expect(result.stderr).toMatch(hint);
  });
});
