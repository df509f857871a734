/**
 * `metrics snapshot` and `metrics history` against the sandbox: a month of history made in seconds
 * by moving `sandbox clock` between sends and snapshots, since the sandbox dates its answers by its
 * clock as the API dates them by the account's.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';
import { ok, send, WELCOME } from './sandbox-sends.js';

interface Period {
  start: string;
  status: string;
  counts?: { sends: number; deliveries: number; opens: number | null };
  rates?: { deliveries: number | null };
  reason?: string;
}

describe('loopsctl metrics snapshot and history', () => {
  it('makes a history a day from snapshots dated by the moved sandbox clock: counted periods, a gap, the start said', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    // A morning a few weeks ahead, so that each step below stays in its day.
    const first = new Date(Date.now() + 20 * 86_400_000);
    first.setUTCHours(9, 0, 0, 0);
    await ok(['sandbox', 'clock', 'set', first.toISOString()], env);

    const taken = await ok(['--sandbox', 'metrics', 'snapshot', '--json'], env);
    const report = taken.json() as { kept: number; takenAt: string; store: string; emails: string[] };
    expect(report.emails).toContain(`transactional/${WELCOME}`);
    expect(report.emails).toContain(
      `workflow/${SEED_IDS.experimentWorkflow}/${report.emails.find((key) => key.startsWith(`workflow/${SEED_IDS.experimentWorkflow}/`))!.split('/')[2]}`,
    );
    expect(report.store).toBe(join(configDir, 'metrics.db'));
    // Dated by the account's clock, not this machine's.
    expect(Date.parse(report.takenAt) - first.getTime()).toBeGreaterThanOrEqual(0);
    expect(Date.parse(report.takenAt) - first.getTime()).toBeLessThan(60_000);

    // Within a minute: the same snapshot, nothing more kept.
    const again = (await ok(['--sandbox', 'metrics', 'snapshot', '--json'], env)).json() as { kept: number; unchanged: number };
    expect(again).toMatchObject({ kept: 0, unchanged: report.kept });

    // Day 2: three sends; day 3: none and no snapshot (a gap); day 4: five sends.
    await send(3, env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    await send(5, env);
    await ok(['sandbox', 'clock', 'advance', '1d'], env);
    const text = await ok(['--sandbox', 'metrics', 'snapshot'], env);
    expect(text.stdout).toMatch(/^kept the counters of \d+ emails at \S+ \(the account's clock\) in /);

    const history = await ok(['metrics', 'history', 'welcome', '--json'], env);
    const made = history.json() as { by: string; historyStartsAt: string; periods: Period[]; email: { key: string; name: string } };
    expect(made.email).toMatchObject({ key: `transactional/${WELCOME}`, name: 'Welcome' });
    expect(made.historyStartsAt).toBe(report.takenAt);
    const day = (offset: number) => new Date(first.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(made.periods.map(({ start, status }) => [start.slice(0, 10), status])).toEqual([
      [day(0), 'start'],
      [day(1), 'counted'],
      [day(2), 'gap'],
      [day(3), 'counted'],
    ]);
    // Each the difference of its snapshots: the sandbox delivers every send; a transactional email reports no opens.
    expect(made.periods[1]).toMatchObject({ counts: { sends: 3, deliveries: 3, opens: null }, rates: { deliveries: 1 } });
    expect(made.periods[2]).not.toHaveProperty('counts');
    expect(made.periods[3]).toMatchObject({ counts: { sends: 5, deliveries: 5 } });

    const table = await ok(['metrics', 'history', WELCOME], env);
    expect(table.stdout).toContain(`transactional/${WELCOME} "Welcome" by day: history starts with its first snapshot, ${report.takenAt}`);
    const lines = table.stdout.split('\n');
    expect(lines.find((line) => line.startsWith(day(2)))).toContain('no snapshot: a gap');
    expect(lines.find((line) => line.startsWith(day(3)))).toMatch(/5\s+5 \(100\.00%\).*since .*\(after a gap\)/);

    // At a terminal, a sparkline a rate: the first snapshot and the gap, which have none, a space each.
    const drawn = await ok(['metrics', 'history', WELCOME], env, { columns: 120 });
    expect(drawn.stdout).toMatch(/^delivery rate {6}▄ ▄ {2}100\.00% to 100\.00%$/m);

    const since = (await ok(['metrics', 'history', WELCOME, '--since', day(3), '--json'], env)).json() as { periods: Period[] };
    expect(since.periods.map(({ start }) => start.slice(0, 10))).toEqual([day(3)]);

    // Then four weeks, a snapshot each, two sends each: a month of history by week.
    for (let week = 0; week < 4; week += 1) {
      await send(2, env);
      await ok(['sandbox', 'clock', 'advance', '7d'], env);
      await ok(['--sandbox', 'metrics', 'snapshot'], env);
    }
    const weekly = (await ok(['metrics', 'history', WELCOME, '--by', 'week', '--json'], env)).json() as { periods: Period[] };
    for (const period of weekly.periods) expect(new Date(period.start).getUTCDay()).toBe(1);
    expect(weekly.periods.slice(-4).map((period) => [period.status, period.counts?.sends])).toEqual([
      ['counted', 2],
      ['counted', 2],
      ['counted', 2],
      ['counted', 2],
    ]);
  });

  it('asks the API for no more than the counters need: the three listings, each workflow, one request an email, none refused', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const taken = await ok(['--sandbox', '--debug', 'metrics', 'snapshot', '--json'], env);
    const { emails } = taken.json() as { emails: string[] };
    const workflows = (await ok(['--sandbox', 'workflow', 'list', '--json'], env)).json() as unknown[];
    const requests = taken.stderr.split('\n').filter((line) => line.startsWith('> GET '));
    expect(requests).toHaveLength(3 + workflows.length + emails.length);
    // Paced within the sandbox's limit of 10 a second, as the API's: never refused for it.
    expect(taken.stderr).not.toContain('< 429');
  });

  it('lists the emails a name matches twice, and refuses a newer store and a store URL of neither kind, each exit 2', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    // A campaign since named as the transactional email is: "welcome" names two emails.
    const store = new DatabaseSync(join(configDir, 'metrics.db'));
    store
      .prepare(
        `INSERT INTO loopsctl_metrics_counters (email_key, taken_at, recorded_at, kind, record_id, name, sends)
         VALUES ('campaign/c0000000000000000000000000', 0, 0, 'campaign', 'c0000000000000000000000000', 'Welcome', 10)`,
      )
      .run();
    store.close();
    const twice = await run(['metrics', 'history', 'welcome'], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('"welcome" names 2 emails');
    expect(twice.stderr).toContain(`transactional/${SEED_IDS.welcomeEmail} "Welcome"`);
    expect(twice.stderr).toContain('campaign/c0000000000000000000000000 "Welcome"');
    // Named by its key or id, each is one.
    await ok(['metrics', 'history', 'campaign/c0000000000000000000000000'], env);
    await ok(['metrics', 'history', SEED_IDS.welcomeEmail], env);

    // A store a newer loopsctl wrote is refused, said, and left as it is.
    const newer = new DatabaseSync(join(configDir, 'metrics.db'));
    newer.prepare('UPDATE loopsctl_metrics_store SET version = 99').run();
    newer.close();
    const refused = await run(['metrics', 'history', SEED_IDS.welcomeEmail], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("holds metrics in version 99 of the store's tables, newer than this loopsctl reads (2): upgrade loopsctl");

    const neither = await run(['--sandbox', 'metrics', 'snapshot', '--store', 'mysql://user:secret@db/loops'], { env });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('the store mysql://[redacted]@db/loops is neither sqlite:<file> nor postgres://');
    expect(neither.stderr).not.toContain('secret');
    expect(neither.stderr).not.toContain('user:');
    const viaEnv = await run(['metrics', 'history', 'Welcome'], { env: { ...env, LOOPS_METRICS_STORE: 'redis://cache/0' } });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain('LOOPS_METRICS_STORE');
  });
});
