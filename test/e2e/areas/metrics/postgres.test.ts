/** The metrics store on a real PostgreSQL server the test starts (test/support/postgres.ts), named by LOOPS_METRICS_STORE. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { POSTGRES_PASSWORD, type Postgres, postgresAvailable, startPostgres } from '../../../support/postgres.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const available = postgresAvailable();
let server: Postgres;

describe.runIf(available)('the metrics store in PostgreSQL', () => {
  beforeAll(async () => {
    server = await startPostgres();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps snapshots and makes their history, and never shows the password', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_METRICS_STORE: server.url(await server.createDatabase()) };
    const ok = async (argv: string[]) => {
      const result = await run(argv, { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toContain(POSTGRES_PASSWORD);
      return result;
    };
    const first = await ok(['--sandbox', 'metrics', 'snapshot', '--json']);
    expect((first.json() as { store: string }).store).toMatch(/^postgres:\/\/\[redacted\]@127\.0\.0\.1:\d+\//);
    await ok([
      '--sandbox',
      'transactional',
      'send',
      SEED_IDS.welcomeEmail,
      '--to',
      'ada@example.com',
      '--var',
      'firstName=Ada',
      '--var',
      'loginUrl=https://a.example/',
    ]);
    await ok(['sandbox', 'clock', 'advance', '1d']);
    await ok(['--sandbox', 'metrics', 'snapshot']);
    const history = (await ok(['metrics', 'history', 'Welcome', '--json'])).json() as { periods: { status: string; counts?: { sends: number } }[] };
    expect(history.periods.at(-1)).toMatchObject({ status: 'counted', counts: { sends: 1 } });
  });
});
