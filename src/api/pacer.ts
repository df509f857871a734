/**
 * Keeps one run under the API's rate limit: no more requests start in any one-second window than
 * the API states in x-ratelimit-limit (10 until an answer states one, the documented limit per
 * team), nor than the user's own cap (--rate, LOOPSCTL_RATE). When the API says no requests remain
 * (x-ratelimit-remaining: 0) nothing starts until its reset, or for a second when it gives none.
 * Turns are handed out in order, so concurrent callers (bulk metrics) queue fairly.
 */
import { UsageError } from '../base/errors.js';
import { headerValue } from './headers.js';
import { sleep } from './retry.js';
import { monotonicMs } from '../base/monotonic.js';

const DONE: Promise<void> = Promise.resolve();

/** The API allows about 10 requests per second per team; the pace until an answer states its limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;

export interface PacerOptions {
  /** Requests per second until an answer states the limit (x-ratelimit-limit); 10 by default. */
  perSecond?: number;
  /** The user's cap (--rate, LOOPSCTL_RATE): never more than this, whatever the API allows. */
  maxPerSecond?: number;
  /**
   * Added to each one-second window. A request reaches the API a little after its turn, by more for
   * one that opens a connection; without this margin, that jitter could land an eleventh request in
   * what the API counts as one second.
   */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const WINDOW_MS = 1_000;
const DEFAULT_MARGIN_MS = 50;
/** Longest pause a rate-limit header can impose; a longer one is the API's 429 to tell us about. */
const MAX_PAUSE_MS = 10_000;

export class Pacer {
  /** What the API allows: its stated limit, or the default until it states one. */
  private allowedPerSecond: number;
  private readonly maxPerSecond: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Start times of the most recent requests, oldest first: the last perSecond of them count. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();
  /** Turns asked for and not yet given. */
  private queued = 0;
  /** The last x-ratelimit-limit read, when it was one string. */
  private lastLimit: string | undefined;

  constructor(options: PacerOptions = {}) {
    this.allowedPerSecond = checkedRate(options.perSecond ?? DEFAULT_REQUESTS_PER_SECOND);
    this.maxPerSecond = checkedRate(options.maxPerSecond ?? Infinity);
    this.windowMs = WINDOW_MS + (options.marginMs ?? DEFAULT_MARGIN_MS);
    this.now = options.now ?? monotonicMs;
    this.sleep = options.sleep ?? sleep;
  }

  /** Waits until a request may start, and counts it as started. */
  turn(signal?: AbortSignal): Promise<void> {
    // Nobody queued and a slot free: the turn is this caller's at once, with no wait to queue.
    if (this.queued === 0 && this.readyAt() <= this.now()) {
      this.start();
      return DONE;
    }
    this.queued += 1;
    const mine = this.queue
      .then(() => this.waitForSlot(signal))
      .finally(() => {
        this.queued -= 1;
      });
    // A caller interrupted while queued must not block the ones behind it.
    this.queue = mine.catch(() => undefined);
    return mine;
  }

  /** Requests that may start in one window now. */
  get perSecond(): number {
    return Math.min(this.allowedPerSecond, this.maxPerSecond);
  }

  /** Reads the rate-limit headers of an answer. */
  observe(headers: Record<string, string | string[] | undefined>): void {
    const limit = headers['x-ratelimit-limit'];
    // Every answer states the same limit, most often: it is read again only when it changes.
    if (limit !== this.lastLimit) {
      this.lastLimit = typeof limit === 'string' ? limit : undefined;
      const stated = statedLimit(headerValue(limit));
      if (stated !== undefined) this.allowedPerSecond = stated;
    }
    if (headerValue(headers['x-ratelimit-remaining']) !== '0') return;
    const reset = resetDelay(headerValue(headers['x-ratelimit-reset']), Date.now());
    // Without a reset, when the API's count ends is unknown: a second from now, unless this run's
    // own starts in the last window make up the whole limit. Then they are what the API counted,
    // and the window already holds the next start until the oldest of them is a window old; a
    // second from this answer on top of that made a fast import wait most of a second for nothing
    // each time the limit was reached.
    if (reset === undefined && this.ownStartsFillWindow()) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.min(reset ?? WINDOW_MS, MAX_PAUSE_MS));
  }

  /** Whether this run started as many requests as the API allows within the last window. */
  private ownStartsFillWindow(): boolean {
    const limit = this.allowedPerSecond;
    return this.starts.length >= limit && this.now() - this.starts[this.starts.length - limit]! < this.windowMs;
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      const readyAt = this.readyAt();
      if (readyAt <= now) break;
      await this.sleep(readyAt - now, signal);
    }
    this.start();
  }

  /** When the next request may start: once the start perSecond turns back is a window old, and no pause holds. */
  private readyAt(): number {
    const { perSecond } = this;
    const windowFull = this.starts.length >= perSecond ? this.starts[this.starts.length - perSecond]! + this.windowMs : 0;
    return Math.max(this.pausedUntil, windowFull);
  }

  private start(): void {
    this.starts.push(this.now());
    // Only the last perSecond starts count; the older ones are dropped in batches, not one a request.
    const { perSecond } = this;
    if (this.starts.length > 2 * perSecond + 64) this.starts.splice(0, this.starts.length - perSecond);
  }
}

/**
 * A requests-per-second cap given by the user (--rate, LOOPSCTL_RATE): a whole number from 1.
 * Undefined when not given.
 */
export function parseRate(value: string | undefined, source: string): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${source} must be a whole number of requests per second, 1 or more`);
  }
  return Number(text);
}

function checkedRate(rate: number): number {
  if (!(rate >= 1)) throw new RangeError(`a pace needs at least 1 request per second, not ${rate}`);
  return rate === Infinity ? rate : Math.floor(rate);
}

/** x-ratelimit-limit as a number of requests, or undefined when absent or unreadable ("0" included). */
function statedLimit(value: string | undefined): number | undefined {
  // Also read the leading number of the structured form "10;w=1".
  const digits = value === undefined ? undefined : /^(\d+)(?![\d.])/.exec(value)?.[1];
  if (digits === undefined) return undefined;
  const limit = Number(digits);
  return limit >= 1 && Number.isSafeInteger(limit) ? limit : undefined;
}

/** x-ratelimit-reset is sent either as seconds until the reset or as a Unix time in seconds. */
function resetDelay(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  const UNIX_TIME_FLOOR = 1_000_000_000;
  return number >= UNIX_TIME_FLOOR ? Math.max(0, number * 1000 - nowMs) : number * 1000;
}
