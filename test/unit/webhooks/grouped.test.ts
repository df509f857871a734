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
  return { groups, run, release: () => releases.shift()!() };
}

describe('grouped', () => {
  it('runs a call at once while under the limit, and the calls that waited as one group when a run ends', async () => {
    const { groups, run, release } = held();
    const call = grouped(2, 10, run);
    const results = ['a', 'b', 'c', 'd', 'e'].map(call);
    expect(groups).toEqual([['a'], ['b']]);
    release();
    await results[0];
    expect(groups).toEqual([['a'], ['b'], ['c', 'd', 'e']]);
    release();
    release();
    expect(await Promise.all(results)).toEqual(['a!', 'b!', 'c!', 'd!', 'e!']);
  });

  it('takes at most `most` calls in a group', async () => {
    const { groups, run, release } = held();
    const call = grouped(1, 2, run);
    const results = ['a', 'b', 'c', 'd'].map(call);
    release();
    await results[0];
    release();
    await results[2];
    release();
    await Promise.all(results);
    expect(groups).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('fails a lone call with its own error, and frees its run for the next call', async () => {
    const { groups, run, release } = held();
    const call = grouped(1, 10, run);
    const failed = call('bad').catch((error: Error) => error.message);
    release();
    expect(await failed).toBe('refused');
    const next = call('a');
    expect(groups).toEqual([['bad'], ['a']]);
    release();
    expect(await next).toBe('a!');
  });

  it('fails only the call that failed in a group: each is run again alone', async () => {
    const { groups, run, release } = held();
    const call = grouped(1, 10, run);
    const results = ['a', 'b', 'bad', 'c'].map((item) => call(item).catch((error: Error) => error.message));
    release();
    await results[0];
    release();
    await new Promise<void>((resolve) => {
      const poll = () => (groups.length === 5 ? resolve() : setImmediate(poll));
      poll();
    });
    expect(groups.slice(2)).toEqual([['b'], ['bad'], ['c']]);
    release();
    release();
    release();
    expect(await Promise.all(results)).toEqual(['a!', 'b!', 'refused', 'c!']);
  });
});
