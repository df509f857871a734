/**
 * The API's request rate limit, as the platform applies it: 10 requests in any one second per
 * team (a sliding window: every key of a sandbox is the one team's), each answer saying the limit
 * and what is left of it in x-ratelimit-limit and x-ratelimit-remaining, and a request beyond it
 * refused with 429 and a Retry-After.
 */
import { monotonicMs } from '../base/monotonic.js';

const REQUESTS_PER_SECOND = 10;
const WINDOW_MS = 1_000;

export interface RateDecision {
  /** False when the request is beyond the limit and must be refused. */
  allowed: boolean;
  /** x-ratelimit-limit and x-ratelimit-remaining, for every answer. */
  headers: Record<string, string>;
  /** Whole seconds until one more request is allowed, for the 429's Retry-After. */
  retryAfterSeconds: number;
  /** The 429's message: whose limit it is, and how to turn it off. */
  message: string;
}

/**
 * The platform answers "Too many requests"; the sandbox says more, since its limit is one a test
 * suite can meet by surprise on a fast machine, and can turn off.
 */
const SANDBOX_LIMITED =
  "Too many requests: this is the sandbox's limit of 10 requests a second, as the platform applies it; turn it off with startSandbox({ rateLimit: false }) or loopsctl sandbox --rate-limit off";

export class RateLimiter {
  /** When the requests it allowed in the last second arrived, oldest first. */
  private readonly arrivals: number[] = [];

  constructor(private readonly now: () => number = monotonicMs) {}

  /** Counts a request, if the window has room for it, and says whether it may go on. */
  take(): RateDecision {
    const now = this.now();
    while (this.arrivals.length > 0 && this.arrivals[0]! <= now - WINDOW_MS) this.arrivals.shift();
    const allowed = this.arrivals.length < REQUESTS_PER_SECOND;
    if (allowed) this.arrivals.push(now);
    const remaining = REQUESTS_PER_SECOND - this.arrivals.length;
    const freesAt = this.arrivals[0]! + WINDOW_MS;
    return {
      allowed,
      headers: { 'x-ratelimit-limit': String(REQUESTS_PER_SECOND), 'x-ratelimit-remaining': String(remaining) },
      retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1_000)),
      message: SANDBOX_LIMITED,
    };
  }
}

/** What a key that is always over the limit is told: nothing remains, and a second to wait. */
export const ALWAYS_LIMITED: RateDecision = {
  allowed: false,
  headers: { 'x-ratelimit-limit': String(REQUESTS_PER_SECOND), 'x-ratelimit-remaining': '0' },
  retryAfterSeconds: 1,
  message: 'Too many requests: the key sandbox-rate-limited is always over the rate limit, for testing a back-off; the key sandbox-key is not',
};
