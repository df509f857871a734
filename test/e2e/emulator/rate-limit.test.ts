/**
 * The sandbox's rate limit over HTTP, with the clock it counts its second by held by the test: 10
 * requests in any sliding second, what is left said on every answer, the 11th refused with 429 and
 * a Retry-After, and room again once the first is a second old. Nothing here waits for time to pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenSandbox, openSandbox } from '../../../src/emulator/sandbox.js';

const opened: OpenSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.close()));
});

async function limited(clock: { ms: number }): Promise<OpenSandbox> {
  const sandbox = await openSandbox({ port: 0, seed: 'empty', rateLimit: true, rateClock: () => clock.ms });
  opened.push(sandbox);
  return sandbox;
}

async function ask(sandbox: OpenSandbox) {
  const response = await fetch(`${sandbox.url}/v1/lists`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { message?: string } };
}

describe("the sandbox's rate limit", () => {
  it('allows 10 requests in a second, says what is left on every answer, and refuses the 11th with 429 and Retry-After', async () => {
    const clock = { ms: 5_000 };
    const sandbox = await limited(clock);
    const answers = [];
    for (let index = 0; index < 11; index += 1) answers.push(await ask(sandbox));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429]);
    for (const answer of answers) expect(answer.headers.get('x-ratelimit-limit')).toBe('10');
    expect(answers.map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    // The message says whose limit it is and how to turn it off; it starts as the platform's does.
    expect(answers[10]!.body).toEqual({
      message:
        "Too many requests: this is the sandbox's limit of 10 requests a second, as the platform applies it; turn it off with startSandbox({ rateLimit: false }) or loopsctl sandbox --rate-limit off",
    });
    expect(answers[10]!.headers.get('retry-after')).toBe('1');
  });

  it('counts a sliding second: room comes back as each request of the window turns a second old, not at a whole second', async () => {
    const clock = { ms: 5_000 };
    const sandbox = await limited(clock);
    for (let index = 0; index < 5; index += 1) expect((await ask(sandbox)).status).toBe(200);
    clock.ms = 5_600;
    for (let index = 0; index < 5; index += 1) expect((await ask(sandbox)).status).toBe(200);
    clock.ms = 5_999;
    expect((await ask(sandbox)).status).toBe(429);
    // The first five are a second old: five more fit, and the sixth does not, until 6,600.
    clock.ms = 6_000;
    const statuses = [];
    for (let index = 0; index < 6; index += 1) statuses.push((await ask(sandbox)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    clock.ms = 6_600;
    expect((await ask(sandbox)).status).toBe(200);
  });
});
