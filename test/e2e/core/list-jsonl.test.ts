import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { runCli } from '../../support/run-cli.js';

const KEY = 'test-key-not-real';

function group(index: number) {
  return { id: `clg${index}`, name: `Group ${index}`, description: '', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-02T00:00:00Z' };
}

function envelope(data: unknown[], nextCursor: string | null) {
  return { pagination: { totalResults: 3, returnedResults: data.length, perPage: 10, totalPages: 2, nextCursor, nextPage: null }, data };
}

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function groupsServer(): Promise<ApiServer> {
  server = await startApiServer({
    'GET /v1/campaign-groups': (req, res) =>
      req.query.get('cursor') === 'next' ? json(res, 200, envelope([group(3)], null)) : json(res, 200, envelope([group(1), group(2)], 'next')),
  });
  return server;
}

describe('list --jsonl', () => {
  it('prints every item of every page as one line of compact JSON', async () => {
    const api = await groupsServer();
    const result = await runCli(['campaign-groups', 'list', '--jsonl'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: api.url } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe([group(1), group(2), group(3)].map((item) => `${JSON.stringify(item)}\n`).join(''));
    expect(api.requests).toHaveLength(2);
  });

  it('with --cursor prints only that page, one item per line', async () => {
    const api = await groupsServer();
    const result = await runCli(['campaign-groups', 'list', '--jsonl', '--cursor', 'next'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: api.url } });
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `${JSON.stringify(group(3))}\n` });
    expect(api.requests.map((req) => req.query.get('cursor'))).toEqual(['next']);
  });

  it('is offered by every list command', async () => {
    for (const group of ['transactional', 'groups', 'campaign-groups', 'workflow', 'themes', 'segments']) {
      const result = await runCli([group, 'list', '--help']);
      expect(result.stdout, group).toContain('--jsonl');
    }
  });

  it('refuses --json together with --jsonl as a usage error, before any request', async () => {
    const api = (server = await startApiServer());
    const result = await runCli(['--json', 'campaign-groups', 'list', '--jsonl'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: api.url } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { code: 'usage', exitCode: 2, message: '--json and --jsonl cannot be used together' } });
    expect(api.requests).toHaveLength(0);
  });

  it('reports a failure as JSON on stderr, like --json', async () => {
    server = await startApiServer({ 'GET /v1/themes': (_req, res) => json(res, 404, { message: 'no themes here' }) });
    const result = await runCli(['themes', 'list', '--jsonl'], { env: { LOOPS_API_KEY: KEY, LOOPS_BASE_URL: server.url } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { status: 404, message: expect.stringContaining('no themes here') } });
  });
});
