import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Pacer, type PacerOptions, parseRate } from '../../../src/api/pacer.js';
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

/**
 * A clock that moves from one scheduled moment to the next once everything that can run at the
 * present one has: the pacer's sleeps, a request's arrival and its answer are such moments.
 */
function simulated(options: PacerOptions) {
  let now = 0;
  let order = 0;
  const moments: { at: number; order: number; run: () => void }[] = [];
  const at = (time: number, run: () => void) => {
    moments.push({ at: time, order: (order += 1), run });
  };
  const pacer = new Pacer({
    ...options,
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        const moment = { at: now + ms, order: (order += 1), run: resolve };
        moments.push(moment);
        signal?.addEventListener('abort', () => {
          moments.splice(moments.indexOf(moment), 1);
          reject(new Error('interrupted'));
        });
      }),
  });
  /** Runs the moments in time order until `work` settles. */
  async function until<T>(work: Promise<T>): Promise<T> {
    let settled = false;
    const watched = work.finally(() => {
      settled = true;
    });
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return watched;
      moments.sort((a, b) => a.at - b.at || a.order - b.order);
      const moment = moments.shift();
      if (moment === undefined) throw new Error('nothing left to happen, and the work is not done');
      now = Math.max(now, moment.at);
      moment.run();
    }
  }
  return { pacer, at, until, now: () => now };
}

/**
 * Requests made by `workers` callers side by side, each request reaching the server `late` ms
 * after its start and answered `after` ms after that: when each reached the server.
 */
async function arrivalsOf(requests: { late: number; after: number }[], workers: number, perSecond: number): Promise<number[]> {
  const simulation = simulated({ perSecond, marginMs: 0 });
  const arrivals: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const { late, after } = requests[next]!;
      next += 1;
      const answered = await simulation.pacer.turn();
      const start = simulation.now();
      await new Promise<void>((resolve) => {
        simulation.at(start + late, () => arrivals.push(simulation.now()));
        simulation.at(start + late + after, () => {
          answered();
          resolve();
        });
      });
    }
  };
  await simulation.until(Promise.all(Array.from({ length: workers }, worker)));
  return arrivals.sort((a, b) => a - b);
}

/** The most arrivals a server counting a sliding second, (t - 1 s, t], sees at once. */
function busiestSecond(arrivals: number[]): number {
  let most = 0;
  for (let last = 0, first = 0; last < arrivals.length; last += 1) {
    while (arrivals[first]! <= arrivals[last]! - 1_000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('Pacer as the server sees it', () => {
  it('never lets more than the limit arrive in any sliding second, whatever each request takes to arrive (up to 50 ms) and to be answered', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ late: fc.integer({ min: 0, max: 50 }), after: fc.integer({ min: 0, max: 1_500 }) }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 10 }),
        async (requests, workers, perSecond) => {
          const arrivals = await arrivalsOf(requests, workers, perSecond);
          expect(arrivals).toHaveLength(requests.length);
          expect(busiestSecond(arrivals)).toBeLessThanOrEqual(perSecond);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('costs a prompt server next to nothing: 40 requests answered in 5 ms take 3 windows of a second and that 5 ms, and two rounds of answers', async () => {
    const arrivals = await arrivalsOf(
      Array.from({ length: 40 }, () => ({ late: 0, after: 5 })),
      4,
      10,
    );
    expect(arrivals.at(-1)).toBe(3 * 1_005 + 10);
  });
});

describe('Pacer', () => {
  it('never starts more than 10 requests in any one-second window, even with callers in parallel', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, marginMs: 0, ...time });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let index = 0; index < 10; index += 1) {
          (await pacer.turn())();
          starts.push(time.now());
        }
      }),
    );
    expect(starts).toHaveLength(40);
    for (const start of starts) expect(starts.filter((other) => other >= start && other < start + 1_000).length).toBeLessThanOrEqual(10);
    // And it is no slower than it has to be: 40 requests in 3 s and a bit.
    expect(Math.max(...starts)).toBe(3_000);
  });

  it('adds a margin of a few milliseconds to each window by default, for clocks that read whole milliseconds', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    for (let index = 0; index < 11; index += 1) (await pacer.turn())();
    expect(time.now()).toBe(1_005);
  });

  it('counts a window from the answer of the request that opened it, which came after that request reached the API', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 2, marginMs: 0, ...time });
    // The first request opens a connection and is answered 80 ms after its start; the second at once.
    const first = await pacer.turn();
    const second = await pacer.turn();
    second();
    await time.sleep(80);
    first();
    (await pacer.turn())();
    expect(time.now()).toBe(1_080);
  });

  it('counts no more than 50 ms of a slow answer as lateness, unless it took that much more than the quickest', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 1, marginMs: 0, ...time });
    // An API that takes 200 ms for an answer: the arrival is taken to be at most 50 ms late.
    const slow = await pacer.turn();
    await time.sleep(200);
    slow();
    const next = await pacer.turn();
    expect(time.now()).toBe(1_050);
    // Then one held 400 ms more than that (a server busy with others): all of it was lateness.
    await time.sleep(600);
    next();
    (await pacer.turn())();
    expect(time.now()).toBe(1_050 + 1_000 + 400);
  });

  it('waits for the answer of the request that opened the window, but no more than a second past it', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 1, marginMs: 0, ...time });
    await pacer.turn();
    (await pacer.turn())();
    expect(time.now()).toBe(2_000);
  });

  it('starts the next request as soon as the awaited answer comes', async () => {
    const simulation = simulated({ perSecond: 1, marginMs: 0 });
    const { pacer } = simulation;
    const first = await pacer.turn();
    const next = pacer.turn();
    // Answered 50 ms after its start: the next request starts a window after that, not 2 s after.
    simulation.at(50, first);
    const answered = await simulation.until(next);
    answered();
    expect(simulation.now()).toBe(1_050);
  });

  it('pauses for a second when x-ratelimit-remaining reaches 0 without a reset', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    (await pacer.turn())();
    pacer.observe({ 'x-ratelimit-remaining': '5' });
    (await pacer.turn())();
    expect(time.now()).toBe(0);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    (await pacer.turn())();
    expect(time.now()).toBe(1_000);
  });

  // The answer that says none remain comes 300 ms after the first start, without a reset.
  it.each([
    ['waits no longer than its own window when its own starts used up the limit: the API counted those', 10, 1_005],
    ['pauses a second when the limit is used up with fewer starts of its own: others share the budget', 9, 1_300],
  ])('%s', async (_behaviour, ownStarts, nextStart) => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    for (let index = 0; index < ownStarts; index += 1) (await pacer.turn())();
    await time.sleep(300);
    pacer.observe({ 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0' });
    (await pacer.turn())();
    expect(time.now()).toBe(nextStart);
  });

  it('pauses until the reset the headers give, as seconds from now', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ perSecond: 10, ...time });
    pacer.observe({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' });
    (await pacer.turn())();
    expect(time.now()).toBe(3_000);
  });

  it('lets the queue move on when a waiting caller is interrupted', async () => {
    const pacer = new Pacer({
      perSecond: 1,
      now: () => 0,
      sleep: async (_ms, signal) => (signal?.aborted ? Promise.reject(new Error('interrupted')) : undefined),
    });
    (await pacer.turn())();
    const controller = new AbortController();
    controller.abort();
    await expect(pacer.turn(controller.signal)).rejects.toThrow('interrupted');
  });

  it('paces at 10 a second until the API states its limit', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    expect(pacer.perSecond).toBe(10);
    for (let index = 0; index < 11; index += 1) (await pacer.turn())();
    expect(time.now()).toBe(1_000);
  });

  it('follows x-ratelimit-limit, higher or lower, never going above it', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    pacer.observe({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999' });
    expect(pacer.perSecond).toBe(1000);
    for (let index = 0; index < 1000; index += 1) (await pacer.turn())();
    expect(time.now()).toBe(0);
    (await pacer.turn())();
    expect(time.now()).toBe(1_000);

    pacer.observe({ 'x-ratelimit-limit': '2' });
    expect(pacer.perSecond).toBe(2);
    const starts: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      (await pacer.turn())();
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
    (await pacer.turn())();
    const waiting = pacer.turn().then((answered) => {
      answered();
      order.push('waiting');
    });
    // The window has passed by the clock, but a turn is queued: the new caller goes behind it.
    await time.sleep(1_000);
    const later = pacer.turn().then((answered) => {
      answered();
      order.push('later');
    });
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
    for (let index = 0; index < 7; index += 1) (await pacer.turn())();
    expect(time.now()).toBe(2_000);
    pacer.observe({ 'x-ratelimit-limit': '1' });
    expect(pacer.perSecond).toBe(1);
  });

  it('still waits out x-ratelimit-remaining: 0 under a high stated limit', async () => {
    const time = fakeTime();
    const pacer = new Pacer({ marginMs: 0, ...time });
    pacer.observe({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2' });
    (await pacer.turn())();
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
