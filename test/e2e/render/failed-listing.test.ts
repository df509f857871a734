/**
 * A --json listing that fails after its first page: stdout is still whole JSON (a closed array of
 * the items that arrived), stderr has the error, and the exit code says it is not all of it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../support/api-server.js';
import { closedAfter } from '../../support/closing.js';
import { envelope, theme } from '../../support/fixtures.js';
import { run } from '../../support/main.js';

const kept = closedAfter(afterEach);

async function failingOnPage(failing: number) {
  const api = kept(
    await startApiServer({
      'GET /v1/themes': (req, res) => {
        const page = Number(req.query.get('cursor') ?? '1');
        if (page === failing) return json(res, 500, { message: 'the server broke' });
        json(res, 200, envelope([theme(page * 2 - 1), theme(page * 2)], `${page + 1}`, 2, 10));
      },
    }),
  );
  return { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url };
}

describe('a --json listing that fails part way', () => {
  it.each([
    ['themes list --json', ['themes', 'list', '--json', '--retries', '0']],
    ['api --paginate', ['api', 'themes', '--paginate', '-f', 'perPage=2', '--retries', '0']],
  ])('%s leaves a closed array of the items received, and the error with its exit code', async (_name, args) => {
    const env = await failingOnPage(3);
    const result = await run(args, { env });
    expect(result.code).toBe(8);
    const items = JSON.parse(result.stdout) as { id: string }[];
    expect(items.map((item) => item.id)).toEqual([theme(1).id, theme(2).id, theme(3).id, theme(4).id]);
    expect(result.stderr).toContain('the server broke');
  });

  it('prints nothing on stdout when no page arrived', async () => {
    const env = await failingOnPage(1);
    const result = await run(['themes', 'list', '--json', '--retries', '0'], { env });
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error.message).toBe('the server broke');
  });
});
