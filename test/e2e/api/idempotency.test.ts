/** An --idempotency-key the API could not honour is refused before anything is sent. */
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { run } from '../../support/main.js';

let server: ApiServer | undefined;
afterEach(() => server?.close());

const SENDS: [string, string[], string][] = [
  ['events send', ['events', 'send', 'signup', '--email', 'a@example.com'], 'POST /v1/events/send'],
  ['transactional send', ['transactional', 'send', 'cabc123', '--to', 'a@example.com'], 'POST /v1/transactional'],
];
const REFUSED = 'Error: --idempotency-key must be 1 to 100 printable ASCII characters\n';

describe.each(SENDS)('%s', (_name, argv, route) => {
  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['over 100 characters', 'k'.repeat(101)],
    ['with a line end', 'order-1\n'],
    ['with an escape', 'order-\x1b[2J'],
    ['with a character outside ASCII', 'commande-é'],
  ])('refuses a key that is %s, exit 2, sending nothing', async (_what, key) => {
    server = await startApiServer();
    const result = await run([...argv, '--idempotency-key', key], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url } });
    expect(result).toMatchObject({ code: 2, stdout: '', stderr: REFUSED });
    expect(server.requests).toEqual([]);
  });

  it('sends a key of 100 printable characters as given', async () => {
    const key = `${'k'.repeat(99)}~`;
    server = await startApiServer({ [route]: (_req, res) => json(res, 200, { success: true }) });
    const result = await run([...argv, '--idempotency-key', key], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: server.url } });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual([key]);
  });
});
