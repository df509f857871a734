/**
 * Answers that would make loopsctl wait for hours, fill its memory, overflow its stack or be
 * misread: each ends with the error a script can act on, and none is retried blindly.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, type TransportOptions } from '../../../src/api/http.js';
import { ExitCode, InvalidResponseError, LoopsctlError, RateLimitError, RejectedError, ServerError } from '../../../src/base/errors.js';
import { type ApiServer, startApiServer } from '../../support/api-server.js';
import { raw, status } from '../../support/faults.js';
import { runCli } from '../../support/run-cli.js';

let server: ApiServer;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
  await server.close();
});

function transportFor(options: Partial<TransportOptions> = {}) {
  transport = new HttpTransport({
    baseUrl: server.url,
    apiKey: 'test-key-limits',
    userAgent: 'loopsctl/test',
    timeoutMs: 5_000,
    // The real wait cap (60 s) with a tiny backoff, so that only a server-requested wait could be long.
    retry: { baseDelayMs: 1, maxDelayMs: 4 },
    ...options,
  });
  return transport;
}

async function failure(path = '/v1/x', idempotent = true): Promise<LoopsctlError> {
  const error = await transport!.send({ method: 'GET', path, idempotent }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(LoopsctlError);
  return error as LoopsctlError;
}

describe('server-requested waits', () => {
  it('a 503 asking for an hour ends at once with exit 8, saying how long it asked for', async () => {
    server = await startApiServer({ 'GET /v1/x': status(503, { message: 'maintenance' }, { 'retry-after': '3600' }) });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(ServerError);
    expect(error.exitCode).toBe(ExitCode.server);
    expect(error.message).toBe('maintenance; the API asks to wait 3600 s before the next request, longer than loopsctl waits (60 s)');
    expect(error.hint).toBe('run the command again after that time');
    expect(server.requests).toHaveLength(1);
  });

  it('a 429 asking for more than a timer can hold ends at once with exit 6', async () => {
    server = await startApiServer({ 'GET /v1/x': status(429, { message: 'slow down' }, { 'retry-after': '99999999999' }) });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.exitCode).toBe(ExitCode.rateLimited);
    expect(error.message).toContain('asks to wait 99999999999 s');
    expect(server.requests).toHaveLength(1);
  });

  it('a 503 asking for a short wait is still retried', async () => {
    let calls = 0;
    server = await startApiServer({
      'GET /v1/x': (req, res) => (calls++ === 0 ? status(503, undefined, { 'retry-after': '0' }) : status(200, { ok: true }))(req, res),
    });
    transportFor();
    expect((await transport!.send({ method: 'GET', path: '/v1/x', idempotent: true })).body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });
});

describe('body size', () => {
  it('refuses a body past the limit with exit 9 naming the limit, and does not retry', async () => {
    server = await startApiServer({ 'GET /v1/x': raw(200, 'application/json', `[${'1,'.repeat(600)}1]`) });
    transportFor({ maxBodyBytes: 1024 });
    const error = await failure();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.exitCode).toBe(ExitCode.invalidResponse);
    expect(error.message).toBe('the API answered HTTP 200 with a body larger than 1024 bytes, the most loopsctl reads');
    expect(error.hint).toContain('LOOPSCTL_MAX_BODY_BYTES');
    expect(server.requests).toHaveLength(1);
  });

  it('stops reading an endless body at the limit instead of buffering it', async () => {
    let written = 0;
    server = await startApiServer({
      'GET /v1/x': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        // Writes for as long as the client reads; ends only when the client hangs up.
        const pump = () => {
          while (!res.destroyed && written < 256 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
          if (!res.destroyed) res.once('drain', pump);
        };
        res.write('[');
        pump();
      },
    });
    transportFor({ maxBodyBytes: 1024 * 1024 });
    const error = await failure();
    expect(error.message).toContain('larger than 1 MiB');
    // What the server managed to write before the client hung up is socket buffers, not the whole stream.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses at once a body whose declared length is past the limit, on an error status too', async () => {
    server = await startApiServer({ 'GET /v1/x': raw(503, 'text/html', 'x'.repeat(4096)) });
    transportFor({ maxBodyBytes: 1000 });
    const error = await failure();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toContain('HTTP 503 with a body larger than 1000 bytes');
    expect(server.requests).toHaveLength(1);
  });

  it('reads the limit from LOOPSCTL_MAX_BODY_BYTES, and refuses a value that is not a number of bytes', async () => {
    const { maxBodyBytes, DEFAULT_MAX_BODY_BYTES } = await import('../../../src/api/http.js');
    server = await startApiServer();
    transportFor();
    expect(maxBodyBytes({})).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
    expect(maxBodyBytes({ LOOPSCTL_MAX_BODY_BYTES: '100000000' })).toBe(100_000_000);
    for (const bad of ['0', '-1', '1e9', '32MiB', '99999999999999999999']) {
      expect(() => maxBodyBytes({ LOOPSCTL_MAX_BODY_BYTES: bad })).toThrow(/LOOPSCTL_MAX_BODY_BYTES must be a whole number of bytes/);
    }
  });
});

describe('answers that cannot be read as they are', () => {
  it('JSON nested 10,000 deep ends with exit 9, not a crash', async () => {
    server = await startApiServer({ 'GET /v1/x': raw(200, 'application/json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`) });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe('the API answered HTTP 200 with JSON nested more than 512 levels deep, more than loopsctl reads');
  });

  it('a deeply nested 500 error body is still reported as the server error it is', async () => {
    server = await startApiServer({ 'GET /v1/x': raw(500, 'application/json', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`) });
    transportFor({ retry: { retries: 0 } });
    const error = await failure();
    expect(error).toBeInstanceOf(ServerError);
  });

  it('a gzip body is reported naming the encoding, not as "not JSON"', async () => {
    server = await startApiServer({
      'GET /v1/x': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync('{"ok":true}'));
      },
    });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      'the API answered HTTP 200 with a body encoded as "gzip" (content-encoding), which loopsctl does not ask for and does not decode',
    );
  });

  it('a status HTTP does not define (999) is an invalid answer, exit 9, never retried as a 5xx', async () => {
    server = await startApiServer({ 'GET /v1/x': status(999, { message: 'odd' }) });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.exitCode).toBe(ExitCode.invalidResponse);
    expect(error.message).toBe('the API answered with status 999, which HTTP does not define');
    expect(server.requests).toHaveLength(1);
  });
});

describe('redirects', () => {
  it('exit 5 saying where the redirect points, without its credentials or query, and not following it', async () => {
    server = await startApiServer({
      'GET /v1/x': raw(301, 'text/html', 'moved', { location: 'https://user:secret@example.test/login?token=abc#top' }),
    });
    transportFor();
    const error = await failure();
    expect(error).toBeInstanceOf(RejectedError);
    expect(error.exitCode).toBe(ExitCode.rejected);
    expect(error.message).toBe('the API answered HTTP 301 (a redirect to https://example.test/login?…, not followed)');
    expect(error.message).not.toContain('secret');
    expect(error.message).not.toContain('abc');
    expect(error.hint).toContain('does not follow redirects');
    expect(server.requests).toHaveLength(1);
  });

  it('a relative Location is shown resolved against the request', async () => {
    server = await startApiServer({ 'GET /v1/x': raw(302, 'text/plain', '', { location: '/api/v1/x' }) });
    transportFor();
    const error = await failure();
    expect(error.message).toBe(`the API answered HTTP 302 (a redirect to ${server.url}/api/v1/x, not followed)`);
  });
});

describe('as a script sees it', () => {
  const METRICS = 'GET /v1/transactional-emails/t1/metrics';
  const run = (env: Record<string, string> = {}) =>
    runCli(['transactional', 'metrics', 't1', '--json'], { env: { LOOPS_API_KEY: 'test-key-limits', LOOPS_BASE_URL: server.url, ...env } });

  it('a 503 asking to wait an hour: exit 8 at once, the wait named in the JSON error', async () => {
    server = await startApiServer({ [METRICS]: status(503, { message: 'maintenance' }, { 'retry-after': '3600' }) });
    const result = await run();
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'server_error',
      status: 503,
      exitCode: 8,
      message: 'maintenance; the API asks to wait 3600 s before the next request, longer than loopsctl waits (60 s)',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('a body past LOOPSCTL_MAX_BODY_BYTES: exit 9 naming the limit, sent once', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'application/json', JSON.stringify({ padding: 'x'.repeat(5000) })) });
    const result = await run({ LOOPSCTL_MAX_BODY_BYTES: '4096' });
    expect(result.code).toBe(9);
    expect(JSON.parse(result.stderr).error.message).toBe('the API answered HTTP 200 with a body larger than 4096 bytes, the most loopsctl reads');
    expect(server.requests).toHaveLength(1);
  });

  it('an answer nested 10,000 deep: exit 9, not a crash', async () => {
    server = await startApiServer({ [METRICS]: raw(200, 'application/json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`) });
    const result = await run();
    expect(result.code).toBe(9);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'invalid_response',
      message: 'the API answered HTTP 200 with JSON nested more than 512 levels deep, more than loopsctl reads',
    });
  });
});
