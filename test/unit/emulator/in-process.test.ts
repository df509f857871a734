import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LocalFileError } from '../../../src/base/errors.js';
import type { RequestSpec } from '../../../src/base/node-http.js';
import { IN_PROCESS_ORIGIN, type InProcessSandbox, startInProcess } from '../../../src/emulator/in-process.js';
import { startServer } from '../../../src/emulator/server.js';
import { readState } from '../../../src/emulator/state/index.js';
import { SEED_IDS, sandboxModules } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp.js';

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
});

const NOW = new Date('2026-11-23T10:00:00Z');

async function open(stateFile = join(tempDir('loopsctl-in-process-'), 'state.json'), onStateError?: (error: LocalFileError) => void) {
  const sandbox = await startInProcess({ stateFile, now: () => NOW, onStateError });
  opened.push(sandbox);
  return { sandbox, stateFile };
}

function spec(method: string, body?: unknown, signal?: AbortSignal): RequestSpec {
  return {
    method,
    headers: { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 1000,
    bodyTimeout: 1000,
    signal,
  };
}

async function send(sandbox: InProcessSandbox, method: string, path: string, body?: unknown) {
  const response = await sandbox.pool.request(`${sandbox.url}${path}`, spec(method, body));
  const text = await response.text(1024 * 1024);
  return { status: response.statusCode, headers: response.headers, text, body: text ? JSON.parse(text!) : undefined };
}

describe('the in-process sandbox', () => {
  it('answers as the sandbox on the network does, from the same state file', async () => {
    const { sandbox, stateFile } = await open();
    const server = await startServer({ stateFile });
    opened.push(server);
    const path = '/v1/workflows?perPage=10';
    const inProcess = await send(sandbox, 'GET', path);
    const overHttp = await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer sandbox-key' } });
    expect(inProcess.status).toBe(200);
    expect(inProcess.body).toEqual(await overHttp.json());
    expect(inProcess.body.data.length).toBeGreaterThan(1);
  });

  it('carries the headers a server would: the date of its clock, the type, the rate limit', async () => {
    const { sandbox } = await open();
    const { headers } = await send(sandbox, 'GET', '/v1/api-key');
    expect(headers).toMatchObject({
      date: NOW.toUTCString(),
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': expect.stringMatching(/^\d+$/),
    });
  });

  it('dates an answer when it is made, however late its Date is read, and lets the header be set as any other', async () => {
    let now = NOW;
    const sandbox = await startInProcess({ stateFile: join(tempDir('loopsctl-in-process-'), 'state.json'), now: () => now });
    opened.push(sandbox);
    const { headers } = await send(sandbox, 'GET', '/v1/api-key');
    now = new Date(NOW.getTime() + 3_600_000);
    expect(headers.date).toBe(NOW.toUTCString());
    expect({ ...headers }.date).toBe(NOW.toUTCString());
    headers.date = now.toUTCString();
    expect(headers.date).toBe(now.toUTCString());
    expect(Object.keys(headers)[0]).toBe('date');
  });

  it("dates its answers by the sandbox's clock, in process and over HTTP alike", async () => {
    const { sandbox, stateFile } = await open();
    const server = await startServer({ stateFile, now: () => NOW });
    opened.push(server);
    // A month ahead, as `loopsctl sandbox clock advance 30d` moves it.
    const moved = await send(sandbox, 'POST', '/_sandbox/clock', { advance: '30d' });
    expect(moved.status).toBe(200);
    const later = new Date(NOW.getTime() + 30 * 86_400_000).toUTCString();
    expect((await send(sandbox, 'GET', '/v1/api-key')).headers.date).toBe(later);
    const overHttp = await fetch(`${server.url}/v1/api-key`, { headers: { authorization: 'Bearer sandbox-key' } });
    expect(overHttp.headers.get('date')).toBe(later);
  });

  it('keeps what a write changed in the state file, and answers 204 with no body', async () => {
    const { sandbox, stateFile } = await open();
    const created = await send(sandbox, 'POST', '/v1/contacts/create', { email: 'new.person@example.com' });
    expect(created).toMatchObject({ status: 200, body: { success: true } });
    expect((readState(stateFile, sandboxModules)!.contacts as { email: string }[]).map((contact) => contact.email)).toContain('new.person@example.com');
    const workflow = await send(sandbox, 'GET', `/v1/workflows/${SEED_IDS.experimentWorkflow}`);
    const deleted = await send(sandbox, 'DELETE', `/v1/workflows/${SEED_IDS.experimentWorkflow}`, {
      expectedRevisionId: workflow.body.workflowRevisionId,
      confirmDelete: true,
    });
    expect(deleted).toMatchObject({ status: 204, text: '' });
    expect(deleted.headers['content-type']).toBeUndefined();
  });

  it('gives no body past the limit the transport reads, as a pool on the network does', async () => {
    const { sandbox } = await open();
    const response = await sandbox.pool.request(`${sandbox.url}/v1/workflows`, spec('GET'));
    expect(await response.text(10)).toBeUndefined();
  });

  it('refuses a URL of another origin, and a request already aborted', async () => {
    const { sandbox } = await open();
    await expect(sandbox.pool.request('http://127.0.0.1:9/v1/api-key', spec('GET'))).rejects.toThrow(
      `the in-process sandbox does not answer for http://127.0.0.1:9`,
    );
    const aborted = AbortSignal.abort(new Error('stopped by the person'));
    await expect(sandbox.pool.request(`${IN_PROCESS_ORIGIN}/v1/api-key`, spec('GET', undefined, aborted))).rejects.toThrow('stopped by the person');
  });

  it('answers 500 with what to do when the state file turns unreadable, and says so once', async () => {
    const told: LocalFileError[] = [];
    const { sandbox, stateFile } = await open(undefined, (error) => told.push(error));
    writeFileSync(stateFile, '{ not json');
    const first = await send(sandbox, 'GET', '/v1/api-key');
    const second = await send(sandbox, 'GET', '/v1/api-key');
    expect(first.status).toBe(500);
    expect(first.body.message).toMatch(/sandbox reset/);
    expect(second.status).toBe(500);
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain(stateFile);
  });
});
