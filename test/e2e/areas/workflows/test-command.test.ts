/** `workflow test`: the account's workflow (the sandbox's demo team here) run on one contact in a throwaway sandbox. */
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const TRIAL = 'cnm1gv0otq1z57mnend2pws3y';
const HOUR = 3_600_000;

describe('loopsctl workflow test', () => {
  it('prints the journey and the emails with their times after entry, and changes nothing of the account', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const contact = JSON.stringify({ email: 'sam@example.com', projectsCreated: 0 });
    const json = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const result = json.json() as { emails: { subject: string; afterMs: number }[]; ended: boolean; journeys: { steps: unknown[] }[] };
    expect(result.emails.map(({ subject, afterMs }) => [subject, afterMs])).toEqual([
      ['Your first project in 5 minutes', 1.5 * HOUR],
      ['Your trial ends in 4 days', 1.5 * HOUR + 72 * HOUR],
    ]);
    expect(result.ended).toBe(true);

    const text = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact], { env });
    expect(text.stdout).toContain('\nEmails, in order:\n  +1h30m   Your first project in 5 minutes\n  +3d1h30m Your trial ends in 4 days\n');
    // The account's own contacts are as they were: the run was in a sandbox of its own.
    const found = await run(['--sandbox', 'contacts', 'get', '--email', 'sam@example.com', '--json'], { env });
    expect(found.stdout).not.toContain('sam@example.com');
    const journeys = await run(['sandbox', 'journeys', '--json'], { env });
    expect(journeys.json()).toEqual([]);
  });

  it('exits 1 when the emails differ from --expect-emails, 0 when they are the same', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const contact = JSON.stringify({ email: 'sam@example.com', projectsCreated: 3 });
    const same = await run(
      [
        '--sandbox',
        'workflow',
        'test',
        TRIAL,
        '--contact',
        contact,
        '--expect-emails',
        'Keep your projects: 20% off your first year, Your trial ends in 4 days',
      ],
      { env },
    );
    expect(same.code, same.stderr).toBe(0);
    const differ = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--for', '2h', '--expect-emails', 'Your trial ends in 4 days'], {
      env,
    });
    expect(differ.code).toBe(1);
    expect(differ.stderr).toContain('expected: Your trial ends in 4 days\n  got:      Keep your projects: 20% off your first year');
  });
});
