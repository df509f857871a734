import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../../src/emulator/api.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../../support/main.js';
import { publishedDescription, requestProblems } from '../../../support/openapi.js';
import { runCli } from '../../../support/run-cli.js';

const openApi = publishedDescription();
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(120, 7)]);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function file(name: string, bytes: Buffer | string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, bytes);
  return path;
}

async function sandbox(options: Parameters<typeof startTestSandbox>[0] = {}) {
  const seen: ApiRequest[] = [];
  const server = await startTestSandbox({ onRequest: (request) => seen.push(request), ...options });
  closers.push(() => server.close());
  return { seen, env: sandboxEnv(server) };
}

async function apiServer(): Promise<ApiServer> {
  const server = await startApiServer();
  closers.push(() => server.close());
  return server;
}

describe('uploads create', () => {
  it('creates, PUTs the bytes to the presigned URL without the API key, and completes', async () => {
    const { seen, env } = await sandbox();
    const result = await run(['uploads', 'create', file('logo.png', PNG)], { env: { ...env, NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(seen.map((request) => `${request.method} ${request.path.replace(/c[0-9a-z]{24}/, ':id')}`)).toEqual([
      'POST /v1/uploads',
      'PUT /sandbox-uploads/:id',
      'POST /v1/uploads/:id/complete',
    ]);
    const [create, put, complete] = seen as [ApiRequest, ApiRequest, ApiRequest];
    expect(JSON.parse(create.body)).toEqual({ contentType: 'image/png', contentLength: PNG.length });
    expect(put.authorization).toBeUndefined();
    expect(put.headers?.['content-type']).toBe('image/png');
    expect(put.rawBody?.equals(PNG)).toBe(true);
    expect(complete.authorization).toBe('Bearer sandbox-key');
    const id = complete.path.split('/')[3]!;
    expect(result.stdout).toBe(`FIELD\tVALUE\nemailAssetId\t${id}\nfinalUrl\thttps://assets.sandbox.invalid/${id}.png\n`);
    const terminal = await run(['uploads', 'create', file('logo.png', PNG)], { env: { ...env, NO_COLOR: '1' }, tty: { columns: 80 } });
    expect(terminal.stdout).toMatch(/^emailAssetId {2}c[0-9a-z]{24}\nfinalUrl {6}https:\/\/assets\.sandbox\.invalid\/c[0-9a-z]{24}\.png\n$/);
    expect(requestProblems(openApi, 'POST', create.path, JSON.parse(create.body))).toEqual([]);
    expect(requestProblems(openApi, 'POST', complete.path, undefined)).toEqual([]);
  });

  it('reads the image from stdin with -, its type from its first bytes', async () => {
    const { seen, env } = await sandbox();
    const result = await run(['uploads', 'create', '-', '--json'], { env, input: Readable.from([PNG]) });
    expect(result.code).toBe(0);
    const put = seen.find((request) => request.method === 'PUT')!;
    expect(put.headers?.['content-type']).toBe('image/png');
    expect(put.rawBody?.equals(PNG)).toBe(true);
    const text = await run(['uploads', 'create', '-'], { env, input: 'hello' });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('Error: stdin is not an image type the API takes');
  });

  it('--json prints the answer of complete unchanged', async () => {
    const { env } = await sandbox();
    const result = await run(['--json', 'uploads', 'create', file('banner', PNG), '--type', 'image/png'], { env });
    expect(result.code).toBe(0);
    expect(Object.keys(result.json())).toEqual(['emailAssetId', 'finalUrl']);
  });

  it('checks size and type before the first request', async () => {
    const { seen, env } = await sandbox();
    const cases: [string, RegExp][] = [
      [
        file('big.png', Buffer.concat([PNG, Buffer.alloc(4_000_001 - PNG.length)])),
        /is larger than 4000000 bytes; the API takes images of at most 4000000 bytes/,
      ],
      [file('empty.png', ''), /is empty/],
      [file('notes.txt', 'hello'), /is not an image type the API takes \(image\/jpeg, image\/png, image\/gif, image\/webp\)/],
      [file('photo.jpg', PNG), /is not image\/jpeg: its first bytes are those of image\/png/],
      [join(tempDir(), 'missing.png'), /cannot read the image file ".*missing.png": no such file/],
    ];
    for (const [path, message] of cases) {
      const result = await run(['uploads', 'create', path], { env });
      expect(result.code, path).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(seen).toHaveLength(0);
  });

  it('the sandbox refuses a PUT that carries an Authorization header, like storage does', async () => {
    const { env } = await sandbox();
    const base = env.LOOPS_BASE_URL;
    const created = await fetch(`${base}/v1/uploads`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'image/png', contentLength: PNG.length }),
    }).then((response) => response.json() as Promise<{ presignedUrl: string }>);
    const withKey = await fetch(created.presignedUrl, {
      method: 'PUT',
      headers: { authorization: 'Bearer sandbox-key', 'content-type': 'image/png' },
      body: PNG,
    });
    expect(withKey.status).toBe(400);
    const unsigned = await fetch(created.presignedUrl.replace(/signature=\w+/, 'signature=forged'), {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    });
    expect(unsigned.status).toBe(403);
  });

  it('says a 429 of complete is the daily upload quota, and does not retry it', async () => {
    const server = await apiServer();
    server.route('POST /v1/uploads', (_req, res) =>
      json(res, 200, { emailAssetId: 'asset1', presignedUrl: `${server.url}/bucket/asset1?X-Amz-Signature=secret` }),
    );
    server.route('PUT /bucket/asset1', (_req, res) => json(res, 200, {}));
    server.route('POST /v1/uploads/:id/complete', (_req, res) =>
      json(res, 429, { message: 'Upload limit exceeded: max 50 uploads per 24 hours.', maxUploads: 50, windowHours: 24 }, { 'retry-after': '1' }),
    );
    const result = await run(['uploads', 'create', file('logo.png', PNG)], { env: { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key' } });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/the daily upload quota is used up: Upload limit exceeded/);
    expect(server.requests.filter((request) => request.path.endsWith('/complete'))).toHaveLength(1);
  });

  it('the sandbox keeps a quota of 50 uploads a day', async () => {
    const now = new Date().toISOString();
    const { env } = await sandbox({
      initialState: (modules) => {
        const state = seedState(modules);
        state.uploads = Array.from({ length: 50 }, (_, index) => ({
          emailAssetId: `asset${index}`,
          contentType: 'image/png',
          contentLength: 1,
          createdAt: now,
          received: { type: 'image/png', sha256: '' },
          completedAt: now,
        }));
        return state;
      },
    });
    const result = await run(['uploads', 'create', file('logo.png', PNG)], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/max 50 uploads per 24 hours/);
  });

  it('retries the PUT after a 503, never after a 403, and never shows the signature', async () => {
    const server = await apiServer();
    let puts = 0;
    server.route('POST /v1/uploads', (_req, res) =>
      json(res, 200, { emailAssetId: 'asset1', presignedUrl: `${server.url}/bucket/asset1?X-Amz-Signature=secret` }),
    );
    server.route('PUT /bucket/asset1', (_req, res) => json(res, puts++ === 0 ? 503 : 200, {}));
    server.route('POST /v1/uploads/:id/complete', (_req, res) => json(res, 200, { emailAssetId: 'asset1', finalUrl: 'https://cdn.example/asset1.png' }));
    const env = { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key' };
    const retried = await run(['uploads', 'create', file('logo.png', PNG)], { env });
    expect(retried.code).toBe(0);
    const sent = server.requests.filter((request) => request.method === 'PUT');
    expect(sent).toHaveLength(2);
    for (const put of sent) {
      expect(put.headers.authorization).toBeUndefined();
      expect(put.headers['content-length']).toBe(String(PNG.length));
    }

    server.route('PUT /bucket/asset1', (_req, res) => json(res, 403, { message: 'SignatureDoesNotMatch' }));
    const before = server.requests.length;
    const refused = await run(['uploads', 'create', file('logo.png', PNG)], { env });
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`PUT ${server.url}/bucket/asset1: the storage refused it (HTTP 403`);
    expect(refused.stderr).not.toContain('secret');
    expect(server.requests.slice(before).map((request) => request.method)).toEqual(['POST', 'PUT']);
  });

  it.each([
    ['POST /v1/uploads', 400, 5, /image\/jpeg, image\/png/],
    ['POST /v1/uploads', 401, 3, /content API/],
    ['POST /v1/uploads', 405, 5, undefined],
    ['POST /v1/uploads', 413, 5, /at most 4000000 bytes/],
    ['POST /v1/uploads/:id/complete', 400, 5, /supported image/],
    ['POST /v1/uploads/:id/complete', 401, 3, /content API/],
    ['POST /v1/uploads/:id/complete', 404, 4, /run the command again/],
    ['POST /v1/uploads/:id/complete', 405, 5, undefined],
  ] as const)('%s answering %i: exit %i', async (route, status, code, hint) => {
    const server = await apiServer();
    server.route('POST /v1/uploads', (_req, res) => json(res, 200, { emailAssetId: 'asset1', presignedUrl: `${server.url}/bucket/asset1?sig=1` }));
    // The image goes to storage only once the upload was created.
    if (route !== 'POST /v1/uploads') server.route('PUT /bucket/asset1', (_req, res) => json(res, 200, {}));
    server.route(route, (_req, res) => json(res, status, { message: `documented failure ${status}` }));
    const result = await run(['uploads', 'create', file('logo.png', PNG)], { env: { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: 'test-key' } });
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(`documented failure ${status}`);
    if (hint !== undefined) expect(result.stderr).toMatch(hint);
  });

  // The bundle is what users run: the upload's PUT must reach the sandbox there too.
  it('uploads from the built binary too', async () => {
    const result = await runCli(['--sandbox', 'uploads', 'create', file('logo.png', PNG)]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^FIELD\tVALUE\nemailAssetId\tc[0-9a-z]{24}\n/);
  });
});
