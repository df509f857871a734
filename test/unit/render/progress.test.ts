import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../src/base/shapes.js';
import { type ListView, writeList } from '../../../src/render/list.js';
import { Output } from '../../../src/render/output.js';
import { PaginationProgress, progressText } from '../../../src/render/progress.js';

/** A stream that records what is written to it, in one log shared with the other stream. */
function fakeStream(name: string, log: [string, string][], isTTY: boolean): Writable & { isTTY: boolean } {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      log.push([name, String(chunk)]);
      done();
    },
  });
  return Object.assign(stream, { isTTY });
}

function page(items: number[], total: number, last: boolean): Page<{ n: number }> {
  return {
    pagination: {
      totalResults: total,
      returnedResults: items.length,
      perPage: 2,
      totalPages: Math.ceil(total / 2),
      nextCursor: last ? null : `c${items[0]}`,
      nextPage: null,
    },
    data: items.map((n) => ({ n })),
  };
}

async function* threePages() {
  yield page([1, 2], 5, false);
  yield page([3, 4], 5, false);
  yield page([5], 5, true);
}

const view: ListView<{ n: number }> = { noun: 'items', columns: [{ header: 'N' }], row: (item) => [String(item.n)] };
const CLEAR = '\r\x1b[2K';

async function run(options: { json?: boolean; stdoutTTY: boolean; stderrTTY: boolean; limit?: number; pages?: () => AsyncGenerator<Page<{ n: number }>> }) {
  const log: [string, string][] = [];
  const out = new Output({
    json: options.json ?? false,
    color: false,
    stdout: fakeStream('stdout', log, options.stdoutTTY),
    stderr: fakeStream('stderr', log, options.stderrTTY),
    env: {},
  });
  await writeList(out, (options.pages ?? threePages)(), view, { limit: options.limit });
  return log;
}

describe('pagination progress', () => {
  it('formats counts with thousands separators', () => {
    expect(progressText(1200, 10000, 'contacts')).toBe('fetched 1,200 of 10,000 contacts');
    expect(progressText(12, 10, 'items')).toBe('fetched 12 items');
  });

  it('counts towards --limit, and clears the line at the end even when pages remain', async () => {
    const log = await run({
      stdoutTTY: true,
      stderrTTY: true,
      limit: 4,
      pages: async function* () {
        yield page([1, 2], 10, false);
        yield page([3, 4], 10, false);
      },
    });
    expect(log).toEqual([
      ['stdout', 'N\n1\n2\n'],
      ['stderr', `${CLEAR}fetched 2 of 4 items`],
      ['stderr', CLEAR],
      ['stdout', '3\n4\n'],
      ['stderr', `${CLEAR}fetched 4 of 4 items`],
      ['stderr', CLEAR],
    ]);
  });

  it('counts pages on a terminal stderr and clears the line before each page of the table', async () => {
    const log = await run({ stdoutTTY: true, stderrTTY: true });
    expect(log).toEqual([
      ['stdout', 'N\n1\n2\n'],
      ['stderr', `${CLEAR}fetched 2 of 5 items`],
      ['stderr', CLEAR],
      ['stdout', '3\n4\n'],
      ['stderr', `${CLEAR}fetched 4 of 5 items`],
      ['stderr', CLEAR],
      ['stdout', '5\n'],
    ]);
  });

  it('clears the line before each streamed page, so stdout never mixes with it', async () => {
    const log = await run({ json: true, stdoutTTY: true, stderrTTY: true });
    const kinds = log.map(([name, text]) => (name === 'stderr' ? (text === CLEAR ? 'clear' : 'count') : 'out'));
    expect(kinds).toEqual(['out', 'count', 'clear', 'out', 'count', 'clear', 'out', 'out']);
    expect(
      JSON.parse(
        log
          .filter(([name]) => name === 'stdout')
          .map(([, text]) => text)
          .join(''),
      ),
    ).toHaveLength(5);
  });

  it('writes nothing on stderr when stderr is not a terminal', async () => {
    const log = await run({ stdoutTTY: false, stderrTTY: false });
    expect(log.filter(([name]) => name === 'stderr')).toEqual([]);
    expect(log.map(([, text]) => text).join('')).toBe('N\n1\n2\n3\n4\n5\n');
  });

  it('shows nothing for a listing that fits in one page', async () => {
    const log = await run({
      stdoutTTY: false,
      stderrTTY: true,
      pages: async function* () {
        yield page([1], 1, true);
      },
    });
    expect(log.filter(([name]) => name === 'stderr')).toEqual([]);
  });

  it('clears the line when paging fails half way', async () => {
    const log: [string, string][] = [];
    const out = new Output({ json: false, color: false, stdout: fakeStream('stdout', log, false), stderr: fakeStream('stderr', log, true), env: {} });
    async function* failing() {
      yield page([1, 2], 5, false);
      throw new Error('connection reset');
    }
    await expect(writeList(out, failing(), view)).rejects.toThrow('connection reset');
    expect(log.at(-1)).toEqual(['stderr', CLEAR]);
  });

  it('does nothing once cleared, and nothing to clear when never shown', () => {
    const log: [string, string][] = [];
    const progress = new PaginationProgress(() => fakeStream('stderr', log, true), false, 'items');
    progress.clear();
    expect(log).toEqual([]);
  });
});
