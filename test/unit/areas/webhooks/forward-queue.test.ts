/**
 * The waits of a target that does not take a delivery (doubling from a second, up to an hour), and
 * a queue's tries on a clock of the test's: each signed afresh, and given up after three days.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ForwardQueue, type ForwardResult, GIVE_UP_AFTER_MS, retryDelayMs } from '../../../../src/areas/webhooks/forward-queue.js';
import type { Deliverer, DeliveryOutcome } from '../../../../src/platform/webhooks/deliver.js';
import { secretKey } from '../../../../src/platform/webhooks/signature.js';
import { webhookFixture } from '../../../../src/webhooks/sign.js';
import { openDeliveryStore } from '../../../../src/webhooks/store/index.js';
import { verifyWebhook } from '../../../../src/webhooks/verify.js';
import { tempDir } from '../../../support/temp.js';

describe('retryDelayMs', () => {
  it('doubles from one second after each failed try, and never waits more than an hour', () => {
    expect([1, 2, 3, 4, 12, 13, 40].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 2_048_000, 3_600_000, 3_600_000]);
  });

  it('tries a dead target for three days: dozens of tries, each an hour apart at the end', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed + retryDelayMs(attempts + 1) <= GIVE_UP_AFTER_MS) elapsed += retryDelayMs(++attempts);
    expect(attempts).toBeGreaterThan(70);
    expect(attempts).toBeLessThan(85);
  });
});

describe('ForwardQueue', () => {
  const SECRET = `whsec_${Buffer.from('the secret of the forward queue!').toString('base64')}`;
  const TARGET = 'http://127.0.0.1:9/hooks';
  const HOUR = 3_600_000;

  it('signs each try afresh, the first too, and gives a target that never takes it up after three days', async () => {
    const dir = tempDir();
    const start = new Date('2026-11-01T00:00:00Z').getTime();
    // The queue's clock moves an hour each time it is read: whatever a try waits for is due by its next look.
    let clock = start;
    const store = await openDeliveryStore(join(dir, 'deliveries.db'), { now: () => new Date(clock) });
    const tries: { at: number; headers: Record<string, string> }[] = [];
    let queue: ForwardQueue | undefined;
    try {
      const body = JSON.stringify(webhookFixture('contact.created'));
      // Kept with the platform's headers: long stale for the app's 300-second check by the time it is passed on.
      const stale = { 'content-type': 'application/json', 'Webhook-Id': 'msg_q', 'Webhook-Timestamp': '1', 'Webhook-Signature': 'v1,c3RhbGU=' };
      await store.record({ webhookId: 'msg_q', receivedAt: new Date(start), headers: stale, body, verified: true });
      // A dead target; a try is signed at the clock's last reading.
      const deliverer = {
        post: async (_url: string, headers: Record<string, string>): Promise<DeliveryOutcome> => {
          tries.push({ at: clock, headers });
          return { status: 503, latencyMs: 1, body: undefined };
        },
      } as unknown as Deliverer;
      const results: ForwardResult[] = [];
      const givenUp = new Promise<ForwardResult>((resolve, reject) => {
        queue = new ForwardQueue({
          store,
          targets: [TARGET],
          deliverer,
          key: secretKey(SECRET),
          now: () => new Date((clock += HOUR)),
          onResult: (result) => {
            results.push(result);
            if (result.nextAt === null) resolve(result);
          },
          onError: (_target, error) => reject(error),
        });
      });
      await queue!.enqueue('msg_q', [TARGET]);
      const last = await givenUp;
      await queue!.close();
      expect(last.outcome.status).toBe(503);
      // No retry window of the platform's to follow: the API reference (Events) states the signature
      // headers and a rate of 10 deliveries a second, and nothing of retries. Three days from the
      // queueing, then: the last try is the one whose next would fall past them.
      const [forward] = await store.forwards('msg_q');
      expect(forward).toMatchObject({ attempts: tries.length, nextAt: null, doneAt: null, lastStatus: 503 });
      const queued = forward!.enqueuedAt.getTime();
      for (const { nextAt } of results.slice(0, -1)) expect(nextAt!.getTime() - queued).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
      expect(forward!.lastAt!.getTime() + retryDelayMs(tries.length) - queued).toBeGreaterThan(GIVE_UP_AFTER_MS);
      expect(tries.length).toBeGreaterThan(15);
      expect(await store.dueForwards(TARGET, new Date(clock + 365 * 86_400_000))).toEqual([]);
      for (const { at, headers } of tries) {
        expect(Object.keys(headers).filter((name) => name.toLowerCase() === 'webhook-signature')).toEqual(['webhook-signature']);
        expect(headers['webhook-timestamp']).toBe(String(at / 1000));
        // The app's own check, at the try's time: its 300-second tolerance holds.
        expect((await verifyWebhook({ headers, body }, SECRET, { now: () => new Date(at) })).eventName).toBe('contact.created');
      }
    } finally {
      await queue?.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
