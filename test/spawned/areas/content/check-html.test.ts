/**
 * `content check --html` from the built binary: the MIME parser and the language detector it
 * needs are bundles of their own (dist/vendor/postal-mime.cjs, tinyld.cjs), which only a built run
 * loads as an installed package does. What the rules find is tested in-process
 * (test/e2e/areas/content/check-html.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

/** A French receipt saved as a message: its HTML part base64 in UTF-8, its <html> saying it is English. */
const HTML = `<!doctype html><html lang="en" dir="ltr"><head><title>Votre reçu</title></head><body><div lang="en" dir="ltr">
<p>Votre commande a été expédiée aujourd’hui. Vous la recevrez d’ici trois à cinq jours ouvrés.</p>
<a href="https://acme.example/commande"><img src="https://cdn.acme.example/colis.png" alt=""></a>
</div></body></html>`;

const MESSAGE = [
  'From: Acme <orders@acme.example>',
  'Subject: Votre reçu',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Votre commande a été expédiée.',
  '--b1',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from(HTML).toString('base64'),
  '--b1--',
  '',
].join('\r\n');

describe('content check --html, built', () => {
  it('reads a saved .eml and tells the language its text is in', async () => {
    const file = join(tempDir('loopsctl-spawned-eml-'), 'receipt.eml');
    writeFileSync(file, MESSAGE);
    const result = await spawnCli(['content', 'check', '--html', file, '--json'], { env: { LOOPS_API_KEY: undefined } });
    expect(result.code, result.stderr).toBe(1);
    const [report] = JSON.parse(result.stdout) as { errors: { rule: string; impact: string }[]; warnings: { rule: string; impact: string }[] }[];
    expect(report!.errors.map((each) => [each.rule, each.impact])).toEqual([['image-linked-empty-alt', 'critical']]);
    expect(report!.warnings.map((each) => [each.rule, each.impact])).toEqual([['language-mismatch', 'moderate']]);
  });
});
