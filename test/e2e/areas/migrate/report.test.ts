/**
 * `migrate report` over a small app that sends through SendGrid, Nodemailer and Customer.io
 * (test/examples/migrate-app): every send and template is named, each send with the Loops call it
 * becomes, each template with what `content convert` lists for it. Nothing of the app is run or
 * written.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';

const APP = join(import.meta.dirname, '../../../examples/migrate-app');

/** Every file under a directory with its size and time: what a run must leave as it was. */
function listing(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((path) => {
      const stats = statSync(join(root, path));
      return `${path} ${stats.size} ${stats.mtimeMs}`;
    });
}

interface Report {
  templates: { path: string; format: string; remediation: number; constructs: { construct: string; count: number }[]; refused?: string }[];
  sends: { file: string; line: number; provider: string; call: string; kind: string; templateFile?: string; loops: { call: string; code: string } }[];
  leftForTheApp: string[];
}

describe('migrate report', () => {
  it('names each send with the Loops call it becomes, and each template with what convert lists', async () => {
    const before = listing(APP);
    const result = await run(['migrate', 'report', APP, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    const tx = (variables: string) => `loops.sendTransactionalEmail({ transactionalId: '<the published email’s id>', email, dataVariables: { ${variables} } })`;
    expect(report.sends.map((send) => [`${send.file}:${send.line}`, send.provider, send.call, send.templateFile, send.loops.code])).toEqual([
      [
        'src/analytics.ts:7',
        'Customer.io',
        'cio.track',
        undefined,
        'loops.sendEvent({ email, eventName: "order_completed", eventProperties: { total, currency } })',
      ],
      ['src/mailer.tsx:9', 'SendGrid', 'sgMail.send', 'emails/welcome.tsx', tx('firstName, loginUrl')],
      ['src/mailer.tsx:18', 'SendGrid', 'sgMail.send', undefined, tx('orderId: order.id, total: order.total')],
      ['src/password.ts:9', 'Nodemailer', 'transporter.sendMail', 'templates/password-reset.hbs', tx('resetUrl, firstName')],
    ]);
    // The page of the app is no email, and a sender of React Email's render() no template; vendor/ is left out.
    expect(report.templates.map((template) => [template.path, template.format, template.remediation])).toEqual([
      ['emails/newsletter.mjml', 'mjml', 0],
      ['emails/welcome.tsx', 'react', 0],
      ['templates/password-reset.hbs', 'html', 4],
    ]);
    expect(report.templates[2]!.constructs).toEqual([
      { construct: '{{#if resetUrl}}', count: 1 },
      { construct: 'a table used for content', count: 1 },
      // The table of no width shrinks to its text, as a browser draws it, where LMX draws it across the body.
      { construct: 'the layout of <Paragraph>', count: 2 },
    ]);
    expect(report.leftForTheApp.join('\n')).toContain('set up shop.example in the Loops app');
    expect(report.leftForTheApp.join('\n')).toContain('SendGrid template d-8f2c1e0b9a7d4c3e8f1a2b3c4d5e6f70 (src/mailer.tsx:18) is kept at SendGrid');
    expect(report.leftForTheApp.join('\n')).toContain('Events (order_completed)');
    expect(listing(APP)).toEqual(before);
  });

  it('counts for each template what `content convert` lists for it', async () => {
    const report = JSON.parse((await run(['migrate', 'report', APP, '--json'])).stdout) as Report;
    for (const template of report.templates) {
      const out = join(tempDir('loopsctl-migrate-'), 'loops');
      const converted = await run(['content', 'convert', join(APP, template.path), '--out', out, '--json']);
      expect(converted.code, converted.stderr).toBe(0);
      const listed: { construct: string }[] = JSON.parse(converted.stdout).records.flatMap(
        (record: { remediation: { construct: string }[] }) => record.remediation,
      );
      // convert alone has no send to take a subject from: the subject is compared apart.
      const subject = (constructs: string[]) => constructs.filter((construct) => construct === 'no subject').length;
      const reported = template.constructs.find(({ construct }) => construct === 'no subject')?.count ?? 0;
      expect(listed.length - subject(listed.map((item) => item.construct)), template.path).toBe(template.remediation - reported);
    }
  });

  it('prints each template and send, and what is left for the app', async () => {
    const result = await run(['migrate', 'report', APP]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Templates: 3 templates, 2 convert as they are\n');
    expect(result.stdout).toContain('  emails/welcome.tsx (React Email): converts as it is\n');
    expect(result.stdout).toContain('  templates/password-reset.hbs (HTML): needs hand work, 4 things to look at\n    {{#if resetUrl}}\n');
    expect(result.stdout).toContain(
      '  src/mailer.tsx:18:9 SendGrid sgMail.send: template d-8f2c1e0b9a7d4c3e8f1a2b3c4d5e6f70 at SendGrid\n    becomes loops.sendTransactionalEmail(',
    );
    expect(result.stdout).toContain('  src/password.ts:9:9 Nodemailer transporter.sendMail: template password-reset, the file templates/password-reset.hbs\n');
    expect(result.stdout).toContain('Left for the app:\n  - Sending domain: set up shop.example');
    // On a terminal, each line fits it, a long one continued below, indented.
    const terminal = await run(['migrate', 'report', APP], { tty: { columns: 80 } });
    expect(terminal.code, terminal.stderr).toBe(0);
    for (const line of terminal.stdout.split('\n')) expect([...line.replace(/\u001b\[[\d;]*m/g, '')].length, line).toBeLessThanOrEqual(80);
    expect(terminal.stdout).toMatch(/\n {2}- Sending domain: set up shop\.example[^\n]*\n {4}\S/);
  });

  it('refuses what is not a directory', async () => {
    const missing = await run(['migrate', 'report', join(tempDir(), 'nothing')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such directory');
    const file = await run(['migrate', 'report', join(APP, 'package.json')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('not a directory');
  });
});
