/**
 * How `deliveries replay` sends: one delivery at a time, in the journal's order, paced (the
 * platform itself sends at most 10 a second), each retried with a growing wait while the target
 * answers 5xx or 429 or does not answer, and listed when it still fails. Ctrl-C stops between two
 * tries: what was done is said, with the id to resume after, and a delivery cut short is sent
 * again on resume under the same webhook-id, which the receiver's dedupe holds.
 */
import { type DeliveryOutcome, isAccepted } from '../../platform/webhooks/deliver.js';

export interface ReplayItem {
  webhookId: string;
}

export interface ReplayFailure {
  webhookId: string;
  outcome: DeliveryOutcome;
  attempts: number;
}

export interface ReplayReport {
  /** Deliveries the target took (2xx). */
  sent: number;
  /** Deliveries that still failed after their tries. */
  failed: ReplayFailure[];
  /** Stopped (Ctrl-C) before the end. */
  stopped: boolean;
  /** The last delivery done with (sent or failed), to resume after; null when none was. */
  lastDone: string | null;
  /** Deliveries not done with: left when stopped. */
  remaining: number;
}

export interface ReplayPace {
  /** Deliveries a second, at most. */
  perSecond: number;
  /** Tries of a delivery before it is listed as failed. */
  attempts: number;
  /** The wait before the first retry, doubled for each next one. */
  backoffMs: number;
}

export const DEFAULT_PACE: ReplayPace = { perSecond: 10, attempts: 3, backoffMs: 1_000 };

export interface ReplayDriver<Item extends ReplayItem> {
  /** Sends one try of a delivery: signed now, so that a retry is never stale. */
  send(item: Item, signal: AbortSignal): Promise<DeliveryOutcome>;
  /** Waits, or rejects once the signal aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** Milliseconds on a clock that only moves forward. */
  now(): number;
  signal: AbortSignal;
  /** Told of each delivery once done with. */
  onDone?: (item: Item, outcome: DeliveryOutcome, attempts: number) => void;
}

/** Worth another try: the target failed for now (5xx, 429) or did not answer. */
export const isRetryable = (outcome: DeliveryOutcome) => outcome.status === null || outcome.status === 429 || outcome.status >= 500;

export async function replayDeliveries<Item extends ReplayItem>(items: readonly Item[], pace: ReplayPace, driver: ReplayDriver<Item>): Promise<ReplayReport> {
  const report: ReplayReport = { sent: 0, failed: [], stopped: false, lastDone: null, remaining: items.length };
  const interval = 1000 / pace.perSecond;
  let nextStart = driver.now();
  try {
    for (const item of items) {
      let attempts = 0;
      let outcome: DeliveryOutcome;
      for (;;) {
        const ahead = nextStart - driver.now();
        if (ahead > 0) await driver.wait(ahead, driver.signal);
        nextStart = Math.max(nextStart, driver.now()) + interval;
        attempts += 1;
        outcome = await driver.send(item, driver.signal);
        // A try cut short by Ctrl-C is not a try: the delivery is sent again on resume.
        if (driver.signal.aborted) throw driver.signal.reason;
        if (isAccepted(outcome) || !isRetryable(outcome) || attempts >= pace.attempts) break;
        await driver.wait(pace.backoffMs * 2 ** (attempts - 1), driver.signal);
      }
      if (isAccepted(outcome)) report.sent += 1;
      else report.failed.push({ webhookId: item.webhookId, outcome, attempts });
      report.lastDone = item.webhookId;
      report.remaining -= 1;
      driver.onDone?.(item, outcome, attempts);
    }
  } catch (error) {
    if (!driver.signal.aborted) throw error;
    report.stopped = true;
  }
  return report;
}
