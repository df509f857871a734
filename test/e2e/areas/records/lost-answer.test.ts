/**
 * A create of a resource described whole by its row (src/areas/records/client.ts) whose answer is
 * lost after the request went out: sent once, never again, for the API may have made the record
 * and has no idempotency key for it (a second send would make a second one).
 */
import { describe, expect, it } from 'vitest';
import { RECORD_ROWS } from '../../../../src/platform/whole-rows.js';
import { startApiServer } from '../../../support/api-server.js';
import { run } from '../../../support/main.js';

describe('a lost answer to a create', () => {
  it.each(RECORD_ROWS.map((row) => [row.noun, row] as const))('of a %s is not sent again, and says to check first', async (_noun, row) => {
    // The request is read whole, then the connection is cut before any answer.
    const server = await startApiServer({ [`POST ${row.create.path}`]: (_req, res) => void res.socket?.destroy() });
    try {
      const result = await run([row.records.area.name, 'create', '--name', 'Receipts'], {
        env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: server.url },
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('loopsctl did not send it again because the API may already have acted on it');
      expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
