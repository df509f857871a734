/**
 * `migrate report`'s suggested Loops calls and converted templates: the call names every data
 * variable the converted email requires (a React prop with a default too, which becomes its
 * fallback), keys written as JavaScript takes them, the send's subject in the converted record, and
 * nothing read under node_modules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryOf } from '../../../support/content-tree.js';
import { run, tempDir } from '../../../support/main.js';

const app = (files: Record<string, string>) => directoryOf(files, 'loopsctl-migrate-app-');

const REMINDER = [
  "import { Html, Text } from '@react-email/components';",
  'export default function Reminder({ name, minutes = 30 }: { name: string; minutes?: number }) {',
  '  return (',
  '    <Html>',
  '      <Text>Hi {name}, your session starts in {minutes} minutes.</Text>',
  '    </Html>',
  '  );',
  '}',
].join('\n');

const SEND = [
  "import { Resend } from 'resend';",
  "import Reminder from '../emails/reminder';",
  'const resend = new Resend(process.env.RESEND_API_KEY);',
  'export async function remind(email: string, name: string) {',
  "  await resend.emails.send({ from: 'Acme <hi@acme.example>', to: email, subject: 'Your session is soon', react: <Reminder name={name} /> });",
  '}',
  'export async function receipt(email: string) {',
  "  await resend.emails.send({ from: 'hi@acme.example', to: email, subject: 'Receipt', html: '<p>Thanks</p>' });",
  '}',
].join('\n');

interface Report {
  templates: { path: string; remediation: number; constructs: { construct: string; count: number }[]; variables: string[] }[];
  sends: { file: string; templateFile?: string; subject?: string; loops: { code: string } }[];
}

describe('migrate report: calls and templates', () => {
  it('suggests a call naming every variable the converted email requires, the default one too, and converts it with the send’s subject', async () => {
    const root = app({ 'emails/reminder.tsx': REMINDER, 'src/remind.tsx': SEND });
    const result = await run(['migrate', 'report', root, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    const send = report.sends.find((candidate) => candidate.templateFile === 'emails/reminder.tsx')!;
    expect(send.subject).toBe('Your session is soon');
    // Only what is in scope where the send stands is named: the default's variable is said to be missing there.
    expect(send.loops.code).toContain('dataVariables: { name, minutes: undefined /* the template needs it: not given at this call */ }');
    const [template] = report.templates;
    expect(template!.variables).toEqual(['{data.name}', '{data.minutes}']);
    // Its subject came from the send: only the default is left to look at.
    expect(template!.constructs.map(({ construct }) => construct)).toEqual(['the default minutes = "30"']);
  });

  it('content convert makes a React prop’s literal default the variable’s fallback, and lists a record with no subject', async () => {
    const root = app({ 'reminder.tsx': REMINDER });
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['content', 'convert', join(root, 'reminder.tsx'), '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'transactional/reminder/draft.json'), 'utf8'))).toEqual({ dataVariablesFallbacks: { minutes: '30' } });
    const listed = JSON.parse(result.stdout).records[0].remediation.map((item: { line: number; construct: string }) => `${item.line} ${item.construct}`);
    expect(listed).toEqual(['2 the default minutes = "30"', '1 no subject']);
  });

  it('writes a key that is no JavaScript name quoted, and reads nothing under node_modules', async () => {
    const root = app({
      'src/send.ts': [
        "import sgMail from '@sendgrid/mail';",
        'export async function welcome(email: string, name: string) {',
        "  await sgMail.send({ to: email, from: 'hi@acme.example', templateId: 'd-1', dynamicTemplateData: { 'first-name': name, plan: 'pro' } });",
        '}',
      ].join('\n'),
      'node_modules/mailer/index.js': "sgMail.send({ to, from: 'x@y.example', templateId: 'd-2', dynamicTemplateData: { a: 1 } });",
      'node_modules/mailer/emails/welcome.mjml': '<mjml><mj-body></mj-body></mjml>',
    });
    const result = await run(['migrate', 'report', root, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.sends.map((send) => send.file)).toEqual(['src/send.ts']);
    expect(report.sends[0]!.loops.code).toContain('dataVariables: { "first-name": firstName, plan }');
    expect(report.templates).toEqual([]);
  });

  it('reads a template literal’s subject, its values named as the send hands them, and names only what is in scope at the call', async () => {
    const root = app({
      'emails/shipped.hbs': '<p>Order {{orderId}} is on its way: <a href="{{trackingUrl}}">track it</a>.</p>',
      'src/ship.ts': [
        "import sgMail from '@sendgrid/mail';",
        'export async function shipped(order: { id: string; email: string }) {',
        '  await sgMail.send({',
        "    to: order.email, from: 'shop@acme.example', templateId: 'shipped',",
        // A template literal: the order's id is the template's orderId, as the call hands it.
        '    subject: `Order ${order.id} has shipped`,',
        '    dynamicTemplateData: { orderId: order.id },',
        '  });',
        '}',
      ].join('\n'),
    });
    const out = join(tempDir('loopsctl-migrate-out-'), 'loops');
    const result = await run(['migrate', 'report', root, '--json', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    const [send] = report.sends;
    expect(send!.subject).toBe('Order {{orderId}} has shipped');
    expect(send!.loops.code).toBe(
      "loops.sendTransactionalEmail({ transactionalId: '<the published email’s id>', email, dataVariables: { orderId: order.id, trackingUrl: undefined /* the template needs it: not given at this call */ } })",
    );
    expect(JSON.parse(readFileSync(join(out, 'transactional/emails-shipped/draft.json'), 'utf8')).subject).toBe('Order {data.orderId} has shipped');
  });
});
