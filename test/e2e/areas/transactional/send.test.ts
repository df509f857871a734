import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

const PASSWORD_RESET = 'c1h3243uwicgpgajrgexlzdl5';
const openSandbox = sandboxEachTest();

describe('transactional send against the sandbox', () => {
  it('sends typed data variables and attachments under an idempotency key; the outbox checks them against the email', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.json');
    const invoice = join(dir, 'invoice.pdf');
    writeFileSync(invoice, Buffer.from('%PDF-1.4 fake'));
    const notes = join(dir, 'notes.bin');
    writeFileSync(notes, 'hello');
    const recording = await openSandbox({ stateFile });
    const result = await recording.loopsctl([
      'transactional',
      'send',
      PASSWORD_RESET,
      '--to',
      'ada@example.com',
      '--var',
      'firstName=Ada',
      '--var',
      'resetUrl=https://acme.example/r/1',
      '--var',
      'extra:=1',
      '--attach',
      invoice,
      '--attach',
      `${notes};type=text/plain`,
      '--add-to-audience',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const { idempotencyKey } = result.json();
    const sent = recording.requests.find((request) => request.path === '/v1/transactional')!;
    expect(sent.headers['idempotency-key']).toBe(idempotencyKey);
    expect(sent.body).toEqual({
      transactionalId: PASSWORD_RESET,
      email: 'ada@example.com',
      addToAudience: true,
      dataVariables: { firstName: 'Ada', resetUrl: 'https://acme.example/r/1', extra: 1 },
      attachments: [
        { filename: 'invoice.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.4 fake').toString('base64') },
        { filename: 'notes.bin', contentType: 'text/plain', data: Buffer.from('hello').toString('base64') },
      ],
    });
    expectDescribed(recording.requests);
    const outbox = await run(['sandbox', 'outbox', '--state', stateFile, '--json']);
    expect(outbox.json()).toEqual([
      expect.objectContaining({
        kind: 'transactional',
        to: 'ada@example.com',
        name: 'Password reset',
        missingVariables: ['expiresInMinutes'],
        unknownVariables: ['extra'],
        attachments: [
          { filename: 'invoice.pdf', contentType: 'application/pdf', bytes: 13 },
          { filename: 'notes.bin', contentType: 'text/plain', bytes: 5 },
        ],
      }),
    ]);
    const text = await run(['sandbox', 'outbox', '--state', stateFile]);
    expect(text.stdout).toContain('"Password reset" (c1h3243uwicgpgajrgexlzdl5) to ada@example.com');
    expect(text.stdout).toContain('optional, left out: expiresInMinutes');
    expect(text.stdout).toContain('invoice.pdf (application/pdf, 13 B)');
  });

  it('a send that leaves out a data variable the published email uses is 400, unless the variable is optional', async () => {
    const recording = await openSandbox();
    const missing = await recording.loopsctl([
      'transactional',
      'send',
      PASSWORD_RESET,
      '--to',
      'ada@example.com',
      '--var',
      'firstName=Ada',
      '--var',
      'expiresInMinutes:=30',
    ]);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('Missing required data variable(s): resetUrl');
    const nulled = await recording.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--vars-file', '-'], {
      input: '{"firstName": "Ada", "resetUrl": null}',
    });
    expect(nulled.stderr).toContain('Missing required data variable(s): resetUrl');
    expect(recording.requests.filter((request) => request.path === '/v1/transactional').map((request) => request.status)).toEqual([400, 400]);
    // The seed marks expiresInMinutes optional, as the editor would.
    const optional = await recording.loopsctl([
      'transactional',
      'send',
      PASSWORD_RESET,
      '--to',
      'ada@example.com',
      '--var',
      'firstName=Ada',
      '--var',
      'resetUrl=https://x.example',
    ]);
    expect(optional.code, optional.stderr).toBe(0);
    expectDescribed(recording.requests);
  });

  it('refuses a missing attachment before sending anything', async () => {
    const recording = await openSandbox();
    const result = await recording.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--attach', join(tempDir(), 'nope.pdf')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no such file');
    expect(recording.requests).toEqual([]);
  });

  it('reads data variables from --vars-file, and refuses bad := JSON naming --var', async () => {
    const recording = await openSandbox();
    const ok = await recording.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--vars-file', '-', '--var', 'firstName=Ada'], {
      input: '{"firstName": "X", "resetUrl": "https://example.com/r", "expiresInMinutes": 30}',
    });
    expect(ok.code).toBe(0);
    expect(recording.requests.at(-1)!.body).toMatchObject({ dataVariables: { firstName: 'Ada', resetUrl: 'https://example.com/r', expiresInMinutes: 30 } });
    const bad = await recording.loopsctl(['transactional', 'send', PASSWORD_RESET, '--to', 'ada@example.com', '--var', 'n:=thirty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Error: --var n:=thirty: the value after := is not valid JSON\n');
  });

  it('answers 404 for an unknown email and 400 for one not published', async () => {
    const recording = await openSandbox();
    const unknown = await recording.loopsctl(['transactional', 'send', 'cunknown00000000000000000', '--to', 'ada@example.com']);
    expect(unknown).toMatchObject({ code: 4, stderr: 'Error: Transactional email not found.\nHint: see the ids with `loopsctl transactional list`\n' });
    const list = (await recording.loopsctl(['transactional', 'list', '--json'])).json() as { id: string; publishedEmailMessageId: string | null }[];
    const unpublished = list.find((email) => email.publishedEmailMessageId === null)!.id;
    const result = await recording.loopsctl(['transactional', 'send', unpublished, '--to', 'ada@example.com']);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('not published');
  });
});

describe('transactional send: one send per intent', () => {
  let api: ApiServer;
  afterEach(() => api.close());
  const env = () => ({ LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' });

  /** The first attempt reaches the API and its answer is lost; the retry hears the key was used. */
  async function answerLostThenKeyUsed(): Promise<void> {
    let calls = 0;
    api = await startApiServer({
      'POST /v1/transactional': (_req, res) => {
        calls += 1;
        if (calls === 1) return void res.socket?.destroy();
        json(res, 409, { success: false, message: 'Idempotency key has already been used.' });
      },
    });
  }

  it('resends after a broken connection with the same key, and a 409 on that retry means sent', async () => {
    await answerLostThenKeyUsed();
    const result = await run(['transactional', 'send', 'tx_1', '--to', 'a@example.com'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Already sent');
    expect(new Set(api.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
    expect(api.requests).toHaveLength(2);
  });

  it('takes a 409 after a lost answer as "already sent" with the person’s own key too', async () => {
    await answerLostThenKeyUsed();
    const result = await run(['transactional', 'send', 'tx_1', '--to', 'a@example.com', '--idempotency-key', 'reset-ada-1', '--json'], { env: env() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ alreadySent: true, idempotencyKey: 'reset-ada-1' });
  });

  it.each([
    [400, 5],
    [404, 4],
    [405, 5],
    [409, 5],
  ])('a %i exits %i with the API message', async (status, exit) => {
    api = await startApiServer({ 'POST /v1/transactional': (_req, res) => json(res, status, { success: false, message: `status ${status}` }) });
    const result = await run(['transactional', 'send', 'tx_1', '--to', 'a@example.com', '--idempotency-key', 'mine'], { env: env() });
    expect(result.code).toBe(exit);
    expect(result.stderr).toContain(`status ${status}`);
  });
});
