/** `workflow test`: the account's workflow (the sandbox's demo team here) run on one contact in a throwaway sandbox. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    const journeys = await run(['sandbox', 'journeys', '--contact', 'sam@example.com', '--json'], { env });
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
    // A JSON array names subjects that hold commas; the order still counts.
    const withExpected = (subjects: string) => run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--expect-emails', subjects], { env });
    expect((await withExpected('["Keep your projects: 20% off your first year", "Your trial ends in 4 days"]')).code).toBe(0);
    const reordered = await withExpected('["Your trial ends in 4 days", "Keep your projects: 20% off your first year"]');
    expect(reordered.code).toBe(1);
    expect(reordered.stderr).toContain('expected: Your trial ends in 4 days | Keep your projects: 20% off your first year\n');
    const notSubjects = await withExpected('["Your trial ends in 4 days", 3]');
    expect(notSubjects.code).toBe(2);
    expect(notSubjects.stderr).toContain('--expect-emails: a JSON array must hold only subjects (strings)');
    const broken = await withExpected('["Your trial ends');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('--expect-emails: not a JSON array');
  });

  it('reads --for as `sandbox clock advance` reads a duration: 1y and 1.5h taken, past a year refused', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const contact = JSON.stringify({ email: 'sam@example.com', projectsCreated: 0 });
    const forYear = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--for', '1y', '--json'], { env });
    expect(forYear.code, forYear.stderr).toBe(0);
    const forHours = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--for', '1.5h', '--json'], { env });
    expect(forHours.code, forHours.stderr).toBe(0);
    expect((forHours.json() as { emails: { afterMs: number }[] }).emails.map(({ afterMs }) => afterMs)).toEqual([1.5 * HOUR]);
    const tooLong = await run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, '--for', '1y1d'], { env });
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('--for must be longer than zero and at most a year, not "1y1d"');
  });

  it('runs a pulled workflow file offline, with no key and no request, as it runs the account’s', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const root = tempDir('loopsctl-workflow-test-');
    const pull = await run(['--sandbox', 'content', 'pull', root, '--only', 'workflows'], { env });
    expect(pull.code, pull.stderr).toBe(0);
    const trial = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('trial-conversion--'))!);
    const contact = JSON.stringify({ email: 'sam@example.com', projectsCreated: 0 });
    // A config directory with no key, and no --sandbox: a request could not be made.
    const offline = { LOOPSCTL_CONFIG_DIR: tempDir(), LOOPS_API_KEY: undefined };
    const local = await run(['workflow', 'test', '--file', trial, '--contact', contact, '--json'], { env: offline });
    expect(local.code, local.stderr).toBe(0);
    const emails = (local.json() as { emails: { subject: string; afterMs: number }[] }).emails;
    expect(emails.map(({ subject, afterMs }) => [subject, afterMs])).toEqual([
      ['Your first project in 5 minutes', 1.5 * HOUR],
      ['Your trial ends in 4 days', 1.5 * HOUR + 72 * HOUR],
    ]);
    const both = await run(['workflow', 'test', TRIAL, '--file', trial, '--contact', contact], { env: offline });
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('give a workflow id or --file, not both')]);
  });

  it('refuses a file whose filter names a segment, which only the account defines', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const root = tempDir('loopsctl-workflow-test-');
    expect((await run(['--sandbox', 'content', 'pull', root, '--only', 'workflows'], { env })).code).toBe(0);
    const welcome = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('welcome-series--'))!);
    const result = await run(['workflow', 'test', '--file', welcome, '--contact', 'sam@example.com'], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('filters by the segment "Paying customers", whose conditions are the account\'s, not the file\'s, and no key is at hand');
  });

  it('refuses a file whose filter the platform could not take, naming the node and the place', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const root = tempDir('loopsctl-workflow-test-');
    expect((await run(['--sandbox', 'content', 'pull', root, '--only', 'workflows'], { env })).code).toBe(0);
    const trial = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('trial-conversion--'))!);
    const file = join(trial, 'workflow.yaml');
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toContain('operator: equals');
    writeFileSync(file, yaml.replace('operator: equals', 'operator: equalz'));
    const result = await run(['workflow', 'test', '--file', trial, '--contact', 'sam@example.com'], { env: { LOOPSCTL_CONFIG_DIR: tempDir() } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/: node filter-2: audienceFilter: conditions\[0\]\.operator: "equalz" is not an operator of property conditions/);
  });

  it('runs a file whose filter names a segment with the account’s segment, read by its name, when a key is at hand', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const root = tempDir('loopsctl-workflow-test-');
    expect((await run(['--sandbox', 'content', 'pull', root, '--only', 'workflows'], { env })).code).toBe(0);
    const welcome = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('welcome-series--'))!);
    const subjects = async (plan: string) => {
      const result = await run(
        ['--sandbox', 'workflow', 'test', '--file', welcome, '--contact', JSON.stringify({ email: 'sam@example.com', firstName: 'Sam', plan }), '--json'],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      const trial = result.json() as { emails: { subject: string; afterMs: number }[]; journeys: { steps: { typeName: string; why: string }[] }[] };
      // The filter names the segment the sandbox found by the id its name resolved to.
      const filters = trial.journeys.flatMap((journey) => journey.steps).filter((step) => step.typeName === 'AudienceFilter');
      expect(filters.map((step) => step.why)).toEqual([expect.stringContaining('segment "Paying customers"')]);
      return trial.emails.map(({ subject, afterMs }) => [subject, afterMs / HOUR]);
    };
    // "Paying customers" is plan pro or business, as the account defines it.
    expect(await subjects('pro')).toEqual([
      ['Welcome aboard, Sam', 0],
      ['Five tips for your first week', 48],
      ['How is it going so far?', 168],
    ]);
    expect(await subjects('free')).toEqual([['Welcome aboard, Sam', 0]]);
  });

  // Event names are compared exactly: "trial_started" does not start a trigger written "Trial_Started", nor the other way round.
  it('starts nothing for an event its trigger does not wait for, says which it waits for, and exits 1 with --expect-emails', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const contact = JSON.stringify({ email: 'sam@example.com', projectsCreated: 0 });
    const trial = (...args: string[]) => run(['--sandbox', 'workflow', 'test', TRIAL, '--contact', contact, ...args], { env });
    const both = 'Your first project in 5 minutes, Your trial ends in 4 days';
    const expecting = await trial('--event', 'Trial_Started', '--expect-emails', both);
    expect(expecting.code).toBe(1);
    expect(expecting.stderr).toContain(
      'Nothing started: the trigger waits for the event "trial_started", not "Trial_Started" (event names are case-sensitive).',
    );
    const plain = await trial('--event', 'trial_begun', '--json');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.json()).toEqual({ journeys: [], emails: [], ended: true, notStarted: 'the trigger waits for the event "trial_started", not "trial_begun"' });
    // Even an expectation of no email fails: the contact was never let in.
    const none = await trial('--event', 'Trial_Started', '--expect-emails', '');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('Nothing started: the trigger waits for the event "trial_started", not "Trial_Started"');
    const exact = await trial('--event', 'trial_started', '--expect-emails', both);
    expect(exact.code, exact.stderr).toBe(0);
  });

  // "When both are provided, this filter is applied on top of the segment's filter." (AudienceFilterInRequest, the published description 1.22.1)
  it('applies a file filter’s conditions on top of its segment, as the sandbox does', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const root = tempDir('loopsctl-workflow-test-');
    expect((await run(['--sandbox', 'content', 'pull', root, '--only', 'workflows'], { env })).code).toBe(0);
    const welcome = join(root, 'workflows', readdirSync(join(root, 'workflows')).find((name) => name.startsWith('welcome-series--'))!);
    const file = join(welcome, 'workflow.yaml');
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toMatch(/\n( +)segment: Paying customers\n/);
    writeFileSync(
      file,
      yaml.replace(
        /\n( +)segment: Paying customers\n/,
        (_line, indent: string) =>
          `\n${indent}segment: Paying customers\n${indent}audienceFilter: {match: all, conditions: [{type: property, key: seats, operator: greaterThan, value: 10}]}\n`,
      ),
    );
    const subjects = async (seats: number) => {
      const contact = JSON.stringify({ email: 'sam@example.com', firstName: 'Sam', plan: 'pro', seats });
      const result = await run(['--sandbox', 'workflow', 'test', '--file', welcome, '--contact', contact, '--json'], { env });
      expect(result.code, result.stderr).toBe(0);
      return (result.json() as { emails: { subject: string }[] }).emails.map(({ subject }) => subject);
    };
    expect(await subjects(40)).toEqual(['Welcome aboard, Sam', 'Five tips for your first week', 'How is it going so far?']);
    expect(await subjects(2)).toEqual(['Welcome aboard, Sam']);
  });
});

describe('workflow test: a contact the API would refuse', () => {
  it('is a usage error (exit 2) naming the field, before the trial: __proto__, a name not camelCase, a field of the wrong type', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempDir() };
    const cases: [string[], string][] = [
      [['--contact', '{"email": "sam@example.com", "__proto__": {"polluted": true}}'], `the contact's "__proto__" is not a name a contact property can have`],
      [['--contact', 'sam@example.com', '--contact-prop', '__proto__=x'], `the contact's "__proto__" is not a name a contact property can have`],
      [['--contact', 'sam@example.com', '--contact-prop', 'Plan=pro'], `the contact's "Plan" is not a name a contact property can have`],
      [['--contact', 'sam@example.com', '--contact-prop', 'notes=x'], `the contact's "notes" is a name the platform keeps for itself`],
      [['--contact', '{"email": "sam@example.com", "firstName": 5}'], `the contact's "firstName" must be text, or null`],
      [['--contact', '{"email": "sam@example.com", "subscribed": "yes"}'], `the contact's "subscribed" must be true or false`],
      [['--contact', '{"email": "sam@example.com", "mailingLists": {"x": true}}'], `the contact's "mailingLists" is not given`],
      [['--contact', '{"email": "sam@example.com", "plan": {"tier": 1}}'], `the contact's "plan" must be a string, a number, true, false or null`],
      [['--contact', 'not-an-address'], '--contact: the email is not an email address'],
    ];
    for (const [flags, message] of cases) {
      const result = await run(['--sandbox', 'workflow', 'test', TRIAL, ...flags], { env });
      expect(result.code, `${flags.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr, flags.join(' ')).toContain(`Error: ${message}`);
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
