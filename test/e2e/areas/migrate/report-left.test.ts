/**
 * `migrate report`'s list of what is left for the app, sentence by sentence as the sends and
 * templates found make it; the keys of a suggested call as JavaScript takes them; a template kept at
 * the provider under the name of a file of the repository; the files not read; and a send's sender
 * read only where it is an address.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { senderOf } from '../../../../src/areas/migrate/report.js';
import { directoryOf } from '../../../support/content-tree.js';
import { run } from '../../../support/main.js';

const APP = join(import.meta.dirname, '../../../examples/migrate-app');

const app = (files: Record<string, string>) => directoryOf(files, 'loopsctl-migrate-left-');

const WELCOME =
  '<mjml><mj-head><mj-title>Welcome</mj-title></mj-head><mj-body><mj-section><mj-column><mj-text>Hi {{name}}, {{plan}}</mj-text></mj-column></mj-section></mj-body></mjml>';

const DOMAIN = 'Sending domain: set up the domain your emails are sent from in the Loops app (Settings, Domain); the API cannot.';
const LISTS =
  'Mailing lists: Loops makes them in the app only; create the lists your audience had before `loopsctl contacts import --lists-column` (see docs/migrate.md).';
const emails = (sends: string) =>
  `Transactional emails: convert the templates (\`loopsctl content convert\`), push them as drafts (\`loopsctl content push\`), publish each in the app, and write its id where each of the ${sends} names the old template.`;
const atSendGrid = (id: string, line: number) =>
  `SendGrid template ${id} (src/send.ts:${line}) is kept at SendGrid, not in the repository: export its HTML from there, then convert it.`;
const call = (variables: string) => `loops.sendTransactionalEmail({ transactionalId: '<the published email’s id>', email, dataVariables: ${variables} })`;

interface Report {
  sends: { line: number; templateFile?: string; loops: { call: string; code: string } }[];
  leftForTheApp: string[];
  skipped: { path: string; reason: string }[];
}

async function reportOf(root: string): Promise<Report> {
  const result = await run(['migrate', 'report', root, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Report;
}

describe('migrate report: what is left for the app', () => {
  it('names the domain, the emails to publish, the templates at the provider and the events of the sends found', async () => {
    expect((await reportOf(APP)).leftForTheApp).toEqual([
      'Sending domain: set up shop.example in the Loops app (Settings, Domain); the API cannot, and the sends here are from it.',
      emails('3 sends'),
      'SendGrid template d-8f2c1e0b9a7d4c3e8f1a2b3c4d5e6f70 (src/mailer.tsx:18) is kept at SendGrid, not in the repository: export its HTML from there, then convert it.',
      "Events (order_completed): send them with sendEvent; a loop that starts on one is a workflow with that event's trigger, made in the app, and `loopsctl event-patterns list` shows the events the account knows.",
      LISTS,
    ]);
  });

  it('says only what applies: no sends nor templates, templates alone, one send with no sender', async () => {
    expect((await reportOf(app({ 'README.md': '# An app that sends nothing' }))).leftForTheApp).toEqual([DOMAIN, LISTS]);
    expect((await reportOf(app({ 'emails/welcome.mjml': WELCOME }))).leftForTheApp).toEqual([DOMAIN, emails('0 sends'), LISTS]);
    const one = app({
      'src/send.ts': [
        "import sgMail from '@sendgrid/mail';",
        "export const send = (email: string) => sgMail.send({ to: email, templateId: 'd-1', dynamicTemplateData: {} });",
      ].join('\n'),
    });
    expect((await reportOf(one)).leftForTheApp).toEqual([DOMAIN, emails('1 send'), atSendGrid('d-1', 2), LISTS]);
  });

  it('names every domain, writes keys as JavaScript takes them, finds a template kept at the provider by its file’s name, and names the files not read', async () => {
    const root = app({
      'src/send.ts': [
        "import sgMail from '@sendgrid/mail';",
        "import * as postmark from 'postmark';",
        "const client = new postmark.ServerClient('token');",
        'export async function send(email: string, data: Record<string, string>) {',
        "  await sgMail.send({ to: email, from: 'Billing <billing@Acme.Example>', templateId: 'd-1', dynamicTemplateData: { 'first--name': 1, 'plan-': 2, '1st-place': 3, 'step-2': 4, '--': 5 } });",
        "  await sgMail.send({ to: email, from: 'noreply', templateId: 'd-2', dynamicTemplateData: data });",
        "  await sgMail.send({ to: email, from: 'Team <team@other.example>', templateId: 'd-3', dynamicTemplateData: {} });",
        "  await client.sendEmailWithTemplate({ From: 'hi@shop.example', To: email, TemplateAlias: 'welcome', TemplateModel: { name: 'n' } });",
        '}',
      ].join('\n'),
      'src/broken.ts': 'sgMail.send({ to: email,',
      'emails/welcome.mjml': WELCOME,
    });
    symlinkSync(join(root, 'emails/welcome.mjml'), join(root, 'emails/linked.mjml'));
    const report = await reportOf(root);
    expect(report.sends.map((send) => [send.line, send.templateFile, send.loops.call, send.loops.code])).toEqual([
      [5, undefined, 'sendTransactionalEmail', call('{ "first--name": firstName, "plan-": plan, "1st-place": _1stPlace, "step-2": step2, "--": value }')],
      [6, undefined, 'sendTransactionalEmail', call('{ … }')],
      [7, undefined, 'sendTransactionalEmail', call('{}')],
      // The template requires {data.plan} too, which the send does not name.
      [8, 'emails/welcome.mjml', 'sendTransactionalEmail', call('{ name, plan: undefined /* the template needs it: not given at this call */ }')],
    ]);
    expect(report.leftForTheApp).toEqual([
      'Sending domain: set up acme.example, other.example, shop.example in the Loops app (Settings, Domain); the API cannot, and the sends here are from them.',
      emails('4 sends'),
      atSendGrid('d-1', 5),
      atSendGrid('d-2', 6),
      atSendGrid('d-3', 7),
      LISTS,
    ]);
    // Both the templates' walk and the sources' walk meet the link: it is named once.
    expect(report.skipped.filter((entry) => entry.path === join(root, 'emails/linked.mjml'))).toEqual([
      { path: join(root, 'emails/linked.mjml'), reason: 'a symbolic link, not followed' },
    ]);
    expect(report.skipped).toContainEqual({ path: join(root, 'src/broken.ts'), reason: 'not JavaScript or TypeScript that Babel can read' });
  });

  it('says how to name the repository when given a file', async () => {
    const file = await run(['migrate', 'report', join(APP, 'package.json')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('not a directory');
    expect(file.stderr).toContain("name the app's repository, a directory");
  });

  it('reads a sender only where it is an address, its name without quotes or spaces around it', () => {
    expect(senderOf('  hi@acme.example  ')).toEqual({ fromEmail: 'hi' });
    expect(senderOf('" Acme " <hi@acme.example>')).toEqual({ fromName: 'Acme', fromEmail: 'hi' });
    expect(senderOf('Billing "Acme" <b@acme.example>')).toEqual({ fromName: 'Billing "Acme"', fromEmail: 'b' });
    expect(senderOf('"Acme" Billing <b@acme.example>')).toEqual({ fromName: '"Acme" Billing', fromEmail: 'b' });
    for (const written of ['Acme <hi@acme.example> and more', 'x hi@acme.example', 'hi@acme.example y']) expect(senderOf(written), written).toEqual({});
  });
});
