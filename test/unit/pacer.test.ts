import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/api/pacer.js';

/** A clock that only moves when the pacer sleeps. */
function fakeTime() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

describe('Pacer', () => {
  it('never starts more than 10 requests in any one-second window, even with callers in parallel', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, marginMs: 0, ...time });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let index = 0; index < 10; index += 1) {
          await pacer.turn();
          starts.push(time.now());
        }
      }),
    );
    expect(starts).toHaveLength(40);
    for (const start of starts) expect(starts.filter((other) => other >= start && other < start + 1_000).length).toBeLessThanOrEqual(10);
    // And it is no slower than it has to be: 40 requests in 3 s and a bit.
    expect(Math.max(...starts)).toBe(3_000);
  });

  it('adds a margin to each window by default, so network jitter cannot squeeze in an eleventh request', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    for (let index = 0; index < 11; index += 1) await pacer.turn();
    expect(time.now()).toBe(1_050);
  });

  it('pauses for a second when x-ratelimit-remaining reaches 0 without a reset', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    await pacer.turn();
    pacer.observe({ 'x-ratelimit-remaining': '5' });
    await pacer.turn();
    expect(time.now()).toBe(0);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    await pacer.turn();
    expect(time.now()).toBe(1_000);
  });

  it('pauses until the reset the headers give, as seconds from now', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' });
    await pacer.turn();
    expect(time.now()).toBe(3_000);
  });

  it('lets the queue move on when a waiting caller is interrupted', async () => {
    const pacer = new Pacer({ perSecond: 1, now: () => 0, sleep: async (_ms, signal) => (signal?.aborted ? Promise.reject(new Error('interrupted')) : undefined) });
    await pacer.turn();
    const controller = new AbortController();
    controller.abort();
    await expect(pacer.turn(controller.signal)).rejects.toThrow('interrupted');
  });
});
