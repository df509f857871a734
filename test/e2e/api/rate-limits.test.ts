/**
 * 429 answers: Retry-After is obeyed, backoff applies without it, and a create is never sent twice.
 * Waits are checked by what happened: the retry lines a run prints under --debug, and the time
 * between requests as the server saw them, which a retry can only make longer, never shorter.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiServer, gaps, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { inTurn, status } from '../../support/faults.js';
import { draftRecord, metrics, transactionalEmail } from '../../support/fixtures.js';
import { runCli } from '../../support/run-cli.js';

// The tests run at once, each with servers of its own.
const keep = closedAfter(afterAll);

const METRICS = 'GET /v1/transactional-emails/t1/metrics';
const tooMany = (headers: Record<string, string> = {}) => status(429, { message: 'Too many requests' }, headers);

function run(server: ApiServer, args: string[]) {
  return runCli(args, { env: { LOOPS_API_KEY: 'test-key-rate', LOOPS_BASE_URL: server.url } });
}

/** The waits the retry lines of --debug announce, in seconds. */
function announcedWaits(stderr: string): number[] {
  return [...stderr.matchAll(/; retrying in ([\d.]+) s \(retry/g)].map(([, seconds]) => Number(seconds));
}

describe.concurrent('429 Too Many Requests', () => {
  it('waits as Retry-After says, then succeeds', async () => {
    const server = keep(await startApiServer({ [METRICS]: inTurn(tooMany({ 'retry-after': '1' }), status(200, metrics)) }));
    const result = await run(server, ['transactional', 'metrics', 't1', '--json', '--debug']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ transactionalId: 't1', ...metrics }]);
    expect(server.requests).toHaveLength(2);
    expect(announcedWaits(result.stderr)).toEqual([1]);
    // The retry came no sooner than the second the API asked for (the timer's clock may round down by a millisecond).
    expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(999);
  });

  it('backs off without Retry-After, then succeeds', async () => {
    const server = keep(await startApiServer({ [METRICS]: inTurn(tooMany(), tooMany(), status(200, metrics)) }));
    const result = await run(server, ['transactional', 'metrics', 't1', '--json', '--debug']);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(3);
    // About 0.5 s, then about 1 s (each within a quarter either way, for jitter).
    const [first, second] = announcedWaits(result.stderr);
    expect(first).toBeGreaterThanOrEqual(0.3);
    expect(first).toBeLessThanOrEqual(0.7);
    expect(second).toBeGreaterThanOrEqual(0.7);
    expect(second).toBeLessThanOrEqual(1.3);
    // And each retry waited at least the least the jitter allows.
    const [firstGap, secondGap] = gaps(server.requests);
    expect(firstGap).toBeGreaterThanOrEqual(374);
    expect(secondGap).toBeGreaterThanOrEqual(749);
  });

  it('gives up after --retries with exit 6 when the API keeps refusing', async () => {
    const server = keep(await startApiServer({ [METRICS]: tooMany({ 'retry-after': '0' }) }));
    const result = await run(server, ['transactional', 'metrics', 't1', '--retries', '2']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('Error: Too many requests');
    expect(result.stderr).toContain('gave up after 2 retries');
    expect(server.requests).toHaveLength(3);
  });

  it('stops at once with exit 6, saying how long, when asked to wait more than a minute', async () => {
    const server = keep(await startApiServer({ [METRICS]: tooMany({ 'retry-after': '600' }) }));
    const result = await run(server, ['transactional', 'metrics', 't1', '--debug']);
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('the API asks to wait 600 s');
    expect(server.requests).toHaveLength(1);
    // It did not wait: no retry was announced.
    expect(announcedWaits(result.stderr)).toEqual([]);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    const server = keep(
      await startApiServer({
        [METRICS]: (req, res) => tooMany({ 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() })(req, res),
      }),
    );
    const result = await run(server, ['transactional', 'metrics', 't1', '--json']);
    expect(result.code).toBe(6);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'rate_limited', status: 429, exitCode: 6 });
    expect(JSON.parse(result.stderr).error.message).toMatch(/asks to wait (3599|3600) s/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a create after 429, since the API did not act on it', async () => {
    const server = keep(await startApiServer({ 'POST /v1/transactional-emails': inTurn(tooMany({ 'retry-after': '0' }), status(201, draftRecord)) }));
    const result = await run(server, ['transactional', 'create', '--name', 'Receipt', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(draftRecord);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([{ name: 'Receipt' }, { name: 'Receipt' }]);
  });

  it('with --retries 0 does not retry at all', async () => {
    const server = keep(await startApiServer({ [METRICS]: tooMany({ 'retry-after': '0' }) }));
    const result = await run(server, ['transactional', 'metrics', 't1', '--retries', '0']);
    expect(result.code).toBe(6);
    expect(result.stderr).toBe('Error: Too many requests (it asks to wait 0 s)\n');
    expect(server.requests).toHaveLength(1);
  });

  it('reports each retry with its reason and wait under --debug', async () => {
    // The text view names the email: it is read too.
    const server = keep(
      await startApiServer({
        [METRICS]: inTurn(tooMany({ 'retry-after': '0' }), status(200, metrics)),
        'GET /v1/transactional-emails/t1': status(200, { ...transactionalEmail, id: 't1' }),
      }),
    );
    const result = await run(server, ['transactional', 'metrics', 't1', '--debug']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('GET /v1/transactional-emails/t1/metrics: HTTP 429; retrying in 0 s (retry 1 of 3)');
  });

  it('says nothing about retries when stderr is not a terminal and --debug is off', async () => {
    // The text view names the email: it is read too.
    const server = keep(
      await startApiServer({
        [METRICS]: inTurn(tooMany({ 'retry-after': '0' }), status(200, metrics)),
        'GET /v1/transactional-emails/t1': status(200, { ...transactionalEmail, id: 't1' }),
      }),
    );
    const result = await run(server, ['transactional', 'metrics', 't1']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});
