/**
 * `content check --html`: an email's HTML as captured from a send, judged by the accessibility
 * rules at their impacts: the sandbox inbox's HTML of a real send, saved .html files, and saved
 * .eml messages (multipart/alternative, quoted-printable and base64, a charset other than UTF-8).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxServer, startServer } from '../../../../src/emulator/server.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { run, sandboxEnv, tempDir } from '../../../support/main.js';
import { SEED_IDS } from '../../../support/sandbox.js';

function get(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    })
      .on('error', reject)
      .end();
  });
}

interface Checked {
  file: string;
  errors: { rule: string; impact?: string; line: number; message: string }[];
  warnings: { rule: string; impact?: string; line: number; message: string }[];
}

const offline = { env: { LOOPS_API_KEY: undefined } };
const rulesOf = (checked: Checked) => ({ errors: checked.errors.map((each) => each.rule), warnings: checked.warnings.map((each) => each.rule) });

/** A French receipt whose HTML says it is English, with an image without alt, in a layout table without role. */
const FRENCH_HTML = `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head><meta charset="iso-8859-1"><title>Votre reçu</title></head>
<body>
<div lang="en" dir="ltr">
<table width="600"><tr><td>
<h1>Merci pour votre commande</h1>
<p>Votre commande a été expédiée aujourd'hui. Vous la recevrez d'ici trois à cinq jours ouvrés.</p>
<img src="https://cdn.acme.example/colis.png">
</td></tr></table>
</div>
</body>
</html>`;

/** MIME's quoted-printable, as a client writes a Latin-1 part: é is =E9, a long line is cut with a soft break. */
function quotedPrintable(latin1: Buffer): string {
  let line = '';
  const lines: string[] = [];
  for (const byte of latin1) {
    const char =
      byte === 10
        ? '\n'
        : byte >= 33 && byte <= 126 && byte !== 61
          ? String.fromCharCode(byte)
          : byte === 32
            ? ' '
            : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    if (char === '\n') {
      lines.push(line);
      line = '';
      continue;
    }
    if (line.length + char.length > 75) {
      lines.push(`${line}=`);
      line = '';
    }
    line += char;
  }
  lines.push(line);
  return lines.join('\r\n');
}

function message(html: string, encoding: 'quoted-printable' | 'base64'): string {
  const latin1 = Buffer.from(html, 'latin1');
  const body = encoding === 'base64' ? (latin1.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n') : quotedPrintable(latin1);
  return [
    'From: Acme <orders@acme.example>',
    'To: ada@example.com',
    'Subject: =?ISO-8859-1?Q?Votre_re=E7u?=',
    'Content-Language: fr',
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    'Merci pour votre commande.',
    '--b1',
    'Content-Type: text/html; charset=iso-8859-1',
    `Content-Transfer-Encoding: ${encoding}`,
    '',
    body,
    '--b1--',
    '',
  ].join('\r\n');
}

describe('content check --html', () => {
  let sandbox: SandboxServer;
  beforeAll(async () => {
    sandbox = await startServer({ initialState: (modules) => seedState(modules, 'demo') });
  });
  afterAll(() => sandbox.close());

  it("judges the sandbox inbox's HTML of a real send", async () => {
    const values = ['--var', 'firstName=Ada', '--var', 'resetUrl=https://acme.example/reset?t=1', '--var', 'expiresInMinutes=30'];
    const sent = await run(['transactional', 'send', SEED_IDS.passwordReset, '--to', 'ada@example.com', ...values], { env: sandboxEnv(sandbox) });
    expect(sent.code, sent.stderr).toBe(0);
    const inbox = await get(`${sandbox.url}/_sandbox/inbox/email.html?email=0`);
    expect(inbox.status).toBe(200);
    const file = join(tempDir('loopsctl-captured-'), 'password-reset.html');
    writeFileSync(file, inbox.text);

    // What the renderer emits says its language on <html> and nowhere else, and its direction nowhere.
    const checked = await run(['content', 'check', '--html', file, '--json'], offline);
    expect(checked.code).toBe(1);
    const [report] = checked.json<Checked[]>();
    expect(report!.errors.map((each) => [each.rule, each.impact, each.message.split(':')[0]])).toEqual([
      ['dir-missing', 'serious', "no dir on <html> nor on the body's first child"],
      ['lang-missing', 'serious', "no lang on the body's first child"],
    ]);
    expect(report!.warnings).toEqual([]);
    // Below the line asked for, the same findings are warnings: exit 0.
    const critical = await run(['content', 'check', '--html', file, '--severity', 'critical'], offline);
    expect(critical.code, critical.stderr).toBe(0);
    expect(critical.stdout).toContain(`${file}:2:1 dir-missing no dir on <html> nor on the body's first child`);
    expect(critical.stdout).toMatch(/drops it with it \(serious\)\n/);
    expect(critical.stderr).toBe('Checked 1 file: 0 errors, 2 warnings in 1 file.\nAccessibility: 0 critical, 2 serious, 0 moderate, 0 mild.\n');
  });

  it('reads a saved .eml: its HTML part, quoted-printable or base64, in its charset', async () => {
    const directory = tempDir('loopsctl-eml-');
    mkdirSync(join(directory, 'receipts'));
    writeFileSync(join(directory, 'receipts', 'qp.eml'), message(FRENCH_HTML, 'quoted-printable'));
    writeFileSync(join(directory, 'receipts', 'base64.eml'), message(FRENCH_HTML, 'base64'));
    writeFileSync(join(directory, 'notes.txt'), 'not an email');
    const checked = await run(['content', 'check', '--html', directory, '--json'], offline);
    expect(checked.code).toBe(1);
    const reports = checked.json<Checked[]>();
    expect(reports.map((each) => each.file)).toEqual([join(directory, 'receipts', 'base64.eml'), join(directory, 'receipts', 'qp.eml')]);
    for (const report of reports) {
      // Decoded, é and à are the letters they were: the text reads as French, which lang="en" does not say.
      expect(rulesOf(report)).toEqual({ errors: ['layout-table-role', 'image-without-alt'], warnings: ['language-mismatch'] });
      expect(report.errors.map((each) => [each.impact, each.line])).toEqual([
        ['serious', 6],
        ['critical', 9],
      ]);
      expect(report.warnings[0]!.message).toBe('lang is "en", and the text is written in "fr": screen readers read it in the wrong voice');
    }
    // --severity moderate fails the language too; mild changes nothing more here.
    const moderate = await run(['content', 'check', '--html', join(directory, 'receipts', 'qp.eml'), '--severity', 'moderate', '--json'], offline);
    expect(rulesOf(moderate.json<Checked[]>()[0]!)).toEqual({ errors: ['language-mismatch', 'layout-table-role', 'image-without-alt'], warnings: [] });
  });

  it('rules the findings by the rules file, the rules of HTML alone as the LMX ones', async () => {
    const directory = tempDir('loopsctl-html-rules-');
    writeFileSync(join(directory, 'receipt.html'), FRENCH_HTML.replaceAll(' dir="ltr"', ''));
    writeFileSync(join(directory, 'message.eml'), 'From: a@acme.example\r\nContent-Type: text/plain\r\n\r\nNo HTML here.\r\n');
    const rules = join(tempDir('loopsctl-html-rules-file-'), 'loops.check.yaml');
    const receipt = join(directory, 'receipt.html');
    const before = await run(['content', 'check', '--html', receipt, '--severity', 'critical', '--json'], offline);
    expect(rulesOf(before.json<Checked[]>()[0]!)).toEqual({
      errors: ['image-without-alt'],
      warnings: ['dir-missing', 'language-mismatch', 'layout-table-role'],
    });
    // An HTML rule raised to an error, another turned off, a critical one lowered to a note (not told), one allowed.
    writeFileSync(
      rules,
      [
        'rules:',
        '  dir-missing: error',
        '  layout-table-role: off',
        '  image-without-alt: info',
        '  no-html-part: off',
        'allow:',
        '  - { rule: language-mismatch }',
        '',
      ].join('\n'),
    );
    const ruled = await run(['content', 'check', '--html', directory, '--severity', 'critical', '--rules', rules, '--json'], offline);
    expect(ruled.code).toBe(1);
    const [message, captured] = ruled.json<Checked[]>();
    expect([message!.file, rulesOf(message!)]).toEqual([join(directory, 'message.eml'), { errors: [], warnings: [] }]);
    expect([captured!.file, captured!.warnings]).toEqual([receipt, []]);
    expect(captured!.errors).toEqual([
      expect.objectContaining({ rule: 'dir-missing', message: expect.stringMatching(/^no dir on <html> nor on the body's first child/) }),
    ]);
    // A name no rule has is refused, as for LMX.
    writeFileSync(rules, 'rules:\n  dir-mising: off\n');
    const unknown = await run(['content', 'check', '--html', receipt, '--rules', rules], offline);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('at rules.dir-mising: no rule is named dir-mising');
  });

  it('passes a clean capture, and refuses a path with nothing to judge', async () => {
    const directory = tempDir('loopsctl-clean-html-');
    const clean = FRENCH_HTML.replaceAll('lang="en"', 'lang="fr"')
      .replace('<table width="600">', '<table role="presentation" width="600">')
      .replace('colis.png">', 'colis.png" alt="Un colis">');
    writeFileSync(join(directory, 'receipt.html'), clean);
    const passed = await run(['content', 'check', '--html', join(directory, 'receipt.html')], offline);
    expect(passed.code, passed.stdout).toBe(0);
    expect(passed.stderr).toBe('Checked 1 file: 0 errors, 0 warnings.\n');
    const nothing = await run(['content', 'check', '--html', tempDir('loopsctl-empty-html-')], offline);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('holds no .html, .htm or .eml file');
    // Captured HTML and a tree's LMX are two runs: one run of both is refused before reading either.
    const both = await run(['content', 'check', 'loops', '--html', join(directory, 'receipt.html')], offline);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--html judges captured HTML alone');
  });
});
