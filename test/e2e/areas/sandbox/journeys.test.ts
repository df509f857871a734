/** `loopsctl sandbox clock` and `loopsctl sandbox journeys`, on the state file that `--sandbox` commands use. */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { stateIn } from '../../../support/state-file.js';

describe('loopsctl sandbox clock and journeys', () => {
  it('moves the clock forward, releasing a waiting contact, and draws its journey', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const sent = await run(['--sandbox', 'events', 'send', 'trial_started', '--email', 'ada@example.com'], { env });
    expect(sent.code, sent.stderr).toBe(0);

    const waiting = await run(['sandbox', 'journeys', '--contact', 'ada@example.com', '--json'], { env });
    const [journey] = waiting.json() as {
      workflowName: string;
      status: string;
      waitUntil: string;
      startedAt: string;
      steps: { why: string; until?: string }[];
    }[];
    expect(journey).toMatchObject({ workflowName: 'Trial conversion', status: 'waiting' });
    expect(Date.parse(journey!.waitUntil) - Date.parse(journey!.startedAt)).toBe(3_600_000);
    // The timer's step keeps the time its wait ends exact, as ISO 8601, beside the words that name it.
    expect(journey!.steps.at(-1)).toMatchObject({ until: journey!.waitUntil, why: `waits 1 hour, until ${journey!.waitUntil}` });

    const before = (await run(['sandbox', 'clock', '--json'], { env })).json() as { now: string; frozen: boolean };
    expect(before.frozen).toBe(false);
    const moved = await run(['sandbox', 'clock', 'advance', '1h'], { env });
    expect(moved.code, moved.stderr).toBe(0);
    expect(Date.parse(moved.stdout.trim())).toBeGreaterThanOrEqual(Date.parse(before.now) + 3_600_000);
    expect(moved.stderr).toContain('1 waiting journey went on (see `loopsctl sandbox journeys`).');

    const drawn = await run(['sandbox', 'journeys', '--contact', 'ada@example.com'], { env });
    expect(drawn.code, drawn.stderr).toBe(0);
    const lines = drawn.stdout.trimEnd().split('\n');
    // The tree writes every time as ISO 8601, the timer's end too.
    expect(lines).toContain(`|    waits 1 hour, until ${journey!.waitUntil}`);
    expect(lines[0]).toMatch(/^Trial conversion \(c\w+\)$/);
    expect(lines[1]).toMatch(/^ {2}ada@example\.com · ended \d{4}-/);
    // Each step with its time (left out here) and the time since the start, and beneath it why.
    expect(lines.slice(2).map((line) => line.replace(/ \d{4}-\d\d-\d\dT[\d:.]+Z/g, ' <time>'))).toEqual([
      '|-- <time> +0 EventTrigger entered',
      '|    event "trial_started" was sent',
      '|-- <time> +0 TimerAction waiting',
      '|    waits 1 hour, until <time>',
      '|-- <time> +1h TimerAction released',
      '|    the wait ended',
      '`-- <time> +1h BranchNode exited',
      '     no branch matched the contact',
    ]);
  });

  it('refuses a move it cannot make, naming the field, and leaves the clock as it was', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const too = await run(['sandbox', 'clock', 'advance', '10y'], { env });
    expect(too.code).toBe(2);
    expect(too.stderr).toContain('advance is at most 400 days at once');
    expect(too.stderr).toContain('durations look like 3d, 1h30m or 90s');
    const back = await run(['sandbox', 'clock', 'set', '2020-01-01T00:00:00Z'], { env });
    expect(back.code).toBe(2);
    expect(back.stderr).toContain('to must not move the clock back');
    const shown = await run(['sandbox', 'clock', 'show', '--json'], { env });
    expect(shown.json().frozen).toBe(false);
    expect(stateIn(configDir).clock).toEqual({ frozenAt: null, offsetMs: 0 });
  });

  it('says so when there are no journeys', async () => {
    const none = await run(['sandbox', 'journeys', '--contact', 'nobody@example.com'], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No journeys yet');
  });
});
