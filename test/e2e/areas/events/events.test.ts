import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

const TRIAL_CONVERSION = 'cnm1gv0otq1z57mnend2pws3y';
const openSandbox = sandboxEachTest();

describe('events send against the sandbox', () => {
  it('sends an event with typed properties, contact properties and lists; the outbox shows it with the workflow it starts', async () => {
    const stateFile = join(tempDir(), 'state.json');
    const recording = await openSandbox({ stateFile });
    const result = await recording.loopsctl([
      'events',
      'send',
      'trial_started',
      '--email',
      'grace@example.com',
      '--prop',
      'plan=pro',
      '--prop',
      'seats:=5',
      '--contact-prop',
      'region=EU',
      '--list',
      'ccr5wuhgixvhysmch2s25o20h=false',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const { idempotencyKey } = result.json();
    expect(result.json()).toEqual({ success: true, idempotencyKey: expect.any(String) });
    const sent = recording.requests.find((request) => request.path === '/v1/events/send')!;
    expect(sent.headers['idempotency-key']).toBe(idempotencyKey);
    expect(sent.body).toEqual({
      eventName: 'trial_started',
      email: 'grace@example.com',
      eventProperties: { plan: 'pro', seats: 5 },
      mailingLists: { ccr5wuhgixvhysmch2s25o20h: false },
      region: 'EU',
    });
    expectDescribed(recording.requests);

    const outbox = await run(['sandbox', 'outbox', '--state', stateFile, '--json']);
    expect(outbox.json()).toEqual([
      expect.objectContaining({
        kind: 'event',
        eventName: 'trial_started',
        email: 'grace@example.com',
        idempotencyKey,
        workflows: [{ id: TRIAL_CONVERSION, name: 'Trial conversion', status: 'Sending' }],
      }),
    ]);
    const text = await run(['sandbox', 'outbox', '--state', stateFile, '--clear']);
    expect(text.stdout).toContain(`starts: Trial conversion (${TRIAL_CONVERSION}, Sending)\n`);
    // Its first step is a wait of an hour: the outbox says why no email came with it.
    expect(text.stdout).toContain('\n  no email at once: each workflow it starts waits, or filters, first (see `loopsctl sandbox journeys`)\n');
    expect((await run(['sandbox', 'outbox', '--state', stateFile, '--json'])).json()).toEqual([]);
  });

  it('refuses a reused --idempotency-key with exit 5, and sends nothing new', async () => {
    const recording = await openSandbox();
    const args = ['events', 'send', 'signup', '--user-id', 'usr_ada', '--idempotency-key', 'signup-usr_ada-1'];
    expect((await recording.loopsctl(args)).code).toBe(0);
    const again = await recording.loopsctl(args);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('signup-usr_ada-1');
    expect(recording.requests.map((request) => request.status)).toEqual([200, 409]);
  });

  it('points an unknown --list at the mailing lists, as contacts do', async () => {
    const recording = await openSandbox();
    const result = await recording.loopsctl(['events', 'send', 'signup', '--email', 'ada@example.com', '--list', 'cnolist=true']);
    // Refused before the event is sent: the account's lists are read first.
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain(
      'the account has no mailing list "cnolist"\nHint: its lists: "Product updates", "Beta testers", "Event invitations"; see them with `loopsctl lists list`',
    );
  });

  it('checks --contact-prop types before sending, and needs --email or --user-id', async () => {
    const recording = await openSandbox();
    const wrong = await recording.loopsctl(['events', 'send', 'signup', '--email', 'ada@example.com', '--contact-prop', 'seats=many']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Error: --contact-prop: seats is a number property, and "many" is not a number');
    const nobody = await recording.loopsctl(['events', 'send', 'signup']);
    expect(nobody).toMatchObject({ code: 2, stderr: expect.stringContaining('Error: give at least one of --email or --user-id\n') });
    const array = await recording.loopsctl(['events', 'send', 'signup', '--email', 'a@example.com', '--prop', 'n:=[1]']);
    expect(array).toMatchObject({ code: 2, stderr: 'Error: --prop n: the value must be a string, a number, true, false or null, not an array\n' });
    expect(recording.requests.filter((request) => request.path === '/v1/events/send')).toEqual([]);
    // Text that reads as the property's type is sent as that type.
    const typed = await recording.loopsctl(['events', 'send', 'signup', '--email', 'ada@example.com', '--contact-prop', 'seats=0']);
    expect(typed.code, typed.stderr).toBe(0);
    expect(recording.requests.find((request) => request.path === '/v1/events/send')!.body).toMatchObject({ seats: 0 });
  });
});

describe('events send: one send per intent', () => {
  let api: ApiServer;
  afterEach(() => api.close());
  const env = () => ({ LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' });

  it('retries a 5xx with the same key, and takes a 409 on its own retry as "already sent" (exit 0)', async () => {
    let calls = 0;
    api = await startApiServer({
      'POST /v1/events/send': (_req, res) =>
        ++calls === 1 ? json(res, 502, { message: 'bad gateway' }) : json(res, 409, { success: false, message: 'Idempotency key has already been used.' }),
    });
    const result = await run(['events', 'send', 'signup', '--email', 'a@example.com', '--debug'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Already sent');
    const keys = api.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(result.stderr).toContain(`idempotency-key: ${keys[0]}`);
    expect(result.stderr).not.toContain('test-key-not-real');
  });

  it('takes a 409 on a retry as "already sent" for the user’s own key too (exit 0), never advising a new key', async () => {
    let calls = 0;
    api = await startApiServer({
      'POST /v1/events/send': (_req, res) =>
        ++calls === 1 ? json(res, 503, { message: 'busy' }) : json(res, 409, { success: false, message: 'Idempotency key has already been used.' }),
    });
    const result = await run(['events', 'send', 'signup', '--email', 'a@example.com', '--idempotency-key', 'k-1'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Already sent: an earlier attempt reached the API, so it was not sent again.');
    expect(result.stderr).not.toContain('give a new key');
    expect(api.requests.map((request) => request.headers['idempotency-key'])).toEqual(['k-1', 'k-1']);
    const reused = await run(['events', 'send', 'signup', '--email', 'a@example.com', '--idempotency-key', 'k-1', '--json'], { env: env() });
    // A 409 on the first attempt: the key was used before this run, as the API says.
    expect(reused.code).toBe(5);
    expect(JSON.parse(reused.stderr).error).toMatchObject({
      message: 'Idempotency key has already been used.',
      hint: expect.stringContaining('give a new key'),
    });
  });

  it.each([
    [400, 5],
    [405, 5],
    [409, 5],
  ])('a %i on the first attempt exits %i', async (status, exit) => {
    api = await startApiServer({ 'POST /v1/events/send': (_req, res) => json(res, status, { success: false, message: `status ${status}` }) });
    const result = await run(['events', 'send', 'signup', '--email', 'a@example.com'], { env: env() });
    expect(result.code).toBe(exit);
    expect(result.stderr).toContain(`status ${status}`);
  });
});

describe('events import', () => {
  it('sends each record once under a key derived from the journal, and a rerun sends nothing again', async () => {
    const recording = await openSandbox();
    const dir = tempDir();
    const file = join(dir, 'events.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ eventName: 'trial_started', email: 'a1@example.com', eventProperties: { plan: 'pro' } }),
        '',
        JSON.stringify({ eventName: 'signup', userId: 'usr_ada', plan: 'business' }),
        JSON.stringify({ eventName: 'signup' }),
        '{not json',
      ].join('\n'),
    );
    const dry = await recording.loopsctl(['events', 'import', file, '--dry-run', '--json']);
    expect(dry.json()).toEqual({ dryRun: true, valid: 2, failed: 2 });
    expect(recording.requests.filter((request) => request.path === '/v1/events/send')).toEqual([]);

    const first = await recording.loopsctl(['events', 'import', file, '--json']);
    expect(first.code).toBe(2);
    expect(first.json()).toEqual({ sent: 2, skipped: 0, failed: 2, journal: `${file}.journal.jsonl` });
    expect(first.stderr).toContain('line 4: neither email nor userId');
    const second = await recording.loopsctl(['events', 'import', file, '--json']);
    expect(second.json()).toMatchObject({ sent: 0, skipped: 2, failed: 2 });
    const sends = recording.requests.filter((request) => request.path === '/v1/events/send');
    expect(sends).toHaveLength(2);
    expect(new Set(sends.map((request) => request.headers['idempotency-key'])).size).toBe(2);
    expectDescribed(recording.requests);
  });

  it('checks a contact property an event line carries against its type, and sends only the lines that pass', async () => {
    const recording = await openSandbox();
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ eventName: 'seats_changed', email: 'ada@example.com', seats: 'many' }),
        JSON.stringify({ eventName: 'seats_changed', email: 'grace@example.com', seats: 12 }),
        '',
      ].join('\n'),
    );
    const result = await recording.loopsctl(['events', 'import', file, '--json']);
    expect(result.code).toBe(2);
    expect(result.json()).toMatchObject({ sent: 1, failed: 1 });
    expect(result.stderr).toContain('line 1: seats is a number property, and "many" is not a number');
    const sends = recording.requests.filter((request) => request.path === '/v1/events/send');
    expect(sends.map((request) => request.body)).toEqual([{ eventName: 'seats_changed', email: 'grace@example.com', seats: 12 }]);
  });

  it('needs --journal for stdin', async () => {
    const result = await run(['--sandbox', 'events', 'import', '-'], { input: '{}\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: reading from stdin needs --journal <file>\n');
  });
});
