/**
 * `webhooks listen --store` when its store fails mid-delivery: the delivery is answered 503, so
 * that the sender retries it, and nothing is kept as received; the retry, once the store works
 * again, is kept once.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ReceivedDelivery, startListener } from '../../../../src/areas/webhooks/receiver.js';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { closedAfter } from '../../../support/closing.js';
import { tempDir } from '../../../support/main.js';
import { postSigned } from '../../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('the secret of the failing store!').toString('base64')}`;
const kept = closedAfter(afterEach);

const BODY = JSON.stringify({
  eventName: 'contact.unsubscribed',
  eventTime: Math.floor(Date.now() / 1000),
  webhookSchemaVersion: '1.0.0',
  contactIdentity: { id: 'c_1', email: 'ada@example.com', userId: null },
});

describe('webhooks listen with a store that fails mid-delivery', () => {
  it('answers 503 and keeps nothing, then keeps the retry once the store works', async () => {
    const dir = tempDir();
    kept({ close: async () => rmSync(dir, { recursive: true, force: true }) });
    const file = join(dir, 'deliveries.db');
    // A store that fails at its next write: closed under the listener, as a lost connection leaves it.
    const failing = await openDeliveryStore(`sqlite:${file}`);
    await failing.close();
    const told: ReceivedDelivery[] = [];
    const options = {
      host: '127.0.0.1',
      port: 0,
      key: Buffer.from(SECRET.replace(/^whsec_/, ''), 'base64'),
      toleranceSeconds: 300,
      routes: [],
      timeoutMs: 5_000,
      now: () => new Date(),
      onDelivery: (delivery: ReceivedDelivery) => void told.push(delivery),
    };
    const listener = await startListener({ ...options, store: failing });
    kept({ close: () => listener.close() });
    expect(await postSigned(listener.url, BODY, { secret: SECRET, id: 'msg_1' })).toBe(503);
    expect(told).toMatchObject([{ webhookId: 'msg_1', verified: false, problem: expect.stringContaining('the store could not keep it') }]);
    expect(told[0]!.problem).toContain('the sender retries');

    const store = await openDeliveryStore(`sqlite:${file}`);
    kept({ close: () => store.close() });
    expect(await store.get('msg_1')).toBeUndefined();
    // The platform's retry, to a listener whose store works: kept, once.
    const working = await startListener({ ...options, store });
    kept({ close: () => working.close() });
    expect(await postSigned(working.url, BODY, { secret: SECRET, id: 'msg_1' })).toBe(200);
    expect(await postSigned(working.url, BODY, { secret: SECRET, id: 'msg_1' })).toBe(200);
    expect(await store.get('msg_1')).toMatchObject({ webhookId: 'msg_1', verified: true });
    expect(told.slice(1).map((delivery) => [delivery.recorded, delivery.redelivery])).toEqual([
      [true, false],
      [false, true],
    ]);
  });
});
