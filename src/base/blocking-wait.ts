/**
 * A synchronous wait (for a lock another process holds, for SQLite's write lock) that a signal
 * ends. While JavaScript waits, no handler of a signal can run: a process that handles SIGINT and
 * SIGTERM (loopsctl ends its requests on them) would hear them only once the wait is over. For the
 * wait, the process takes them as one that handles neither, and ends at once: the wait comes
 * before anything is written, so nothing is left half done. The handlers are put back after it.
 */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function signalsEndWait<T>(wait: () => T): T {
  const handlers = SIGNALS.map((signal) => [signal, process.rawListeners(signal)] as const);
  for (const [signal] of handlers) process.removeAllListeners(signal);
  try {
    return wait();
  } finally {
    for (const [signal, listeners] of handlers) for (const listener of listeners) process.on(signal, listener as (signal: NodeJS.Signals) => void);
  }
}
