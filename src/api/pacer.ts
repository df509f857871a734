/**
 * Keeps one run under the API's rate limit as the API counts it: no more requests reach it in any
 * sliding second than it states in x-ratelimit-limit (10 until an answer states one, the
 * documented limit per team), nor than the user's own cap (--rate, LOOPSCTL_RATE). A request
 * reaches the API some time after it starts, and one that opens a connection or waits behind a
 * busy server reaches it late: counting starts alone, a late request and the one `limit` turns
 * after it, on time, land in one second as the API counts them. So each request's answer is
 * reported back (the function a turn resolves to), and the next window waits for the request
 * `limit` turns back to be a second old from its latest possible arrival: its answer, which came
 * after it arrived (up to LATE_MS of an answer's time is taken as lateness, and beyond it what a
 * request took more than the quickest answer of the run: a slow API delays every answer alike).
 * When the API says no requests remain (x-ratelimit-remaining: 0) nothing starts until its reset,
 * or for a second when it gives none. Turns are handed out in order, so concurrent callers (bulk
 * metrics) queue fairly.
 */
import { UsageError } from '../base/errors.js';
import { monotonicMs } from '../base/monotonic.js';
import { headerValue } from './headers.js';
import { sleep } from './retry.js';

/** The API allows about 10 requests per second per team; the pace until an answer states its limit. */
export const DEFAULT_REQUESTS_PER_SECOND = 10;

export interface PacerOptions {
  /** Requests per second until an answer states the limit (x-ratelimit-limit); 10 by default. */
  perSecond?: number;
  /** The user's cap (--rate, LOOPSCTL_RATE): never more than this, whatever the API allows. */
  maxPerSecond?: number;
  /**
   * Added to each one-second window, beyond the lateness measured by the answers: the API's clock
   * reads whole milliseconds, and it may count a window's ends in.
   */
  marginMs?: number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const WINDOW_MS = 1_000;
const DEFAULT_MARGIN_MS = 5;
/**
 * The part of an answer's time taken as the request's lateness in reaching the API, whatever the
 * answer's time: an answer within it bounds the arrival exactly, at no more cost than its own
 * time; a slower API (200 ms an answer) costs the window this much, not its whole latency, and a
 * request held longer than the quickest answer by more than this is still counted as late by all
 * of it.
 */
const LATE_MS = 50;
/** Longest the next window waits for the answer of the request that opened the last one. */
const MAX_UNANSWERED_MS = 1_000;
/** Longest pause a rate-limit header can impose; a longer one is the API's 429 to tell us about. */
const MAX_PAUSE_MS = 10_000;

/** Reports that the request given a turn was answered, or failed: what it took bounds when it reached the API. */
export type Answered = () => void;

interface Start {
  /** When the turn was given. */
  at: number;
  /** How long its answer took to come, once it came. */
  took: number | undefined;
}

export class Pacer {
  /** What the API allows: its stated limit, or the default until it states one. */
  private allowedPerSecond: number;
  private readonly maxPerSecond: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The most recent requests, oldest first: the last perSecond of them count. */
  private readonly starts: Start[] = [];
  /** The quickest answer of the run: what a request takes with no lateness (as far as the run has seen). */
  private quickest = Infinity;
  /** Wakes the caller waiting for an answer, when one comes. */
  private wake: (() => void) | undefined;
  private pausedUntil = 0;
  private queue: Promise<unknown> = Promise.resolve();
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

  /**
   * Waits until a request may start, and counts it as started. Resolves to what the caller calls
   * when the request's answer comes (its headers) or it fails; a turn never reported holds the next
   * window up to a second longer.
   */
  turn(signal?: AbortSignal): Promise<Answered> {
    // Nobody queued and a slot free: the turn is this caller's at once, with no wait to queue.
    if (this.queued === 0 && this.readyAt().at <= this.now()) return Promise.resolve(this.start());
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
    return this.starts.length >= limit && this.now() - this.starts[this.starts.length - limit]!.at < this.windowMs;
  }

  private async waitForSlot(signal?: AbortSignal): Promise<Answered> {
    for (;;) {
      const now = this.now();
      const { at, unanswered } = this.readyAt();
      if (at <= now) break;
      if (unanswered) await this.sleepUnlessAnswered(at - now, signal);
      else await this.sleep(at - now, signal);
    }
    return this.start();
  }

  /**
   * When the next request may start: once the request perSecond turns back is a window old from
   * the latest it can have reached the API, and no pause holds. Until that request's answer comes,
   * its lateness is unknown: the time is then the longest the wait for it may last.
   */
  private readyAt(): { at: number; unanswered: boolean } {
    const { perSecond } = this;
    const opening = this.starts.length >= perSecond ? this.starts[this.starts.length - perSecond]! : undefined;
    if (opening === undefined) return { at: this.pausedUntil, unanswered: false };
    if (opening.took === undefined) return { at: Math.max(this.pausedUntil, opening.at + this.windowMs + MAX_UNANSWERED_MS), unanswered: true };
    const late = Math.max(Math.min(opening.took, LATE_MS), opening.took - this.quickest);
    return { at: Math.max(this.pausedUntil, opening.at + this.windowMs + late), unanswered: false };
  }

  /** Sleeps `ms`, or less if an answer comes meanwhile (the caller then looks again). */
  private async sleepUnlessAnswered(ms: number, signal?: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const interrupt = () => stop.abort();
    signal?.addEventListener('abort', interrupt, { once: true });
    const answered = new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    // The sleep cut short by an answer ends quietly; only the caller's own interruption is an error.
    const slept = this.sleep(ms, stop.signal).catch((error: unknown) => {
      if (signal?.aborted) throw error;
    });
    slept.catch(() => undefined);
    try {
      await Promise.race([slept, answered]);
    } finally {
      this.wake = undefined;
      signal?.removeEventListener('abort', interrupt);
      stop.abort();
    }
  }

  private start(): Answered {
    const started: Start = { at: this.now(), took: undefined };
    this.starts.push(started);
    // Only the last perSecond starts count; the older ones are dropped in batches, not one a request.
    const { perSecond } = this;
    if (this.starts.length > 2 * perSecond + 64) this.starts.splice(0, this.starts.length - perSecond);
    return () => {
      if (started.took !== undefined) return;
      started.took = this.now() - started.at;
      this.quickest = Math.min(this.quickest, started.took);
      this.wake?.();
    };
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
