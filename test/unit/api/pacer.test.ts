import { describe, expect, it } from 'vitest';
import { Pacer, parseRate } from '../../../src/api/pacer.js';
import { UsageError } from '../../../src/base/errors.js';

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

  // The answer that says none remain comes 300 ms after the first start, without a reset.
  it.each([
    ['waits no longer than its own window when its own starts used up the limit: the API counted those', 10, 1_050],
    ['pauses a second when the limit is used up with fewer starts of its own: others share the budget', 9, 1_300],
  ])('%s', async (_behaviour, ownStarts, nextStart) => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    for (let index = 0; index < ownStarts; index += 1) await pacer.turn();
    await time.sleep(300);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    await pacer.turn();
    expect(time.now()).toBe(nextStart);
  });

  it('pauses until the reset the headers give, as seconds from now', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' });
    await pacer.turn();
    expect(time.now()).toBe(3_000);
  });

  it('lets the queue move on when a waiting caller is interrupted', async () => {
    const pacer = new Pacer({
      perSecond: 1,
      now: () => 0,
      sleep: async (_ms, signal) => (signal?.aborted ? Promise.reject(new Error('interrupted')) : undefined),
    });
    await pacer.turn();
    const controller = new AbortController();
    controller.abort();
    await expect(pacer.turn(controller.signal)).rejects.toThrow('interrupted');
  });

  it('paces at 10 a second until the API states its limit', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    expect(pacer.perSecond).toBe(10);
    for (let index = 0; index < 11; index += 1) await pacer.turn();
    expect(time.now()).toBe(1_000);
  });

  it('follows x-ratelimit-limit, higher or lower, never going above it', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    pacer.observe({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999' });
    expect(pacer.perSecond).toBe(1000);
    for (let index = 0; index < 1000; index += 1) await pacer.turn();
    expect(time.now()).toBe(0);
    await pacer.turn();
    expect(time.now()).toBe(1_000);

    pacer.observe({ 'x-ratelimit-limit': '2' });
    expect(pacer.perSecond).toBe(2);
    const starts: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      await pacer.turn();
      starts.push(time.now());
    }
    for (const start of starts) expect(starts.filter((other) => other >= start && other < start + 1_000).length).toBeLessThanOrEqual(2);
  });

  it('ignores a limit it cannot read, or of zero', () => {
    const pacer = new Pacer();
    for (const value of ['', 'many', '0', '-5', '1.5e3', ['abc']]) {
      pacer.observe({ 'x-ratelimit-limit': value });
      expect(pacer.perSecond).toBe(10);
    }
    pacer.observe({ 'x-ratelimit-limit': '20;w=1' });
    expect(pacer.perSecond).toBe(20);
  });

  it('reads a limit stated again as the same, and one that changes back as the new one', () => {
    const pacer = new Pacer();
    for (const [value, expected] of [
      ['30', 30],
      ['30', 30],
      ['many', 30],
      ['30', 30],
      [undefined, 30],
      ['5', 5],
      ['30', 30],
      [['40'], 40],
      [['40'], 40],
    ] as const) {
      pacer.observe({ 'x-ratelimit-limit': value as string | string[] | undefined });
      expect(pacer.perSecond).toBe(expected);
    }
  });

  it('gives a caller that finds a slot free its turn after those already waiting', async () => {
    const time = fakeTime();
    let release: () => void = () => {};
    const pacer = new Pacer({
      perSecond: 1,
      marginMs: 0,
      now: time.now,
      // The first wait holds until the test lets it go, while the clock has moved past it.
      sleep: async (ms) => {
        time.sleep(ms);
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const order: string[] = [];
    await pacer.turn();
    const waiting = pacer.turn().then(() => order.push('waiting'));
    // The window has passed by the clock, but a turn is queued: the new caller goes behind it.
    await time.sleep(1_000);
    const later = pacer.turn().then(() => order.push('later'));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await Promise.all([waiting, later]);
    expect(order).toEqual(['waiting', 'later']);
  });

  it("keeps the user's cap even when the API allows more", async () => {
    const time = fakeTime();
    const pacer = new Pacer({ maxPerSecond: 3, marginMs: 0, ...time });
    pacer.observe({ 'x-ratelimit-limit': '1000' });
    expect(pacer.perSecond).toBe(3);
    for (let index = 0; index < 7; index += 1) await pacer.turn();
    expect(time.now()).toBe(2_000);
    pacer.observe({ 'x-ratelimit-limit': '1' });
    expect(pacer.perSecond).toBe(1);
  });

  it('still waits out x-ratelimit-remaining: 0 under a high stated limit', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    pacer.observe({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' });
    await pacer.turn();
    expect(time.now()).toBe(2_000);
  });
});

describe('parseRate', () => {
  it('reads a whole number from 1, and nothing when not given', () => {
    expect(parseRate('5', '--rate')).toBe(5);
    expect(parseRate(' 1000 ', 'LOOPSCTL_RATE')).toBe(1000);
    expect(parseRate(undefined, '--rate')).toBeUndefined();
    expect(parseRate('', 'LOOPSCTL_RATE')).toBeUndefined();
  });

  it('refuses anything else with a usage error naming where it came from', () => {
    for (const bad of ['0', '-1', '2.5', 'fast', '1e3']) {
      expect(() => parseRate(bad, 'LOOPSCTL_RATE')).toThrow(UsageError);
      expect(() => parseRate(bad, 'LOOPSCTL_RATE')).toThrow('LOOPSCTL_RATE must be a whole number of requests per second, 1 or more');
    }
  });
});
