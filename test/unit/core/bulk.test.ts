/** A bulk import never has more sends in flight than its concurrency. */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { ImportProgress, runBulk, type InputRecord } from '../../../src/core/bulk.js';
import { Journal } from '../../../src/core/journal.js';
import { Output } from '../../../src/render/output.js';
import { tempDir } from '../../support/temp.js';

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });

async function* records(count: number): AsyncGenerator<InputRecord<number>> {
  for (let n = 1; n <= count; n++) yield { line: n, source: `record ${n}`, body: n };
}

it.each([1, 4, 7])('keeps at most %i sends in flight, and sends every record once', async (concurrency) => {
  const journal = await Journal.open(`${tempDir('loopsctl-bulk-')}/journal.jsonl`, 'events', 'events.jsonl', new Date());
  let inFlight = 0;
  let most = 0;
  const sent: number[] = [];
  const result = await runBulk({
    records: records(30),
    journal,
    statuses: ['sent', 'skipped', 'failed'],
    concurrency,
    // Each send completes only on a later turn of the event loop, after the loop has started all it may.
    send: async (body) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      sent.push(body);
      return { status: 'sent' };
    },
    out: new Output({ json: true, color: false, stdout: sink(), stderr: sink(), env: {}, columns: 80 }),
    progress: new ImportProgress(
      () => sink() as never,
      () => new Date(),
      undefined,
    ),
  });
  expect(most).toBe(concurrency);
  expect(sent.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
  expect(result.summary).toMatchObject({ sent: 30, skipped: 0, failed: 0 });
});
