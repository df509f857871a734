/**
 * The CPU profile summary `npm run bench` prints beside each start's figure (test/bench/profile.ts):
 * samples counted by the function they fell in, across the runs profiled, with each entry's share
 * and its milliseconds a run.
 */
import { describe, expect, it } from 'vitest';
import { topEntries } from '../../bench/profile.js';

const frame = (id: number, functionName: string, url: string, lineNumber = 0) => ({ id, callFrame: { functionName, url, lineNumber } });

describe('the bench CPU profile summary', () => {
  it('counts the samples of each function across profiles, busiest first, with its share and time a run', () => {
    const nodes = [
      frame(1, '(root)', ''),
      frame(2, 'Script', 'node:vm', 83),
      frame(3, 'init', 'file:///x/dist/client.cjs', 0),
      frame(4, '', 'file:///x/dist/cli.cjs', 9),
    ];
    const first = { nodes, samples: [2, 2, 2, 3, 4, 2] };
    const second = { nodes, samples: [2, 3, 3, 2] };
    expect(topEntries([first, second])).toEqual([
      // 6 of 10 samples, 50 µs each, over 2 runs.
      '60% Script (node:vm) 0.1 ms',
      '30% init (client.cjs:1) 0.1 ms',
      '10% (anonymous) (cli.cjs:10) 0.0 ms',
    ]);
  });

  it('leaves out waiting and the profiler stopping itself', () => {
    const nodes = [
      frame(1, '(idle)', ''),
      frame(2, 'post', 'node:inspector', 113),
      frame(3, '', 'file:///x/test/bench/cpu-profile.cjs', 0),
      frame(4, 'writeSync', 'node:fs'),
    ];
    expect(topEntries([{ nodes, samples: [1, 1, 2, 3, 4] }])).toEqual(['100% writeSync (node:fs) 0.1 ms']);
  });

  it('keeps the six busiest', () => {
    const nodes = Array.from({ length: 9 }, (_, index) => frame(index + 1, `f${index + 1}`, 'node:fs'));
    const samples = nodes.flatMap(({ id }) => Array.from({ length: id }, () => id));
    expect(topEntries([{ nodes, samples }]).map((entry) => entry.split(' ')[1])).toEqual(['f9', 'f8', 'f7', 'f6', 'f5', 'f4']);
  });
});
