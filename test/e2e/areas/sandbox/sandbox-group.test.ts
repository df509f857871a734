import { describe, expect, it } from 'vitest';
import { run } from '../../../support/main.js';

describe('loopsctl sandbox as a group', () => {
  it('serves with `loopsctl sandbox` alone and with `loopsctl sandbox serve`, and stops on the abort signal', async () => {
    for (const args of [
      ['sandbox', '--port', '0', '--json'],
      ['sandbox', 'serve', '--json'],
    ]) {
      const interrupt = new AbortController();
      // The server has started once its address is printed; the run ends when interrupted.
      const result = await run(args, { signal: interrupt.signal, onStdout: (text) => text.includes('"url"') && interrupt.abort() });
      expect(result.code).toBe(0);
      expect(result.json()).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), apiKey: 'sandbox-key' });
      expect(result.json().inboxUrl).toBe(`${result.json().url}/_sandbox/inbox`);
    }
  });

  it('keeps the rate limit on, its 429 saying whose limit it is and how to turn it off', async () => {
    const interrupt = new AbortController();
    let listening!: (url: string) => void;
    const url = new Promise<string>((resolve) => (listening = resolve));
    // The run's clock holds still: every request lands in the limit's one second, however long they take.
    const now = new Date('2026-11-25T10:00:00.000Z');
    const running = run(['sandbox', '--port', '0', '--json'], {
      now: () => now,
      signal: interrupt.signal,
      onStdout: (text) => text.includes('"url"') && listening(JSON.parse(text).url),
    });
    const base = await url;
    const ask = async () => {
      const response = await fetch(`${base}/api/v1/lists`, { headers: { authorization: 'Bearer sandbox-key' } });
      return { status: response.status, body: (await response.json()) as { message?: string } };
    };
    const answers: Awaited<ReturnType<typeof ask>>[] = [];
    for (let index = 0; index < 11; index += 1) answers.push(await ask());
    interrupt.abort();
    expect((await running).code).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429]);
    expect(answers[10]!.body.message).toMatch(/^Too many requests: this is the sandbox's limit .* loopsctl sandbox --rate-limit off$/);
  });

  it("--sandbox keeps the platform's limit of 10 a second, which the tests' runs turn off unless they ask for the real pace", async () => {
    // `api -i` shows the answer's head on stderr: the limit and what is left of it.
    const real = await run(['--sandbox', 'api', '-i', '/v1/lists'], { pace: 'api' });
    expect(real.code, real.stderr).toBe(0);
    expect(real.stderr).toMatch(/^x-ratelimit-limit: 10\nx-ratelimit-remaining: 9\n/m);
    const tests = await run(['--sandbox', 'api', '-i', '/v1/lists']);
    expect(tests.code, tests.stderr).toBe(0);
    expect(tests.stderr).toMatch(/^HTTP 200 OK\n/);
    expect(tests.stderr).not.toContain('x-ratelimit');
  });

  it('names its inbox on stderr', async () => {
    const interrupt = new AbortController();
    const result = await run(['sandbox', '--port', '0'], { signal: interrupt.signal, onStdout: (text) => text.includes('\n') && interrupt.abort() });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`See what it sends, drawn as received, in its inbox: ${result.stdout.trim()}/_sandbox/inbox\n`);
  });

  it('shows an empty outbox when there is no state yet, and refuses --sandbox', async () => {
    const empty = await run(['sandbox', 'outbox']);
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('The outbox is empty.');
    const nested = await run(['--sandbox', 'sandbox', 'outbox']);
    expect(nested).toMatchObject({ code: 2, stderr: 'Error: --sandbox does not apply to `sandbox outbox`, which does not call the API\n' });
  });
});
