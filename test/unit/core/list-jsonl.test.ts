import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../src/base/shapes.js';
import { jsonLines, type ListView, writeList } from '../../../src/render/list.js';
import { formatJson, JsonArrayWriter, Output } from '../../../src/render/output.js';

interface Item {
  id: string;
  name: string;
}

const view: ListView<Item> = { noun: 'items', columns: [{ header: 'ID' }, { header: 'NAME' }], row: (item) => [item.id, item.name] };

function capture(json = false) {
  const writes: string[] = [];
  const notes: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const out = new Output({ json, color: false, stdout: sink(writes), stderr: sink(notes), env: {} });
  return { out, writes, notes };
}

function page(items: Item[], nextCursor: string | null): Page<Item> {
  return {
    pagination: { totalResults: 3, returnedResults: items.length, perPage: 2, totalPages: 2, nextCursor, nextPage: null },
    data: items,
  };
}

async function* pagesOf(...pages: Page<Item>[]): AsyncGenerator<Page<Item>> {
  yield* pages;
}

const first = [
  { id: 'a1', name: 'Tab\there "quoted"' },
  { id: 'a2', name: 'Ünïcode\nnewline' },
];
const second = [{ id: 'a3', name: 'last', extra: { kept: true } } as Item];

describe('--jsonl', () => {
  it('prints one compact JSON item per line, one write per page', async () => {
    const { out, writes } = capture();
    await writeList(out, pagesOf(page(first, 'c2'), page(second, null)), view, { jsonl: true });
    expect(writes).toHaveLength(2);
    const lines = writes.join('').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual([...first, ...second]);
    expect(lines.every((line) => !line.includes('\n') && !line.startsWith(' '))).toBe(true);
  });

  it('prints only the items of the one page fetched with --cursor, not its envelope', async () => {
    const { out, writes, notes } = capture();
    await writeList(out, pagesOf(page(first, 'c2')), view, { singlePage: true, jsonl: true });
    expect(writes.join('')).toBe(`${JSON.stringify(first[0])}\n${JSON.stringify(first[1])}\n`);
    expect(notes).toEqual([]);
  });

  it('prints nothing at all for an empty listing', async () => {
    const { out, writes, notes } = capture();
    await writeList(out, pagesOf(page([], null)), view, { jsonl: true });
    expect(writes).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('keeps every item on one line, whatever line breaks its strings hold', () => {
    expect(jsonLines([{ text: 'a\nb\r\u2028c' }]).split('\n')).toHaveLength(2);
  });
});

describe('streamed --json', () => {
  it('writes pages as they come and prints the same text as the whole array formatted at once', async () => {
    const { out, writes } = capture(true);
    await writeList(out, pagesOf(page(first, 'c2'), page(second, null)), view);
    expect(writes.join('')).toBe(`${formatJson([...first, ...second])}\n`);
    expect(writes.length).toBe(3);
  });

  it('an array writer given no items prints an empty array', async () => {
    const { out, writes } = capture(true);
    const array = new JsonArrayWriter(out);
    await array.add([]);
    await array.end();
    expect(writes.join('')).toBe('[]\n');
  });
});

describe('the --cursor hint', () => {
  it('quotes a cursor the shell would read otherwise, and leaves a plain one as it is', async () => {
    const { shellWord } = await import('../../../src/render/shell-word.js');
    expect(shellWord('dGhlbWVfNQ')).toBe('dGhlbWVfNQ');
    expect(shellWord('a b;rm -rf ~')).toBe("'a b;rm -rf ~'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });
});
