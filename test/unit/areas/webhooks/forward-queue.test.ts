/** The waits of a target that does not take a delivery: doubling from a second, up to an hour. */
import { describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_MS, retryDelayMs } from '../../../../src/areas/webhooks/forward-queue.js';

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
