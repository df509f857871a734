/**
 * 5xx answers, broken connections and hung servers: idempotent requests are retried, a create is
 * sent once and only once, and a server that never finishes ends in exit 7 naming the timeout.
 * Nothing here is timed: what happened is checked (the requests the server got, and when, by its
 * own clock, where a wait matters).
 */

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { gaps, json, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { inTurn, raw, resetMidBody, silent, status, trickle } from '../../support/faults.js';
import { draftRecord, envelope, group, metrics } from '../../support/fixtures.js';
import { runCli } from '../../support/run-cli.js';

// The tests run at once, each with servers of its own.
const keep = closedAfter(afterAll);

const METRICS = 'GET /v1/transactional-emails/t1/metrics';
const CREATE = 'POST /v1/transactional-emails';
const unavailable = status(503, { message: 'Service Unavailable' });

function run(args: string[], baseUrl: string) {
  return runCli(args, { env: { LOOPS_API_KEY: 'test-key-faults', LOOPS_BASE_URL: baseUrl } });
}

describe.concurrent('5xx answers', () => {
  it('retries a GET after one 503 and succeeds', async () => {
    const server = keep(await startApiServer({ [METRICS]: inTurn(unavailable, status(200, metrics)) }));
    const result = await run(['transactional', 'metrics', 't1', '--json'], server.url);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ transactionalId: 't1', ...metrics }]);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a GET after --retries with exit 8 when the 503s never end', async () => {
    const server = keep(await startApiServer({ [METRICS]: unavailable }));
    const result = await run(['transactional', 'metrics', 't1', '--retries', '2'], server.url);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('Error: Service Unavailable (gave up after 2 retries)');
    expect(server.requests).toHaveLength(3);
  });

  it.each([500, 502, 503, 504])('retries a GET after a %i, as every 5xx', async (code) => {
    const server = keep(await startApiServer({ [METRICS]: inTurn(status(code, { message: `status ${code}` }), status(200, metrics)) }));
    const result = await run(['transactional', 'metrics', 't1', '--json'], server.url);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ transactionalId: 't1', ...metrics }]);
    expect(server.requests).toHaveLength(2);
  });

  it.each([500, 503])('sends a keyed event again after a %i, under the same Idempotency-Key', async (code) => {
    const server = keep(await startApiServer({ 'POST /v1/events/send': inTurn(status(code, { message: `status ${code}` }), status(200, { success: true })) }));
    const result = await run(['events', 'send', 'signup', '--email', 'a@example.com', '--json'], server.url);
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests.map((request) => request.headers['idempotency-key']);
    expect(first).toMatch(/\S/);
    expect(second).toBe(first);
  });

  it('retries the ensure-draft POST, which is idempotent', async () => {
    const server = keep(await startApiServer({ 'POST /v1/transactional-emails/t1/draft': inTurn(unavailable, status(200, draftRecord)) }));
    const result = await run(['transactional', 'draft', 't1', '--json'], server.url);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('never sends a create twice after a 503', async () => {
    const server = keep(await startApiServer({ [CREATE]: inTurn(unavailable, status(201, draftRecord)) }));
    const result = await run(['transactional', 'create', '--name', 'Receipt'], server.url);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('Error: Service Unavailable');
    expect(result.stderr).toContain('did not send it again because the API may already have acted on it');
    expect(server.requests).toHaveLength(1);
  });

  it('never sends a campaign group update twice after a 503', async () => {
    const server = keep(await startApiServer({ 'POST /v1/campaign-groups/g1': unavailable }));
    const result = await run(['campaign-groups', 'update', 'g1', '--name', 'News'], server.url);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('Error: Service Unavailable\nHint: loopsctl did not send it again because the API may already have acted on it');
    expect(server.requests).toHaveLength(1);
  });

  it('describes an HTML error page by its content type and first bytes, escaped', async () => {
    const server = keep(await startApiServer({ [METRICS]: raw(502, 'text/html', '<html><body>\u001b]0;owned\u0007Bad Gateway</body></html>') }));
    const result = await run(['transactional', 'metrics', 't1', '--retries', '1'], server.url);
    expect(result.code).toBe(8);
    expect(result.stderr).toContain('content-type text/html, body starts "<html><body>\\u001b]0;owned\\u0007Bad Gateway');
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(server.requests).toHaveLength(2);
  });
});

describe.concurrent('broken connections', () => {
  it('retries a GET whose connection drops mid-body', async () => {
    const server = keep(await startApiServer({ [METRICS]: inTurn(resetMidBody(), status(200, metrics)) }));
    const result = await run(['transactional', 'metrics', 't1', '--json'], server.url);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with exit 7 when every connection drops mid-body', async () => {
    const server = keep(await startApiServer({ [METRICS]: resetMidBody() }));
    const result = await run(['transactional', 'metrics', 't1', '--retries', '1'], server.url);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /^Error: GET \/v1\/transactional-emails\/t1\/metrics: the connection to http:\/\/127\.0\.0\.1:\d+ broke .*\(gave up after 1 retry\)\n/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('never sends a create twice when the connection drops mid-answer', async () => {
    const server = keep(await startApiServer({ [CREATE]: resetMidBody() }));
    const result = await run(['transactional', 'create', '--name', 'Receipt'], server.url);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('did not send it again');
    expect(server.requests).toHaveLength(1);
  });

  // Alone: a server of a test running beside it could take the port it expects to be free.
  it.sequential('retries a create when the connection was refused, since nothing was sent', async () => {
    // A port that was free a moment ago: connecting to it is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const result = await run(['transactional', 'create', '--name', 'Receipt', '--retries', '1', '--debug'], `http://127.0.0.1:${port}`);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`could not connect to http://127.0.0.1:${port}`);
    expect(result.stderr).toContain('ECONNREFUSED; retrying in');
    expect(result.stderr.match(/> POST /g)).toHaveLength(2);
  });
});

describe.concurrent('hung servers', () => {
  it('ends a request whose headers never come in exit 7, naming the timeout', async () => {
    const server = keep(await startApiServer({ [METRICS]: silent() }));
    const result = await run(['transactional', 'metrics', 't1', '--timeout', '1', '--retries', '1'], server.url);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('no answer within the 1 s timeout (--timeout)');
    expect(result.stderr).toContain('Hint: the API may be slow or unreachable; raise the limit with --timeout <seconds>');
    expect(server.requests).toHaveLength(2);
    // The second attempt began once the first had waited out its second.
    expect(gaps(server.requests)[0]).toBeGreaterThanOrEqual(999);
  });

  it('ends a body that trickles in forever in exit 7, though bytes keep coming', async () => {
    const server = keep(await startApiServer({ [METRICS]: trickle(100) }));
    const result = await run(['transactional', 'metrics', 't1', '--timeout', '1', '--retries', '0'], server.url);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('the answer did not finish within the 1 s timeout (--timeout)');
    expect(server.requests).toHaveLength(1);
  });

  it('never sends a create twice after a timeout', async () => {
    const server = keep(await startApiServer({ [CREATE]: silent() }));
    const result = await run(['transactional', 'create', '--name', 'Receipt', '--timeout', '1'], server.url);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe(
      'Error: POST /v1/transactional-emails: no answer within the 1 s timeout (--timeout)\n' +
        'Hint: loopsctl did not send it again because the API may already have acted on it; check before running the command again\n',
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe('a listing that fails after its first page', () => {
  it('leaves whole JSON on stdout (the items received) and exits non-zero', async () => {
    const failing = await startApiServer({
      'GET /v1/transactional-groups': (req, res) => {
        if (req.query.get('cursor') === null) return json(res, 200, envelope([group(1), group(2)], 'next', 20, 60));
        json(res, 500, { message: 'boom' });
      },
    });
    try {
      const env = { LOOPS_API_KEY: 'test-key-pages', LOOPS_BASE_URL: failing.url };
      const asJson = await runCli(['groups', 'list', '--json', '--retries', '0'], { env });
      expect(asJson.code).toBe(8);
      expect((JSON.parse(asJson.stdout) as { id: string }[]).map((item) => item.id)).toEqual(['grp_1', 'grp_2']);
      expect(JSON.parse(asJson.stderr).error).toMatchObject({ exitCode: 8, message: 'boom' });
      const lines = await runCli(['groups', 'list', '--jsonl', '--retries', '0'], { env });
      expect(lines.code).toBe(8);
      expect(JSON.parse(lines.stderr).error).toMatchObject({ exitCode: 8, message: 'boom' });
      expect(
        lines.stdout
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line).id),
      ).toEqual(['grp_1', 'grp_2']);
    } finally {
      await failing.close();
    }
  });
});
