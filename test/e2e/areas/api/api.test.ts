import { writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, raw, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';

const KEY = 'test-key-not-real';
let server: ApiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function api(routes: Parameters<typeof startApiServer>[0]) {
  server = await startApiServer(routes);
  const env = { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: server.url };
  return { server, call: (args: string[], input?: string) => run(['api', ...args], { env, input }) };
}

describe('loopsctl api: the request', () => {
  it.each(['../../x', '%2e%2e/%2e%2e/x', '/v1/../../x', 'v1/%2E%2E/%2e%2E/other/x'])(
    "never leaves the base URL's path: %s is refused before any request",
    async (path) => {
      // No route: a request that reached the server, wherever it led, fails the test.
      server = await startApiServer();
      const result = await run(['api', path], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: `${server.url}/api` } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('is not sent as written: it holds a . or .. segment, which steps through the path; nothing was sent');
      expect(server.requests).toEqual([]);
    },
  );

  it('reads any path with the key, whether or not /v1/ is written', async () => {
    const { server, call } = await api({ 'GET /v1/dedicated-sending-ips': (_req, res) => json(res, 200, ['198.51.100.1']) });
    for (const path of ['/v1/dedicated-sending-ips', 'v1/dedicated-sending-ips', '/dedicated-sending-ips', 'dedicated-sending-ips']) {
      expect((await call([path])).code).toBe(0);
    }
    expect(server.requests.map((req) => `${req.method} ${req.path} ${req.headers.authorization}`)).toEqual(
      Array(4).fill(`GET /v1/dedicated-sending-ips Bearer ${KEY}`),
    );
  });

  it('prints the body exactly as received, off a terminal, ended by a newline', async () => {
    const body = '{ "b": 1.0,\n  "a": [ 12345678901234567890 ] }';
    const { call } = await api({ 'GET /v1/odd': (_req, res) => raw(res, 200, 'application/json', body) });
    const result = await call(['odd']);
    expect(result.stdout).toBe(`${body}\n`);
  });

  it('prints an answer that is not JSON as it is', async () => {
    const { call } = await api({ 'GET /v1/text': (_req, res) => raw(res, 200, 'text/plain', 'plain words\n') });
    expect(await call(['text'])).toMatchObject({ code: 0, stdout: 'plain words\n' });
  });

  it('indents and colours JSON on a terminal, keeping numbers as sent, and escapes other text there', async () => {
    const { server } = await api({
      'GET /v1/odd': (_req, res) => raw(res, 200, 'application/json', '{"a":[1.0,{}],"b":"x\\"y\u0085","c":[]}'),
      'GET /v1/text': (_req, res) => raw(res, 200, 'text/plain', 'line\u001b[2J\nnext'),
    });
    const env = { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: server.url, FORCE_COLOR: '1' };
    const pretty = await run(['api', 'odd'], { env, tty: { columns: 80 } });
    // eslint-disable-next-line no-control-regex
    expect(pretty.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe('{\n  "a": [\n    1.0,\n    {}\n  ],\n  "b": "x\\"y\\u0085",\n  "c": []\n}\n');
    expect(pretty.stdout).toContain('\u001b[');
    const text = await run(['api', 'text'], { env, tty: { columns: 80 } });
    expect(text.stdout).toBe('line\\x1b[2J\nnext\n');
  });

  it('sends -f and -F as a JSON body with POST, and as query parameters with GET', async () => {
    const { server, call } = await api({
      'POST /v1/things': (_req, res) => json(res, 201, { ok: true }),
      'GET /v1/things': (_req, res) => json(res, 200, { ok: true }),
    });
    expect((await call(['things', '-f', 'name=Reset', '-F', 'count=2', '-F', 'tags[]=a', '-F', 'style[bold]=true'])).code).toBe(0);
    expect((await call(['things', '-X', 'get', '-f', 'perPage=10', '-F', 'flag=true'])).code).toBe(0);
    const [post, get] = server.requests;
    expect(post!.method).toBe('POST');
    expect(post!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post!.body)).toEqual({ name: 'Reset', count: 2, tags: ['a'], style: { bold: true } });
    expect(get!.method).toBe('GET');
    expect(Object.fromEntries(get!.query)).toEqual({ perPage: '10', flag: 'true' });
    expect(get!.body).toBe('');
  });

  it('sends --input exactly as written, after checking that it is JSON', async () => {
    const { server, call } = await api({ 'PUT /v1/things/1': (_req, res) => json(res, 200, {}) });
    const dir = tempDir();
    const file = join(dir, 'body.json');
    const text = '{"name":  "spaced",\n "n": 1.50}\n';
    writeFileSync(file, text);
    expect((await call(['things/1', '-X', 'PUT', '--input', file])).code).toBe(0);
    expect((await call(['things/1', '-X', 'PUT', '--input', '-'], text)).code).toBe(0);
    expect(server.requests.map((req) => req.body)).toEqual([text, text]);

    const invalid = await call(['things/1', '-X', 'PUT', '--input', '-'], '{"name": ');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('the body in standard input is not valid JSON (it ends too early) at line 1, column 10');
    expect(server.requests).toHaveLength(2);
  });

  it('sends -H headers, and never shows an Authorization header given that way', async () => {
    const { server, call } = await api({ 'GET /v1/x': (_req, res) => json(res, 200, {}) });
    const result = await call(['x', '-H', 'X-Trace: abc', '-H', 'Authorization: Bearer other-secret-value', '--debug']);
    expect(result.code).toBe(0);
    expect(server.requests[0]!.headers['x-trace']).toBe('abc');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer other-secret-value');
    expect(result.stderr).not.toContain('other-secret-value');
    expect(result.stderr).not.toContain(KEY);

    const bad = await call(['x', '-H', 'no colon here']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Error: -H expects "Name: value"');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a full URL, so the key only goes to the base URL', async () => {
    const { server, call } = await api({});
    const result = await call(['https://elsewhere.example/v1/themes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Error: "https://elsewhere.example/v1/themes" is a full URL; give the path below the base URL');
    expect(server.requests).toHaveLength(0);
  });

  it('-i shows the status and headers on stderr, stdout staying the body', async () => {
    const { call } = await api({ 'GET /v1/x': (_req, res) => json(res, 200, { a: 1 }, { 'x-custom': 'yes' }) });
    const result = await call(['x', '-i']);
    expect(result.stdout).toBe('{"a":1}\n');
    expect(result.stderr).toMatch(/^HTTP 200 OK\n/);
    expect(result.stderr).toContain('x-custom: yes');
  });
});

describe('loopsctl api: failures', () => {
  it('prints an error answer and exits with the code of its status', async () => {
    const { call } = await api({
      'GET /v1/missing': (_req, res) => json(res, 404, { message: 'Workflow not found.' }),
      'POST /v1/bad': (_req, res) => json(res, 400, { message: 'name is required' }),
    });
    const missing = await call(['missing']);
    expect(missing).toMatchObject({ code: 4, stdout: '{"message":"Workflow not found."}\n' });
    expect(missing.stderr).toContain('Error: Workflow not found.');
    expect(await call(['bad', '-f', 'x=1'])).toMatchObject({ code: 5, stdout: '{"message":"name is required"}\n', stderr: 'Error: name is required\n' });
  });

  it('prints an error answer unfiltered under --jq, and refuses to filter an answer that is not JSON', async () => {
    const { call } = await api({
      'GET /v1/missing': (_req, res) => json(res, 404, { message: 'gone' }),
      'GET /v1/text': (_req, res) => raw(res, 200, 'text/plain', 'plain'),
    });
    const missing = await call(['missing', '--jq', '.x']);
    expect(missing).toMatchObject({ code: 4, stdout: '{"message":"gone"}\n' });
    expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'not_found', status: 404, message: 'gone' });
    const text = await call(['text', '--jq', '.']);
    expect(text).toMatchObject({ code: 9, stdout: '' });
    expect(JSON.parse(text.stderr).error.message).toMatch(/not JSON, which --jq cannot filter/);
  });

  it('retries a GET after a 503', async () => {
    let count = 0;
    const { server, call } = await api({
      'GET /v1/flaky': (_req, res) => (++count === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: true })),
    });
    const result = await call(['flaky']);
    expect(result).toMatchObject({ code: 0, stdout: '{"ok":true}\n' });
    expect(server.requests).toHaveLength(2);
  });

  it('does not send a POST again after a 503, since the API may have acted on it', async () => {
    let count = 0;
    const { server, call } = await api({
      'POST /v1/transactional-emails': (_req, res) => (++count === 1 ? json(res, 503, { message: 'busy' }) : json(res, 201, { id: 'new' })),
    });
    const result = await call(['transactional-emails', '-f', 'name=Reset']);
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('{"message":"busy"}\n');
    expect(result.stderr).toMatch(/did not send it again/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a send after a 503 when --idempotency-key makes that safe, with the same key and body', async () => {
    let count = 0;
    const { server, call } = await api({
      'POST /v1/events/send': (_req, res) => (++count === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { success: true })),
    });
    const result = await call([
      '-X',
      'POST',
      'events/send',
      '-f',
      'eventName=signup',
      '-f',
      'email=ada@example.com',
      '--idempotency-key',
      'signup-ada-1',
      '--debug',
    ]);
    expect(result).toMatchObject({ code: 0, stdout: '{"success":true}\n' });
    // --debug shows the key each attempt carried: the same on the retry.
    expect(result.stderr.match(/^> POST .*idempotency-key: signup-ada-1\)$/gm)).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((req) => req.headers['idempotency-key'])).toEqual(['signup-ada-1', 'signup-ada-1']);
    expect(server.requests.map((req) => req.body)).toEqual([
      '{"eventName":"signup","email":"ada@example.com"}',
      '{"eventName":"signup","email":"ada@example.com"}',
    ]);
  });

  it('takes a 409 to its own retry of a keyed send as already sent (exit 0), and one to the first attempt as a used key', async () => {
    let count = 0;
    const { server, call } = await api({
      'POST /v1/events/send': (_req, res) =>
        ++count === 1 ? json(res, 502, { message: 'bad gateway' }) : json(res, 409, { success: false, message: 'Idempotency key has already been used.' }),
    });
    const send = ['-X', 'POST', 'events/send', '-f', 'eventName=signup', '-f', 'email=ada@example.com', '--idempotency-key', 'signup-ada-2'];
    const retried = await call(send);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain('Already sent: an earlier attempt reached the API, so it was not sent again');
    expect(server.requests).toHaveLength(2);
    const reused = await call(send);
    expect(reused.code).toBe(5);
    expect(reused.stderr).toContain('Idempotency key has already been used.');
    expect(reused.stderr).not.toContain('Already sent');
  });

  it.each([
    ['a 503', (res: ServerResponse) => json(res, 503, { message: 'busy' })],
    ['a connection reset after the body was sent', (res: ServerResponse) => void res.socket?.destroy()],
  ])('never sends a create again after %s, --idempotency-key or not: the API ignores the key there', async (_what, fail) => {
    let count = 0;
    const { server, call } = await api({ 'POST /v1/transactional-emails': (_req, res) => (++count === 1 ? fail(res) : json(res, 201, { id: 'second' })) });
    const result = await call(['transactional-emails', '-f', 'name=Reset', '--idempotency-key', 'reset-1']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('POST /v1/transactional-emails ignores Idempotency-Key (only POST /v1/events/send and POST /v1/transactional honour it)');
    expect(server.requests).toHaveLength(1);
  });

  it('stops paging on a cursor it has already followed', async () => {
    const page = { pagination: { totalResults: 99, returnedResults: 1, perPage: 1, totalPages: 99, nextCursor: 'again', nextPage: null }, data: [{ id: 1 }] };
    const { server, call } = await api({ 'GET /v1/loop': (_req, res) => json(res, 200, page) });
    const result = await call(['loop', '--paginate']);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/returned a cursor it had returned before/);
    expect(server.requests).toHaveLength(2);
  });
});

describe('loopsctl api against the sandbox', () => {
  it('--paginate prints a list that comes whole, as a JSON array, as it came', async () => {
    const config = { LOOPSCTL_CONFIG_DIR: tempDir() };
    for (const path of ['lists', 'contacts/properties', 'dedicated-sending-ips']) {
      const whole = await run(['--sandbox', 'api', path], { env: config });
      const paged = await run(['--sandbox', 'api', path, '--paginate'], { env: config });
      expect(paged.code, `${path}: ${paged.stderr}`).toBe(0);
      expect(paged.json()).toEqual(whole.json());
      const lines = await run(['--sandbox', 'api', path, '--paginate', '--jsonl'], { env: config });
      expect(lines.stdout.trim().split('\n').length).toBe(whole.json<unknown[]>().length);
    }
  });

  it('--paginate gives every item of a list, as `list --json` does', async () => {
    const config = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const listed = await run(['--sandbox', 'themes', 'list', '--json'], { env: config });
    const paged = await run(['--sandbox', 'api', '/v1/themes', '--paginate'], { env: config });
    expect(paged.code).toBe(0);
    expect(paged.json()).toEqual(listed.json());
    expect(paged.json<unknown[]>().length).toBeGreaterThan(20);

    const lines = await run(['--sandbox', 'api', 'themes?perPage=10', '--paginate', '--jsonl'], { env: config });
    expect(
      lines.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(listed.json());

    // Fields with --paginate are the query of a GET.
    const fielded = await run(['--sandbox', 'api', 'themes', '-F', 'perPage=50', '--paginate', '--jq', 'length'], { env: config });
    expect(fielded.stdout).toBe(`${listed.json<unknown[]>().length}\n`);
  });

  it('keeps the query of the path while paging', async () => {
    const seen: string[] = [];
    server = await startApiServer({
      'GET /v1/themes': (req, res) => {
        seen.push(req.query.toString());
        const last = req.query.get('cursor') === 'p2';
        json(res, 200, {
          pagination: { totalResults: 2, returnedResults: 1, perPage: 10, totalPages: 2, nextCursor: last ? null : 'p2', nextPage: null },
          data: [{ n: last ? 2 : 1 }],
        });
      },
    });
    const result = await run(['api', 'themes?perPage=10', '--paginate', '--jq', 'map(.n)'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: server.url } });
    expect(result.stdout).toBe('[1,2]\n');
    expect(seen).toEqual(['perPage=10', 'perPage=10&cursor=p2']);
  });
});
