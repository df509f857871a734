import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';

describe('lists', () => {
  it('lists the three seeded mailing lists, including the two the workflows name', async () => {
    const result = await run(['--sandbox', 'lists', 'list', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual([
      { id: 'co0gnzwtbvun8n3amky3gzsp4', name: 'Product updates', description: 'Monthly product news and release notes', isPublic: true },
      { id: 'ccr5wuhgixvhysmch2s25o20h', name: 'Beta testers', description: 'People trying features before everyone else', isPublic: false },
      { id: 'crfnfn2qd4dlstscmr83c7nro', name: 'Event invitations', description: null, isPublic: true },
    ]);
    const text = await run(['--sandbox', 'lists', 'list']);
    expect(text.stdout.split('\n')).toContain('crfnfn2qd4dlstscmr83c7nro\tEvent invitations\tyes\t-');
    const jsonl = await run(['--sandbox', 'lists', 'list', '--jsonl']);
    expect(jsonl.stdout.trim().split('\n')).toHaveLength(3);
  });

  let api: ApiServer | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });
  it('a 405 exits 5 with the message', async () => {
    api = await startApiServer({ 'GET /v1/lists': (_req, res) => json(res, 405, { message: 'wrong method' }) });
    const result = await run(['lists', 'list'], { env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('wrong method');
  });
});
