import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_POLICY, formatSeconds, mayRetry, parseRetryAfter, sleep } from '../../../src/api/retry.js';
import { InterruptedError } from '../../../src/base/errors.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2_000);
  });
  it('reads an HTTP date, and a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read, so that backoff applies', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('-500', now)).toBeUndefined();
    expect(parseRetryAfter('5 seconds', now)).toBeUndefined();
  });
  it('reads fractional seconds', () => {
    expect(parseRetryAfter('1.25', now)).toBe(1_250);
  });
});

describe('backoffDelay', () => {
  it('doubles from about 0.5 s and stops at 8 s', () => {
    const middle = { ...DEFAULT_RETRY_POLICY, random: () => 0.5 };
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(retry, middle))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });
  it('jitters each wait within 75-125 % of its nominal value, never above the cap', () => {
    expect(backoffDelay(0, { ...DEFAULT_RETRY_POLICY, random: () => 0 })).toBe(375);
    expect(backoffDelay(0, { ...DEFAULT_RETRY_POLICY, random: () => 0.999 })).toBe(625);
    expect(backoffDelay(9, { ...DEFAULT_RETRY_POLICY, random: () => 0.999 })).toBe(8_000);
  });
  it('takes its base and cap from the policy', () => {
    expect(backoffDelay(3, { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5, random: () => 0.5 })).toBe(5);
  });
});

describe('mayRetry', () => {
  it('retries anything the API certainly did not act on', () => {
    expect(mayRetry('rate-limited', false)).toBe(true);
    expect(mayRetry('not-connected', false)).toBe(true);
  });
  it('retries 5xx and broken connections only for idempotent requests', () => {
    expect(mayRetry('server', true)).toBe(true);
    expect(mayRetry('broken', true)).toBe(true);
    expect(mayRetry('server', false)).toBe(false);
    expect(mayRetry('broken', false)).toBe(false);
  });
});

describe('sleep', () => {
  it('ends early with InterruptedError when the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toEqual(new InterruptedError('interrupted'));
  });
  it('does not start when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(0, controller.signal)).rejects.toEqual(new InterruptedError('interrupted'));
  });
});

describe('formatSeconds', () => {
  it('reads as people say it', () => {
    expect(formatSeconds(500)).toBe('0.5 s');
    expect(formatSeconds(1_000)).toBe('1 s');
    expect(formatSeconds(120_000)).toBe('120 s');
  });
});

describe('timer bounds', () => {
  it('clamps every delay to what setTimeout can wait', async () => {
    const { clampDelay, MAX_TIMER_MS } = await import('../../../src/api/retry.js');
    expect(MAX_TIMER_MS).toBe(2 ** 31 - 1);
    expect([clampDelay(2 ** 40), clampDelay(Infinity), clampDelay(Number.NaN), clampDelay(-5), clampDelay(1.2)]).toEqual([MAX_TIMER_MS, MAX_TIMER_MS, 0, 0, 2]);
  });

  it('a sleep longer than a timer can hold still waits, instead of firing at once', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      void sleep(2 ** 40).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(done).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads a Retry-After too large for a number as a very long wait, not as none', () => {
    expect(parseRetryAfter('9'.repeat(400))).toBe(Number.MAX_SAFE_INTEGER);
  });
});
