/**
 * `migrate report --out`: each template's record written as `content convert` writes it, its
 * fields file holding the subject and sender the app's send gives it (or, with no send, the title
 * its source names); nothing written over a record already there (unless --force), nor when two
 * templates would make one record.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { senderOf } from '../../../../src/areas/migrate/report.js';
import { directoryOf } from '../../../support/content-tree.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, tempDir } from '../../../support/main.js';

const APP = join(import.meta.dirname, '../../../examples/migrate-app');
const CORPUS = corpusDirectory();

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** Every file under a directory with its content: what a refused run must leave as it was. */
function contents(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .sort()
    .filter((path) => statSync(join(root, path)).isFile())
    .map((path) => `${path}\n${readFileSync(join(root, path), 'utf8')}`);
}

interface Report {
  templates: { path: string; subject?: string; record?: string }[];
  written?: { directory: string; records: string[] };
}

describe('migrate report --out', () => {
  it('writes each template’s record with the subject and sender its send gives, or its source’s title', async () => {
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['migrate', 'report', APP, '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.templates.map((template) => [template.path, template.subject, template.record])).toEqual([
      ['emails/newsletter.mjml', 'What is new this month', 'transactional/emails-newsletter'],
      ['emails/welcome.tsx', 'Welcome to the shop', 'transactional/emails-welcome'],
      ['templates/password-reset.hbs', 'Reset your password', 'transactional/templates-password-reset'],
    ]);
    expect(report.written).toEqual({ directory: out, records: report.templates.map((template) => template.record) });
    // SendGrid's send: `from: 'Shop <hello@shop.example>'`, `subject: 'Welcome to the shop'`.
    expect(json(join(out, 'transactional/emails-welcome/draft.json'))).toEqual({
      subject: 'Welcome to the shop',
      previewText: 'Your account is ready',
      fromName: 'Shop',
      fromEmail: 'hello',
    });
    expect(json(join(out, 'transactional/emails-welcome/transactional.json'))).toEqual({ name: 'Welcome to the shop' });
    expect(readFileSync(join(out, 'transactional/emails-welcome/draft.lmx'), 'utf8')).toContain('Welcome, {data.firstName}');
    // Nodemailer's: `from: 'security@shop.example'`, `subject: 'Reset your password'`.
    expect(json(join(out, 'transactional/templates-password-reset/draft.json'))).toEqual({ subject: 'Reset your password', fromEmail: 'security' });
    // No send names the newsletter: its <mj-title> is its subject.
    expect(json(join(out, 'transactional/emails-newsletter/draft.json'))).toMatchObject({ subject: 'What is new this month' });
    // The records written pass `content check`.
    const check = await run(['content', 'check', out, '--json']);
    expect(check.code, check.stdout).toBe(0);
  });

  it('prints each template’s subject and the records written', async () => {
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['migrate', 'report', APP, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('  emails/welcome.tsx (React Email): converts as it is\n    subject: Welcome to the shop\n');
    expect(result.stdout).toContain(
      `Written into ${out}: 3 records\n  transactional/emails-newsletter (from emails/newsletter.mjml)\n  transactional/emails-welcome (from emails/welcome.tsx)\n`,
    );
  });

  it('writes the public corpus’s templates with the subject their send gives, translated, or their <title>', async () => {
    const corpus = (path: string) => readFileSync(join(CORPUS, path), 'utf8');
    const root = directoryOf({
      'emails/welcome.html': corpus('html-mailgen/default-welcome.html'),
      'emails/action.html': corpus('html-mailgun/action.html'),
      'emails/stripe-welcome.tsx': corpus('react-email/stripe-welcome.tsx'),
      'src/send.tsx': [
        "import nodemailer from 'nodemailer';",
        "import { Resend } from 'resend';",
        "import StripeWelcome from '../emails/stripe-welcome';",
        "const transporter = nodemailer.createTransport({ host: 'smtp.acme.example' });",
        'const resend = new Resend(process.env.RESEND_API_KEY);',
        'export async function welcome(email: string, name: string) {',
        "  await transporter.sendMail({ from: 'Acme <hello@acme.example>', to: email, subject: 'Welcome to {{product_name}}, {{name}}!', template: 'welcome', context: { name } });",
        "  await resend.emails.send({ from: 'Stripe <welcome@stripe.example>', to: email, subject: 'You are ready to accept payments', react: <StripeWelcome /> });",
        '}',
      ].join('\n'),
    });
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['migrate', 'report', root, '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(json(join(out, 'transactional/emails-welcome/draft.json'))).toMatchObject({
      subject: 'Welcome to {data.product_name}, {data.name}!',
      fromName: 'Acme',
      fromEmail: 'hello',
    });
    expect(json(join(out, 'transactional/emails-stripe-welcome/draft.json'))).toMatchObject({
      subject: 'You are ready to accept payments',
      fromName: 'Stripe',
      fromEmail: 'welcome',
    });
    // No send names it: the subject is its <title>.
    expect(json(join(out, 'transactional/emails-action/draft.json'))).toMatchObject({ subject: 'Reset your password' });
    const report = JSON.parse(result.stdout) as Report & { templates: { constructs: { construct: string }[] }[] };
    expect(report.templates.map((template) => template.subject)).toEqual([
      'Reset your password',
      'You are ready to accept payments',
      'Welcome to {data.product_name}, {data.name}!',
    ]);
    for (const template of report.templates) expect(template.constructs.map(({ construct }) => construct)).not.toContain('no subject');
  });

  it('writes nothing over a record already there, unless --force', async () => {
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    expect((await run(['migrate', 'report', APP, '--out', out])).code).toBe(0);
    const before = contents(out);
    const again = await run(['migrate', 'report', APP, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${join(out, 'transactional/emails-newsletter')}, `);
    expect(again.stderr).toContain('already exist: nothing was written');
    expect(contents(out)).toEqual(before);
    const forced = await run(['migrate', 'report', APP, '--out', out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(contents(out)).toEqual(before);
  });

  it('writes nothing when two templates would make one record, nor without --out', async () => {
    const root = directoryOf({
      'emails/welcome.mjml': '<mjml><mj-body><mj-section><mj-column><mj-text>Hello</mj-text></mj-column></mj-section></mj-body></mjml>',
      'emails/welcome.html': '<html><body><p>Hello</p></body></html>',
    });
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['migrate', 'report', root, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${join(root, 'emails/welcome.html')} and ${join(root, 'emails/welcome.mjml')} would both be ${join(out, 'transactional/emails-welcome')}`,
    );
    expect(existsSync(out)).toBe(false);
    const unasked = await run(['migrate', 'report', APP, '--json']);
    expect(unasked.code).toBe(0);
    expect((JSON.parse(unasked.stdout) as Report).written).toBeUndefined();
  });
});

describe('a send’s sender as the fields file takes it', () => {
  // The API's EmailMessage.fromEmail: "The email sender email address, without the team's sending domain."
  it('keeps the name, and the address without its domain', () => {
    expect(senderOf('Shop <hello@shop.example>')).toEqual({ fromName: 'Shop', fromEmail: 'hello' });
    expect(senderOf('"Acme, Inc." <billing@acme.example>')).toEqual({ fromName: 'Acme, Inc.', fromEmail: 'billing' });
    expect(senderOf('<hi@acme.example>')).toEqual({ fromEmail: 'hi' });
    expect(senderOf('security@shop.example')).toEqual({ fromEmail: 'security' });
    expect(senderOf('not an address')).toEqual({});
    expect(senderOf(undefined)).toEqual({});
  });
});
