/**
 * `metrics alerts` on the sandbox, end to end: days of sends at one rate (the sandbox's clock moved
 * a day at a time, a snapshot each day), a one-day spike that does not fire, a content change
 * pushed through loopsctl, then days at another rate: the alert fires (exit 1) and names that
 * change, its run, who made it and its undo id.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { ok, WELCOME } from './sandbox-sends.js';

const SENDS_A_DAY = 5;

/** A day: its sends, a move of the clock to the next morning, a snapshot. */
async function day(env: Record<string, string>) {
  for (let i = 0; i < SENDS_A_DAY; i += 1)
    await ok(
      ['--sandbox', 'transactional', 'send', WELCOME, '--to', `r${i}@example.com`, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in'],
      env,
    );
  await ok(['sandbox', 'clock', 'advance', '1d'], env);
  await ok(['--sandbox', 'metrics', 'snapshot'], env);
}

interface Alert {
  email: { key: string };
  field: string;
  direction: string;
  onset: string;
  change: { run: string; command: string; who: string; at: string; undoId?: string; writes: { operation: string }[] } | null;
}

describe('loopsctl metrics alerts', () => {
  it('fires on a sustained change, naming the change pushed before it, and not on a one-day spike', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const start = new Date(Date.now() + 20 * 86_400_000);
    start.setUTCHours(9, 0, 0, 0);
    await ok(['sandbox', 'clock', 'set', start.toISOString()], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    const alerts = ['metrics', 'alerts', '--min-sends', String(SENDS_A_DAY)];

    // Ten days, every send delivered.
    for (let i = 0; i < 10; i += 1) await day(env);
    // A spike: one day of hard bounces, then two good days again.
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--hard-bounce-rate', '0.4'], env);
    await day(env);
    await ok(['sandbox', 'engagement', '--email', WELCOME], env);
    await day(env);
    const spiked = await run(alerts, { env });
    expect(spiked.code, spiked.stdout).toBe(0);
    await day(env);
    const calm = await run([...alerts, '--json'], { env });
    expect(calm.code).toBe(0);
    expect((calm.json() as { alerts: Alert[] }).alerts).toEqual([]);

    // A content change, pushed and published through loopsctl; then four days at the worse rate.
    const root = tempDir();
    await ok(['--sandbox', 'content', 'pull', root], env);
    const welcome = join(root, 'transactional', readdirSync(join(root, 'transactional')).find((name) => name.startsWith('welcome--'))!);
    const draft = join(welcome, 'draft.json');
    writeFileSync(draft, readFileSync(draft, 'utf8').replace('"Welcome to Acme"', '"You are in"'));
    const push = await ok(['--sandbox', 'content', 'push', root, '--publish', '--yes'], env);
    const undoId = /loopsctl undo (\S+)`/.exec(push.stderr)![1]!;
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--hard-bounce-rate', '0.4'], env);
    for (let i = 0; i < 4; i += 1) await day(env);

    const fired = await run([...alerts, '--json'], { env });
    expect(fired.code, fired.stderr).toBe(1);
    const found = (fired.json() as { alerts: Alert[] }).alerts;
    expect(found.map((alert) => [alert.email.key, alert.field, alert.direction]).sort()).toEqual([
      [`transactional/${WELCOME}`, 'deliveries', 'down'],
      [`transactional/${WELCOME}`, 'hardBounces', 'up'],
    ]);
    const bounces = found.find((alert) => alert.field === 'hardBounces')!;
    // The move began the day after the push, the fifteenth day.
    expect(bounces.onset.slice(0, 10)).toBe(new Date(start.getTime() + 14 * 86_400_000).toISOString().slice(0, 10));
    const log = (await ok(['log', '--json'], env)).json() as { run: string; command: string; who: string }[];
    const pushed = log.filter((entry) => entry.command === 'content push');
    expect(bounces.change).toMatchObject({ run: pushed.at(-1)!.run, command: 'content push', who: pushed.at(-1)!.who, undoId });
    expect(bounces.change!.writes.map((write) => write.operation)).toContain('publishTransactionalEmail');

    const text = await run(alerts, { env });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      new RegExp(`transactional/${WELCOME} "Welcome": hard bounce rate up from 0\\.00% \\(\\S+ to \\S+\\) to 40\\.00%, 40\\.00%, 40\\.00%`),
    );
    expect(text.stdout).toContain(`after \`content push\` at `);
    expect(text.stdout).toContain(`undo: loopsctl undo ${undoId}`);
  });

  it("says there was no change of loopsctl's before a move the journal has nothing for, and posts the alert with --alert", async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const start = new Date(Date.now() + 20 * 86_400_000);
    start.setUTCHours(9, 0, 0, 0);
    await ok(['sandbox', 'clock', 'set', start.toISOString()], env);
    await ok(['--sandbox', 'metrics', 'snapshot'], env);
    for (let i = 0; i < 10; i += 1) await day(env);
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--soft-bounce-rate', '0.4'], env);
    for (let i = 0; i < 2; i += 1) await day(env);
    const webhook = await startApiServer();
    try {
      webhook.route('POST /services/T1/B1/token', (_req, res) => json(res, 200, 'ok'));
      const fired = await run(['metrics', 'alerts', '--min-sends', String(SENDS_A_DAY), '--alert', `${webhook.url}/services/T1/B1/token`], { env });
      expect(fired.code, fired.stderr).toBe(1);
      expect(fired.stdout).toContain('soft bounce rate up from 0.00%');
      expect(fired.stdout).toContain("no change of loopsctl's before it");
      expect(webhook.requests).toHaveLength(1);
      const message = JSON.parse(webhook.requests[0]!.body) as { text: string; blocks: { text?: { text: string } }[] };
      // Soft bounces up, and deliveries down with them.
      expect(message.text).toBe('loopsctl metrics: 2 rates moved for good');
      expect(message.blocks.map((block) => block.text?.text ?? '').join('\n')).toContain("no change of loopsctl's before it");
    } finally {
      await webhook.close();
    }
  });
});
