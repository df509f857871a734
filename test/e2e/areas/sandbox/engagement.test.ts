/**
 * `loopsctl sandbox engagement`: what a transactional email's later sends meet, counted exactly by
 * its rates in the email's counters, the same for the same state.
 */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const WELCOME = SEED_IDS.welcomeEmail;

async function ok(argv: string[], env: Record<string, string>) {
  const result = await run(argv, { env });
  expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

async function sendAndCount(times: number, env: Record<string, string>) {
  const counters = async () => ((await ok(['--sandbox', 'transactional', 'metrics', WELCOME, '--json'], env)).json() as Record<string, number>[])[0]!;
  const before = await counters();
  for (let i = 0; i < times; i += 1)
    await ok(
      ['--sandbox', 'transactional', 'send', WELCOME, '--to', `r${i}@example.com`, '--var', 'firstName=Ada', '--var', 'loginUrl=https://acme.example/in'],
      env,
    );
  const after = await counters();
  return Object.fromEntries(
    Object.keys(after)
      .filter((key) => key !== 'transactionalId')
      .map((key) => [key, after[key]! - before[key]!]),
  );
}

describe('loopsctl sandbox engagement', () => {
  it("counts each later send by the email's rates, exactly, and again the same after the rates are set again", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const set = await ok(['sandbox', 'engagement', '--email', WELCOME, '--hard-bounce-rate', '0.2', '--soft-bounce-rate', '0.1', '--spam-rate', '0.1'], env);
    expect(set.stdout).toBe(
      [
        `${WELCOME}, of its sends from now (the other rates 0):`,
        '  delivered         70%',
        '  hard bounced      20%',
        '  soft bounced      10%',
        '  reported as spam  10%',
        '',
      ].join('\n'),
    );
    const first = await sendAndCount(10, env);
    expect(first).toMatchObject({ sends: 10, deliveries: 7, hardBounces: 2, softBounces: 1, spamReports: 1 });
    // Set again: the sequence starts over, and gives the same outcomes.
    await ok(['sandbox', 'engagement', '--email', WELCOME, '--hard-bounce-rate', '0.2', '--soft-bounce-rate', '0.1', '--spam-rate', '0.1'], env);
    expect(await sendAndCount(10, env)).toEqual(first);
    // Without rates, every send is delivered.
    await ok(['sandbox', 'engagement', '--email', WELCOME], env);
    expect(await sendAndCount(3, env)).toMatchObject({ sends: 3, deliveries: 3, hardBounces: 0 });
  });

  it('refuses a rate out of range, rates that add up past every send, and an email that does not exist', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const high = await run(['sandbox', 'engagement', '--email', WELCOME, '--spam-rate', '1.5'], { env });
    expect(high.code).toBe(2);
    expect(high.stderr).toContain('a number from 0 to 1');
    const over = await run(['sandbox', 'engagement', '--email', WELCOME, '--delivery-rate', '0.9', '--hard-bounce-rate', '0.2'], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('add up to more than 1');
    const missing = await run(['sandbox', 'engagement', '--email', 'cnotanemail00000000000000'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no transactional email nor workflow send-email node has the id cnotanemail00000000000000');
  });
});
