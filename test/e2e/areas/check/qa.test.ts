/**
 * `check`'s offline qa rules on the account's emails: the components an email embeds are read as
 * part of it (their text, links and headings, a finding in one named at the `<Component>`), and
 * the report of typical findings reads in 80 columns, in a log and on a terminal of that width.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { QA_RULES } from '../../../../src/lmx/qa/index.js';
import { type LinkHost, page, startLinkHost, status } from '../../../support/link-hosts.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

interface Found {
  rule: string;
  severity: string;
  name: string;
  message: string;
}

const FOOTER = seedId('component/Footer');

/** The order receipt's emails (its draft and what is published) made of `lmx`, and the footer component of `footer`. */
function receiptAndFooter(sandbox: RecordingSandbox, lmx: string, footer?: string): void {
  sandbox.server.update((state) => {
    for (const stored of state.emailMessages as { message: { lmx: string } }[]) if (stored.message.lmx.includes('here</Link>')) stored.message.lmx = lmx;
    if (footer !== undefined) for (const component of state.components as { id: string; lmx: string }[]) if (component.id === FOOTER) component.lmx = footer;
  });
}

describe('check: the qa rules', () => {
  const openSandbox = sandboxEachTest();
  const hosts: LinkHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });

  it("reads an embedded component's text as the email's: its link text, its spam phrases, its text beside an image", async () => {
    const sandbox = await openSandbox();
    receiptAndFooter(
      sandbox,
      `<Image src="https://assets.example.com/spring.png" alt="Spring sale: every plan 20% off" />\n<Component componentId="${FOOTER}" />\n`,
      '<Paragraph>Seats are going fast: act now and order now!!! Manage what we send you <Link href="https://acme.example.com/preferences">here</Link>.</Paragraph>\n',
    );
    const rules = join(tempDir(), 'loops.check.yaml');
    writeFileSync(rules, 'spamScore: 3\n');
    // Without --links (and --only qa, which fetches them too): offline.
    const result = await sandbox.loopsctl(['check', '--rules', rules, '--json']);
    expect(result.stderr).toBe('');
    const receipt = result
      .json<Found[]>()
      .filter((found) => found.name === 'Order receipt' && Object.hasOwn(QA_RULES, found.rule) && found.rule !== 'language-code-missing');
    expect(receipt.map((found) => [found.rule, found.severity])).toEqual([
      ['spam-score', 'error'],
      ['vague-link-text', 'warning'],
      ['spam-punctuation', 'info'],
      ['spam-trigger-phrase', 'info'],
    ]);
    expect(receipt[0]!.message).toBe('the published email: spam score 3.5 (spam-punctuation 1.5, spam-trigger-phrase 2), at or over 3');
    expect(receipt[1]!.message).toMatch(
      new RegExp(`^the published email, line 2, column 1: the link text "here" says nothing alone.* \\(in the component ${FOOTER}\\)$`),
    );
    // The image is not the whole email: the footer's text is read with it.
    expect(receipt.some((found) => found.rule === 'spam-image-only')).toBe(false);
    expect(result.code).toBe(1);
  });

  it("fetches an embedded component's links with --links, a broken one told at the <Component>", async () => {
    const sandbox = await openSandbox();
    const web = await startLinkHost();
    hosts.push(web);
    web.route('/guide', page);
    web.route('/preferences', status(404));
    receiptAndFooter(
      sandbox,
      `<H1>Your receipt</H1>\n<Paragraph>Thank you for your order. Read <Link href="${web.origin}/guide">the guide to your plan</Link> to start.</Paragraph>\n<Component componentId="${FOOTER}" />\n`,
      `<Paragraph>You get this email because you signed up for Acme. <Link href="${web.origin}/preferences">Choose what we send you</Link>.</Paragraph>\n`,
    );
    const result = await sandbox.loopsctl(['check', '--only', 'qa', '--allow-private-links', '--json']);
    expect(result.stderr).toBe('');
    const broken = result.json<(Found & { link: string })[]>().filter((found) => found.rule === 'link-broken');
    expect(broken).toEqual([
      expect.objectContaining({
        name: 'Order receipt',
        link: `${web.origin}/preferences`,
        message: `the published email, line 3, column 1 (in the component ${FOOTER}): ${web.origin}/preferences answers HTTP 404`,
      }),
    ]);
    expect(web.requests.map((request) => `${request.method} ${request.path}`).sort()).toEqual(['GET /preferences', 'HEAD /guide', 'HEAD /preferences']);
  });

  it('reads its typical findings in 80 columns: in a log, with COLUMNS=80, and on a terminal that wide', async () => {
    const sandbox = await openSandbox();
    receiptAndFooter(
      sandbox,
      [
        '<Style textBaseColor="#aaaaaa" textBaseFontSize="11" />',
        '<H1>Your receipt</H1>',
        '<H3>What you bought</H3>',
        '<Paragraph>Thank you! Act now and order now!!! Your seats are ready: <Link href="https://acme.example.com/seats">click here</Link>.</Paragraph>',
        '<Image src="https://assets.example.com/receipt-banner-with-a-rather-long-file-name-for-the-spring-sale.png" />',
        '<Image src="https://assets.example.com/logo.png" alt="logo.png" />',
        '<Button href="https://acme.example.com/account" bgColor="#eeeeee" textColor="#ffffff">Read more</Button>',
        `<Component componentId="${FOOTER}" />`,
        '',
      ].join('\n'),
      '<Paragraph>Manage what we send you <Link href="https://acme.example.com/preferences">here</Link>.</Paragraph>\n',
    );
    const rules = join(tempDir(), 'loops.check.yaml');
    writeFileSync(rules, 'spamScore: 3\n');
    const runs = [
      await sandbox.loopsctl(['check', '--rules', rules]),
      await sandbox.loopsctl(['check', '--rules', rules], { env: { COLUMNS: '80' } }),
      await sandbox.loopsctl(['check', '--rules', rules, '--no-color', '--no-pager'], { tty: { columns: 80 } }),
    ];
    for (const result of runs) {
      expect(result.code).toBe(1);
      const found = ['low-contrast', 'heading-order', 'vague-link-text', 'small-text', 'image-without-alt', 'image-alt-unhelpful', 'spam-score'];
      // An accessibility rule's name carries its impact, the field's severity: [low-contrast, serious].
      for (const rule of found) expect(result.stdout).toMatch(new RegExp(`\\[${rule}(, (critical|serious|moderate|mild))?\\]`));
      for (const line of result.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });
});
