/**
 * When a failed attempt is worth another try, and how long to wait first. The transport classifies
 * each failure; this decides. The rule that keeps writes safe: a request that is not idempotent is
 * tried again only when the API certainly did not act on it (it answered 429, or no connection was
 * ever made).
 */
import { InterruptedError, type LoopsctlError, RateLimitError, withDetails } from '../base/errors.js';
import { headerValue } from './headers.js';

export interface RetryPolicy {
  /** Further attempts after the first; 0 turns retries off. */
  retries: number;
  /** First backoff delay, doubled on each retry. */
  baseDelayMs: number;
  /** No backoff delay is longer than this. */
  maxDelayMs: number;
  /**
   * The longest wait a server may ask for (Retry-After, on a 429 or a 5xx alike); a longer one ends
   * the run instead of being waited out.
   */
  maxRetryAfterMs: number;
  /** 0 <= random() < 1, for jitter. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

/**
 * What went wrong with one attempt, as far as retrying is concerned:
 * - rate-limited: the API answered 429 and did nothing;
 * - not-connected: the connection was never established, so nothing was sent;
 * - server: the API answered 5xx, after perhaps doing part of the work;
 * - broken: the connection failed or timed out after the request may have been sent.
 */
export type FailureKind = 'rate-limited' | 'not-connected' | 'server' | 'broken';

export function mayRetry(kind: FailureKind, idempotent: boolean): boolean {
  return kind === 'rate-limited' || kind === 'not-connected' || idempotent;
}

/** Exponential backoff with jitter: about base, 2 x base, 4 x base, ... never above the cap. */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const nominal = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  // Spread each wait over 75-125 % of its nominal value so that parallel clients do not retry in step.
  return Math.min(policy.maxDelayMs, Math.round(nominal * (0.75 + policy.random() * 0.5)));
}

/**
 * Retry-After as milliseconds from now: either delay-seconds or an HTTP date. Undefined when the
 * header is absent or unreadable, so that backoff applies instead.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const text = headerValue(value);
  if (!text) return undefined;
  // A thousand-digit number is still a wait, only one longer than any cap.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Number.MAX_SAFE_INTEGER, Math.round(Number(text) * 1000));
  // HTTP dates name the day and month; without this, Date.parse would take "-5" for a year.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** setTimeout fires at once for a delay past 2^31 - 1 ms (about 24.8 days); no wait may be longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay setTimeout honours: whole, from 0 to MAX_TIMER_MS; anything not a number is 0. */
export function clampDelay(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(MAX_TIMER_MS, Math.ceil(ms));
}

/**
 * Resolves after ms (clamped to what a timer can wait), or rejects with InterruptedError as soon
 * as the signal aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError('interrupted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError('interrupted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, clampDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Seconds for people: "0.5 s", "12 s". */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${seconds < 10 ? Number(seconds.toFixed(1)) : Math.round(seconds)} s`;
}

/**
 * The error when a server (`who`: the API, an image's host, storage) asks for a wait (Retry-After)
 * longer than loopsctl waits: the run ends with it, said, rather than sleeping for a day.
 */
export function waitTooLong(error: LoopsctlError, who: string, waitMs: number, capMs: number): LoopsctlError {
  const asked = `${who} asks to wait ${formatSeconds(waitMs)} before the next request, longer than loopsctl waits (${formatSeconds(capMs)})`;
  return withDetails(error, {
    message: error instanceof RateLimitError ? `rate limited: ${asked}` : `${error.message}; ${asked}`,
    hint: 'run the command again after that time',
  });
}
