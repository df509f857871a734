/**
 * The sandbox's webhook delivery engine: sends the deliveries the routes queued in the state
 * (src/emulator/routes/webhooks.ts) to the endpoint, signed with its secret, as the platform does:
 * at most 10 a second, each attempt with the same webhook-id and a fresh timestamp and signature,
 * a 2xx within the time limit as success, anything else (a redirect included) as a failure that is
 * retried on Standard Webhooks' schedule, compressed for a local sandbox: its waits divided by 60,
 * so 1 s, 5 s, 30 s, 2 min, 5 min, 10 min and 10 min, eight attempts in all. Every attempt and
 * the outcome are recorded in the state, where `loopsctl sandbox deliveries` shows them.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { monotonicMs } from '../base/monotonic.js';
import { Deliverer, deliveryHeaders, isAccepted, outcomeText } from '../platform/webhooks/deliver.js';
import { secretKey } from '../platform/webhooks/signature.js';
import type { StateCore } from './module.js';
import { type WebhookDelivery, webhookDeliveries, webhookEndpoint } from './routes/webhook-records.js';

/** Standard Webhooks' waits between attempts (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), divided by 60, at least a second. */
export const SANDBOX_RETRY_WAITS_MS = [1_000, 5_000, 30_000, 120_000, 300_000, 600_000, 600_000];

/** The platform starts at most 10 deliveries in any one second. */
const DELIVERIES_PER_SECOND = 10;
const WINDOW_MS = 1_000;

/** How long an endpoint may take to answer, as Standard Webhooks senders allow. */
const TIMEOUT_MS = 15_000;

export interface DeliveryTuning {
  retryWaitsMs?: number[];
  timeoutMs?: number;
}

export interface DeliveryEngineOptions extends DeliveryTuning {
  /** Runs `change` on the state as it now is and keeps what it changed, under the state's lock. */
  update<T>(change: (state: StateCore) => T): T;
  /**
   * Runs `look` on the state as it now is and keeps nothing: no lock, nothing written. The engine
   * looks after every request; a look through `update` would write the whole state out each time
   * (1.3 s a request with 100,000 contacts).
   */
  read<T>(look: (state: StateCore) => T): T;
  /** The system's clock, read once a start: the attempt is dated with that reading. */
  systemNow: () => Date;
  /** The sandbox's time at a reading of the system's clock (its clock may be moved or stopped: clock.ts). */
  sandboxTime: (system: Date) => Date;
  log?: (line: string) => void;
  /** Told of what stopped a round of deliveries (a state file that cannot be read); the next wake tries again. */
  onError: (error: unknown) => void;
}

interface Due {
  id: string;
  eventName: string;
  body: string;
  url: string;
  secret: string;
}

export class DeliveryEngine {
  private readonly deliverer: Deliverer;
  private readonly waits: number[];
  private readonly sending = new Map<string, Promise<void>>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private closed = false;
  /** When the last deliveries started, on both clocks, at most DELIVERIES_PER_SECOND of them, oldest first. */
  private readonly starts: { monotonic: number; system: number }[] = [];
  /** Ends the attempts under way when the engine closes: they stay pending in the state. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: DeliveryEngineOptions) {
    this.deliverer = new Deliverer(options.timeoutMs ?? TIMEOUT_MS);
    this.waits = options.retryWaitsMs ?? SANDBOX_RETRY_WAITS_MS;
  }

  /** Looks for deliveries that are due (after a request, a change of the state file, or a timer). */
  wake(): void {
    if (this.closed) return;
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    // Without an endpoint nothing is due nor waited for, which a run would find at the cost of its
    // promises and clock: a server whose webhooks are off is woken after every request.
    if (this.endpointMissing()) {
      clearTimeout(this.timer);
      return;
    }
    this.running = this.run()
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => (this.running = undefined));
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      for (const due of this.claimDue()) {
        // Paced as the platform paces them: an eleventh start waits until the first is over a second
        // old on the monotonic clock, which only moves forward, and on the system's, whose reading
        // at a start dates its attempt. Each clock is read on its own, and a busy machine may keep the
        // process from running between two readings: one clock alone would leave the recorded
        // times a second apart less that pause. A system clock set back waits a second at the most.
        // A timer may fire a little early: the time is checked again.
        while (this.starts.length >= DELIVERIES_PER_SECOND) {
          const first = this.starts[0]!;
          const systemWait = Math.min(first.system + WINDOW_MS + 1 - this.options.systemNow().getTime(), WINDOW_MS + 1);
          const wait = Math.max(first.monotonic + WINDOW_MS - monotonicMs(), systemWait);
          if (wait <= 0) break;
          await delay(Math.ceil(wait), undefined, { signal: this.stopping.signal }).catch(() => undefined);
          if (this.closed) return;
        }
        const system = this.options.systemNow();
        this.starts.push({ monotonic: monotonicMs(), system: system.getTime() });
        if (this.starts.length > DELIVERIES_PER_SECOND) this.starts.shift();
        const sent = this.send(due, system)
          .catch((error: unknown) => this.options.onError(error))
          .finally(() => {
            this.sending.delete(due.id);
            this.wake();
          });
        this.sending.set(due.id, sent);
      }
    } while (this.again && !this.closed);
    this.scheduleNext();
  }

  /** Whether the state holds no endpoint; not when it cannot be read, which a run reports (onError). */
  private endpointMissing(): boolean {
    try {
      return this.options.read((state) => webhookEndpoint.of(state)) === null;
    } catch {
      return false;
    }
  }

  /** The pending deliveries due now that are not being sent already, oldest first. */
  private claimDue(): Due[] {
    const now = this.now().getTime();
    return this.options.read((state) => {
      const endpoint = webhookEndpoint.of(state);
      if (endpoint === null) return [];
      return webhookDeliveries
        .of(state)
        .filter((delivery) => delivery.status === 'pending' && Date.parse(delivery.dueAt) <= now && !this.sending.has(delivery.id))
        .map((delivery) => ({
          id: delivery.id,
          eventName: delivery.eventName,
          body: JSON.stringify(delivery.payload),
          url: endpoint.url,
          secret: endpoint.secret,
        }));
    });
  }

  private scheduleNext(): void {
    clearTimeout(this.timer);
    if (this.closed) return;
    const next = this.options.read((state) =>
      webhookEndpoint.of(state) === null
        ? undefined
        : Math.min(
            ...webhookDeliveries
              .of(state)
              .filter((delivery) => delivery.status === 'pending' && !this.sending.has(delivery.id))
              .map((delivery) => Date.parse(delivery.dueAt)),
          ),
    );
    if (next === undefined || !Number.isFinite(next)) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - this.now().getTime()));
  }

  /** The sandbox's time now. */
  private now(): Date {
    return this.options.sandboxTime(this.options.systemNow());
  }

  /** Sends one attempt of `due`, dated with the system's time its start read. */
  private async send(due: Due, started: Date): Promise<void> {
    const at = this.options.sandboxTime(started);
    const headers = deliveryHeaders(secretKey(due.secret), { id: due.id, timestamp: String(Math.floor(at.getTime() / 1000)), body: due.body });
    const outcome = await this.deliverer.post(due.url, headers, due.body, this.stopping.signal);
    // An attempt cut short by a stop is not an attempt: the delivery stays pending, sent by the next start.
    if (this.stopping.signal.aborted) return;
    const record = this.options.update((state) => {
      const delivery = webhookDeliveries.of(state).find((candidate) => candidate.id === due.id);
      if (delivery === undefined) return undefined;
      delivery.attempts.push({
        at: at.toISOString(),
        url: due.url,
        status: outcome.status,
        error: outcome.status === null ? outcome.error : null,
        latencyMs: outcome.latencyMs,
      });
      const retries = delivery.attempts.length - 1;
      if (isAccepted(outcome)) delivery.status = 'delivered';
      else if (retries >= this.waits.length) delivery.status = 'failed';
      else delivery.dueAt = new Date(this.now().getTime() + this.waits[retries]!).toISOString();
      return structuredClone(delivery);
    });
    if (record !== undefined) this.options.log?.(deliveryLogLine(record, outcomeText(outcome), this.waits));
  }

  /** Stops sending at once: attempts under way are ended, and what was not sent stays queued in the state. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.running;
    await Promise.all(this.sending.values());
    await this.deliverer.close();
  }
}

function deliveryLogLine(delivery: WebhookDelivery, answer: string, waits: number[]): string {
  const head = `webhook ${delivery.eventName} ${delivery.id} attempt ${delivery.attempts.length}: ${answer}`;
  if (delivery.status === 'delivered') return head;
  if (delivery.status === 'failed') return `${head}; giving up after ${delivery.attempts.length} attempts`;
  return `${head}; retrying in ${waits[delivery.attempts.length - 1]! / 1000} s`;
}
