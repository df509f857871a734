/**
 * Keeps one run under the API's rate limit (about 10 requests per second per team): no more than
 * `perSecond` requests start in any one-second window, and when the API says no requests remain
 * (x-ratelimit-remaining: 0) nothing starts until its reset, or for a second when it gives none.
 * Turns are handed out in order, so concurrent callers (bulk metrics) queue fairly.
 */
import { sleep } from './retry.js';

export interface PacerOptions {
  perSecond: number;
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
  private readonly perSecond: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Start times of the most recent requests, oldest first, at most perSecond of them. */
  private readonly starts: number[] = [];
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(options: PacerOptions) {
    this.perSecond = options.perSecond;
    this.windowMs = WINDOW_MS + (options.marginMs ?? DEFAULT_MARGIN_MS);
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? sleep;
  }

  /** Waits until a request may start, and counts it as started. */
  turn(signal?: AbortSignal): Promise<void> {
    const mine = this.queue.then(() => this.waitForSlot(signal));
    // A caller interrupted while queued must not block the ones behind it.
    this.queue = mine.catch(() => undefined);
    return mine;
  }

  /** Reads the rate-limit headers of an answer. */
  observe(headers: Record<string, string | string[] | undefined>): void {
    if (headerValue(headers['x-ratelimit-remaining']) !== '0') return;
    const pause = resetDelay(headerValue(headers['x-ratelimit-reset']), Date.now()) ?? WINDOW_MS;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.min(pause, MAX_PAUSE_MS));
  }

  private async waitForSlot(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.now();
      const windowFull = this.starts.length >= this.perSecond ? this.starts[0]! + this.windowMs : 0;
      const readyAt = Math.max(this.pausedUntil, windowFull);
      if (readyAt <= now) break;
      await this.sleep(readyAt - now, signal);
    }
    this.starts.push(this.now());
    if (this.starts.length > this.perSecond) this.starts.shift();
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

/** x-ratelimit-reset is sent either as seconds until the reset or as a Unix time in seconds. */
function resetDelay(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  const UNIX_TIME_FLOOR = 1_000_000_000;
  return number >= UNIX_TIME_FLOOR ? Math.max(0, number * 1000 - nowMs) : number * 1000;
}
