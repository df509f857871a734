import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport, type RetryNotice } from '../../../src/api/http.js';
import { InterruptedError, NetworkError, RateLimitError, ServerError } from '../../../src/base/errors.js';
import { type ApiServer, startApiServer } from '../../support/api-server.js';
import { inTurn, resetMidBody, silent, status } from '../../support/faults.js';

let server: ApiServer;
let transport: HttpTransport;
afterEach(async () => {
  await transport.close();
  await server.close();
});

function transportFor(notices: RetryNotice[], retries = 3) {
  return new HttpTransport({
    baseUrl: server.url,
    apiKey: 'test-key-unit',
    userAgent: 'loopsctl/test',
    timeoutMs: 2_000,
    // Tiny backoff so the unit test does not wait; the CLI keeps its defaults.
    retry: { retries, baseDelayMs: 1, maxDelayMs: 4 },
    onRetry: (notice) => notices.push(notice),
  });
}

describe('HttpTransport retries', () => {
  it('reports each retry, with its reason and wait, and returns the answer that finally came', async () => {
    server = await startApiServer({ 'GET /v1/x': inTurn(status(503), resetMidBody(), status(200, { ok: true })) });
    const notices: RetryNotice[] = [];
    transport = transportFor(notices);
    const response = await transport.send({ method: 'GET', path: '/v1/x', idempotent: true });
    expect(response.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
    expect(notices.map(({ request, retry, retries, reason }) => ({ request, retry, retries, reason }))).toEqual([
      { request: 'GET /v1/x', retry: 1, retries: 3, reason: 'HTTP 503' },
      { request: 'GET /v1/x', retry: 2, retries: 3, reason: 'ECONNRESET' },
    ]);
    for (const notice of notices) expect(notice.delayMs).toBeLessThanOrEqual(4);
  });

  it('sends a request not marked idempotent once, whatever the failure after sending', async () => {
    server = await startApiServer({ 'POST /v1/x': status(500), 'POST /v1/y': resetMidBody() });
    transport = transportFor([]);
    await expect(transport.send({ method: 'POST', path: '/v1/x', body: {}, idempotent: false })).rejects.toBeInstanceOf(ServerError);
    await expect(transport.send({ method: 'POST', path: '/v1/y', body: {}, idempotent: false })).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/x', '/v1/y']);
  });

  it('does not retry at all with retries 0', async () => {
    server = await startApiServer({ 'GET /v1/x': status(503) });
    const notices: RetryNotice[] = [];
    transport = transportFor(notices, 0);
    await expect(transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).rejects.toThrow('status 503');
    expect(server.requests).toHaveLength(1);
    expect(notices).toEqual([]);
  });
});

describe('HttpTransport limits of retrying', () => {
  it("gives up on a quota's 429 at once, since waiting a little will not pass it", async () => {
    server = await startApiServer({ 'POST /v1/quota': status(429, { message: 'Daily limit reached' }) });
    const notices: RetryNotice[] = [];
    transport = transportFor(notices);
    await expect(transport.send({ method: 'POST', path: '/v1/quota', body: {}, idempotent: true, quota: true })).rejects.toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('retries a quota request after a 5xx as any other', async () => {
    server = await startApiServer({ 'POST /v1/quota': inTurn(status(503), status(200, { ok: true })) });
    transport = transportFor([]);
    expect((await transport.send({ method: 'POST', path: '/v1/quota', body: {}, idempotent: true, quota: true })).body).toEqual({ ok: true });
  });

  it('says how many retries it gave up after, one in the singular', async () => {
    server = await startApiServer({ 'GET /v1/x': status(503) });
    transport = transportFor([], 1);
    await expect(transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).rejects.toThrow('status 503 (gave up after 1 retry)');
    expect(server.requests).toHaveLength(2);
  });

  it('waits as long as the server asks when that is exactly the longest wait allowed, and says what it asked', async () => {
    server = await startApiServer({ 'GET /v1/x': inTurn(status(429, { message: 'slow down' }, { 'retry-after': '0' }), status(200, { ok: true })) });
    const notices: RetryNotice[] = [];
    transport = new HttpTransport({
      baseUrl: server.url,
      apiKey: 'test-key-unit',
      userAgent: 'loopsctl/test',
      timeoutMs: 2_000,
      retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 4, maxRetryAfterMs: 0 },
      onRetry: (notice) => notices.push(notice),
    });
    expect((await transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).body).toEqual({ ok: true });
    expect(notices).toMatchObject([{ retry: 1, delayMs: 0, reason: 'HTTP 429' }]);

    await server.close();
    server = await startApiServer({ 'GET /v1/x': status(429, { message: 'slow down' }, { 'retry-after': '2' }) });
    await transport.close();
    transport = transportFor([], 0);
    const error = await transport.send({ method: 'GET', path: '/v1/x', idempotent: true }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toContain('(it asks to wait 2 s)');
  });

  it('takes a 300 for a redirect it does not follow, not for an answer', async () => {
    server = await startApiServer({ 'GET /v1/x': status(300, { message: 'choose' }) });
    transport = transportFor([]);
    await expect(transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).rejects.toThrow('a redirect, not followed');
  });
});

describe('HttpTransport base URL', () => {
  it('shows a base URL with user:password redacted in --debug lines', async () => {
    server = await startApiServer({ 'GET /v1/x': status(200, { ok: true }) });
    const lines: string[] = [];
    transport = new HttpTransport({
      baseUrl: server.url.replace('http://', 'http://user:hunter2@'),
      apiKey: 'test-key-unit',
      userAgent: 'loopsctl/test',
      timeoutMs: 2_000,
      debug: (line) => lines.push(line),
    });
    await transport.send({ method: 'GET', path: '/v1/x', idempotent: true });
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(lines[0]).toContain(`> GET ${server.url.replace('http://', 'http://[redacted]@')}/v1/x`);
  });

  it('checks each path against the base URL, a path asked for again as well, and adds the query only where given', async () => {
    server = await startApiServer();
    transport = new HttpTransport({ baseUrl: `${server.url}/api`, apiKey: 'test-key-unit', userAgent: 'loopsctl/test', timeoutMs: 2_000 });
    expect(transport.url({ path: '/v1/x' })).toBe(`${server.url}/api/v1/x`);
    expect(transport.url({ path: '/v1/x' })).toBe(`${server.url}/api/v1/x`);
    expect(transport.url({ path: '/v1/x', query: { a: '1' } })).toBe(`${server.url}/api/v1/x?a=1`);
    expect(transport.url({ path: '/v1/x' })).toBe(`${server.url}/api/v1/x`);
    expect(transport.url({ path: '/v1/y' })).toBe(`${server.url}/api/v1/y`);
    for (let round = 0; round < 2; round += 1) expect(() => transport.url({ path: '/../x' })).toThrow('it holds a . or .. segment');
    expect(transport.url({ path: '/v1/y' })).toBe(`${server.url}/api/v1/y`);
  });

  it('refuses a base URL that is not http or https before sending anything', async () => {
    server = await startApiServer();
    transport = new HttpTransport({ baseUrl: server.url, apiKey: 'test-key-unit', userAgent: 'loopsctl/test', timeoutMs: 2_000 });
    expect(() => new HttpTransport({ baseUrl: server.url.replace('http://', ''), apiKey: 'k', userAgent: 'u', timeoutMs: 1 })).toThrow(
      /is not an http or https URL/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('HttpTransport interrupts', () => {
  it('ends every request in flight at an interrupt, sends none after it, and leaves the signal when closed', async () => {
    server = await startApiServer({ 'GET /v1/slow': silent(), 'GET /v1/x': status(200, { ok: true }) });
    const controller = new AbortController();
    transport = new HttpTransport({ baseUrl: server.url, apiKey: 'test-key-unit', userAgent: 'loopsctl/test', timeoutMs: 60_000, signal: controller.signal });
    await transport.send({ method: 'GET', path: '/v1/x', idempotent: true });
    // One listener for the transport, however many requests it has sent.
    await transport.send({ method: 'GET', path: '/v1/x', idempotent: true });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    const slow = [1, 2, 3].map(() => transport.send({ method: 'GET', path: '/v1/slow', idempotent: true }));
    while (server.requests.filter((request) => request.path === '/v1/slow').length < 3) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    for (const request of slow) await expect(request).rejects.toBeInstanceOf(InterruptedError);
    const before = server.requests.length;
    await expect(transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).rejects.toBeInstanceOf(InterruptedError);
    expect(server.requests).toHaveLength(before);

    const other = new AbortController();
    const closed = new HttpTransport({ baseUrl: server.url, apiKey: 'test-key-unit', userAgent: 'loopsctl/test', timeoutMs: 2_000, signal: other.signal });
    await closed.send({ method: 'GET', path: '/v1/x', idempotent: true });
    await closed.close();
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });

  it('keeps each attempt to its deadline, with the signals of attempts before it used again', async () => {
    server = await startApiServer({ 'GET /v1/slow': silent(), 'GET /v1/x': status(200, { ok: true }) });
    transport = new HttpTransport({ baseUrl: server.url, apiKey: 'test-key-unit', userAgent: 'loopsctl/test', timeoutMs: 300, retry: { retries: 0 } });
    for (let round = 0; round < 2; round += 1) {
      for (let index = 0; index < 3; index += 1) await expect(transport.send({ method: 'GET', path: '/v1/x', idempotent: true })).resolves.toBeDefined();
      await expect(transport.send({ method: 'GET', path: '/v1/slow', idempotent: true })).rejects.toMatchObject({ code: 'timeout' });
    }
  });
});
