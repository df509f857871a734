/**
 * The journal from the terminal, in-process: `webhooks listen --store` keeping what the sandbox and
 * a sender deliver (forged ones refused and not kept, redeliveries kept once), `deliveries find`,
 * `show` and `stats` reading it, durable fan-out to two apps across a restart, and the store's
 * failures said without a password.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookFixture } from '../../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { closedAfter } from '../../../support/closing.js';
import { type Running, run, startRun, tempDir } from '../../../support/main.js';
import { postSigned, startWebhookApp } from '../../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('the secret of the journal tests!').toString('base64')}`;
const kept = closedAfter(afterEach);

const running = (started: Running) => {
  kept({ close: async () => void (await started.stop()) });
  return started;
};

function storeFile(): string {
  const dir = tempDir();
  kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
  return join(dir, 'deliveries.db');
}

/**
 * The second every event of the file happened in: the journal orders deliveries by their event's
 * time, then by id, and two events timed at each post could fall either side of a second's turn.
 */
const EVENT_TIME = Math.floor(Date.now() / 1000);

const event = (eventName: string, email: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    eventName,
    eventTime: EVENT_TIME,
    webhookSchemaVersion: '1.0.0',
    contactIdentity: { id: `c_${email}`, email, userId: null },
    ...extra,
  });

/** POSTs a delivery signed with `secret`; resolves with the status. */
const post = (url: string, id: string, body: string, secret = SECRET) => postSigned(url, body, { secret, id });

describe('webhooks listen --store and deliveries find, show, stats', () => {
  it('keeps each verified delivery once, refuses a forged one without keeping it, and finds them', async () => {
    const store = storeFile();
    const env = { LOOPS_WEBHOOK_SECRET: SECRET };
    const listen = running(startRun(['webhooks', 'listen', '--store', store, '--jsonl'], { env }));
    const [, url] = await listen.waitFor(/"url":"([^"]+)"/);
    const email = { id: 'cemail_1', emailMessageId: 'cmsg_1', subject: 'Hello' };
    expect(
      await post(url!, 'msg_sent', event('campaign.email.sent', 'Ada@example.com', { campaignId: 'c1', campaignName: 'N', email, mailingLists: [] })),
    ).toBe(200);
    expect(await post(url!, 'msg_bounce', event('email.hardBounced', 'ada@example.com', { email, sourceType: 'campaign' }))).toBe(200);
    expect(await post(url!, 'msg_bounce', event('email.hardBounced', 'ada@example.com', { email, sourceType: 'campaign' }))).toBe(200);
    expect(
      await post(
        url!,
        'msg_forged',
        event('contact.deleted', 'ada@example.com'),
        `whsec_${Buffer.from('not the secret of these tests!!!').toString('base64')}`,
      ),
    ).toBe(400);
    await listen.waitFor(/"webhookId":"msg_forged"/);
    const stopped = await listen.stop();
    const lines = stopped.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.kind === 'delivery').map((line) => [line.webhookId, line.recorded, line.redelivery])).toEqual([
      ['msg_sent', true, false],
      ['msg_bounce', true, false],
      ['msg_bounce', false, true],
      ['msg_forged', null, false],
    ]);

    const found = await run(['deliveries', 'find', '--store', store, '--to', 'ADA@example.com', '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(
      found
        .json()
        .map((delivery: { webhookId: string }) => delivery.webhookId)
        .sort(),
    ).toEqual(['msg_bounce', 'msg_sent']);
    const bounces = await run(['deliveries', 'find', '--event', 'email.hardBounced', '--json'], { env: { LOOPS_DELIVERY_STORE: store } });
    expect(bounces.json().map((delivery: { webhookId: string }) => delivery.webhookId)).toEqual(['msg_bounce']);
    expect((await run(['deliveries', 'find', '--email-id', 'cemail_1', '--store', store, '--json'])).json()).toHaveLength(2);

    const shown = await run(['deliveries', 'show', 'msg_bounce', '--store', store, '--json']);
    expect(shown.json()).toMatchObject({ webhookId: 'msg_bounce', eventName: 'email.hardBounced', verified: true, payload: { sourceType: 'campaign' } });
    expect(shown.json().headers['webhook-id']).toBe('msg_bounce');
    const forged = await run(['deliveries', 'show', 'msg_forged', '--store', store]);
    expect(forged.code).toBe(4);
    expect(forged.stderr).toContain('Error: no delivery msg_forged in ');

    const stats = await run(['deliveries', 'stats', '--store', store, '--json']);
    expect(stats.json()).toMatchObject({ events: 2, sends: 1, bounces: 1, rates: { bounces: 1 } });
    const byEvent = await run(['deliveries', 'stats', '--by', 'event', '--store', store]);
    expect(byEvent.stdout.split('\n')[0]).toMatch(/^EVENT\tEVENTS\tSENDS\tDELIVERED\tBOUNCED/);
    // No sends among the bounces' own row: their rates are not applicable.
    expect(byEvent.stdout).toContain('email.hardBounced\t1\t0\t0 (-)\t1 (-)\t');
    expect(byEvent.stdout).toContain('campaign.email.sent\t1\t1\t0 (0%)\t0 (0%)\t');
    const byEventJson = await run(['deliveries', 'stats', '--by', 'event', '--store', store, '--json']);
    expect(byEventJson.json().find((row: { key: string }) => row.key === 'email.hardBounced').rates).toMatchObject({ bounces: null, deliveries: null });
    const listed = await run(['deliveries', 'find', '--store', store, '--to', 'ada@example.com']);
    // Both of one second: the ids decide the order.
    expect(
      listed.stdout
        .split('\n')
        .slice(1, 3)
        .map((line) => line.split('\t').slice(1, 4)),
    ).toEqual([
      ['campaign.email.sent', 'ada@example.com', 'msg_sent'],
      ['email.hardBounced', 'ada@example.com', 'msg_bounce'],
    ]);
  });

  it('prunes the deliveries older than a span once confirmed, says how many with --dry-run, and keeps their counts in stats', async () => {
    const store = storeFile();
    const journal = await openDeliveryStore(store);
    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    const delivery = (webhookId: string, eventName: string, eventTime: number) => ({
      webhookId,
      receivedAt: new Date(eventTime * 1000),
      headers: {},
      body: JSON.stringify({ eventName, eventTime, contactIdentity: { id: 'c_1', email: 'ada@example.com', userId: null } }),
      verified: true,
    });
    try {
      await journal.record(delivery('msg_old_send', 'campaign.email.sent', now - 100 * day));
      await journal.record(delivery('msg_old_bounce', 'email.hardBounced', now - 95 * day));
      await journal.record(delivery('msg_new', 'email.opened', now - day));
    } finally {
      await journal.close();
    }
    const planned = await run(['deliveries', 'prune', '--older-than', '90d', '--store', store, '--dry-run']);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toMatch(/^2 deliveries older than \S+Z would be removed\n$/);
    const unconfirmed = await run(['deliveries', 'prune', '--older-than', '90d', '--store', store]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('not confirmed');
    expect((await run(['deliveries', 'find', '--store', store, '--json'])).json()).toHaveLength(3);
    const pruned = await run(['deliveries', 'prune', '--older-than', '90d', '--store', store, '--yes', '--json']);
    expect(pruned.json()).toMatchObject({ count: 2, removed: 2 });
    expect((await run(['deliveries', 'find', '--store', store, '--json'])).json().map((kept: { webhookId: string }) => kept.webhookId)).toEqual(['msg_new']);
    expect((await run(['deliveries', 'stats', '--store', store, '--json'])).json()).toMatchObject({ events: 3, sends: 1, bounces: 1, opens: 1 });
    expect((await run(['deliveries', 'prune', '--older-than', '90d', '--store', store])).stdout).toMatch(/^0 deliveries older than \S+: nothing to remove\n$/);
  });

  it('shows a body with its C0 and C1 controls escaped on a terminal, and its bytes as they are in --json', async () => {
    const store = storeFile();
    const journal = await openDeliveryStore(store);
    // JSON escapes C0 controls itself, not C1: a raw ESC comes only in a body that is not JSON.
    const body = event('contact.created', 'ada@example.com', { firstName: 'A\u009b2Jda' }).replace('"eventName"', '"\u001b[31mnote":1,"eventName"');
    try {
      await journal.record({ webhookId: 'msg_controls', receivedAt: new Date(), headers: {}, body, verified: true });
    } finally {
      await journal.close();
    }
    const shown = await run(['deliveries', 'show', 'msg_controls', '--store', store], { tty: { columns: 200 }, env: { NO_COLOR: '1' } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"\\x1b[31mnote":1,"eventName"');
    expect(shown.stdout).toContain('"firstName":"A\\x9b2Jda"');
    expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u0080-\u009f]/);
    const json = await run(['deliveries', 'show', 'msg_controls', '--store', store, '--json']);
    expect(json.json().payload).toBe(body);
  });

  it("keeps the sandbox's own signed deliveries, of the types its API calls cause", async () => {
    const store = storeFile();
    const dir = tempDir();
    kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
    const env = { LOOPSCTL_CONFIG_DIR: dir, LOOPS_WEBHOOK_SECRET: SECRET };
    const listen = running(startRun(['webhooks', 'listen', '--store', store], { env }));
    const [, listenUrl] = await listen.waitFor(/^(\S+)\n/);
    const sandbox = running(startRun(['sandbox', '--webhook-url', listenUrl!], { env }));
    const [, sandboxUrl] = await sandbox.waitFor(/^(http\S+)\n/);
    const api = { ...env, LOOPS_BASE_URL: sandboxUrl!, LOOPS_API_KEY: 'sandbox-key' };
    const created = await run(['contacts', 'create', '--email', 'hopper@example.com'], { env: api });
    expect(created.code, created.stderr).toBe(0);
    await listen.waitFor(/contact\.created\s+hopper@example\.com/);
    const found = await run(['deliveries', 'find', '--to', 'hopper@example.com', '--store', store, '--json']);
    expect(found.json().map((delivery: { eventName: string; verified: boolean }) => [delivery.eventName, delivery.verified])).toEqual([
      ['contact.created', true],
    ]);
  });

  it('passes each delivery on to each target from the store, a failing one retried apart, and after a restart', async () => {
    const store = storeFile();
    const env = { LOOPS_WEBHOOK_SECRET: SECRET };
    const steady = kept(await startWebhookApp(SECRET));
    // The second target fails its first try of each delivery.
    const flaky = kept(await startWebhookApp(SECRET, (_delivery, index) => (index === 0 ? 500 : 200)));
    // The first target's URL carries credentials, which nothing prints.
    const credentialed = steady.url.replace('http://', 'http://hook:s3cret-4711@');
    const listen = running(startRun(['webhooks', 'listen', '--store', store, '--forward-to', credentialed, '--forward-to', flaky.url], { env }));
    const [, url] = await listen.waitFor(/^(\S+)\n/);
    expect(await post(url!, 'msg_fan', event('contact.created', 'lin@example.com'))).toBe(200);
    const [first] = await steady.waitFor(1);
    const tries = await flaky.waitFor(2);
    expect(first!.signed).toBe(true);
    expect(tries.map((delivery) => [delivery.headers['webhook-id'], delivery.signed])).toEqual([
      ['msg_fan', true],
      ['msg_fan', true],
    ]);
    await listen.waitFor(new RegExp(`msg_fan \\(contact\\.created\\) → ${flaky.url.replaceAll('.', '\\.')}\\s+200`));
    const answered = await run(['deliveries', 'find', '--target', flaky.url, '--store', store, '--json']);
    expect(answered.json()[0].forward).toMatchObject({ attempts: 2, lastStatus: 200 });
    const shown = await run(['deliveries', 'show', 'msg_fan', '--store', store, '--json']);
    expect(shown.json().forwards.map((forward: { target: string; doneAt: string | null }) => [forward.target, forward.doneAt !== null])).toEqual(
      [steady.url.replace('http://', 'http://[redacted]@'), flaky.url].sort().map((target) => [target, true]),
    );
    expect(JSON.stringify([shown.json(), (await run(['deliveries', 'find', '--target', credentialed, '--store', store, '--json'])).json()])).not.toContain(
      's3cret-4711',
    );
    await listen.stop();

    // A delivery its target failed is taken up again by the next start, from the store.
    const recovering = kept(await startWebhookApp(SECRET, (_delivery, index) => (index === 0 ? 503 : 200)));
    const before = startRun(['webhooks', 'listen', '--store', store, '--forward-to', recovering.url], { env });
    const [, again] = await before.waitFor(/^(\S+)\n/);
    expect(await post(again!, 'msg_later', event('contact.deleted', 'lin@example.com'))).toBe(200);
    await before.waitFor(/msg_later \(contact\.deleted\) → \S+\s+the app failed: 503 .*again at/);
    await before.stop();
    const pending = await run(['deliveries', 'find', '--target', recovering.url, '--store', store, '--json']);
    expect(pending.json()[0].forward).toMatchObject({ attempts: 1, lastStatus: 503, doneAt: null });
    running(startRun(['webhooks', 'listen', '--store', store, '--forward-to', recovering.url], { env }));
    const both = await recovering.waitFor(2);
    expect(both.map((delivery) => [delivery.headers['webhook-id'], delivery.signed])).toEqual([
      ['msg_later', true],
      ['msg_later', true],
    ]);
  });

  it('passes each delivery on to every plain --forward-to at once without a store', async () => {
    const one = kept(await startWebhookApp(SECRET));
    const two = kept(await startWebhookApp(SECRET, () => 'hang'));
    const listen = running(startRun(['webhooks', 'listen', '--forward-to', one.url, '--forward-to', two.url], { env: { LOOPS_WEBHOOK_SECRET: SECRET } }));
    const [, url] = await listen.waitFor(/^(\S+)\n/);
    expect(await post(url!, 'msg_both', event('contact.created', 'kay@example.com'))).toBe(200);
    // The one that never answers holds nothing back: the other has it.
    expect((await one.waitFor(1))[0]!.headers['webhook-id']).toBe('msg_both');
    expect((await two.waitFor(1))[0]!.headers['webhook-id']).toBe('msg_both');
  });

  it('judges --alert live as deliveries come, and posts only its transitions to --notify', async () => {
    const slack = kept(await startWebhookApp(SECRET));
    const listen = running(
      startRun(['webhooks', 'listen', '--alert', 'email.hardBounced>5%/1h', '--min-sends', '10', '--notify', `${slack.url}/slack`, '--jsonl'], {
        env: { LOOPS_WEBHOOK_SECRET: SECRET },
      }),
    );
    const [, url] = await listen.waitFor(/"url":"([^"]+)"/);
    const at = 1_790_000_000;
    const email = { id: 'e1', emailMessageId: 'cmsg_live', subject: 'Live' };
    // Whole events of their types: alerts read events as parseWebhookEvent does.
    const timed = (eventName: 'campaign.email.sent' | 'email.hardBounced' | 'email.delivered', time: number) =>
      JSON.stringify({ ...webhookFixture(eventName), eventTime: time, email });
    for (let index = 0; index < 10; index++) expect(await post(url!, `msg_s${index}`, timed('campaign.email.sent', at))).toBe(200);
    expect(await post(url!, 'msg_b1', timed('email.hardBounced', at))).toBe(200);
    // A second later: the second before it is judged whole.
    expect(await post(url!, 'msg_later', timed('email.delivered', at + 1))).toBe(200);
    const [posted] = await slack.waitFor(1);
    expect(posted!.path).toBe('/slack');
    expect(posted!.payload.text).toBe('loopsctl webhooks: 2 alerts fired, 0 resolved');
    const { stdout } = await listen.stop();
    const alerts = stdout
      .split('\n')
      .filter((line) => line.includes('"kind":"alert"'))
      .map((line) => JSON.parse(line));
    expect(alerts.map(({ state, email: about, events, sends }) => [state, about?.id ?? null, events, sends])).toEqual([
      ['fired', null, 1, 10],
      ['fired', 'cmsg_live', 1, 10],
    ]);
    expect(slack.received).toHaveLength(1);
  });

  it('names a store that cannot be opened without its password', async () => {
    const result = await run(['deliveries', 'find', '--store', 'postgres://app:s3cret-pass@127.0.0.1:1/journal']);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('s3cret-pass');
    expect(result.stderr).toContain('127.0.0.1:1');
    const none = await run(['deliveries', 'find'], { env: { LOOPS_DELIVERY_STORE: undefined } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('LOOPS_DELIVERY_STORE');
  });
});
