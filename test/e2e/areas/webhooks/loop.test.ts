/**
 * The local loop an app is built in, run for real: `loopsctl sandbox` delivering webhooks to
 * `loopsctl webhooks listen`, which passes them on to a small app started here; the app's changes
 * go to the sandbox through the API, and its handler gets the platform's signed events, each once.
 * And the sandbox's own retry rules, against an app that fails.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../../../src/emulator/routes/webhook-records.js';
import { startServer } from '../../../../src/emulator/server.js';
import { closedAfter } from '../../../support/closing.js';
import { type Running, run, startRun, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';
import { startWebhookApp } from '../../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('the secret of this loop, 32 byte').toString('base64')}`;
const PRODUCT_UPDATES = 'co0gnzwtbvun8n3amky3gzsp4';
const kept = closedAfter(afterEach);

/** What the loop's API calls make the platform send, in any order. */
const EXPECTED = [
  'contact.created',
  'contact.mailingList.subscribed',
  'loop.email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'transactional.email.sent',
  'email.delivered',
  'contact.deleted',
  'contact.unsubscribed',
];

/** A command running until interrupted, stopped after the test whatever its outcome. */
const running = (run: Running) => {
  kept({ close: async () => void (await run.stop()) });
  return run;
};

/** A temporary config dir, removed after the test. */
function scratchDir(): string {
  const dir = tempDir();
  kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
  return dir;
}

describe('sandbox, webhooks listen and an app', () => {
  it('delivers what the app did through the API as signed events of the right types, each exactly once', async () => {
    const configDir = scratchDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir, LOOPS_WEBHOOK_SECRET: SECRET };
    const app = kept(await startWebhookApp(SECRET));
    const listen = running(startRun(['webhooks', 'listen', '--forward-to', `${app.url}/webhooks`], { env }));
    const [, listenUrl] = await listen.waitFor(/^(\S+)\n/);
    const sandbox = running(startRun(['sandbox', '--webhook-url', listenUrl!, '--simulate-engagement'], { env }));
    const [, sandboxUrl] = await sandbox.waitFor(/^(http\S+)\n/);
    const api = { ...env, LOOPS_BASE_URL: sandboxUrl!, LOOPS_API_KEY: 'sandbox-key' };

    // Alan signs up on Product updates, which starts the welcome series; then gets a password reset.
    const created = await run(
      ['contacts', 'create', '--email', 'alan@example.com', '--first-name', 'Alan', '--prop', 'plan=pro', '--list', `${PRODUCT_UPDATES}=true`],
      { env: api },
    );
    expect(created.code, created.stderr).toBe(0);
    const sent = await run(
      ['transactional', 'send', SEED_IDS.passwordReset, '--to', 'alan@example.com', '--var', 'firstName=Alan', '--var', 'resetUrl=https://example.com/r/1'],
      { env: api },
    );
    expect(sent.code, sent.stderr).toBe(0);
    // A --sandbox command shares the state file; the serving sandbox delivers what it queued.
    const deleted = await run(['--sandbox', 'contacts', 'delete', '--email', 'grace@example.com', '--yes'], { env });
    expect(deleted.code, deleted.stderr).toBe(0);

    const received = await app.waitFor(EXPECTED.length);
    expect(received.map((delivery) => delivery.payload.eventName).sort()).toEqual([...EXPECTED].sort());
    for (const delivery of received) {
      expect(delivery.signed, delivery.body).toBe(true);
      expect(delivery.path).toBe('/webhooks');
    }
    expect(new Set(received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(EXPECTED.length);
    const payload = (eventName: string, sourceType?: string) =>
      received.find((delivery) => delivery.payload.eventName === eventName && (sourceType === undefined || delivery.payload.sourceType === sourceType))!
        .payload;
    expect(payload('contact.created')).toMatchObject({
      contactIdentity: { email: 'alan@example.com' },
      contact: { firstName: 'Alan', plan: 'pro', mailingLists: { [PRODUCT_UPDATES]: true } },
    });
    expect(payload('contact.mailingList.subscribed')).toMatchObject({ mailingList: { id: PRODUCT_UPDATES, name: 'Product updates' } });
    expect(payload('loop.email.sent')).toMatchObject({
      loopName: 'Welcome series',
      email: { subject: 'Welcome aboard, Alan' },
      mailingLists: [{ id: PRODUCT_UPDATES }],
    });
    for (const engagement of ['email.delivered', 'email.opened', 'email.clicked']) {
      expect(payload(engagement, 'loop')).toMatchObject({ loopId: payload('loop.email.sent').loopId, email: payload('loop.email.sent').email });
    }
    expect(payload('transactional.email.sent')).toMatchObject({
      transactionalId: SEED_IDS.passwordReset,
      transactionalName: 'Password reset',
      email: { subject: 'Reset your Acme password' },
    });
    expect(payload('email.delivered', 'transactional')).toMatchObject({
      transactionalId: SEED_IDS.passwordReset,
      email: payload('transactional.email.sent').email,
    });
    expect(payload('contact.deleted')).toMatchObject({ contactIdentity: { email: 'grace@example.com' } });
    expect(payload('contact.unsubscribed')).toMatchObject({ contactIdentity: { email: 'grace@example.com' } });

    // Each was delivered at the first attempt, so none can come again.
    const records = (await run(['sandbox', 'deliveries', '--json'], { env })).json<WebhookDelivery[]>();
    expect(records).toHaveLength(EXPECTED.length);
    for (const record of records) expect(record).toMatchObject({ status: 'delivered', attempts: [{ status: 200, url: listenUrl }] });
    expect(records.map((record) => record.id).sort()).toEqual(received.map((delivery) => delivery.headers['webhook-id']).sort());
    const table = await run(['sandbox', 'deliveries'], { env, tty: { columns: 160 } });
    expect(table.stdout.replace(/\u001b\[[\d;]*m/g, '')).toMatch(/transactional\.email\.sent\s+alan@example\.com\s+delivered\s+1\s+200/);
    const cleared = await run(['sandbox', 'deliveries', '--clear'], { env });
    expect(cleared.stderr).toContain(`Forgot ${EXPECTED.length} finished deliveries.`);
    expect((await run(['sandbox', 'deliveries', '--json'], { env })).json()).toEqual([]);

    const served = await sandbox.stop();
    expect(served.code).toBe(0);
    // The secret was the person's (LOOPS_WEBHOOK_SECRET): it is not printed.
    expect(`${served.stdout}${served.stderr}`).not.toContain('LOOPS_WEBHOOK_SECRET');
    expect(served.stderr).toContain(`Delivering webhooks to ${listenUrl}, each sent email followed by its simulated engagement`);
    expect(served.stderr).toMatch(/^webhook contact\.created msg_\S+ attempt 1: 200 \(\d+ ms\)$/m);
    const listened = await listen.stop();
    expect(listened.code).toBe(0);
    expect(listened.stderr).toContain(`Stopped: ${EXPECTED.length} deliveries received; ${EXPECTED.length} passed on, ${EXPECTED.length} taken by the app.`);
  });

  it('prints a secret of its own for `webhooks listen` when none is given, and keeps the setting for the next run', async () => {
    const configDir = scratchDir();
    const first = startRun(['sandbox', '--webhook-url', 'http://127.0.0.1:9/hooks', '--json'], { env: { LOOPSCTL_CONFIG_DIR: configDir } });
    const [, secret] = await first.waitFor(/"webhookSecret": "(whsec_[A-Za-z0-9+/=]+)"/);
    await first.stop();
    // Kept for the next run, and shown to a person with the other variables a shell needs.
    const second = startRun(['sandbox'], { env: { LOOPSCTL_CONFIG_DIR: configDir } });
    await second.waitFor(/^http\S+\n/);
    const result = await second.stop();
    expect(result.stderr).toContain(`LOOPS_API_KEY=sandbox-key LOOPS_WEBHOOK_SECRET=${secret}\n`);
    expect(result.stderr).toContain('Delivering webhooks to http://127.0.0.1:9/hooks;');
    const off = startRun(['sandbox', '--no-webhooks'], { env: { LOOPSCTL_CONFIG_DIR: configDir } });
    await off.waitFor(/^http\S+\n/);
    const stopped = await off.stop();
    expect(`${stopped.stdout}${stopped.stderr}`).not.toContain('LOOPS_WEBHOOK_SECRET');
    expect(stopped.stderr).not.toContain('Delivering webhooks');
  });
});

describe('the sandbox delivering to an app that fails', () => {
  const endpoint = (url: string) => ({ url, secret: SECRET, simulateEngagement: false });
  const deliveriesOf = (state: Record<string, unknown>) => state.webhookDeliveries as WebhookDelivery[];

  it('retries a failed delivery with the same webhook-id, a fresh signature, and records each attempt', async () => {
    const app = kept(await startWebhookApp(SECRET, (_delivery, index) => (index === 0 ? 503 : 200)));
    const sandbox = kept(await startServer({ webhookEndpoint: endpoint(`${app.url}/hooks`), deliverWebhooks: { retryWaitsMs: [10, 10] } }));
    const created = await run(['contacts', 'create', '--email', 'retry@example.com'], { env: { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: 'sandbox-key' } });
    expect(created.code).toBe(0);
    const [first, second] = await app.waitFor(2);
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    expect(second!.signed).toBe(true);
    expect(second!.payload.eventName).toBe('contact.created');
    // The second answer is recorded once the app has sent it; wait for the record, not for time.
    const record = await eventually(() => deliveriesOf(sandbox.state()).find((delivery) => delivery.status !== 'pending'));
    expect(record).toMatchObject({ status: 'delivered', attempts: [{ status: 503 }, { status: 200 }] });
  });

  it('gives up after the last attempt of the schedule, and says so in the record', async () => {
    const app = kept(await startWebhookApp(SECRET, () => 500));
    const sandbox = kept(await startServer({ webhookEndpoint: endpoint(app.url), deliverWebhooks: { retryWaitsMs: [10, 10] } }));
    await run(['contacts', 'delete', '--email', 'margaret@example.com', '--yes'], { env: { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: 'sandbox-key' } });
    await app.waitFor(3);
    const record = await eventually(() => deliveriesOf(sandbox.state()).find((delivery) => delivery.status === 'failed'));
    expect(record.attempts.map((attempt) => attempt.status)).toEqual([500, 500, 500]);
    expect(record.eventName).toBe('contact.deleted');
  });

  it('queues nothing when no webhook URL is set', async () => {
    const sandbox = kept(await startServer({ deliverWebhooks: true }));
    await run(['contacts', 'create', '--email', 'quiet@example.com'], { env: { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: 'sandbox-key' } });
    expect(deliveriesOf(sandbox.state())).toEqual([]);
  });
});

/**
 * The value once `find` returns one: checked after each turn of the event loop's I/O, which is
 * when the sandbox records an answer it has received.
 */
async function eventually<T>(find: () => T | undefined): Promise<T> {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
