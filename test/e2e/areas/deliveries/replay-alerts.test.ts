/**
 * `deliveries replay` and `deliveries alerts` over a store the test fills: a replay signed again
 * and counted exactly by --plan, a target that answers 500 or never, Ctrl-C with its resume
 * command, and alerts that fire within the window of a seeded spike, never on the baseline or
 * under their floor.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEventName } from '../../../../src/webhooks/events.js';
import { webhookFixture } from '../../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { closedAfter } from '../../../support/closing.js';
import { run, startRun, tempDir } from '../../../support/main.js';
import { startWebhookApp } from '../../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('the secret of the replay tests!!').toString('base64')}`;
const env = { LOOPS_WEBHOOK_SECRET: SECRET };
const kept = closedAfter(afterEach);
const HOUR = 3600;
const START = 1_790_000_000;

interface Seeded {
  id: string;
  eventName: string;
  at: number;
  email?: string;
  verified?: boolean;
}

/** A store of these events, as a receiver would have kept them (their old signatures long stale). */
async function seededStore(events: Seeded[]): Promise<string> {
  const dir = tempDir();
  kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
  const file = join(dir, 'deliveries.db');
  const store = await openDeliveryStore(file);
  for (const { id, eventName, at, email = 'cmsg_news', verified = true } of events) {
    // A whole event of its type (alerts read events as parseWebhookEvent does), of this time, recipient and email.
    const fixture = webhookFixture(eventName as WebhookEventName) as unknown as Record<string, unknown>;
    const body = JSON.stringify({
      ...fixture,
      eventTime: at,
      contactIdentity: { id: `c_${id}`, email: `${id}@example.com`, userId: null },
      ...('email' in fixture ? { email: { id: `e_${id}`, emailMessageId: email, subject: email === 'cmsg_news' ? 'News' : 'Other' } } : {}),
    });
    const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': 'v1,c3RhbGU=' };
    await store.record({ webhookId: id, receivedAt: new Date(at * 1000), headers, body, verified });
  }
  await store.close();
  return file;
}

const contacts = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `msg_${index}`, eventName: 'contact.created', at: START + index }));

describe('deliveries replay', () => {
  it('sends exactly what --plan counts, each signed again now under its own webhook-id, oldest first', async () => {
    const store = await seededStore([...contacts(5), { id: 'msg_open', eventName: 'email.opened', at: START + 10 }]);
    const app = kept(await startWebhookApp(SECRET));
    const filters = ['--event', 'contact.*', '--since', '2026-01-01', '--store', store];
    const plan = await run(['deliveries', 'replay', '--forward-to', app.url, ...filters, '--plan', '--json'], { env });
    expect(plan.json()).toEqual({ count: 5, unverified: 0, to: app.url });
    const done = await run(['deliveries', 'replay', '--forward-to', app.url, ...filters, '--yes', '--json'], { env });
    expect(done.code, done.stderr).toBe(0);
    expect(done.json()).toMatchObject({ count: 5, sent: 5, failed: [], stopped: false, remaining: 0 });
    expect(app.received.map((delivery) => [delivery.headers['webhook-id'], delivery.signed])).toEqual(contacts(5).map(({ id }) => [id, true]));
    // Signed now: the app's timestamp check (300 s) takes it.
    for (const delivery of app.received) expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
  });

  it('never signs an unverified delivery: it is left out, and said so with a count, text and JSON', async () => {
    const store = await seededStore([...contacts(2), { id: 'msg_forged', eventName: 'contact.deleted', at: START + 5, verified: false }]);
    const app = kept(await startWebhookApp(SECRET));
    const plan = await run(['deliveries', 'replay', '--forward-to', app.url, '--store', store, '--plan'], { env });
    expect(plan.stdout).toBe(`2 deliveries to replay to ${app.url}\n`);
    expect(plan.stderr).toContain('Left out 1 unverified delivery: its signature was never checked');
    const done = await run(['deliveries', 'replay', '--forward-to', app.url, '--store', store, '--yes', '--json'], { env });
    expect(done.code, done.stderr).toBe(0);
    expect(done.json()).toMatchObject({ count: 2, unverified: 1, sent: 2 });
    expect(app.received.map((delivery) => delivery.headers['webhook-id'])).toEqual(['msg_0', 'msg_1']);
  });

  it('asks before sending when not told --yes, and sends nothing off a terminal', async () => {
    const store = await seededStore(contacts(1));
    const app = kept(await startWebhookApp(SECRET));
    const refused = await run(['deliveries', 'replay', '--forward-to', app.url, '--store', store], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not confirmed');
    expect(app.received).toEqual([]);
  });

  it('retries a target that answers 500 and lists the delivery when it still fails; exit 1', async () => {
    const store = await seededStore(contacts(2));
    const app = kept(await startWebhookApp(SECRET, (delivery) => (delivery.headers['webhook-id'] === 'msg_0' ? 500 : 200)));
    const result = await run(['deliveries', 'replay', '--forward-to', app.url, '--store', store, '--yes', '--json'], { env });
    expect(result.code).toBe(1);
    expect(result.json()).toMatchObject({ sent: 1, failed: [{ webhookId: 'msg_0', outcome: { status: 500 }, attempts: 3 }] });
    expect(app.received.map((delivery) => delivery.headers['webhook-id'])).toEqual(['msg_0', 'msg_0', 'msg_0', 'msg_1']);
  });

  it('stops at Ctrl-C with a target that never answers, says how many were sent, and resumes after the last', async () => {
    const store = await seededStore(contacts(3));
    const app = kept(await startWebhookApp(SECRET, (delivery) => (delivery.headers['webhook-id'] === 'msg_1' ? 'hang' : 200)));
    const replaying = startRun(['deliveries', 'replay', '--forward-to', app.url, '--store', store, '--yes'], { env });
    await app.waitFor(1, (delivery) => delivery.headers['webhook-id'] === 'msg_1');
    const stopped = await replaying.stop();
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('stopped after 1 of 3 deliveries');
    const [, resume] = /resume with: (.+)/.exec(stopped.stderr)!;
    expect(resume).toContain('--after msg_0');
    const plan = await run(['deliveries', 'replay', '--forward-to', app.url, '--store', store, '--after', 'msg_0', '--plan', '--json'], { env });
    expect(plan.json().count).toBe(2);
  });

  it("shows no secret of --forward-to's in the resume command, text or JSON, and says to put it back", async () => {
    const store = await seededStore(contacts(2));
    const app = kept(await startWebhookApp(SECRET, () => 'hang'));
    const secretUrl = `${app.url.replace('http://', 'http://hook:s3cret-4711@')}?token=t0ken-4711`;
    for (const json of [[], ['--json']]) {
      const replaying = startRun(['deliveries', 'replay', '--forward-to', secretUrl, '--store', store, '--yes', ...json], { env });
      await app.waitFor(1 + (json.length === 0 ? 0 : 1));
      const stopped = await replaying.stop();
      expect(stopped.code).toBe(130);
      const said = stopped.stderr + stopped.stdout;
      expect(said).not.toMatch(/s3cret-4711|t0ken-4711/);
      if (json.length === 0) {
        expect(stopped.stderr).toContain("put the URLs' secrets back where it shows [redacted]");
        expect(/resume with: (.+)/.exec(stopped.stderr)![1]).toContain(`--forward-to 'http://[redacted]@${app.url.slice('http://'.length)}?token=[redacted]'`);
      } else {
        expect(stopped.json()).toMatchObject({ resume: expect.stringContaining('?token=[redacted]'), resumeRedacted: expect.stringContaining('[redacted]') });
      }
    }
  });
});

/** Sends of one email at a second, and its bounces a minute later. */
const batch = (at: number, sends: number, bounces: number, email = 'cmsg_news'): Seeded[] => [
  ...Array.from({ length: sends }, (_, index) => ({ id: `s_${email}_${at}_${index}`, eventName: 'campaign.email.sent', at, email })),
  ...Array.from({ length: bounces }, (_, index) => ({ id: `b_${email}_${at}_${index}`, eventName: 'email.hardBounced', at: at + 60, email })),
];

describe('deliveries alerts', () => {
  it('fires within the window of a seeded spike, resolves once it has passed, and never on the baseline', async () => {
    // A day at 2% bounces each hour, with one hour at 10%.
    const hours = Array.from({ length: 24 }, (_, hour) => batch(START + hour * HOUR, 250, hour === 12 ? 25 : 5)).flat();
    const store = await seededStore(hours);
    const result = await run([
      'deliveries',
      'alerts',
      '--alert',
      'email.hardBounced>5%/1h',
      '--since',
      '2026-01-01',
      '--until',
      '2027-01-01',
      '--store',
      store,
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json().rules).toEqual([{ rule: 'email.hardBounced>5%/1h', minSends: 200, mostSends: 250, judged: true }]);
    const overall = result.json().transitions.filter((transition: { email: unknown }) => transition.email === null);
    expect(overall.map(({ state, at, events, sends }: { state: string; at: string; events: number; sends: number }) => [state, at, events, sends])).toEqual([
      ['fired', new Date((START + 12 * HOUR + 60) * 1000).toISOString(), 25, 250],
      ['resolved', new Date((START + 13 * HOUR + 60) * 1000).toISOString(), 5, 250],
    ]);
  });

  it('gives no verdict under the floor of 200 sends, and one with --min-sends', async () => {
    const store = await seededStore(batch(START, 100, 20));
    const quiet = await run(['deliveries', 'alerts', '--alert', 'email.hardBounced>5%/1h', '--since', '2026-01-01', '--store', store, '--json']);
    expect(quiet.json()).toEqual({ transitions: [], rules: [{ rule: 'email.hardBounced>5%/1h', minSends: 200, mostSends: 100, judged: false }] });
    const said = await run(['deliveries', 'alerts', '--alert', 'email.hardBounced>5%/1h', '--since', '2026-01-01', '--store', store]);
    expect(said.code).toBe(0);
    expect(said.stderr).toContain('Too few sends to judge email.hardBounced>5%/1h: at most 100 in its window, under its minimum of 200');
    expect(said.stderr).not.toContain('No alert fired');
    const lowered = await run(['deliveries', 'alerts', '--alert', 'email.hardBounced>5%/1h', '--min-sends', '50', '--since', '2026-01-01', '--store', store]);
    expect(lowered.code).toBe(1);
    expect(lowered.stdout).toContain('fired');
    expect(lowered.stdout).toContain('all email: 20 of 100 sends (20%)');
  });

  it('refuses a rule that does not parse, naming the place; exit 2', async () => {
    const result = await run(['deliveries', 'alerts', '--alert', 'email.hardBounced>5/1h', '--store', 'unused.db']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--alert email.hardBounced>5/1h: expected "%" after the rate, at character 20');
  });
});
