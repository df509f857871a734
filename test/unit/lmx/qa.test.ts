import { describe, expect, it } from 'vitest';
import { contrastRatio, minimumContrast, parseHex } from '../../../src/lmx/qa/contrast.js';
import { checkEmailQa } from '../../../src/lmx/qa/index.js';

const ratio = (foreground: string, background: string) => contrastRatio(parseHex(foreground)!, parseHex(background)!);
const rules = (lmx: string, subject = 'Your March invoice is ready') => checkEmailQa({ lmx, subject }).map((found) => found.rule);

const CLEAN = `<H1>Your March invoice</H1>
<Paragraph>Hi {data.firstName}, your invoice for March is ready. It covers the Team plan for 12 seats.</Paragraph>
<Image src="https://cdn.acme.example/logo.png" alt="Acme" width="120" />
<Image src="https://cdn.acme.example/divider.png" alt="" />
<H2>What changed</H2>
<Paragraph>Two seats were added on March 3. <Link href="https://acme.example/billing">See the billing page</Link> for details.</Paragraph>
<Button href="https://billing.acme.example/invoices/march">View your March invoice</Button>
<Section blockColor="#111827"><Paragraph><Text textColor="#ffffff">Questions? Reply to this email and we will help.</Text></Paragraph></Section>`;

describe('contrast, as WCAG 2.1 computes it', () => {
  // "contrast ratio (L1 + 0.05) / (L2 + 0.05), where L1 is the relative luminance of the lighter of the colors"
  it('gives 21:1 for black on white and 1:1 for a colour on itself, either way round', () => {
    expect(ratio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(ratio('#ffffff', '#000')).toBeCloseTo(21, 5);
    expect(ratio('#3366cc', '#3366cc')).toBeCloseTo(1, 5);
  });

  it('puts #767676 just over 4.5:1 on white and #777777 just under', () => {
    expect(ratio('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(ratio('#777777', '#ffffff')).toBeLessThan(4.5);
  });

  it('lays a translucent colour over its background first', () => {
    // Black at half opacity on white is a mid grey, not black.
    expect(ratio('#00000080', '#ffffff')).toBeCloseTo(ratio('#7f7f7f', '#ffffff'), 1);
  });

  // "large scale (text): with at least 18 point or 14 point bold or font size that would yield equivalent size"
  it('asks 3:1 of large text (24 px, or 18.66 px bold) and 4.5:1 of the rest', () => {
    expect(minimumContrast(24, false)).toBe(3);
    expect(minimumContrast(19, true)).toBe(3);
    expect(minimumContrast(19, false)).toBe(4.5);
    expect(minimumContrast(16, true)).toBe(4.5);
  });
});

describe('the qa rules of one email', () => {
  it('find nothing in a clean email', () => {
    expect(checkEmailQa({ lmx: CLEAN, subject: 'Your March invoice is ready' })).toEqual([]);
  });

  it('find pale body text against the theme and <Style />, once for the email, at its first place', () => {
    const found = checkEmailQa({ lmx: `<Style textBaseColor="#999999" />\n${CLEAN}`, subject: 'Invoice' }).filter((each) => each.rule === 'low-contrast');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/^text in #999999 \(the theme's textBaseColor\) on #ffffff: contrast 2\.85:1, under the 4\.5:1 .* \(and 1 more place\)$/);
    expect(found[0]!.position).toMatchObject({ line: 3 });
  });

  it("find a button label on a fill too close to it, from the theme or the button's own colours", () => {
    const themed = checkEmailQa({ lmx: CLEAN, subject: 'Invoice', theme: { buttonBodyColor: '#eeeeee' } });
    expect(themed.map((each) => each.message)).toContainEqual(expect.stringMatching(/^button label in #ffffff \(the theme's buttonTextColor\) on #eeeeee/));
    const own = rules(CLEAN.replace('<Button href', '<Button bgColor="#fde047" textColor="#ffffff" href'));
    expect(own).toContain('low-contrast');
  });

  it('judge large headings by 3:1: a grey that fails body text passes an H1', () => {
    expect(rules(CLEAN, 'Invoice')).toEqual([]);
    const grey = `<Style heading1Color="#949494" />\n${CLEAN}`;
    expect(rules(grey)).toEqual([]);
    expect(rules(grey.replace('heading1Color', 'textBaseColor'))).toContain('low-contrast');
  });

  it('find white text on the white body, and not on a dark section', () => {
    expect(rules(CLEAN.replace('<Section blockColor="#111827">', '<Section>'))).toEqual(['low-contrast']);
  });

  it('judge a link on a dark band in the colour its words are drawn in, against the band', () => {
    const footer = (link: string) => `${CLEAN}\n<Section blockColor="#1f2937"><Paragraph><Text textColor="#9ca3af">${link}</Text></Paragraph></Section>`;
    // The theme's one link colour, blue, on the dark band.
    const themed = checkEmailQa({ lmx: footer('<Link href="https://acme.example/preferences">Email preferences</Link>'), subject: 'Invoice' });
    expect(themed.map((each) => each.message)).toEqual([
      expect.stringMatching(/^link in #2563eb \(the theme's textLinkColor\) on #1f2937: contrast 2\.\d\d:1/),
    ]);
    expect(themed[0]!.fix).toContain('<Link><Underline textColor="…">');
    // Its words in white of their own: the link colour is drawn nowhere, and white reads on the band.
    expect(rules(footer('<Link href="https://acme.example/preferences"><Text textColor="#ffffff">Email preferences</Text></Link>'))).toEqual([]);
    // So are they where an underline of their colour carries it (what content convert writes).
    expect(rules(footer('<Link href="https://acme.example/preferences"><Underline textColor="#ffffff">Email preferences</Underline></Link>'))).toEqual([]);
    // Words of their own in a colour that does not read are judged in it.
    expect(rules(footer('<Link href="https://acme.example/preferences"><Text textColor="#374151">Email preferences</Text></Link>'))).toEqual(['low-contrast']);
    // A word of the link left in the link colour is judged in it.
    const part = checkEmailQa({
      lmx: footer('<Link href="https://acme.example/preferences"><Text textColor="#ffffff">Email</Text> preferences</Link>'),
      subject: 'Invoice',
    });
    expect(part.map((each) => each.message)).toEqual([expect.stringMatching(/^link in #2563eb/)]);
  });

  it('judge a row of icons against the band it stands on, at 3:1', () => {
    const row = (attributes: string) =>
      `${CLEAN}\n<Section blockColor="#1f2937"><Icons${attributes}><Icon name="github" href="https://github.com/acme" /></Icons></Section>`;
    // LMX's black on the dark band.
    const found = checkEmailQa({ lmx: row(''), subject: 'Invoice' });
    expect(found.map((each) => [each.rule, each.impact, each.message])).toEqual([
      ['low-contrast', 'serious', 'icons in #000000 on #1f2937: contrast 1.43:1, under the 3:1 WCAG 2.1 asks of graphics'],
    ]);
    expect(rules(row(' color="#808080"'))).toEqual([]);
    expect(rules(row(' color="#ffffff"'))).toEqual([]);
    // On the white body, black reads.
    expect(rules(`${CLEAN}\n<Icons><Icon name="github" href="https://github.com/acme" /></Icons>`)).toEqual([]);
  });

  it('find a skipped heading level, not a rise back', () => {
    expect(rules(CLEAN.replace('<H2>What changed</H2>', '<H3>What changed</H3>'))).toEqual(['heading-order']);
    expect(rules(`${CLEAN}\n<H2>Another part</H2>`)).toEqual([]);
  });

  it('find headings without one H1 to lead them: none, or several; no heading at all is no outline to break', () => {
    const found = checkEmailQa({ lmx: CLEAN.replace('<H1>Your March invoice</H1>', '<H2>Your March invoice</H2>'), subject: 'Invoice' });
    expect(found.map((each) => [each.rule, each.impact, each.position?.line])).toEqual([['heading-one-h1', 'mild', 1]]);
    expect(rules(`${CLEAN}\n<H1>Another part</H1>`)).toEqual(['heading-one-h1']);
    expect(rules(CLEAN.replace('<H1>Your March invoice</H1>', '').replace('<H2>What changed</H2>', ''))).toEqual([]);
  });

  it('find a link or button with no text, and a linked image with alt=""', () => {
    expect(rules(CLEAN.replace('See the billing page', ''))).toEqual(['link-without-text']);
    expect(rules(CLEAN.replace('View your March invoice', ' '))).toEqual(['link-without-text']);
    expect(rules(CLEAN.replace('See the billing page', '{data.billingLabel}'))).toEqual([]);
    const linked = checkEmailQa({ lmx: CLEAN.replace('alt=""', 'alt="" href="https://acme.example"'), subject: 'Invoice' });
    expect(linked.map((each) => [each.rule, each.impact])).toEqual([['image-linked-empty-alt', 'critical']]);
  });

  it('give each accessibility finding its impact: critical, serious, moderate or mild', () => {
    const impact = (lmx: string) => checkEmailQa({ lmx, subject: 'Invoice' }).map((each) => [each.rule, each.impact]);
    expect(impact(CLEAN.replace(' alt="Acme"', ''))).toEqual([['image-without-alt', 'critical']]);
    expect(impact(CLEAN.replace('<Section blockColor="#111827">', '<Section>'))).toEqual([['low-contrast', 'serious']]);
    expect(impact(CLEAN.replace('See the billing page', 'Click here'))).toEqual([['vague-link-text', 'moderate']]);
    expect(impact(CLEAN.replace('<H2>What changed</H2>', '<H3>What changed</H3>'))).toEqual([['heading-order', 'mild']]);
  });

  it('find link and button text that says nothing alone', () => {
    expect(rules(CLEAN.replace('See the billing page', 'Click here'))).toEqual(['vague-link-text']);
    expect(rules(CLEAN.replace('View your March invoice', 'Read more…'))).toEqual(['vague-link-text']);
  });

  it('find text under 12 px: a button, a code block under a 13 px theme, the theme itself once', () => {
    expect(rules(CLEAN.replace('<Button href', '<Button fontSize="10" href'))).toEqual(['small-text']);
    expect(rules(`<Style textBaseFontSize="13" />\n${CLEAN}\n<CodeBlock>npm install</CodeBlock>`)).toEqual(['small-text']);
    const small = checkEmailQa({ lmx: `<Style textBaseFontSize="11" />\n${CLEAN}`, subject: 'Invoice' }).filter((each) => each.rule === 'small-text');
    expect(small).toHaveLength(1);
    expect(small[0]!.message).toContain("the theme's textBaseFontSize");
  });

  it('find an image without alt and one whose alt is its file name; alt="" marks a decorative one', () => {
    const found = checkEmailQa({ lmx: CLEAN.replace(' alt="Acme"', '').replace('alt=""', 'alt="divider.png"'), subject: 'Invoice' });
    expect(found.map((each) => [each.rule, each.position?.line])).toEqual([
      ['image-without-alt', 3],
      ['image-alt-unhelpful', 4],
    ]);
  });

  it('score the spam rules and total them; the threshold makes the total an error', () => {
    const lmx = CLEAN.replace('See the billing page', 'Act now, 100% free').replace('https://acme.example/billing', 'https://bit.ly/3abc');
    const found = checkEmailQa({ lmx, subject: 'FREE SEATS FOR YOU!!!' });
    expect(found.filter((each) => each.rule.startsWith('spam-')).map((each) => [each.rule, each.score])).toEqual([
      ['spam-subject-capitals', 1.5],
      ['spam-punctuation', 1.5],
      ['spam-url-shortener', 2],
      ['spam-trigger-phrase', 2],
      ['spam-score', undefined],
    ]);
    const total = found.find((each) => each.rule === 'spam-score')!;
    expect(total).toMatchObject({ severity: 'warning', message: expect.stringMatching(/^spam score 7 \(/) });
    expect(checkEmailQa({ lmx, subject: 'FREE SEATS FOR YOU!!!', spamThreshold: 6 }).find((each) => each.rule === 'spam-score')?.severity).toBe('error');
    expect(checkEmailQa({ lmx, subject: 'FREE SEATS FOR YOU!!!', spamThreshold: 8 }).find((each) => each.rule === 'spam-score')).toBeUndefined();
  });

  it('find an email that is one image, or mostly images, and a text part far shorter than its HTML', () => {
    expect(rules('<Image src="https://cdn.acme.example/sale.png" alt="Our spring sale: 20% off" />')).toEqual(['spam-image-only']);
    const images = '<Image src="https://cdn.acme.example/a.png" alt="A" />\n'.repeat(3);
    expect(rules(`${images}<Paragraph>Our spring catalogue is here, with what is new this season.</Paragraph>`)).toEqual(['spam-mostly-images']);
    expect(rules(`${'<Divider />\n'.repeat(80)}<Paragraph>Our spring catalogue is here.</Paragraph>`)).toEqual(['spam-text-part-short']);
  });

  it('find "!!!" or "$$$" in the text at its block', () => {
    const found = checkEmailQa({ lmx: CLEAN.replace('Two seats were added on March 3.', () => 'Save $$$ today.'), subject: 'Invoice' });
    expect(found.map((each) => [each.rule, each.message, each.position?.line])).toEqual([['spam-punctuation', 'the text has "$$$"', 6]]);
  });
});
