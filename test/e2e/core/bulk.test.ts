/**
 * An import against an API that refuses, fails and is stopped: a refusal of one record is that
 * record's failure, with the API's message, kept in the journal; a failure that would hit every
 * record (a wrong key, no network, a rate limit that does not lift) stops the run and says so; and a
 * run stopped mid-import resumes without sending any record twice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, type RecordedRequest, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { run, tempDir } from '../../support/main.js';

const kept = closedAfter(afterEach);
const event = (n: number) => JSON.stringify({ eventName: 'signup', email: `p${n}@example.com` });

function eventsFile(count: number): string {
  const file = join(tempDir('loopsctl-import-'), 'events.jsonl');
  writeFileSync(file, Array.from({ length: count }, (_, index) => `${event(index + 1)}\n`).join(''));
  return file;
}

const journalOf = (file: string) =>
  readFileSync(`${file}.journal.jsonl`, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const emailOf = (request: RecordedRequest) => JSON.parse(request.body).email as string;
const keyOf = (request: RecordedRequest) => request.headers['idempotency-key'] as string;

describe('an import that the API refuses', () => {
  it('records a 400, 404 or 422 as the failure of that record, with its message, never as already sent', async () => {
    const refusals: Record<string, [number, string]> = {
      'p1@example.com': [400, 'eventName is required'],
      'p2@example.com': [404, 'No contact found'],
      'p3@example.com': [422, 'eventProperties.plan has the wrong type'],
    };
    const api = kept(
      await startApiServer({
        'POST /v1/events/send': (req, res) => {
          const refusal = refusals[emailOf(req)];
          if (refusal === undefined) return json(res, 200, { success: true });
          json(res, refusal[0], { success: false, message: refusal[1] });
        },
      }),
    );
    const file = eventsFile(4);
    const result = await run(['events', 'import', file, '--json'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url } });
    expect(result.json()).toMatchObject({ sent: 1, skipped: 0, failed: 3 });
    // The first failure's exit code: a refusal is 5.
    expect(result.code).toBe(5);
    const outcomes = journalOf(file).filter((entry) => entry.status !== 'sending');
    expect(outcomes.map(({ n, status }) => [n, status]).sort()).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'sent'],
    ]);
    for (const [n, [, message]] of Object.values(refusals).entries()) {
      const outcome = outcomes.find((entry) => entry.n === n + 1)!;
      expect(outcome.message).toContain(message);
      expect(result.stderr).toContain(`line ${n + 1}: ${outcome.message}`);
    }
    expect(JSON.stringify(outcomes)).not.toContain('already sent');
    expect(result.stderr).not.toContain('already sent');
    // Failed records are tried again by the next run; the one sent is not.
    const again = await run(['events', 'import', file, '--json'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url } });
    expect(again.json()).toMatchObject({ sent: 0, skipped: 1, failed: 3 });
    expect(api.requests.map(emailOf).filter((email) => email === 'p4@example.com')).toHaveLength(1);
  });
});

describe('an import stopped by a failure that would hit every record', () => {
  const stops: [string, number, (req: RecordedRequest, res: import('node:http').ServerResponse) => void, string][] = [
    ['a wrong key (401)', 3, (_req, res) => json(res, 401, { message: 'Invalid API key' }), 'Invalid API key'],
    ['a rate limit that does not lift (429)', 6, (_req, res) => json(res, 429, { message: 'Too many requests' }, { 'retry-after': '0' }), 'too many requests'],
  ];

  it.each(stops)('stops on %s, exit %i, saying why, with no summary and no record taken for done', async (_what, code, handler, words) => {
    const api = kept(await startApiServer({ 'POST /v1/events/send': handler }));
    const file = eventsFile(12);
    const result = await run(['events', 'import', file, '--retries', '0'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url } });
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: /);
    expect(result.stderr.toLowerCase()).toContain(words.toLowerCase());
    // At most the sends already in flight went out; none of the rest was tried.
    expect(api.requests.length).toBeLessThanOrEqual(4);
    expect(journalOf(file).filter((entry) => entry.status !== 'sending')).toEqual([]);
  });

  it('stops when the API cannot be reached, exit 7, saying so', async () => {
    const api = await startApiServer();
    const url = api.url;
    await api.close();
    const file = eventsFile(6);
    const result = await run(['events', 'import', file, '--retries', '0'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: url } });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Error: .*(connect|reach)/);
    expect(journalOf(file).filter((entry) => entry.status !== 'sending')).toEqual([]);
  });
});

describe('an import stopped mid-run', () => {
  it('resumes without sending any record twice: finished ones are skipped, those in flight go again under the same key', async () => {
    // The API as it is: a key it has seen is refused with 409, whether or not its answer arrived.
    const seen = new Set<string>();
    const answered = new Set<string>();
    let holdFrom = 5;
    let held!: () => void;
    const inFlightHeld = new Promise<void>((resolve) => (held = resolve));
    const pending: import('node:http').ServerResponse[] = [];
    const api = kept(
      await startApiServer({
        'POST /v1/events/send': (req, res) => {
          const key = keyOf(req);
          if (seen.has(key)) return json(res, 409, { success: false, message: 'Idempotency key already used' });
          seen.add(key);
          if (seen.size < holdFrom) {
            answered.add(emailOf(req));
            return json(res, 200, { success: true });
          }
          // From the fifth record on, the sends reach the API and hang, as a run that is killed leaves them.
          pending.push(res);
          if (pending.length === 4) held();
        },
      }),
    );
    const file = eventsFile(10);
    const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url };
    const stop = new AbortController();
    const first = run(['events', 'import', file, '--json'], { env, signal: stop.signal });
    await inFlightHeld;
    stop.abort();
    const interrupted = await first;
    expect(interrupted.code).toBe(130);
    expect(JSON.parse(interrupted.stderr).error.message).toBe('interrupted after 4 records sent in this run (4 done in all)');
    const firstRun = api.requests.length;
    expect(firstRun).toBe(8);

    expect(answered.size).toBe(4);
    const finished = new Set(answered);
    holdFrom = Number.POSITIVE_INFINITY;
    const resumed = await run(['events', 'import', file, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.json()).toMatchObject({ sent: 2, skipped: 8, failed: 0 });
    const again = api.requests.slice(firstRun);
    // The four that had finished are not sent again; the four in flight go again under their keys, which the API refuses as used.
    const everyRecord = Array.from({ length: 10 }, (_, index) => `p${index + 1}@example.com`);
    expect(again.map(emailOf).sort()).toEqual(everyRecord.filter((email) => !finished.has(email)).sort());
    const firstKeys = new Map(api.requests.slice(0, firstRun).map((request) => [emailOf(request), keyOf(request)]));
    for (const request of again) if (firstKeys.has(emailOf(request))) expect(keyOf(request)).toBe(firstKeys.get(emailOf(request)));
    // Every record reached the API under exactly one key.
    expect(new Set(api.requests.map(keyOf)).size).toBe(10);
  });
});
