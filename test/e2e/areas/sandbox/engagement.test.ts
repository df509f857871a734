/**
 * `loopsctl sandbox engagement`: what a transactional email's (or a campaign's) later sends meet,
 * counted exactly by its rates in the email's counters, the same for the same state.
 */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

const WELCOME = SEED_IDS.welcomeEmail;
const SPRING_SALE = 'c5hihv2wbzma9bzs8kg5hvd41';

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

  it("sends a campaign to its audience, each send meeting the campaign's rates in the counters its metrics answer with, once", async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    // A draft has no counters yet.
    expect(await run(['--sandbox', 'campaigns', 'metrics', SPRING_SALE], { env })).toMatchObject({ code: 0, stdout: '' });
    await ok(
      ['sandbox', 'engagement', '--email', SPRING_SALE, '--open-rate', '0.5', '--click-rate', '0.25', '--hard-bounce-rate', '0.1', '--unsubscribe-rate', '0.2'],
      env,
    );
    // The campaign has no list, segment nor filter: every subscribed contact, the seed's and 18 more.
    for (let i = 0; i < 18; i += 1) await ok(['--sandbox', 'contacts', 'create', '--email', `reader${i}@example.com`], env);
    const sent = (await ok(['sandbox', 'send-campaign', SPRING_SALE, '--json'], env)).json<{ sent: number }>().sent;
    expect(sent).toBeGreaterThanOrEqual(18);
    const share = (rate: number) => Math.floor(sent * rate);
    const counters = (await ok(['--sandbox', 'campaigns', 'metrics', SPRING_SALE, '--json'], env)).json<Record<string, number>[]>()[0]!;
    expect(counters).toMatchObject({
      sends: sent,
      opens: share(0.5),
      clicks: share(0.25),
      hardBounces: share(0.1),
      softBounces: 0,
      spamReports: 0,
      unsubscribes: share(0.2),
    });
    expect((await ok(['--sandbox', 'campaigns', 'get', SPRING_SALE, '--json'], env)).json<{ status: string }>().status).toBe('Sent');
    // Sent once: a second send is refused, and the counters stay.
    const again = await run(['sandbox', 'send-campaign', SPRING_SALE], { env });
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('has been sent already');
    expect((await ok(['--sandbox', 'campaigns', 'metrics', SPRING_SALE, '--json'], env)).json<Record<string, number>[]>()[0]!.sends).toBe(sent);
  });

  it('refuses a rate out of range, rates that add up past every send, and an email or campaign that does not exist', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const high = await run(['sandbox', 'engagement', '--email', WELCOME, '--spam-rate', '1.5'], { env });
    expect(high.code).toBe(2);
    expect(high.stderr).toContain('a number from 0 to 1');
    const over = await run(['sandbox', 'engagement', '--email', WELCOME, '--delivery-rate', '0.9', '--hard-bounce-rate', '0.2'], { env });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('add up to more than 1');
    // The clock's forms are no help with a rate: its hint is the clock commands' alone.
    expect(over.stderr).not.toContain('durations look like');
    // A record the sandbox does not have is exit 4, as `campaigns get` of an unknown id gives.
    const missing = await run(['sandbox', 'engagement', '--email', 'cnotanemail00000000000000'], { env });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('no transactional email, campaign nor workflow send-email node has the id cnotanemail00000000000000');
    const unsent = await run(['sandbox', 'send-campaign', 'cnotacampaign000000000000'], { env });
    expect(unsent.code).toBe(4);
    expect(unsent.stderr).toContain('cnotacampaign000000000000');
  });
});
