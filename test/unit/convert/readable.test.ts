/**
 * Readable everywhere: text keeps at least the contrast it had against what it stood on in the
 * source, held against the colours the converted LMX is drawn with.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, keepContrast, rememberLink, rememberLook, SOURCE_LINK } from '../../../src/convert/contrast.js';
import { measureFidelity } from '../../../src/convert/fidelity.js';
import { element, Findings, text } from '../../../src/convert/model.js';
import { checkEmailQa } from '../../../src/lmx/qa/index.js';
import { fromHtml, fromMjml } from './layout-support.js';

const FOOTER = 'You are receiving this email because you signed up at Acme. Acme Inc, 1 Main Street, Springfield. '.repeat(4);

const page = (inner: string) => `<!doctype html><html><head><title>Order</title></head><body style="background-color:#222222;margin:0">${inner}</body></html>`;

describe('colours as the text was read', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('puts the page’s colour behind content that stood on the page: a footer of white words on a dark page stays readable', () => {
    const { lmx, html } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#ffffff"><tr><td style="color:#333333">
          <p>Your order of the Oak Chair has shipped and will arrive on Friday, with tracking to follow soon.</p>
          <p>Line item: Oak Chair, one, 120 euros. Line item: Cushion, two, 40 euros. Total 160 euros.</p>
        </td></tr></table>
        <p style="color:#ffffff;text-align:center">${FOOTER}</p>`),
    );
    expect(lmx).toMatch(/^<Style backgroundColor="#222222" bodyColor="#ffffff"[^>]* textBaseColor="#333333"/);
    expect(lmx).toMatch(/<Paragraph align="center" blockColor="#222222"><Text textColor="#ffffff">You are receiving/);
    expect(html).toContain('background-color:#222222');
  });

  it('takes the base text colour from the text on the body, not from a longer footer on the page', () => {
    const { lmx } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#fdf6e3"><tr><td style="color:#3b2f2f">
          <p>Oak Chair, 120 euros.</p><p>Cushion, 40 euros.</p>
        </td></tr></table>
        <p style="color:#fdf6e3">${FOOTER}</p>`),
    );
    expect(lmx).toContain('textBaseColor="#3b2f2f"');
    expect(lmx).toMatch(/<Paragraph[^>]*>Oak Chair, 120 euros.<\/Paragraph>/);
    expect(lmx).toMatch(/<Paragraph blockColor="#222222"><Text textColor="#fdf6e3">You are receiving/);
  });

  it('keeps the colour of a background it drops (an image) and of a section it flattens', () => {
    const { lmx, findings } = fromHtml(
      page(`<table width="600" align="center" bgcolor="#ffffff"><tr><td>
          <p>Welcome back to the shop, here is what is new this week for you.</p>
          <div style="background:#1a1a2e url(https://example.com/hero.jpg) no-repeat;padding:20px">
            <p style="color:#ffffff">Hero words over the picture</p>
            <div style="background-color:#f0f0f0;padding:10px"><p style="color:#333333">Nested words on grey</p></div>
          </div>
        </td></tr></table>`),
    );
    expect(lmx).toMatch(/<Section blockColor="#1a1a2e"[^>]*>\s*<Paragraph><Text textColor="#ffffff">Hero words over the picture/);
    // The inner section is flattened into the outer (sections do not nest): its dark words keep the light grey behind them.
    expect(lmx).toMatch(/<Paragraph [^>]*blockColor="#f0f0f0"[^>]*><Text textColor="#333333">Nested words on grey/);
    expect(findings.remediation.map((item) => item.construct)).toContain('the background image https://example.com/hero.jpg');
  });
});

describe('footer bands', () => {
  it('keeps a dark band coloured by its row and the light band after it apart, each text on its own colour', () => {
    const { lmx, findings } = fromHtml(
      `<!doctype html><html><head><title>Order</title></head><body style="background-color:#f4f4f4;margin:0">
        <table width="600" align="center" bgcolor="#ffffff"><tr><td>
          <p>Your order of the Oak Chair has shipped and will arrive on Friday, with tracking to follow soon.</p>
          <p>Line item: Oak Chair, one, 120 euros. Line item: Cushion, two, 40 euros. Total 160 euros.</p>
        </td></tr></table>
        <table width="600" align="center"><tr bgcolor="#1f2937"><td><p style="color:#ffffff">Follow us</p><p style="color:#ffffff">Shop, blog, help</p></td></tr>
        <tr style="background-color:#333333"><td style="color:#eeeeee"><p>Careers</p></td></tr></table>
        <table width="600" align="center"><tr><td style="color:#6b7280"><p>Acme Inc, 1 Main Street</p><p>Unsubscribe at any time</p></td></tr></table>
      </body></html>`,
    );
    expect(lmx).toMatch(
      /<Section blockColor="#1f2937"[^>]*>\s*<Paragraph[^>]*><Text textColor="#ffffff">Follow us<\/Text><\/Paragraph>\s*<Paragraph[^>]*><Text textColor="#ffffff">Shop, blog, help</,
    );
    expect(lmx).toMatch(/<Section blockColor="#333333"[^>]*>\s*<Paragraph[^>]*><Text textColor="#eeeeee">Careers</);
    expect(lmx).toMatch(/<Section blockColor="#f4f4f4"[^>]*>\s*<Paragraph[^>]*><Text textColor="#6b7280">Acme Inc/);
    // No white words in the light band's section.
    const light = lmx.slice(lmx.indexOf('<Section blockColor="#f4f4f4"'));
    expect(light.slice(0, light.indexOf('</Section>'))).not.toContain('#ffffff');
    expect(findings.remediation.map((item) => item.construct)).not.toContain('text less readable than in the source');
  });

  it('keeps a band of a dark gradient apart from the light band after it, drawn in the gradient’s first colour, listed', () => {
    const { lmx, findings } = fromHtml(
      `<!doctype html><html><head><title>Order</title></head><body style="background-color:#f4f4f4;margin:0">
        <table width="600" align="center" bgcolor="#ffffff"><tr><td><p>Your order of the Oak Chair has shipped and will arrive on Friday.</p><p>Total 160 euros.</p></td></tr></table>
        <table width="600" align="center"><tr><td style="background:linear-gradient(to right, #1f2937, #374151)"><p style="color:#ffffff">Follow us</p><p style="color:#ffffff">Shop, blog, help</p></td></tr></table>
        <table width="600" align="center"><tr><td style="color:#6b7280"><p>Acme Inc, 1 Main Street</p><p>Unsubscribe at any time</p></td></tr></table>
      </body></html>`,
    );
    expect(lmx).toMatch(/<Section blockColor="#1f2937"[^>]*>\s*<Paragraph[^>]*><Text textColor="#ffffff">Follow us/);
    expect(lmx).toMatch(/<Section blockColor="#f4f4f4"[^>]*>\s*<Paragraph[^>]*><Text textColor="#6b7280">Acme Inc/);
    expect(findings.remediation).toContainEqual(
      expect.objectContaining({
        line: 3,
        construct: 'the background gradient linear-gradient(to right, #1f2937, #374151)',
        outcome: 'approximated',
        done: 'drawn as its first colour, #1f2937',
      }),
    );
  });
});

/** An MJML receipt: light words on a dark header band, order lines in MJML's default black on a white section, a band over a picture. */
const RECEIPT = `<mjml><mj-head><mj-title>Your receipt</mj-title></mj-head><mj-body background-color="#f4f4f4">
  <mj-section background-color="#1f2937"><mj-column>
    <mj-text color="#f9fafb" font-size="24px">Acme Store receipt for your order number 1042 placed today</mj-text>
    <mj-text color="#e5e7eb">Thank you for shopping with Acme Store, we hope you love what you bought from us this week</mj-text>
  </mj-column></mj-section>
  <mj-section background-color="#ffffff"><mj-column>
    <mj-text>Oak chair, 1, 120 euros</mj-text><mj-text>Cushion, 2, 40 euros</mj-text><mj-text>Total 160 euros</mj-text>
  </mj-column></mj-section>
  <mj-section background-url="https://example.com/summer.jpg"><mj-column>
    <mj-text color="#ffffff">Come back for our summer sale</mj-text>
  </mj-column></mj-section>
</mj-body></mjml>`;

/** Each text block's colour and what LMX draws behind it (its block, its section, the body), as the LMX reads. */
function drawnText(lmx: string): { text: string; colour: string; background: string }[] {
  const style = /<Style ([^>]*)\/>/.exec(lmx)?.[1] ?? '';
  const attribute = (attrs: string, name: string) => new RegExp(`\\b${name}="(#[0-9a-f]{6})"`).exec(attrs)?.[1];
  const body = attribute(style, 'bodyColor') ?? '#ffffff';
  const base = attribute(style, 'textBaseColor') ?? '#374151';
  const sections: string[] = [];
  const found: { text: string; colour: string; background: string }[] = [];
  for (const line of lmx.split('\n')) {
    const section = /^\s*<Section ([^>]*)>/.exec(line);
    if (section !== null) sections.push(attribute(section[1]!, 'blockColor') ?? sections.at(-1) ?? body);
    else if (/^\s*<\/Section>/.test(line)) sections.pop();
    const block = /^\s*<(Paragraph|H[1-3])\b([^>]*)>(.*)<\/\1>/.exec(line);
    if (block === null) continue;
    const own = /^<Text textColor="(#[0-9a-f]{6})">/.exec(block[3]!)?.[1];
    found.push({ text: block[3]!.replace(/<[^>]+>/g, ''), colour: own ?? base, background: attribute(block[2]!, 'blockColor') ?? sections.at(-1) ?? body });
  }
  return found;
}

describe('converted text stays readable', () => {
  it('gives text of no colour of its own, drawn black in the source, black again where the theme’s colour (another text’s) leaves it unreadable', () => {
    const { lmx, findings } = fromMjml(RECEIPT);
    const drawn = drawnText(lmx);
    expect(drawn.map((block) => block.text)).toEqual([
      'Acme Store receipt for your order number 1042 placed today',
      'Thank you for shopping with Acme Store, we hope you love what you bought from us this week',
      'Oak chair, 1, 120 euros',
      'Cushion, 2, 40 euros',
      'Total 160 euros',
      'Come back for our summer sale',
    ]);
    // Every text read at 3:1 or more in the source (the order lines 21:1, black on white); so it does as LMX draws it.
    for (const block of drawn) expect(contrastRatio(block.colour, block.background), block.text).toBeGreaterThanOrEqual(3);
    expect(drawn.filter((block) => block.text.includes('euros')).map((block) => `${block.colour} on ${block.background}`)).toEqual([
      '#000000 on #ffffff',
      '#000000 on #ffffff',
      '#000000 on #ffffff',
    ]);
    expect(findings.remediation.map((item) => item.construct)).not.toContain('text less readable than in the source');
  });

  it('draws white words over a background image with no colour on black, and lists the image by its address with the colour', () => {
    const { lmx, findings } = fromMjml(RECEIPT);
    expect(lmx).toMatch(/<Section blockColor="#000000"[^>]*>\s*<Paragraph[^>]*><Text textColor="#ffffff">Come back for our summer sale/);
    expect(findings.remediation).toContainEqual(
      expect.objectContaining({
        line: 9,
        construct: 'the background image https://example.com/summer.jpg',
        outcome: 'dropped',
        done: 'the content drawn on #000000 in its place, a colour its text reads on (the source gives the image no colour)',
      }),
    );
  });

  it('draws a row of columns over a background image with no colour on the colour that stands in for it', () => {
    const { lmx, findings } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text>Hello there, thanks for your order with us today.</mj-text></mj-column></mj-section>' +
        '<mj-section background-url="https://example.com/stripes.jpg"><mj-column><mj-text color="#ffffff">Left words</mj-text></mj-column><mj-column><mj-text color="#ffffff">Right words</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(lmx).toMatch(/<Columns [^>]*blockColor="#000000"/);
    for (const block of drawnText(lmx).filter((made) => made.text.endsWith('words')))
      expect(contrastRatio(block.colour, block.background)).toBeGreaterThanOrEqual(3);
    expect(findings.remediation.find((item) => item.construct === 'the background image https://example.com/stripes.jpg')?.done).toContain('drawn on #000000');
  });

  it('keeps a picture’s text on the colour it is drawn on where it reads there: dark words over an image on a white body', () => {
    const { lmx, findings } = fromMjml(
      '<mjml><mj-body><mj-section background-url="https://example.com/paper.jpg"><mj-column><mj-text color="#333333">Notes on paper</mj-text></mj-column></mj-section></mj-body></mjml>',
    );
    expect(lmx).not.toContain('<Section');
    expect(lmx).toMatch(/^<Style textBaseColor="#333333"[^>]*\/>\n<Paragraph[^>]*>Notes on paper/);
    expect(findings.remediation.find((item) => item.construct.startsWith('the background image'))?.done).toBe(
      'the content kept on the background colour, if any',
    );
  });
});

describe('images, buttons and dividers on the colour they stood on', () => {
  it('takes the white page most of a receipt’s text sits on for the body, its dark header band a section above the lines', () => {
    const { lmx } = fromMjml(`<mjml><mj-body background-color="#ffffff">
      <mj-section background-color="#0f172a"><mj-column><mj-text color="#f8fafc">Your receipt from Acme</mj-text><mj-text color="#cbd5e1">Order #1042, paid on 3 March</mj-text></mj-column></mj-section>
      <mj-section><mj-column>
        <mj-text>Oak chair, one, 120 euros.</mj-text><mj-text>Cushion, two, 40 euros.</mj-text><mj-text>Total paid, 160 euros.</mj-text>
        <mj-button href="https://acme.example/orders/1042" background-color="#0f172a">View your order</mj-button>
        <mj-divider border-color="#e5e7eb" border-width="1px" />
        <mj-text color="#64748b">Questions? Reply to this email.</mj-text>
      </mj-column></mj-section></mj-body></mjml>`);
    // The body is white to its foot, as the page was under the lines: no dark strip below them.
    expect(lmx).toMatch(/^<Style backgroundColor="#ffffff" textBaseColor="#000000"/);
    expect(lmx).not.toContain('bodyColor');
    expect(lmx).toMatch(/^<Section blockColor="#0f172a"[^>]*>\s*<Paragraph[^>]*><Text textColor="#f8fafc">Your receipt from Acme/m);
    const after = lmx.slice(lmx.indexOf('</Section>'));
    for (const made of ['Oak chair', 'Total paid', '<Button href="https://acme.example/orders/1042"', '<Divider', 'Questions?']) expect(after).toContain(made);
    expect(after).not.toContain('<Section');
    for (const block of drawnText(lmx)) expect(contrastRatio(block.colour, block.background), block.text).toBeGreaterThanOrEqual(3);
  });

  it('takes the white most of a receipt’s text sits on for the body, its order lines in white sections each shorter than its dark header', () => {
    const line = (words: string) => `<mj-section background-color="#ffffff"><mj-column><mj-text>${words}</mj-text></mj-column></mj-section>`;
    const { lmx } = fromMjml(`<mjml><mj-body background-color="#f4f4f4">
      <mj-section background-color="#1f2937"><mj-column><mj-text color="#f9fafb">Acme Store receipt for your order number 1042 placed today</mj-text></mj-column></mj-section>
      ${line('Oak chair, one, 120 euros, delivered on Friday')}${line('Cushion, two, 40 euros, delivered on Friday')}${line('Total paid by card, 160 euros')}
    </mj-body></mjml>`);
    expect(lmx).toMatch(/^<Style backgroundColor="#f4f4f4" bodyColor="#ffffff" textBaseColor="#000000"/);
    expect(lmx).toMatch(/^<Section blockColor="#1f2937"[^>]*>\s*<Paragraph[^>]*><Text textColor="#f9fafb">Acme Store receipt/m);
    for (const block of drawnText(lmx)) expect(contrastRatio(block.colour, block.background), block.text).toBeGreaterThanOrEqual(3);
  });

  it('draws a receipt’s lines on the white page they stood on, one band, below a dark header that holds most of the text', () => {
    const { lmx } = fromMjml(`<mjml><mj-body background-color="#ffffff">
      <mj-section background-color="#0f172a"><mj-column><mj-text color="#f8fafc">Your receipt from Acme, with thanks for your order</mj-text><mj-text color="#cbd5e1">Order #1042, paid on 3 March by card</mj-text></mj-column></mj-section>
      <mj-section><mj-column>
        <mj-text>Oak chair, one, 120 euros.</mj-text>
        <mj-button href="https://acme.example/orders/1042" background-color="#0f172a">View your order</mj-button>
        <mj-divider border-color="#e5e7eb" border-width="1px" />
        <mj-image src="https://acme.example/badge.png" width="80px" />
        <mj-text color="#64748b">Questions? Reply to this email.</mj-text>
      </mj-column></mj-section></mj-body></mjml>`);
    expect(lmx).toMatch(/^<Style backgroundColor="#ffffff" bodyColor="#0f172a"/);
    const band = /<Section blockColor="#ffffff">([\s\S]*?)<\/Section>/.exec(lmx)?.[1] ?? '';
    for (const made of [
      'Oak chair',
      '<Button href="https://acme.example/orders/1042"',
      '<Divider',
      '<Image src="https://acme.example/badge.png"',
      'Questions?',
    ])
      expect(band).toContain(made);
  });
});

describe('links of no colour of their own', () => {
  it('draws one in the browser’s blue it had where the email’s link colour would not read on what LMX draws it on', () => {
    const keep = (linkColour: string) => {
      const link = { tag: 'Link', attrs: { href: 'https://acme.example/faq' }, children: [{ text: 'https://acme.example/faq' }] };
      // It stood on a light grey box; LMX draws it on the white body.
      rememberLink(link, SOURCE_LINK, '#f8f8f8', { file: 'email.html', line: 7, column: 3 });
      keepContrast(
        [{ tag: 'Paragraph', attrs: {}, inline: [{ text: 'Or paste ' }, link] }],
        { bodyColor: '#ffffff', textLinkColor: linkColour },
        new Findings(),
      );
      return link.children;
    };
    // The email's link colour is a dark header's white: white on white.
    expect(keep('#ffffff')).toEqual([{ tag: 'Underline', attrs: { textColor: '#0000ee' }, children: [{ text: 'https://acme.example/faq' }] }]);
    // One that reads draws it, listed as drawn in the email's link colour.
    expect(keep('#2563eb')).toEqual([{ text: 'https://acme.example/faq' }]);
  });
});

describe('what cannot be kept', () => {
  it('lists a block whose contrast fell and that takes no colour of its own', () => {
    const findings = new Findings();
    // A block of a kind with no blockColor, its white words now on the white body.
    const made = { tag: 'Unknown', attrs: {}, inline: [{ tag: 'Text', attrs: { textColor: '#ffffff' }, children: [{ text: 'Footer words' }] }] };
    rememberLook(made, '#ffffff', '#222222', { file: 'email.html', line: 9, column: 3 });
    keepContrast([made], { bodyColor: '#ffffff' }, findings);
    expect(findings.remediation).toEqual([
      expect.objectContaining({ line: 9, column: 3, construct: 'text less readable than in the source', outcome: 'listed' }),
    ]);
    expect(findings.remediation[0]!.done).toBe('its contrast is 1.0:1 against its background, where the source had 15.9:1');
  });

  it('lists words a span coloured that read in the source and do not where LMX draws them, though the rest of the block reads', () => {
    const findings = new Findings();
    // A block of a kind with no blockColor: its words in the theme's light colour read on the dark body, its blue link-like words do not.
    const made = {
      tag: 'Unknown',
      attrs: {},
      inline: [{ text: 'Questions? Write to ' }, { tag: 'Text', attrs: { textColor: '#1d4ed8' }, children: [{ text: 'help at Acme' }] }],
    };
    rememberLook(made, '#eeeeee', '#ffffff', { file: 'email.html', line: 12, column: 5 });
    keepContrast([made], { bodyColor: '#111111', textBaseColor: '#eeeeee' }, findings);
    expect(findings.remediation).toEqual([
      expect.objectContaining({
        line: 12,
        column: 5,
        construct: 'words in #1d4ed8 less readable than in the source',
        outcome: 'listed',
        done: 'their contrast is 2.8:1 against their background #111111, where the source had 6.7:1',
      }),
    ]);
  });
});

describe('links on a dark band', () => {
  // A newsletter as public MJML templates write it: blue links in the white body, white links in a dark footer.
  const NEWSLETTER = `<mjml><mj-head><mj-attributes><mj-text color="#333333" font-size="15px" /></mj-attributes></mj-head>
  <mj-body background-color="#f4f4f4">
    <mj-section background-color="#ffffff"><mj-column>
      <mj-text>We shipped the new dashboard: read <a href="https://acme.example/blog" style="color:#2563eb">the release notes</a> for what changed.</mj-text>
      <mj-text>Our <a href="https://acme.example/guides" style="color:#2563eb">guides</a> cover importing contacts and building segments.</mj-text>
    </mj-column></mj-section>
    <mj-section background-color="#1f2937"><mj-column>
      <mj-text color="#9ca3af" font-size="13px" align="center">Acme Inc, 1 Main Street, Springfield. You receive this because you signed up.</mj-text>
      <mj-text color="#9ca3af" font-size="13px" align="center"><a href="https://acme.example/preferences" style="color:#ffffff">Email preferences</a> · <a href="https://acme.example/privacy" style="color:#ffffff">Privacy policy</a></mj-text>
    </mj-column></mj-section>
  </mj-body></mjml>`;

  it('gives a footer’s links their own colour where the email’s one link colour would not read on the band', () => {
    const { lmx, findings } = fromMjml(NEWSLETTER);
    expect(lmx).toContain('textLinkColor="#2563eb"');
    expect(lmx).toContain('<Link href="https://acme.example/preferences"><Underline textColor="#ffffff">Email preferences</Underline></Link>');
    expect(lmx).toContain('<Link href="https://acme.example/privacy"><Underline textColor="#ffffff">Privacy policy</Underline></Link>');
    // The body's links keep the email's link colour, with nothing of their own.
    expect(lmx).toContain('<Link href="https://acme.example/blog">the release notes</Link>');
    expect(findings.remediation.filter((item) => item.construct.includes('link'))).toEqual([]);
    // And content check finds every word readable.
    expect(checkEmailQa({ lmx, subject: 'This week at Acme' }).filter((found) => found.rule === 'low-contrast')).toEqual([]);
  });

  it('keeps the colour of a navbar’s links on a dark header band', () => {
    const header =
      '<mj-section background-color="#111111"><mj-column><mj-navbar><mj-navbar-link href="https://acme.example/shop" color="#ffffff">Shop</mj-navbar-link><mj-navbar-link href="https://acme.example/blog" color="#ffffff">Blog</mj-navbar-link></mj-navbar></mj-column></mj-section>';
    const { lmx } = fromMjml(NEWSLETTER.replace('<mj-body background-color="#f4f4f4">', `<mj-body background-color="#f4f4f4">${header}`));
    expect(lmx).toContain('<Link href="https://acme.example/shop"><Underline textColor="#ffffff">Shop</Underline></Link>');
    expect(checkEmailQa({ lmx, subject: 'This week at Acme' }).filter((found) => found.rule === 'low-contrast')).toEqual([]);
  });

  it('draws a social row on a dark footer band in white, its labels and the dots between them in their colour', () => {
    const social =
      '<mj-social color="#ffffff"><mj-social-element name="facebook" href="https://facebook.com/acme">Facebook</mj-social-element><mj-social-element name="github-noshare" href="https://github.com/acme">GitHub</mj-social-element></mj-social>';
    const { lmx } = fromMjml(
      NEWSLETTER.replace('<mj-section background-color="#1f2937"><mj-column>', `<mj-section background-color="#1f2937"><mj-column>${social}`),
    );
    expect(lmx).toMatch(/<Section blockColor="#1f2937"[^>]*>\s*<Icons color="#ffffff"/);
    expect(lmx).toContain(
      '<Text textColor="#ffffff"><Link href="https://www.facebook.com/sharer/sharer.php?u=https://facebook.com/acme"><Underline textColor="#ffffff">Facebook</Underline></Link> · ',
    );
    expect(checkEmailQa({ lmx, subject: 'This week at Acme' }).filter((found) => found.rule === 'low-contrast')).toEqual([]);
    // On the white body, the icons keep LMX's black.
    expect(fromMjml(NEWSLETTER.replace('</mj-text>\n      <mj-text>Our', `</mj-text>${social.replace(' color="#ffffff"', '')}<mj-text>Our`)).lmx).toMatch(
      /<Icons align/,
    );
  });

  it('takes the link colour for the email from the body’s links of no colour, a browser’s blue, not from a footer’s that would not read on the body', () => {
    // The body's links have no colour of their own; the only coloured links are the footer's white ones.
    const { lmx, findings } = fromMjml(NEWSLETTER.replaceAll(' style="color:#2563eb"', ''));
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#0000ee"/);
    expect(lmx).toContain('<Link href="https://acme.example/blog">the release notes</Link>');
    expect(lmx).toContain('<Link href="https://acme.example/privacy"><Underline textColor="#ffffff">Privacy policy</Underline></Link>');
    expect(findings.remediation.filter((item) => item.construct.includes('link'))).toEqual([]);
    expect(checkEmailQa({ lmx, subject: 'This week at Acme' }).filter((found) => found.rule === 'low-contrast')).toEqual([]);
  });

  it('draws a link of another colour in the email’s link colour where that reads on its band, and lists it', () => {
    const { lmx, findings } = fromMjml(NEWSLETTER.replace('#1f2937', '#f3f4f6').replaceAll('color:#ffffff', 'color:#4b5563').replaceAll('#9ca3af', '#4b5563'));
    expect(lmx).toContain('<Link href="https://acme.example/preferences">Email preferences</Link>');
    expect(findings.remediation.filter((item) => item.construct.includes('link')).map((item) => [item.construct, item.outcome, item.done])).toEqual([
      ['2 links in #4b5563', 'approximated', "drawn in the email's link colour #2563eb (textLinkColor): LMX gives every link of an email one colour"],
    ]);
  });

  it('lists a link whose own colour would not read on its band either', () => {
    // White links on a light band: unreadable in the source as in the email's link colour, which reads better.
    const { lmx, findings } = fromMjml(NEWSLETTER.replace('#1f2937', '#f3f4f6'));
    expect(lmx).toContain('<Link href="https://acme.example/privacy">Privacy policy</Link>');
    expect(findings.remediation.map((item) => item.construct)).toContain('2 links in #ffffff');
  });

  it('counts the words that read in the source and no longer do as not kept, in the fidelity line', () => {
    const at = { file: 'email.html', line: 9, column: 3 };
    const findings = new Findings();
    // Dark words that stood on white, now on the dark body; a blue phrase that reads on white and not there.
    const footer = { tag: 'Unknown', attrs: {}, inline: [{ tag: 'Text', attrs: { textColor: '#111111' }, children: [{ text: 'Footer words here' }] }] };
    const notice = {
      tag: 'Unknown',
      attrs: {},
      inline: [{ text: 'Questions? Write to ' }, { tag: 'Text', attrs: { textColor: '#1d4ed8' }, children: [{ text: 'help at Acme' }] }],
    };
    rememberLook(footer, '#111111', '#ffffff', at);
    rememberLook(notice, '#eeeeee', '#ffffff', { ...at, line: 12 });
    keepContrast([footer, notice], { bodyColor: '#111111', textBaseColor: '#eeeeee' }, findings);
    const body = element('body', at, [element('p', at, [text('Footer words here', at)]), element('p', at, [text('Questions? Write to help at Acme', at)])]);
    const lmx =
      '<Paragraph><Text textColor="#ffffff">Footer words here</Text></Paragraph>\n<Paragraph>Questions? Write to <Text textColor="#1d4ed8">help at Acme</Text></Paragraph>\n';
    // Both are listed, and their 6 words, held in the LMX, are not seen: 3 of the 9 kept.
    expect(findings.remediation.map((item) => item.construct)).toEqual([
      'text less readable than in the source',
      'words in #1d4ed8 less readable than in the source',
    ]);
    expect(measureFidelity({ body }, lmx, findings).words).toEqual({ source: 9, kept: 3 });
  });
});
