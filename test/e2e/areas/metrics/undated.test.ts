/** `metrics snapshot` against an API whose answer carries no Date: dated by this machine's clock, and said. */
import { afterAll, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../../support/api-server.js';
import { closedAfter } from '../../../support/closing.js';
import { envelope, metrics, transactionalEmail } from '../../../support/fixtures.js';
import { run, tempDir } from '../../../support/main.js';

const keep = closedAfter(afterAll);

describe('a snapshot of answers without a Date', () => {
  it("dates them by this machine's clock, and says how many", async () => {
    const server = keep(
      await startApiServer({
        'GET /v1/transactional-emails': (_req, res) => json(res, 200, envelope([{ ...transactionalEmail, publishedEmailMessageId: 'm1' }])),
        'GET /v1/campaigns': (_req, res) => json(res, 200, envelope([])),
        'GET /v1/workflows': (_req, res) => json(res, 200, envelope([])),
        [`GET /v1/transactional-emails/${transactionalEmail.id}/metrics`]: (_req, res) => {
          res.sendDate = false;
          json(res, 200, metrics);
        },
      }),
    );
    const now = new Date('2026-11-23T10:00:00.000Z');
    const options = { env: { LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_API_KEY: 'test-key-metrics', LOOPS_BASE_URL: server.url }, now: () => now };
    const result = await run(['metrics', 'snapshot', '--json'], options);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ takenAt: now.toISOString(), kept: 1, undated: 1, emails: [`transactional/${transactionalEmail.id}`] });
    const text = await run(['metrics', 'snapshot'], options);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain("1 answer carried no Date: dated by this machine's clock");
  });
});
