/**
 * Group commit: calls that would each be a round trip and a commit of their own, run together. A
 * call that finds nothing under way runs at once, alone. One that comes while runs are under way
 * waits for the end of the event loop's turn it came in (no timer): the calls of that turn (the
 * deliveries whose requests were read together) then run as one, as many at a time as `size` says
 * of those waiting, while fewer than `limit` runs are under way; past that they wait for a run to
 * end, and those that waited run as one. So deliveries that arrive together cost a statement and a
 * commit for each group, not each one, and one that arrives alone waits for nothing.
 */
export function grouped<Item, Result>(
  limit: number,
  /** How many of the calls waiting, from the first, the next group takes (one at least). */
  size: (waiting: readonly Item[]) => number,
  run: (items: readonly Item[]) => Promise<readonly Result[]>,
): (item: Item) => Promise<Result> {
  let running = 0;
  let turnEnding = false;
  const waiting: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  const startWaiting = () => {
    while (running < limit && waiting.length > 0) start(waiting.splice(0, Math.max(1, size(waiting.map(({ item }) => item)))));
  };
  const turnEnded = () => {
    turnEnding = false;
    startWaiting();
  };
  // The next group starts before this one's callers resume: a caller that then calls again joins the queue behind it.
  const ended = () => {
    running -= 1;
    startWaiting();
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
    // Nothing under way: the call runs at once, alone, as one at a time does (a wait would only cost its turn).
    if (running === 0) {
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
    const result = new Promise<Result>((resolve, reject) => void waiting.push({ item, resolve, reject }));
    // setImmediate runs once the turn's I/O callbacks are done: every request read in it has called by then.
    if (!turnEnding && running < limit) {
      turnEnding = true;
      setImmediate(turnEnded);
    }
    return result;
  };
}
