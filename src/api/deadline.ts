/**
 * The deadlines of a transport's attempts: a timer per attempt that an interrupt (Ctrl-C) also
 * ends, as the signal the connection pool watches. src/api/http.ts starts one for each attempt, and
 * the link checker (src/areas/check/links/probe.ts) one for each request.
 */
import type { RequestSignal } from '../base/node-http.js';

/**
 * An attempt's deadline, which an interrupt (Ctrl-C) also ends: one timer, cleared as soon as the
 * attempt ends, and the signal the pool watches. Its timer holds the process while the attempt is
 * under way: a tunnel that a proxy is still opening does not. AbortSignal.timeout() leaves its timer pending
 * until it fires, so an import of many records would keep one per request for the whole timeout;
 * and an AbortController with its EventTarget for each of thousands of attempts costs more than the
 * one listener the pool adds needs.
 */
class Deadline implements RequestSignal {
  expired = false;
  aborted = false;
  reason: unknown;
  private listeners: (() => void)[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(
    timeoutMs: number,
    private readonly owner: Deadlines,
  ) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, timeoutMs);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const { listeners } = this;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Each listener is called once, as with `{ once: true }`, the only way the pool listens. */
  addEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners = this.listeners.filter((other) => other !== listener);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.owner.ended(this);
  }
}

/**
 * The deadlines of a transport's attempts under way, which an interrupt ends all at once: one
 * listener on the interrupt signal for the transport's life, not one added and removed per attempt.
 */
export class Deadlines {
  private readonly live = new Set<Deadline>();
  private listening = false;
  private readonly onInterrupt = () => {
    for (const deadline of this.live) deadline.abort(this.interrupt!.reason);
  };

  constructor(private readonly interrupt: AbortSignal | undefined) {}

  start(timeoutMs: number): Deadline {
    const deadline = new Deadline(timeoutMs, this);
    this.live.add(deadline);
    if (this.interrupt !== undefined) {
      if (this.interrupt.aborted) deadline.abort(this.interrupt.reason);
      else if (!this.listening) {
        this.interrupt.addEventListener('abort', this.onInterrupt, { once: true });
        this.listening = true;
      }
    }
    return deadline;
  }

  ended(deadline: Deadline): void {
    this.live.delete(deadline);
  }

  /** Leaves the interrupt signal, which may outlive the transport. */
  close(): void {
    this.interrupt?.removeEventListener('abort', this.onInterrupt);
    this.listening = false;
  }
}
