/** Running many requests with a few in flight. */

export type Outcome<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

/**
 * Runs fn over items with at most `limit` calls in flight and returns every outcome in the items'
 * order, failures included. A failure that `dooms` says will fail every other call too (no key,
 * no network) stops the run at once: no further call starts, `onDoomed` may cancel those in
 * flight, and that failure is thrown.
 */
export async function settleLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  options: { dooms?: (error: unknown) => boolean; onDoomed?: () => void } = {},
): Promise<Outcome<T, R>[]> {
  const outcomes = new Array<Outcome<T, R>>(items.length);
  let next = 0;
  let doomed: { error: unknown } | undefined;
  const worker = async () => {
    while (doomed === undefined && next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        outcomes[index] = { item, ok: true, value: await fn(item) };
      } catch (error) {
        outcomes[index] = { item, ok: false, error };
        if (doomed === undefined && options.dooms?.(error)) {
          doomed = { error };
          options.onDoomed?.();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (doomed !== undefined) throw doomed.error;
  return outcomes;
}

/** Requests in flight at once for settled: the pacer keeps them under the API's rate, this keeps them busy. */
const CONCURRENCY = 8;

/** fn over every item, CONCURRENCY at a time; the first failure fails the whole. */
export async function settled<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const outcomes = await settleLimit(items, CONCURRENCY, fn, { dooms: () => true });
  return outcomes.map((outcome) => {
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  });
}
