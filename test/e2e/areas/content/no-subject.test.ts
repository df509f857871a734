/**
 * An email with no subject: `content check` warns of it, `content push` says so before it writes
 * it, and `transactional create` gives the command that sets one. What the platform says of a
 * missing subject is in its published description, read here from the contract derived from it:
 * - "UpdateEmailMessageRequest": `subject` is one of its optional fields (none is required but the
 *   revision), so an update may leave it out, and a new email's draft starts with none;
 * - Guardian, whose errors "must be resolved before the email can be published" (the description
 *   of EmailMessageGuardianResponse.errors), has no rule about the subject (GuardianRule.rule's enum);
 * - publishing answers 422 when the "Draft failed validation, sending domain is not verified, or
 *   content was flagged as unsafe", none of which names the subject.
 * So the platform takes, publishes and sends such an email (the sandbox does as described): the
 * warning is loopsctl's, before anyone reads "(no subject)" in an inbox.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { publishedDescriptionAsWritten } from '../../../support/openapi.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const sandboxes = sandboxEachTest();
const ONLY = ['--only', 'transactional,components,themes'];

/** A pulled tree with a hand-written transactional email whose draft.json has the fields given. */
async function treeWithInvoice(sandbox: RecordingSandbox, fields: Record<string, string>): Promise<{ root: string; invoice: string }> {
  const root = join(tempDir('subjectless'), 'loops');
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...ONLY]);
  expect(pull.code, pull.stderr).toBe(0);
  const invoice = join(root, 'transactional', 'invoice');
  mkdirSync(invoice);
  writeFileSync(join(invoice, 'transactional.json'), '{"name":"Invoice"}\n');
  writeFileSync(join(invoice, 'draft.json'), `${JSON.stringify({ fromName: 'Acme', fromEmail: 'billing', ...fields })}\n`);
  writeFileSync(join(invoice, 'draft.lmx'), '<Paragraph>Your invoice is attached.</Paragraph>\n');
  return { root, invoice };
}

describe('an email with no subject', () => {
  it('is one the published description lets through: no field requires it and no Guardian rule is about it', () => {
    const { components } = publishedDescriptionAsWritten();
    const update = components.schemas.UpdateEmailMessageRequest!;
    expect(update.properties.subject).toEqual({ type: 'string' });
    expect(update.required ?? []).not.toContain('subject');
    const rules: string[] = components.schemas.GuardianRule!.properties.rule.enum;
    expect(rules.length).toBeGreaterThan(10);
    expect(rules.filter((rule) => /subject/i.test(rule))).toEqual([]);
  });

  it('is a warning of content check (an error with --strict), at the body of the email, naming its fields file', async () => {
    const sandbox = await sandboxes();
    const { root, invoice } = await treeWithInvoice(sandbox, { subject: '  ' });
    const checked = await sandbox.loopsctl(['content', 'check', root, '--json']);
    expect(checked.code, checked.stderr).toBe(0);
    const files = checked.json<{ file: string; warnings: { rule: string; line: number; message: string; fix: string }[] }[]>();
    const warned = files.filter((file) => file.warnings.some((warning) => warning.rule === 'no-subject'));
    expect(warned.map((file) => file.file)).toEqual([join(invoice, 'draft.lmx')]);
    expect(warned[0]!.warnings.find((warning) => warning.rule === 'no-subject')).toEqual({
      line: 1,
      column: 1,
      rule: 'no-subject',
      message: 'the email has no subject (draft.json gives none): the platform publishes and sends it so, and inboxes show it as "(no subject)"',
      fix: 'give draft.json a "subject"',
    });
    const strict = await sandbox.loopsctl(['content', 'check', root, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^Checked \d+ files: 0 errors, \d+ warnings in \d+ files\.$/m);
    expect(strict.stdout).toContain('draft.lmx:1:1 no-subject the email has no subject (draft.json gives none)');
  });

  it('is said by content push before it is written, and is then published and sent, as the platform does', async () => {
    const sandbox = await sandboxes();
    const { root } = await treeWithInvoice(sandbox, {});
    const plan = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan']);
    expect(plan.code, plan.stderr).toBe(0);
    const note =
      '1 email with no subject: transactional/invoice/draft.json. The platform takes and sends an email so (inboxes show "(no subject)"): give it a "subject" first.\n';
    expect(plan.stderr).toContain(note);
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--yes', '--publish']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain(note);
    expect(push.stderr).toContain('Pushed 1 record to Acme Sandbox, published 1;');
    const listed = await sandbox.loopsctl(['transactional', 'list', '--json']);
    const created = listed.json<{ id: string; name: string; publishedEmailMessageId: string | null }[]>().find((email) => email.name === 'Invoice')!;
    expect(created.publishedEmailMessageId).not.toBeNull();
    const sent = await sandbox.loopsctl(['transactional', 'send', created.id, '--to', 'ada@example.com']);
    expect(sent.code, sent.stderr).toBe(0);
    // Nothing said of the emails that have one.
    const others = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional/password-reset*', '--plan']);
    expect(others.stderr).not.toContain('no subject');
  });

  it('is not said of an email that has one', async () => {
    const sandbox = await sandboxes();
    const { root } = await treeWithInvoice(sandbox, { subject: 'Your invoice' });
    const checked = await sandbox.loopsctl(['content', 'check', root, '--json']);
    const rules = (checked.json() as { warnings: { rule: string }[]; errors: { rule: string }[] }[]).flatMap((file) =>
      [...file.warnings, ...file.errors].map((finding) => finding.rule),
    );
    expect(rules).not.toContain('no-subject');
    const push = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).not.toContain('no subject');
  });

  it('is what transactional create starts with: its note gives the command that sets the subject', async () => {
    const sandbox = await sandboxes();
    const created = await sandbox.loopsctl(['transactional', 'create', '--name', 'Invoice']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain('It has no subject yet, and the platform would publish and send it without one:');
    expect(created.stderr).toMatch(/--expected-revision-id \S+ \\\n {4}--subject "<subject>" \\\n {4}--lmx-file email.lmx/);
  });

  it('is said by transactional publish, which the platform does not refuse, and not of an email with one', async () => {
    const sandbox = await sandboxes();
    const created = await sandbox.loopsctl(['transactional', 'create', '--name', 'Invoice', '--json']);
    const { id, draftEmailMessageId, draftEmailMessageContentRevisionId } = created.json<Record<string, string>>();
    const body = ['email-messages', 'update', draftEmailMessageId!, '--expected-revision-id', draftEmailMessageContentRevisionId!];
    const written = await sandbox.loopsctl([...body, '--lmx-file', '-'], { input: '<Paragraph>Your invoice is attached.</Paragraph>\n' });
    expect(written.code, written.stderr).toBe(0);
    const published = await sandbox.loopsctl(['transactional', 'publish', id!]);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stderr).toContain(
      `Its email has no subject, which inboxes show as "(no subject)": set one on a draft (\`loopsctl transactional draft ${id}\``,
    );
    const other = await sandbox.loopsctl(['transactional', 'publish', 'cdtg5cp1k90qxm7oj7ioc7eky']);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).not.toContain('no subject');
  });
});
