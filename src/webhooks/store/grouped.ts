/**
 * Group commit: calls that would each be a round trip and a commit of their own, run together when
 * they arrive while the database is busy. A call runs at once, alone, while fewer than `limit` runs
 * are under way (an idle store adds no wait); past that it waits, and the calls that waited run as
 * one (at most `most` at a time) as soon as a run ends. So deliveries that arrive at once, more of
 * them than the pool has connections, cost a statement and a commit for each group, not each one.
 */
export function grouped<Item, Result>(
  limit: number,
  most: number,
  run: (items: readonly Item[]) => Promise<readonly Result[]>,
): (item: Item) => Promise<Result> {
  let running = 0;
  const waiting: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  // The next group starts before this one's callers resume: a caller that then calls again joins the queue behind it.
  const ended = () => {
    running -= 1;
    if (waiting.length > 0) start(waiting.splice(0, most));
  };
  const start = (group: typeof waiting) => {
    running += 1;
    run(group.map(({ item }) => item)).then(
      (results) => {
        ended();
        for (const [index, { resolve }] of group.entries()) resolve(results[index]!);
      },
      (error: unknown) => {
        ended();
        if (group.length === 1) return void group[0]!.reject(error);
        // One call's failure (a row the database refuses) fails only that call: each is run again alone.
        for (const { item, resolve, reject } of group) run([item]).then((results) => resolve(results[0]!), reject);
      },
    );
  };
  return (item) => {
    // Nothing waits (a queue is left only while every run is busy): the call runs alone, at once,
    // with no queue entry or promise of its own, as every call on SQLite and most on an idle pool.
    if (running < limit) {
      running += 1;
      return run([item]).then(
        (results) => {
          ended();
          return results[0]!;
        },
        (error: unknown) => {
          ended();
          throw error;
        },
      );
    }
    return new Promise<Result>((resolve, reject) => void waiting.push({ item, resolve, reject }));
  };
}
