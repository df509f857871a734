import { describe, expect, it } from 'vitest';
import { grouped } from '../../../src/webhooks/store/grouped.js';

/** A run that waits until released, recording each group it was given. */
function held() {
  const groups: string[][] = [];
  const releases: (() => void)[] = [];
  const run = (items: readonly string[]) => {
    groups.push([...items]);
    return new Promise<string[]>((resolve, reject) =>
      releases.push(() => (items.includes('bad') ? reject(new Error('refused')) : resolve(items.map((item) => `${item}!`)))),
    );
  };
  /** Resolves once `count` groups have started, turn after turn of the event loop. */
  const started = (count: number) =>
    new Promise<void>((resolve) => {
      const look = () => (groups.length >= count ? resolve() : setImmediate(look));
      look();
    });
  return { groups, run, started, release: () => releases.shift()!() };
}

/** A group's size: the calls waiting, at most `most`. */
const upTo = (most: number) => (waiting: readonly string[]) => Math.min(most, waiting.length);

describe('grouped', () => {
  it('runs a call at once, alone, when nothing is under way', async () => {
    const { groups, run, release } = held();
    const call = grouped(2, upTo(10), run);
    const result = call('a');
    expect(groups).toEqual([['a']]);
    release();
    expect(await result).toBe('a!');
  });

  it("runs the calls that come while a run is under way as one group, once their turn's work is done", async () => {
    const { groups, run, started, release } = held();
    const call = grouped(2, upTo(10), run);
    const results = ['a', 'b', 'c', 'd'].map(call);
    // Within the turn the calls came in, the first runs; those after it wait for the rest of the turn to join them.
    expect(groups).toEqual([['a']]);
    await started(2);
    expect(groups).toEqual([['a'], ['b', 'c', 'd']]);
    release();
    release();
    expect(await Promise.all(results)).toEqual(['a!', 'b!', 'c!', 'd!']);
  });

  it('past the limit, the calls wait for a run to end, and go together', async () => {
    const { groups, run, release } = held();
    const call = grouped(1, upTo(10), run);
    const first = call('a');
    const later = ['b', 'c'].map(call);
    await new Promise((resolve) => setImmediate(resolve));
    // The turn ended with the one run allowed under way: nothing more started.
    expect(groups).toEqual([['a']]);
    const last = call('d');
    release();
    await first;
    expect(groups).toEqual([['a'], ['b', 'c', 'd']]);
    release();
    expect(await Promise.all([...later, last])).toEqual(['b!', 'c!', 'd!']);
  });

  it('takes as many calls in a group as its size says', async () => {
    const { groups, run, started, release } = held();
    const call = grouped(2, upTo(2), run);
    const results = ['a', 'b', 'c', 'd', 'e', 'f'].map(call);
    await started(2);
    expect(groups).toEqual([['a'], ['b', 'c']]);
    release();
    await results[0];
    expect(groups.at(-1)).toEqual(['d', 'e']);
    release();
    await results[1];
    expect(groups.at(-1)).toEqual(['f']);
    release();
    release();
    await Promise.all(results);
  });

  it('sizes a group by the calls waiting, and takes one where the size says none', async () => {
    const { groups, run, started, release } = held();
    // Up to the first call that starts with "stop", and never more than one of those.
    const call = grouped(1, (waiting) => waiting.findIndex((item, index) => index > 0 && item.startsWith('stop')), run);
    const results = ['a', 'b', 'stop1', 'c', 'stop2', 'stop3'].map(call);
    release();
    await started(2);
    expect(groups).toEqual([['a'], ['b']]);
    for (const count of [3, 4, 5]) {
      release();
      await started(count);
    }
    expect(groups.slice(2)).toEqual([['stop1', 'c'], ['stop2'], ['stop3']]);
    release();
    expect(await Promise.all(results)).toEqual(['a!', 'b!', 'stop1!', 'c!', 'stop2!', 'stop3!']);
  });

  it('fails a lone call with its own error, and frees its run for the next call', async () => {
    const { groups, run, release } = held();
    const call = grouped(1, upTo(10), run);
    const failed = call('bad').catch((error: Error) => error.message);
    release();
    expect(await failed).toBe('refused');
    const next = call('a');
    expect(groups).toEqual([['bad'], ['a']]);
    release();
    expect(await next).toBe('a!');
  });

  it('fails only the call that failed in a group: each is run again alone', async () => {
    const { groups, run, started, release } = held();
    const call = grouped(1, upTo(10), run);
    const results = ['x', 'a', 'b', 'bad', 'c'].map((item) => call(item).catch((error: Error) => error.message));
    release();
    await started(2);
    expect(groups).toEqual([['x'], ['a', 'b', 'bad', 'c']]);
    release();
    await started(6);
    expect(groups.slice(2)).toEqual([['a'], ['b'], ['bad'], ['c']]);
    release();
    release();
    release();
    release();
    expect(await Promise.all(results)).toEqual(['x!', 'a!', 'b!', 'refused', 'c!']);
  });
});
