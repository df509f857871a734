import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { expectDescribed, sandboxEachTest } from '../../../support/recording.js';

/** What the demo seed keeps wrong on purpose, and nothing else: rule, kind and name. */
const PLANTED = [
  ['unused-component', 'component', 'Footer'],
  ['unused-component', 'component', 'Header'],
  ['unused-mailing-list', 'list', 'Event invitations'],
  ['unpublished-changes', 'transactional', 'Magic sign-in link'],
  // The receipt's "here" link: the qa family's accessibility rules.
  ['vague-link-text', 'transactional', 'Order receipt'],
  ['unpublished-changes', 'transactional', 'Password reset'],
  ['workflow-not-sending', 'workflow', 'Beta onboarding subject test'],
  ['guardian-warning', 'workflow', 'Trial conversion'],
  ['insecure-link', 'workflow', 'Upgrade thank-you'],
  ['workflow-not-sending', 'workflow', 'Win-back (draft)'],
  // Its experiment's holdout path holds no email: the platform would not start it (`content check` says the same of its file).
  ['experiment-path-without-email', 'workflow', 'Win-back (draft)'],
];

interface Found {
  rule: string;
  severity: string;
  kind: string;
  name: string;
  id: string;
  url?: string;
  message: string;
}

/** The demo's messages say no languageCode (the API gives it only when set): each email checked says so, apart from what is planted. */
const withoutThemes = (problems: Found[]) => problems.filter((problem) => problem.rule !== 'unused-theme' && problem.rule !== 'language-code-missing');

describe('check', () => {
  const openSandbox = sandboxEachTest();

  it("finds the seed's planted problems and nothing else, with GET requests only", async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.loopsctl(['check', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const problems = result.json<Found[]>();
    expect(withoutThemes(problems).map((problem) => [problem.rule, problem.kind, problem.name])).toEqual(PLANTED);
    const languages = problems.filter((problem) => problem.rule === 'language-code-missing');
    expect(languages).toHaveLength(11);
    expect(languages.every((problem) => problem.severity === 'warning' && (problem as { impact?: string }).impact === 'serious')).toBe(true);
    // The demo team has 26 themes and its emails use the default one.
    expect(problems.filter((problem) => problem.rule === 'unused-theme')).toHaveLength(25);
    expect(problems.every((problem) => problem.rule !== 'unused-theme' || problem.severity === 'info')).toBe(true);
    const link = problems.find((problem) => problem.rule === 'insecure-link')!;
    expect(link).toMatchObject({ severity: 'warning', id: seedId('workflow/Upgrade thank-you'), url: expect.stringContaining('/workflows/') });
    expect(link.message).toContain('"http://billing.acme.example"');
    expect(new Set(sandbox.requests.map((request) => request.method))).toEqual(new Set(['GET']));
    expectDescribed(sandbox.requests);
  });

  it('fails on the warnings with --strict; --drafts checks the drafts too', async () => {
    const sandbox = await openSandbox();
    const strict = await sandbox.loopsctl(['check', '--strict']);
    expect(strict.code).toBe(1);
    // The report is the output: no error on stderr.
    expect(strict.stderr).toBe('');
    expect(strict.stdout).toContain('0 errors, 19 warnings');
    const drafts = await sandbox.loopsctl(['check', '--drafts', '--json']);
    expect(drafts.code).toBe(1);
    expect(drafts.stderr).toBe('');
    const paymentFailed = drafts.json<Found[]>().filter((problem) => problem.name === 'Payment failed');
    expect(paymentFailed.map((problem) => problem.rule)).toEqual(expect.arrayContaining(['guardian-error', 'button-without-link']));
  });

  it('prints the report grouped by record in 80 columns, with a summary; GitHub annotations with --format github', async () => {
    const sandbox = await openSandbox();
    const text = await sandbox.loopsctl(['check']);
    const lines = text.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines).toContain(`workflow "Upgrade thank-you" (${seedId('workflow/Upgrade thank-you')})`);
    // An accessibility finding says its impact beside its rule; another, its rule alone.
    const joined = text.stdout.replace(/\n +/g, ' ');
    expect(joined).toContain('[vague-link-text, moderate]');
    expect(joined).toContain('[insecure-link]');
    expect(lines.at(-1)).toMatch(/^0 errors, 19 warnings, 28 notes; \d+ records read, 11 emails checked\.$/);
    const github = await sandbox.loopsctl(['check', '--format', 'github']);
    expect(github.stdout).toMatch(/^::warning title=insecure-link%3A workflow Upgrade thank-you::the email "Thank you for upgrading", line 4/m);
    expect(github.stdout).toMatch(/^::notice title=unused-theme%3A theme Arctic::/m);
  });

  it('reads loops.check.yaml: expectations, severities, ignores', async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const rules = join(dir, 'loops.check.yaml');
    writeFileSync(
      rules,
      [
        'workflows:',
        '  "Win-back (draft)": { status: draft }',
        '  "Welcome series": { status: sending }',
        'transactional:',
        '  "Password reset": { published: true, dataVariables: [firstName, resetUrl] }',
        '  "Payment failed": { published: true }',
        'rules: { insecure-link: error, unused-theme: off }',
        'ignore: [ workflow/Beta onboarding subject test ]',
        '',
      ].join('\n'),
    );
    const result = await sandbox.loopsctl(['check', '--rules', rules, '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const found = withoutThemes(result.json<Found[]>()).map((problem) => [problem.rule, problem.severity, problem.name]);
    expect(found).toEqual([
      ['unused-component', 'info', 'Footer'],
      ['unused-component', 'info', 'Header'],
      ['unused-mailing-list', 'info', 'Event invitations'],
      ['unpublished-changes', 'warning', 'Magic sign-in link'],
      ['vague-link-text', 'warning', 'Order receipt'],
      ['expected-data-variables', 'error', 'Password reset'],
      ['unpublished-changes', 'warning', 'Password reset'],
      ['expected-published', 'error', 'Payment failed'],
      ['guardian-warning', 'warning', 'Trial conversion'],
      ['insecure-link', 'error', 'Upgrade thank-you'],
      ['experiment-path-without-email', 'warning', 'Win-back (draft)'],
    ]);
  });

  it('refuses a rules file with an unknown key or rule, naming where (exit 2), before reading the account', async () => {
    const sandbox = await openSandbox();
    const dir = tempDir();
    const rules = join(dir, 'rules.yaml');
    writeFileSync(rules, 'workflows:\n  "Welcome series": { status: sending, stauts: draft }\n');
    const unknownKey = await sandbox.loopsctl(['check', '--rules', rules]);
    expect(unknownKey.code).toBe(2);
    expect(unknownKey.stderr).toContain('unknown key workflows.Welcome series.stauts');
    writeFileSync(rules, 'rules: { no-such-rule: off }\n');
    const unknownRule = await sandbox.loopsctl(['check', '--rules', rules]);
    expect(unknownRule.code).toBe(2);
    expect(unknownRule.stderr).toContain('rules.no-such-rule');
    writeFileSync(rules, 'thresholds: { bounceRate: lots }\n');
    const badRate = await sandbox.loopsctl(['check', '--rules', rules]);
    expect(badRate.code).toBe(2);
    expect(badRate.stderr).toContain('at thresholds.bounceRate');
    const only = await sandbox.loopsctl(['check', '--only', 'content,typo']);
    expect(only.code).toBe(2);
    expect(only.stderr).toContain('no family is named typo');
    expect(sandbox.requests).toEqual([]);
  });

  it('judges the metrics against a threshold, and with --snapshot only the sends since the last run', async () => {
    const sandbox = await openSandbox();
    const snapshot = join(tempDir(), 'loops-metrics.json');
    const first = await sandbox.loopsctl(['check', '--only', 'metrics', '--max-bounce-rate', '10%', '--snapshot', snapshot, '--json']);
    expect(first.code).toBe(1);
    expect(first.stderr).toBe('');
    // October newsletter bounced 12.5%; "Your first project in 5 minutes" exactly 10%, which passes.
    expect(first.json<Found[]>().map((problem) => [problem.rule, problem.name, problem.message])).toEqual([
      ['bounce-rate', 'October newsletter', 'the campaign: bounce rate 12.5% (500 of 4000 sends), over the 10% allowed'],
    ]);
    expect(JSON.parse(readFileSync(snapshot, 'utf8')).counters[`campaign/${seedId('campaign/October newsletter')}`]).toMatchObject({
      sends: 4000,
      hardBounces: 320,
      softBounces: 180,
    });
    const second = await sandbox.loopsctl(['check', '--only', 'metrics', '--max-bounce-rate', '10%', '--snapshot', snapshot, '--json']);
    expect(second.stderr).toBe('');
    expect([second.code, second.json()]).toEqual([0, []]);
    const refused = await sandbox.loopsctl(['check', '--max-bounce-rate', 'lots']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--max-bounce-rate must be a percentage such as 2% or 0.5%');
  });

  it('names what it could not read and exits 2, never reporting the account clean', async () => {
    const sandbox = await openSandbox();
    const missing = seedId('email-message/upgrade-thanks');
    sandbox.server.update((state) => {
      const messages = state.emailMessages as { message: { id: string } }[];
      messages.splice(
        messages.findIndex((stored) => stored.message.id === missing),
        1,
      );
    });
    const result = await sandbox.loopsctl(['check', '--json']);
    expect(result.code).toBe(2);
    const notChecked = result.json<Found[]>().filter((problem) => problem.rule === 'not-checked');
    expect(notChecked).toEqual([expect.objectContaining({ severity: 'error', kind: 'workflow', name: 'Upgrade thank-you' })]);
    expect(notChecked[0]!.message).toContain('"Thank you for upgrading" email of workflow "Upgrade thank-you" could not be read');
    const text = await sandbox.loopsctl(['check']);
    expect(text.code).toBe(2);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/\n\nIncomplete: some records could not be read \(see not-checked\)\./);
  });
});
