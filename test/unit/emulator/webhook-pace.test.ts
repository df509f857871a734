/**
 * The sandbox's webhook engine paces its starts as the platform does ("Maximum delivery rate | 10
 * per second", the API reference's table of webhooks), at most 10 in any second, and
 * the times its attempts are dated with show it: those are the system clock's, which the pace reads
 * beside the monotonic clock that elapses.
 */
import { expect, it, vi } from 'vitest';
import { openCore } from '../../../src/emulator/core.js';
import { webhookDeliveries } from '../../../src/emulator/routes/webhook-records.js';
import { startWebhookApp } from '../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('a secret of the webhook app, 32 b').toString('base64')}`;

it('dates an eleventh start more than a second after the first, on a system clock that runs slower than time', async () => {
  const app = await startWebhookApp(SECRET);
  // Nine tenths of a second a second: paced by the monotonic clock alone, the eleventh attempt
  // would be dated about 900 ms after the first, as a pause of the process between the readings of
  // the two clocks would leave it dated that much short of a second.
  const base = Date.now();
  const now = () => new Date(base + Math.floor((Date.now() - base) * 0.9));
  const core = await openCore({
    seed: 'empty',
    rateLimit: false,
    deliverWebhooks: true,
    webhookEndpoint: { url: app.url, secret: SECRET, simulateEngagement: false },
    now,
  });
  try {
    const headers = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
    const created = await Promise.all(
      Array.from({ length: 11 }, (_, index) =>
        core.answer(
          { method: 'POST', target: '/v1/contacts/create', headers, body: Buffer.from(JSON.stringify({ email: `person${index}@example.com` })) },
          'http://sandbox.invalid',
        ),
      ),
    );
    expect(created.map((answer) => answer.status)).toEqual(Array(11).fill(200));
    await app.waitFor(11);
    const deliveries = () => webhookDeliveries.of(core.state());
    await vi.waitFor(() => expect(deliveries().map((delivery) => delivery.status)).toEqual(Array(11).fill('delivered')));
    const dated = deliveries()
      .map((delivery) => Date.parse(delivery.attempts[0]!.at))
      .sort((a, b) => a - b);
    expect(dated[10]! - dated[0]!).toBeGreaterThan(1000);
  } finally {
    await core.close();
    await app.close();
  }
});
