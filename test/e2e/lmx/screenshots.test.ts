/**
 * A rendered email in a real browser (Debian's Chromium through playwright-core; skipped, saying
 * why, where it is missing), at a desktop client's 600 px and a phone's 375 px. The screenshots are
 * kept in test-artifacts/ for a person to look at; the test checks what a reader would see: the
 * body fills the phone's width (no page or body gutters in the default theme), columns stack on
 * the phone, icons are drawn as images the size the row asks, and a card's padding is even.
 */
import { describe, expect, it } from 'vitest';
import { parseLmx } from '../../../src/lmx/index.js';
import { renderLmx } from '../../../src/lmx/render/index.js';
import { describeBrowser, keepScreenshot } from '../../support/browser.js';

const EMAIL = `<H1>Spring update</H1>
<Paragraph>What is new this season at Acme, in two minutes.</Paragraph>
<Button href="https://acme.example/start" align="center">Get started</Button>
<Columns widths="50,50"><ColumnItem><H3>Exports</H3><Paragraph>Twice as fast.</Paragraph></ColumnItem><ColumnItem><H3>Sharing</H3><Paragraph>With anyone.</Paragraph></ColumnItem></Columns>
<Section blockColor="#f1f5f9" paddingTop="16" paddingBottom="16" paddingLeft="16" paddingRight="16"><Paragraph>Inside a card.</Paragraph><Paragraph>Its last line.</Paragraph></Section>
<Icons size="24" gap="16"><Icon name="x-twitter" href="https://x.com/acme" /><Icon name="github" href="https://github.com/acme" /><Icon name="envelope" href="mailto:hi@acme.example" /></Icons>`;

describe('a rendered email in Chromium', () => {
  const chromium = describeBrowser();

  it.for([600, 375])('at %i px', async (width, context) => {
    const page = await chromium(context, 'a rendered email in Chromium').page(width, 800);
    await page.setContent(renderLmx(parseLmx(EMAIL).document, { subject: 'Spring update' }).html);
    await keepScreenshot(page, `email-${width}`);
    const paragraph = await page.getByText('What is new this season').boundingBox();
    expect(paragraph!.width).toBeGreaterThan(width - 2);
    const icons = page.getByRole('img');
    expect(await icons.count()).toBe(3);
    for (const box of await Promise.all((await icons.all()).map((icon) => icon.boundingBox()))) expect([box!.width, box!.height]).toEqual([24, 24]);
    const left = (await page.getByText('Exports').boundingBox())!;
    const right = (await page.getByText('Sharing').boundingBox())!;
    // Side by side on a desktop, stacked on a phone.
    if (width === 600) expect(right.y).toBe(left.y);
    else expect(right.y).toBeGreaterThan(left.y);
    const card = (await page.locator('td[style*="background-color:#f1f5f9"]').boundingBox())!;
    const first = (await page.getByText('Inside a card.').boundingBox())!;
    const last = (await page.getByText('Its last line.').boundingBox())!;
    expect(Math.round(first.y - card.y)).toBe(Math.round(card.y + card.height - (last.y + last.height)));
  });
});
