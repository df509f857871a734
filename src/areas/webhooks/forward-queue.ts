/**
 * Passing deliveries on from the store (`webhooks listen --store … --forward-to A --forward-to B`):
 * each delivery is queued for each of its targets as it is kept, and each target has a worker of
 * its own that sends it what is due, one at a time, in order, so a slow or dead target never holds
 * another back. A delivery a target does not take (not 2xx, or no answer) is due again after a
 * wait that doubles up to an hour; what is due survives a restart, which picks it up, so each
 * target gets each event at least once. Each try is signed afresh with its own timestamp (the same
 * webhook-id): the platform's, or an earlier try's, may be older than the app's tolerance by then,
 * a first try too when it waited for a restart. A delivery not taken within three days is given up.
 */
import { type Deliverer, type DeliveryOutcome, isAccepted } from '../../platform/webhooks/deliver.js';
import { signHeaders } from '../../platform/webhooks/signature.js';
import type { DeliveryStore, StoredDelivery } from '../../webhooks/store/index.js';

/** The first wait before a retry; each next one doubles. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 3_600_000;
/**
 * How long a delivery is retried before it is given up, from when it was queued. The platform
 * states no retry window of its own (its API reference gives the signature headers and a rate of
 * 10 a second, nothing of retries): three days outlasts a long weekend of an app down.
 */
export const GIVE_UP_AFTER_MS = 3 * 86_400_000;
const BATCH = 50;

/** The wait before the retry that follows `attempts` failed tries. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export interface ForwardResult {
  target: string;
  delivery: StoredDelivery;
  outcome: DeliveryOutcome;
  /** When it is tried again; null once taken, or given up. */
  nextAt: Date | null;
}

export interface ForwardQueueOptions {
  store: DeliveryStore;
  targets: readonly string[];
  deliverer: Deliverer;
  key: Buffer;
  now: () => Date;
  onResult: (result: ForwardResult) => void;
  /** Told of a store that failed under a worker, which then waits and tries again. */
  onError: (target: string, error: Error) => void;
}

class TargetWorker {
  private wake: (() => void) | undefined;
  /** Nudged while not asleep: the next sleep does not wait, as what was queued may have come after the look. */
  private nudged = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly abort = new AbortController();
  readonly done: Promise<void>;

  constructor(
    readonly target: string,
    private readonly options: ForwardQueueOptions,
  ) {
    this.done = this.run();
  }

  nudge(): void {
    if (this.wake === undefined) this.nudged = true;
    else this.wake();
  }

  stop(): Promise<void> {
    this.stopped = true;
    // A try under way is cut short and not counted: it is due again at the next start.
    this.abort.abort();
    this.nudge();
    return this.done;
  }

  private sleep(ms: number): Promise<void> {
    if (this.nudged || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        clearTimeout(this.timer);
        this.wake = undefined;
        resolve();
      };
      this.timer = setTimeout(this.wake, Math.max(0, Math.min(ms, LONGEST_RETRY_MS)));
    });
  }

  private async run(): Promise<void> {
    const { store } = this.options;
    while (!this.stopped) {
      this.nudged = false;
      try {
        const due = await store.dueForwards(this.target, this.options.now(), BATCH);
        for (const delivery of due) {
          if (this.stopped) return;
          await this.send(delivery);
        }
        if (due.length > 0) continue;
        const next = await store.nextForwardAt(this.target);
        if (!this.stopped) await this.sleep(next === undefined ? LONGEST_RETRY_MS : next.getTime() - this.options.now().getTime());
      } catch (error) {
        this.options.onError(this.target, error as Error);
        if (!this.stopped) await this.sleep(FIRST_RETRY_MS * 5);
      }
    }
  }

  private async send(delivery: StoredDelivery & { forward: { attempts: number; enqueuedAt: Date } }): Promise<void> {
    const { deliverer, key, now, store } = this.options;
    const signed = signHeaders(key, { id: delivery.webhookId, timestamp: String(Math.floor(now().getTime() / 1000)), body: delivery.body });
    // The kept signature headers go, in whatever case they were kept, so that only this try's is sent.
    const kept = Object.entries(delivery.headers).filter(([name]) => !(name.toLowerCase() in signed));
    const headers = { ...Object.fromEntries(kept), ...signed };
    const outcome = await deliverer.post(this.target, headers, delivery.body, this.abort.signal);
    if (this.stopped) return;
    const at = now();
    const attempts = delivery.forward.attempts + 1;
    const retryAt = at.getTime() + retryDelayMs(attempts);
    const nextAt = isAccepted(outcome) || retryAt - delivery.forward.enqueuedAt.getTime() > GIVE_UP_AFTER_MS ? null : new Date(retryAt);
    await store.recordForwardAttempt(this.target, delivery.webhookId, {
      at,
      status: outcome.status,
      error: outcome.status === null ? outcome.error : null,
      nextAt,
    });
    this.options.onResult({ target: this.target, delivery, outcome, nextAt });
  }
}

export class ForwardQueue {
  private readonly workers: Map<string, TargetWorker>;

  constructor(private readonly options: ForwardQueueOptions) {
    this.workers = new Map(options.targets.map((target) => [target, new TargetWorker(target, options)]));
  }

  /** Queues a delivery for its targets and wakes their workers; the targets it was new to. */
  async enqueue(webhookId: string, targets: readonly string[]): Promise<string[]> {
    const queued: string[] = [];
    for (const target of targets) if (await this.options.store.enqueueForward(target, webhookId)) queued.push(target);
    for (const target of queued) this.workers.get(target)?.nudge();
    return queued;
  }

  /** Stops every worker; what is still due stays in the store for the next start. */
  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
  }
}
