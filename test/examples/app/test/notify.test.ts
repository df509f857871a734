import { startSandbox, type Sandbox } from 'loopsctl/sandbox';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LoopsRateLimited, sendWelcome } from '../src/notify.js';

it('sends the welcome email, adding the person to the audience', async () => {
  const loops = inject('loops');
  await sendWelcome(loops, 'grace@example.com', 'Grace');
  const found = await fetch(`${loops.url}/api/v1/contacts/find?email=grace@example.com`, { headers: { authorization: `Bearer ${loops.apiKey}` } });
  expect(await found.json()).toEqual([expect.objectContaining({ email: 'grace@example.com' })]);
});

describe('a sandbox of its own, to see what was sent, with the rate limit on to test the back-off', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ fixtures: 'loops.yaml', rateLimit: true });
  });
  afterAll(() => sandbox.close());

  it('backs off as Retry-After says when sending faster than the rate limit, and every email goes out', async () => {
    await Promise.all(Array.from({ length: 12 }, (_, index) => sendWelcome(sandbox, `user${index}@example.com`)));
    const sent = sandbox.outbox();
    expect(sent).toHaveLength(12);
    // loginUrl was given; firstName, optional in the fixture, was left out, and the outbox says so.
    expect(sent.every((entry) => entry.kind === 'transactional' && entry.missingVariables.join() === 'firstName')).toBe(true);
  });

  it('gives up on a team that is always over the limit', async () => {
    await expect(sendWelcome({ url: sandbox.url, apiKey: 'sandbox-rate-limited' }, 'late@example.com', undefined, 2)).rejects.toBeInstanceOf(LoopsRateLimited);
  });
});
