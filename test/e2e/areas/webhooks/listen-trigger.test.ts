/**
 * `webhooks trigger` and `webhooks listen` against a real app server started by the test: signed
 * deliveries that the app verifies on its own, refusals with their lines and exit codes, and an app
 * that fails or does not answer.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedAfter } from '../../../support/closing.js';
import { run, startRun, tempDir } from '../../../support/main.js';
import { type Answer, type PostOptions, postSigned, startWebhookApp } from '../../../support/webhook-app.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const env = { LOOPS_WEBHOOK_SECRET: SECRET };
const kept = closedAfter(afterEach);

const app = async (answer?: Answer) => kept(await startWebhookApp(SECRET, answer));

/** POSTs a delivery as a sender would, signed with this file's secret unless told otherwise. */
const post = (url: string, body: string, options: Partial<PostOptions> = {}) => postSigned(url, body, { secret: SECRET, ...options });

const event = (eventName: string, email = 'ada@example.com') =>
  JSON.stringify({ eventName, eventTime: 1_734_425_918, webhookSchemaVersion: '1.0.0', contactIdentity: { id: 'c1', email, userId: null } });

describe('webhooks trigger', () => {
  it('lists the 17 event types', async () => {
    const result = await run(['webhooks', 'trigger', '--list', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toHaveLength(17);
    expect(result.json()).toContainEqual({ name: 'contact.created', summary: 'a contact was created' });
  });

  it("sends a realistic, signed event with the fields set, and prints the app's answer", async () => {
    const target = await app();
    const result = await run(
      ['webhooks', 'trigger', 'contact.created', '--to', `${target.url}/hooks`, '--set', 'contactIdentity.email=ada@example.com', '--set', 'contact.seats:=12'],
      { env },
    );
    expect(result.code).toBe(0);
    const [delivery] = target.received;
    expect(target.received).toHaveLength(1);
    expect(delivery!.signed).toBe(true);
    expect(delivery!.path).toBe('/hooks');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.payload).toMatchObject({
      eventName: 'contact.created',
      contactIdentity: { email: 'ada@example.com' },
      contact: { email: 'ada@example.com', seats: 12 },
    });
    expect(Math.abs(delivery!.payload.eventTime - Date.now() / 1000)).toBeLessThan(600);
    expect(result.stdout).toBe(
      `contact.created ${delivery!.headers['webhook-id']} → ${target.url}/hooks: ${/\d+ \(\d+ ms\)/.exec(result.stdout)![0]}\n{"ok":true}\n`,
    );
    expect(result.stdout).toMatch(/: 200 \(\d+ ms\)/);
  });

  it.each<[string, Answer | undefined, number, RegExp]>([
    ['answers 500', () => 500, 8, /answered 500, not 2xx/],
    ['answers 404', () => 404, 4, /answered 404, not 2xx\nHint: check the path of --to/],
    ['answers 400', () => 400, 5, /answered 400, not 2xx/],
  ])('exits with the code of the failure when the app %s', async (_what, answer, code, message) => {
    const target = await app(answer);
    const result = await run(['webhooks', 'trigger', 'testing.testEvent', '--to', target.url], { env });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
    expect(target.received).toHaveLength(1);
  });

  it('exits 7 when no app listens, and when the app does not answer in time', async () => {
    const gone = await app();
    const url = gone.url;
    await gone.close();
    const refused = await run(['webhooks', 'trigger', 'testing.testEvent', '--to', url], { env });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('connection refused');
    const slow = await app(() => 'hang');
    const late = await run(['webhooks', 'trigger', 'testing.testEvent', '--to', slow.url, '--timeout', '1'], { env });
    expect(late.code).toBe(7);
    expect(late.stderr).toContain('did not answer: no answer within 1 s');
  });

  it('never sends a payload that does not fit its schema', async () => {
    const target = await app();
    const result = await run(['webhooks', 'trigger', 'email.clicked', '--to', target.url, '--set', 'sourceType=transactional'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: the payload is not a valid email\.clicked event \(sourceType: .*\); nothing was sent/);
    expect(target.received).toHaveLength(0);
  });

  it('refuses an unknown event type, suggesting the nearest', async () => {
    const result = await run(['webhooks', 'trigger', 'contact.create', '--to', 'http://127.0.0.1:9/'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('did you mean contact.created');
  });

  it('prints the signed headers and payload with --dry-run, and sends nothing', async () => {
    const result = await run(['webhooks', 'trigger', 'email.opened', '--set', 'sourceType=loop', '--dry-run', '--json'], { env });
    expect(result.code).toBe(0);
    const { dryRun, sent, requests } = result.json();
    expect({ dryRun, sent }).toEqual({ dryRun: true, sent: false });
    const [{ method, path, headers, body: payload }] = requests;
    expect({ method, path }).toEqual({ method: 'POST', path: null });
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': expect.stringMatching(/^msg_/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    expect(payload).toMatchObject({ eventName: 'email.opened', sourceType: 'loop', loopId: expect.any(String) });
    const unsigned = await run(['webhooks', 'trigger', 'testing.testEvent', '--dry-run']);
    expect(unsigned.code).toBe(0);
    expect(unsigned.stdout).toMatch(
      /^Dry run: nothing was sent\. The request it would send:\n\nPOST \(the address not given yet\)\ncontent-type: application\/json\n\n\{"eventName":"testing.testEvent"/,
    );
    expect(unsigned.stderr).toContain('No secret');
  });

  it("names the sandbox's contact of --email, its id and properties, and one made up where the sandbox has none", async () => {
    const dir = tempDir();
    kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
    const configDir = { LOOPSCTL_CONFIG_DIR: dir };
    const dryRun = async (eventName: string, email: string) => {
      const result = await run(['webhooks', 'trigger', eventName, '--email', email, '--dry-run', '--json'], { env: { ...env, ...configDir } });
      expect(result.code, result.stderr).toBe(0);
      return result.json().requests[0].body;
    };
    // No sandbox yet: the email alone, and no sandbox made for it.
    expect((await dryRun('contact.created', 'ada@example.com')).contactIdentity).toMatchObject({ email: 'ada@example.com', userId: null });
    expect(existsSync(join(dir, 'sandbox-state.db'))).toBe(false);
    const ada = await run(['--sandbox', 'contacts', 'find', '--email', 'ada@example.com', '--json'], { env: configDir });
    expect(ada.code, ada.stderr).toBe(0);
    const { id, userId, plan, seats } = ada.json()[0];
    const created = await dryRun('contact.created', 'ada@example.com');
    expect(created.contactIdentity).toEqual({ id, email: 'ada@example.com', userId });
    expect(created.contact).toMatchObject({ id, email: 'ada@example.com', userId, firstName: 'Ada', plan, seats });
    expect((await dryRun('email.hardBounced', 'ada@example.com')).contactIdentity).toEqual({ id, email: 'ada@example.com', userId });
    const stranger = await dryRun('contact.deleted', 'nobody@example.com');
    expect(stranger.contactIdentity).toMatchObject({ email: 'nobody@example.com', userId: null });
    expect(stranger.contactIdentity.id).not.toBe(id);
  });

  it('prints with --dry-run the body its signature covers, which verify accepts as printed', async () => {
    const result = await run(['webhooks', 'trigger', 'contact.created', '--dry-run'], { env });
    expect(result.code, result.stderr).toBe(0);
    const [head, body] = result.stdout.split('\n\n').slice(1);
    const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(head!)![1]!;
    const file = join(tempDir(), 'body.json');
    writeFileSync(file, body!.trimEnd());
    const verified = await run(
      [
        'webhooks',
        'verify',
        '--id',
        header('webhook-id'),
        '--timestamp',
        header('webhook-timestamp'),
        '--signature',
        header('webhook-signature'),
        '--body-file',
        file,
      ],
      { env },
    );
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain('valid');
    // On a terminal, indented to be read, saying so.
    const read = await run(['webhooks', 'trigger', 'contact.created', '--dry-run', '--no-pager'], { env, tty: { columns: 80 } });
    expect(read.stdout).toContain('\n{\n  "eventName": "contact.created",');
    expect(read.stdout).toContain('(indented here; it is sent compact, as signed: pipe it for those bytes)');
  });
});

describe('webhooks listen', () => {
  /** Starts `webhooks listen`, resolving with its URL once it prints it. */
  async function listen(args: string[]) {
    const running = startRun(['webhooks', 'listen', ...args], { env });
    const [, url] = await running.waitFor(args.includes('--jsonl') ? /^\{"kind":"listening","url":"(\S+)"\}\n/ : /^(\S+)\n/);
    return { ...running, url: url! };
  }

  it('prints the URL first, verifies, passes the delivery on with its headers unchanged, and sums up at Ctrl-C', async () => {
    const target = await app();
    const listener = await listen(['--forward-to', `${target.url}/webhooks`]);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const sent = await run(
      ['webhooks', 'trigger', 'contact.mailingList.subscribed', '--to', listener.url, '--set', 'contactIdentity.email=ada@example.com', '--json'],
      { env },
    );
    expect(sent.code).toBe(0);
    expect(sent.json()).toMatchObject({ status: 200 });
    const [delivery] = await target.waitFor(1);
    expect(delivery!.signed).toBe(true);
    expect(delivery!.path).toBe('/webhooks');
    expect(delivery!.headers['webhook-id']).toBe(sent.json().webhookId);
    expect(delivery!.headers['user-agent']).toMatch(/^loopsctl\//);
    await listener.waitFor(/contact\.mailingList\.subscribed/);
    const result = await listener.stop();
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(listener.url);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d {2}contact\.mailingList\.subscribed {4}ada@example\.com · Product updates {2}verified → 200 \(\d+ ms\)$/);
    expect(result.stderr).toContain(
      `Passing every event on to ${target.url}/webhooks\nVerifying signatures with the secret from LOOPS_WEBHOOK_SECRET. Press Ctrl-C to stop.\n`,
    );
    expect(result.stderr).toContain('Stopped: 1 delivery received; 1 passed on, 1 taken by the app.');
  });

  it('refuses a bad signature and an old timestamp with their reasons, passes neither on, and exits 1', async () => {
    const target = await app();
    const listener = await listen(['--forward-to', target.url]);
    const other = `whsec_${Buffer.from('another secret of thirty-two byte').toString('base64')}`;
    expect(await post(listener.url, event('contact.created'), { secret: other })).toBe(400);
    expect(await post(listener.url, event('contact.deleted'), { timestamp: Math.floor(Date.now() / 1000) - 2 * 86_400 })).toBe(400);
    await listener.waitFor(/contact\.deleted.*\n/);
    const result = await listener.stop();
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/contact\.created {19}ada@example\.com {2}refused: invalid signature: no signature matches the body, id and timestamp\n/);
    expect(result.stdout).toMatch(/contact\.deleted {19}ada@example\.com {2}refused: too old \(2 days\)/);
    expect(target.received).toHaveLength(0);
    expect(result.stderr).toContain('Stopped: 2 deliveries received; 2 refused.');
  });

  it('accepts the delivery when the app fails, says so, keeps going past an app that does not answer, and exits 1', async () => {
    const failing = await app(() => 500);
    const slow = await app(() => 'hang');
    const listener = await listen(['--forward-to', `contact.*=${failing.url}`, '--forward-to', `email.*=${slow.url}`, '--timeout', '1']);
    expect(await post(listener.url, event('contact.created'))).toBe(200);
    expect(await post(listener.url, event('email.delivered'), { id: 'msg_slow' })).toBe(200);
    await listener.waitFor(/contact\.created.*the app failed: 500 \(\d+ ms\)\n/);
    await listener.waitFor(/email\.delivered.*the app failed: no answer within 1 s/);
    const result = await listener.stop();
    expect(result.code).toBe(1);
    expect(failing.received).toHaveLength(1);
    expect(slow.received).toHaveLength(1);
    expect(result.stderr).toContain('2 passed on, 0 taken by the app, 2 not.');
  });

  it('passes each event on to every target naming it, a plain one taking all, only the --events asked for, in JSON lines', async () => {
    const contacts = await app();
    const rest = await app();
    const listener = await listen([
      '--forward-to',
      `contact.*=${contacts.url}/contacts`,
      '--forward-to',
      `${rest.url}/rest`,
      '--events',
      'contact.*,email.opened',
      '--jsonl',
    ]);
    await Promise.all([
      post(listener.url, event('contact.deleted'), { id: 'msg_1' }),
      post(listener.url, event('email.opened'), { id: 'msg_2' }),
      post(listener.url, event('email.clicked'), { id: 'msg_3' }),
    ]);
    await contacts.waitFor(1);
    await rest.waitFor(2);
    await listener.waitFor(/(.*"kind":"delivery".*\n){3}/);
    const result = await listener.stop();
    const records = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[0]).toEqual({ kind: 'listening', url: listener.url });
    const byId = Object.fromEntries(records.filter((record) => record.kind === 'delivery').map((record) => [record.webhookId, record]));
    expect(byId.msg_1).toMatchObject({
      eventName: 'contact.deleted',
      verified: true,
    });
    // The pattern takes nothing away from the plain target: both have the contact event.
    expect(byId.msg_1.forwards.map((forward: { to: string; outcome: { status: number } }) => [forward.to, forward.outcome.status])).toEqual([
      [`${contacts.url}/contacts`, 200],
      [`${rest.url}/rest`, 200],
    ]);
    expect(byId.msg_2).toMatchObject({ eventName: 'email.opened', forwards: [{ to: `${rest.url}/rest` }] });
    expect(byId.msg_3).toMatchObject({ eventName: 'email.clicked', skipped: 'not in --events', forwards: [] });
    expect(records.at(-1)).toEqual({ kind: 'summary', received: 3, refused: 0, skipped: 1, passedOn: 2, appFailed: 0 });
    expect(contacts.received[0]!.path).toBe('/contacts');
    expect(result.code).toBe(0);
  });

  it('shows an unverified header escaped and cut short, in lines and in JSON lines', async () => {
    const listener = await listen([]);
    const long = `1${'z'.repeat(10_000)}`;
    expect(await post(listener.url, event('contact.created'), { timestamp: '17\u009b2J' })).toBe(400);
    expect(await post(listener.url, event('contact.updated'), { timestamp: long, id: `msg_${'x'.repeat(5_000)}\u009b` })).toBe(400);
    await listener.waitFor(/contact\.updated.*\n/);
    const result = await listener.stop();
    // Node's client sends the string as UTF-8, which the receiver reads as Latin-1: Â, then the CSI.
    expect(result.stdout).toContain('refused: the timestamp "17Â\\x9b2J" is not a whole number of seconds\n');
    expect(result.stdout).toContain(`refused: the timestamp "${long.slice(0, 40)}…" (10001 characters) is not a whole number of seconds\n`);
    expect(result.stdout).not.toContain('\u009b');
    expect(result.stdout.length).toBeLessThan(1_000);

    const jsonl = await listen(['--jsonl']);
    expect(await post(jsonl.url, event('contact.updated'), { timestamp: `\u009b${long}`, id: `msg_\u009b${'x'.repeat(5_000)}` })).toBe(400);
    await jsonl.waitFor(/"kind":"delivery".*\n/);
    const records = (await jsonl.stop()).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[1]).toMatchObject({
      webhookId: `msg_Â\\x9b${'x'.repeat(74)}… (5006 characters)`,
      problem: expect.stringMatching(/^the timestamp "Â\\x9b1zzz.*…" \(10003 characters\) is not/),
    });
  });

  it("passes on only the delivery's own headers, and masks credentials of --forward-to in its lines", async () => {
    const target = await app();
    const withCredentials = target.url.replace('//', '//hook-user:hook-pass@');
    const listener = await listen(['--forward-to', `${withCredentials}/hooks`, '--jsonl']);
    const extra = { authorization: 'Bearer stolen', cookie: 'session=1', 'x-forwarded-for': '10.0.0.1', 'x-custom': 'set by anyone' };
    expect(await post(listener.url, event('contact.created'), { extra })).toBe(200);
    const [delivery] = await target.waitFor(1);
    await listener.waitFor(/"kind":"delivery".*\n/);
    const result = await listener.stop();
    expect(
      Object.keys(delivery!.headers)
        .filter((name) => !['host', 'connection', 'content-length', 'authorization'].includes(name))
        .sort(),
    ).toEqual(['content-type', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
    // The app's own credentials, from the URL, replace whatever the sender put there.
    expect(delivery!.headers.authorization).toBe(`Basic ${Buffer.from('hook-user:hook-pass').toString('base64')}`);
    expect(result.stdout).not.toContain('hook-pass');
    expect(result.stdout).toContain(`"forwards":[{"to":"http://[redacted]@${target.url.slice('http://'.length)}/hooks"`);
  });

  it('refuses an event pattern that names no event type, and starts nothing without a secret', async () => {
    const typo = await run(['webhooks', 'listen', '--forward-to', 'contacts.*=http://127.0.0.1:3000/'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--forward-to contacts.*: no event type is named so');
    const none = await run(['webhooks', 'listen']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('Error: no webhook secret\nHint: set LOOPS_WEBHOOK_SECRET (or pass --secret)\n');
  });
});
