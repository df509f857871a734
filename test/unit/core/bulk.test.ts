/**
 * A bulk import never has more sends in flight than its concurrency; a failure that would hit every
 * record stops it at once; each record's failure is reported with the first one's exit code.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AuthError, InterruptedError, NetworkError, RateLimitError, RejectedError, ServerError } from '../../../src/base/errors.js';
import { type BulkRun, ImportProgress, type InputRecord, type Outcome, runBulk } from '../../../src/core/bulk.js';
import { Journal, recordDigest } from '../../../src/core/import-journal.js';
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

/** A run of `records` one at a time, journaled; what it printed on stderr and what progress said. */
async function runOne(records: AsyncIterable<InputRecord<number>>, send: (body: number) => Promise<Outcome>, concurrency = 1) {
  const journal = await Journal.open(`${tempDir('loopsctl-bulk-')}/journal.jsonl`, 'events', 'events.jsonl', new Date());
  let stderr = '';
  const failedShown: number[] = [];
  const sent: number[] = [];
  const run: BulkRun<number> = {
    records,
    journal,
    statuses: ['sent', 'skipped', 'failed'],
    concurrency,
    send: (body) => {
      sent.push(body);
      return send(body);
    },
    out: new Output({
      json: true,
      color: false,
      stdout: sink(),
      stderr: new Writable({
        write: (chunk, _encoding, done) => {
          stderr += String(chunk);
          done();
        },
      }),
      env: {},
      columns: 80,
    }),
    progress: { update: (_done: number, failed: number) => failedShown.push(failed), clear: () => {} } as unknown as ImportProgress,
  };
  const result = await runBulk(run).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { result, stderr: () => stderr, failedShown, sent, path: journal.path, journal: () => readFileSync(journal.path, 'utf8') };
}

describe('a bulk run', () => {
  it.each([
    ['a refused key', new AuthError('Invalid API key')],
    ['an unreachable API', new NetworkError('connect ECONNREFUSED')],
    ['a rate limit that outlasted its retries', new RateLimitError('Too many requests')],
  ])('stops at %s, sending no further record', async (_what, error) => {
    // The failure comes on a later turn, while the next record waits for room to be sent.
    const run = await runOne(records(5), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw error;
    });
    expect(run.result).toEqual({ error });
    expect(run.sent).toEqual([1]);
  });

  it('says how many records this run sent when interrupted, in the singular for one', async () => {
    const run = await runOne(records(3), async (body) => {
      if (body === 2) throw new InterruptedError('interrupted');
      return { status: 'sent' };
    });
    expect(run.result).toMatchObject({ error: { message: 'interrupted after 1 record sent in this run (1 done in all)' } });
    expect(run.sent).toEqual([1, 2]);
  });

  it('exits with the code of the first failure, counts failures as they come, and says where the unshown ones are kept', async () => {
    const run = await runOne(
      (async function* () {
        yield { line: 1, source: 'not json', problem: 'not valid JSON' };
        for (let n = 2; n <= 13; n++) yield { line: n, source: `record ${n}`, body: n };
      })(),
      async (body) => {
        if (body === 2) return { status: 'failed' };
        throw new RejectedError(`record ${body} refused`, { status: 400 });
      },
    );
    expect(run.result).toMatchObject({ value: { exitCode: 2, summary: { sent: 0, skipped: 0, failed: 13 } } });
    const lines = run.stderr().trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual(['line 1: not valid JSON', 'line 2: failed', 'line 3: record 3 refused']);
    expect(lines.slice(9)).toEqual(['line 10: record 10 refused', `further failures are counted in the summary and kept in the journal ${run.path}`]);
    expect(run.failedShown).toEqual(Array.from({ length: 12 }, (_, index) => index + 2));
    expect(run.journal()).toContain('"status":"failed","message":"record 13 refused"');
  });

  it('says nothing of further failures when there are none past those shown', async () => {
    const run = await runOne(
      (async function* () {
        for (let n = 1; n <= 10; n++) yield { line: n, source: `record ${n}`, body: n };
      })(),
      async (body) => {
        throw new RejectedError(`record ${body} refused`, { status: 400 });
      },
    );
    const lines = run.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines.at(-1)).toBe('line 10: record 10 refused');
  });

  it('journals a failure after which the API may have acted, so that a rerun looks before sending again', async () => {
    const run = await runOne(
      (async function* () {
        yield { line: 1, source: 'record 1', body: 1 };
        yield { line: 2, source: 'record 2', body: 2 };
      })(),
      async (body) => {
        if (body === 1) throw new ServerError('the API failed (HTTP 502)', { status: 502 });
        throw new RejectedError('record 2 refused', { status: 400 });
      },
    );
    const entries = run
      .journal()
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(entries.filter((entry) => entry.status === 'failed')).toEqual([
      expect.objectContaining({ n: 1, mayHaveSent: true }),
      expect.not.objectContaining({ mayHaveSent: true }),
    ]);
    const reopened = await Journal.open(run.path, 'events', 'events.jsonl', new Date());
    expect(reopened.check({ n: 1, line: 1, digest: recordDigest('record 1') })).toBe('in-flight');
    expect(reopened.check({ n: 2, line: 2, digest: recordDigest('record 2') })).toBe('failed');
    reopened.close();
  });

  it('stops at an error of its own bookkeeping (the progress line), once the sends already out have ended', async () => {
    const journal = await Journal.open(`${tempDir('loopsctl-bulk-')}/journal.jsonl`, 'events', 'events.jsonl', new Date());
    const failure = new Error('the terminal went away');
    const ended: number[] = [];
    const result = await runBulk({
      records: records(10),
      journal,
      statuses: ['sent', 'skipped', 'failed'],
      concurrency: 2,
      send: async (body) => {
        await new Promise((resolve) => setImmediate(resolve));
        ended.push(body);
        return { status: 'sent' };
      },
      out: new Output({ json: true, color: false, stdout: sink(), stderr: sink(), env: {}, columns: 80 }),
      progress: {
        update: () => {
          throw failure;
        },
        clear: () => {},
      } as unknown as ImportProgress,
    }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    expect(result).toEqual({ error: failure });
    // The first two were out together; the third started while the first's error was not yet seen.
    expect(ended.length).toBeLessThan(10);
    const outcomes = readFileSync(journal.path, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { n: number; status: string });
    for (const n of ended) expect(outcomes).toContainEqual(expect.objectContaining({ n, status: 'sent' }));
  });

  it('stops a wrong file after 100 records in a row that cannot be read, saying what to check', async () => {
    const run = await runOne(
      (async function* () {
        for (let n = 1; n <= 150; n++) yield { line: n, source: `bad ${n}`, problem: 'not a JSON object' };
      })(),
      async () => ({ status: 'sent' }),
    );
    expect(run.result).toMatchObject({
      error: {
        message: 'stopped after 100 records in a row that cannot be sent (from line 1: not a JSON object)',
        hint: 'check that this is the right file; records already sent are in the journal, and a rerun resumes',
      },
    });
  });
});
