/**
 * `content convert`'s subject: the one --subject gives (its variables translated as the body's),
 * over the source's own (MJML's <mj-title>, HTML's <title>, a React Email template's <title> in
 * its <Head> or its exported `subject`); a record left with none is listed. Two sources that would
 * make one record are refused before anything is written. The language the source declares is the
 * message's languageCode where its text is written in it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directoryOf } from '../../../support/content-tree.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, tempDir } from '../../../support/main.js';

const CORPUS = corpusDirectory();

const fields = (out: string, name: string) => JSON.parse(readFileSync(join(out, `transactional/${name}/draft.json`), 'utf8')) as Record<string, unknown>;
const constructs = (stdout: string) =>
  (JSON.parse(stdout) as { records: { remediation: { construct: string }[] }[] }).records.flatMap((record) => record.remediation.map((item) => item.construct));

const react = (head: string, exported = '') =>
  [
    "import { Body, Head, Html, Text } from '@react-email/components';",
    exported,
    'export default function Receipt({ orderId }: { orderId: string }) {',
    `  return (<Html>${head}<Body><Text>Order {orderId} is paid.</Text></Body></Html>);`,
    '}',
  ].join('\n');

describe('content convert: the subject', () => {
  it('takes --subject over the source’s <title>, its variables made the kind’s', async () => {
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const source = join(CORPUS, 'html-leemunroe/email.html');
    const result = await run(['content', 'convert', source, '--out', out, '--json', '--subject', 'Your receipt for {{ order.id }}']);
    expect(result.code, result.stderr).toBe(0);
    expect(fields(out, 'email')).toMatchObject({ subject: 'Your receipt for {data.order_id}' });
    expect((JSON.parse(result.stdout) as { records: { subject?: string }[] }).records[0]!.subject).toBe('Your receipt for {data.order_id}');
    expect(constructs(result.stdout)).not.toContain('no subject');
    // Without it, the <title> the file has is the subject.
    const titled = join(tempDir('loopsctl-convert-out-'), 'loops');
    expect((await run(['content', 'convert', source, '--out', titled])).code).toBe(0);
    expect(fields(titled, 'email')).toMatchObject({ subject: 'Simple Transactional Email' });
  });

  it('gives the one email its subject, and refuses --subject for several, writing nothing', async () => {
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', join(CORPUS, 'html-mailgun'), '--out', out, '--subject', 'Hello']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--subject gives one email its subject, and ${join(CORPUS, 'html-mailgun')} holds 3 emails`);
    expect(existsSync(out)).toBe(false);
  });

  it('reads a React Email template’s <title> in its <Head>, and its exported subject over it', async () => {
    const root = directoryOf({
      'titled.tsx': react('<Head><title>Receipt for {orderId}</title></Head>'),
      'exported.tsx': react('<Head><title>Receipt</title></Head>', 'export const subject = `Your order is paid`;'),
      'untitled.tsx': react('<Head />'),
    });
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', root, '--out', out, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(fields(out, 'titled').subject).toBe('Receipt for {data.orderId}');
    expect(fields(out, 'exported').subject).toBe('Your order is paid');
    expect(fields(out, 'untitled').subject).toBeUndefined();
    // Only the one with none is listed; no title is written into the body.
    expect(constructs(result.stdout).filter((construct) => construct === 'no subject')).toHaveLength(1);
    expect(readFileSync(join(out, 'transactional/titled/draft.lmx'), 'utf8')).not.toContain('Receipt for');
  });

  it('refuses two sources that would make one record, before writing anything', async () => {
    const root = directoryOf({
      'welcome.mjml': '<mjml><mj-body><mj-section><mj-column><mj-text>Hello</mj-text></mj-column></mj-section></mj-body></mjml>',
      'welcome.html': '<html><body><p>Hello</p></body></html>',
    });
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    const result = await run(['content', 'convert', root, '--out', out]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(root, 'welcome.html')} and ${join(root, 'welcome.mjml')} would both be ${join(out, 'transactional/welcome')}`);
    expect(existsSync(out)).toBe(false);
  });
});

describe('content convert: the language', () => {
  it('gives the message the languageCode its source declares, where its text is written in it, and lists one its text belies', async () => {
    const out = join(tempDir('loopsctl-convert-out-'), 'loops');
    // E-Com Plus's welcome declares lang="en"; its order declares the package's lang="pt_br" over English words, and again over Portuguese.
    for (const name of ['welcome', 'new-order', 'new-order-pt-br'])
      expect((await run(['content', 'convert', join(CORPUS, `html-ecomplus/${name}.html`), '--out', out])).code).toBe(0);
    expect(fields(out, 'welcome')).toMatchObject({ languageCode: 'en' });
    expect(fields(out, 'new-order-pt-br')).toMatchObject({ languageCode: 'pt' });
    expect(fields(out, 'new-order').languageCode).toBeUndefined();
    const listed = await run(['content', 'convert', join(CORPUS, 'html-ecomplus/new-order.html'), '--out', out, '--force', '--json']);
    const items = (JSON.parse(listed.stdout) as { records: { remediation: { construct: string; done: string; todo: string }[] }[] }).records[0]!.remediation;
    expect(items.find((item) => item.construct === 'the language lang="pt_br"')).toMatchObject({
      done: 'its text is written in "en": the message is given no languageCode',
      todo: 'set languageCode in the message\'s fields to the language the email is written in ("en")',
    });
    // React Email's <Html lang>, as its components write it.
    const source = join(tempDir('loopsctl-convert-in-'), 'receipt.tsx');
    writeFileSync(
      source,
      react('')
        .replace('<Html>', '<Html lang="fr">')
        .replace('Order {orderId} is paid.', 'Votre commande {orderId} est payée, merci de votre confiance et à bientôt.'),
    );
    expect((await run(['content', 'convert', source, '--out', out])).code).toBe(0);
    expect(fields(out, 'receipt')).toMatchObject({ languageCode: 'fr' });
    // MJML's <mjml lang>, which it writes on the <html> it compiles.
    const mjml = join(tempDir('loopsctl-convert-in-'), 'bienvenue.mjml');
    writeFileSync(
      mjml,
      '<mjml lang="de"><mj-body><mj-section><mj-column><mj-text>Willkommen bei uns! Ihr Konto ist bereit, und wir freuen uns auf Ihre erste Bestellung.</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect((await run(['content', 'convert', mjml, '--out', out])).code).toBe(0);
    expect(fields(out, 'bienvenue')).toMatchObject({ languageCode: 'de' });
  });
});
