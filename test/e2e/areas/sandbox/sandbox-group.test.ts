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
    const running = run(['sandbox', '--port', '0', '--json'], {
      signal: interrupt.signal,
      onStdout: (text) => text.includes('"url"') && listening(JSON.parse(text).url),
    });
    const base = await url;
    const ask = () =>
      fetch(`${base}/api/v1/lists`, { headers: { authorization: 'Bearer sandbox-key' } }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { message?: string },
      }));
    // Bursts of 20 until one meets the limit: a busy machine may spread a burst over more than the
    // limit's one-second window, so no single burst is sure to.
    const answers: Awaited<ReturnType<typeof ask>>[] = [];
    for (let burst = 0; burst < 10 && !answers.some((answer) => answer.status === 429); burst += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 20 }, ask))));
    }
    interrupt.abort();
    expect((await running).code).toBe(0);
    // The limit is 10 a second: at least that many of the first burst go through, and nothing but the limit refuses.
    expect(answers.slice(0, 20).filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(10);
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200, 429]));
    expect(answers.find((answer) => answer.status === 429)!.body.message).toMatch(
      /^Too many requests: this is the sandbox's limit .* loopsctl sandbox --rate-limit off$/,
    );
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
