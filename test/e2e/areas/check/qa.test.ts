/**
 * `check`'s offline qa rules on the account's emails: the components an email embeds are read as
 * part of it (their text, links and headings, a finding in one named at the `<Component>`), and
 * the report of typical findings reads in 80 columns, in a log and on a terminal of that width.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { QA_RULES } from '../../../../src/lmx/qa/index.js';
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
    const receipt = result.json<Found[]>().filter((found) => found.name === 'Order receipt' && Object.hasOwn(QA_RULES, found.rule));
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
});
