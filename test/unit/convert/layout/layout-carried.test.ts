/**
 * Layout carried: MJML's defaults (a button, an image and icons centred; 25 px each side of the
 * content), React Email's container padding and alignment, HTML cells' alignment, and the colour a
 * footer stood on, each into the LMX's align, padding and block colour.
 */
import { describe, expect, it } from 'vitest';
import { checkSource } from '../../../../src/areas/content/shared/check.js';
import { fromHtml, fromMjml, fromReact } from '../layout-support.js';

/** A template as a team writes one, laid out by Prettier: a padded card, a centred button, a centred footer on the grey page. */
const REACT_WELCOME = `import { Body, Button, Container, Head, Html, Img, Section, Text } from '@react-email/components';

const main = { backgroundColor: '#f4f4f5', fontFamily: 'Helvetica, Arial, sans-serif' };
const card = { backgroundColor: '#ffffff', margin: '0 auto', padding: '24px', maxWidth: '600px' };
const footer = { color: '#71717a', fontSize: '12px', textAlign: 'center' as const };

export default function Welcome({ name = 'there' }) {
  return (
    <Html>
      <Head />
      <Body style={main}>
        <Container style={card}>
          <Img src="https://acme.example/logo.png" width="120" alt="Acme" />
          <Text>Hi {name}, welcome to Acme.</Text>
          <Section style={{ textAlign: 'center' }}>
            <Button
              href="https://acme.example/start"
              style={{ backgroundColor: '#111827', color: '#ffffff', padding: '12px 20px' }}
            >
              Get started
            </Button>
          </Section>
        </Container>
        <Text style={footer}>Acme Inc, 1 Main Street, Springfield</Text>
      </Body>
    </Html>
  );
}
`;

const MJML_WELCOME = `<mjml>
  <mj-body background-color="#f4f4f5">
    <mj-section background-color="#ffffff">
      <mj-column>
        <mj-image src="https://acme.example/logo.png" width="120px" alt="Acme" />
        <mj-text>Hi there, welcome to Acme.</mj-text>
        <mj-button href="https://acme.example/start">Get started</mj-button>
        <mj-social><mj-social-element name="github" href="https://github.com/acme" /></mj-social>
      </mj-column>
    </mj-section>
    <mj-section>
      <mj-column>
        <mj-text align="center" color="#71717a" font-size="12px"
          >Acme Inc, 1 Main Street, Springfield</mj-text
        >
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>
`;

describe('MJML: its defaults carried', () => {
  it('centres the button, the image and the icons as MJML does, and keeps the 25 px at each side of the content', () => {
    const { lmx } = fromMjml(MJML_WELCOME);
    expect(lmx).toMatch(/<Image src="https:\/\/acme.example\/logo.png" alt="Acme" width="120" align="center"[^>]* paddingLeft="25" paddingRight="25"/);
    expect(lmx).toMatch(/<Paragraph [^>]*paddingLeft="25" paddingRight="25">Hi there, welcome to Acme.<\/Paragraph>/);
    expect(lmx).toMatch(
      /<Button href="https:\/\/acme.example\/start" bgColor="#414141" textColor="#ffffff" borderRadius="3" fontSize="13" innerYPadding="10" innerXPadding="25" align="center"[^>]* paddingLeft="25" paddingRight="25">/,
    );
    expect(lmx).toMatch(/<Icons align="center"[^>]* paddingLeft="25" paddingRight="25">/);
  });

  it('keeps a footer on the page’s colour, centred, where MJML drew it below the white card', () => {
    const { lmx, findings } = fromMjml(MJML_WELCOME);
    expect(lmx).toMatch(/^<Style backgroundColor="#f4f4f5" bodyColor="#ffffff"/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]* blockColor="#f4f4f5"[^>]*><Text textColor="#71717a">Acme Inc, 1 Main Street, Springfield/);
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
  });

  it('keeps a footer of several lines on the page one band of its colour, no strip of the card’s white between its lines', () => {
    const card =
      'Hi there, welcome to Acme. Your account is ready: sign in to set up your first project, invite your team and connect the tools you use every day.';
    const footer = MJML_WELCOME.replace('Hi there, welcome to Acme.', card).replace(
      '>Acme Inc, 1 Main Street, Springfield</mj-text\n        >',
      '>Acme Inc, 1 Main Street, Springfield</mj-text\n        ><mj-text align="center" color="#71717a" font-size="12px">You get this email as a customer.</mj-text>',
    );
    expect(footer).toContain('as a customer');
    const { lmx } = fromMjml(footer);
    expect(lmx).toMatch(
      /<Section blockColor="#f4f4f5">\s*<Paragraph align="center"[^>]*><Text textColor="#71717a">Acme Inc, 1 Main Street, Springfield<\/Text><\/Paragraph>\s*<Paragraph align="center"[^>]*><Text textColor="#71717a">You get this email/,
    );
    expect(lmx.match(/blockColor=/g)).toHaveLength(1);
  });

  it('gives an image of no width the width MJML draws it at, its column’s, which it keeps on a phone', async () => {
    const source = `<mjml><mj-body><mj-wrapper padding="0 12px"><mj-section padding="0 8px">
      <mj-column width="35%"><mj-text>Key points</mj-text></mj-column>
      <mj-column width="65%"><mj-image src="https://acme.example/a.png" padding="10px 0 10px 20px" border="2px solid #cccccc" /></mj-column>
    </mj-section></mj-wrapper><mj-section>
      <mj-column><mj-image src="https://acme.example/b.png" width="900px" /></mj-column>
      <mj-column><mj-image src="https://acme.example/c.png" fluid-on-mobile="true" /></mj-column>
      <mj-column><mj-image src="https://acme.example/d.png" width="80px" /></mj-column>
    </mj-section></mj-body></mjml>`;
    // @ts-expect-error: mjml ships no types; the test only calls it.
    const { html } = (await import('mjml')).default(source, { validationLevel: 'strict' }) as { html: string };
    const drawn = Object.fromEntries(
      [...html.matchAll(/<img\b[^>]*?src="https:\/\/acme\.example\/(\w)\.png"[^>]*?width="(\d+)"/g)].map((match) => [match[1], match[2]]),
    );
    expect(drawn).toEqual({ a: '340', b: '150', c: '150', d: '80' });
    const widths = Object.fromEntries(
      [...fromMjml(source).lmx.matchAll(/<Image src="https:\/\/acme\.example\/(\w)\.png"(?:[^>]*? width="(\d+)")?/g)].map((match) => [match[1], match[2]]),
    );
    // The one MJML makes the screen's width on a phone keeps no width of its own, as LMX draws it so.
    expect(widths).toEqual({ ...drawn, c: undefined });
  });

  it('keeps a divider inside the padding MJML draws around it, 25 px a side unless told, where LMX drew it across the body', () => {
    const { lmx } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-text>One</mj-text><mj-divider border-color="#dddddd" padding="10px 50px" /><mj-divider border-color="#cccccc" /></mj-column></mj-section></mj-body></mjml>',
    );
    // The 25 px every block keeps is the body's; the first divider stands 25 px further in.
    expect(lmx).toMatch(/^<Style [^>]*bodyXPadding="25"/);
    expect(lmx).toMatch(/<Divider color="#dddddd"[^>]* paddingLeft="25" paddingRight="25" \/>/);
    expect(lmx).toMatch(/<Divider color="#cccccc"(?![^>]*paddingLeft)[^>]*\/>/);
  });

  it('takes MJML’s 20 px around a section and 10 px around each element as the space between blocks, less the 16 px LMX leaves itself', () => {
    const { lmx } = fromMjml('<mjml><mj-body><mj-section><mj-column><mj-text>One</mj-text><mj-text>Two</mj-text></mj-column></mj-section></mj-body></mjml>');
    expect(lmx).toBe(
      '<Style textBaseColor="#000000" bodyXPadding="25" />\n<Paragraph paddingTop="30">One</Paragraph>\n<Paragraph paddingTop="4" paddingBottom="30">Two</Paragraph>\n',
    );
  });
});

describe('React Email: a team’s template as it draws', () => {
  it('keeps the card’s 24 px padding (and the browser’s 8 px around the body), the logo where it stands, the centred button and the centred footer on the grey page', () => {
    const { lmx, findings } = fromReact(REACT_WELCOME);
    // The card stands 8 px in from each side of the screen at both widths (the browser's margin): the page's padding, its grey around the body.
    expect(lmx).toMatch(/<Style [^>]*backgroundXPadding="8"/);
    // <Img> is drawn as a block: at the left, whatever the text's alignment, where LMX would centre it.
    expect(lmx).toMatch(/<Image src="https:\/\/acme.example\/logo.png" alt="Acme" width="120" align="left"[^>]* paddingLeft="24" paddingRight="24" \/>/);
    expect(lmx).toMatch(/<Paragraph [^>]*paddingLeft="24" paddingRight="24">Hi \{data.name\}, welcome to Acme.<\/Paragraph>/);
    expect(lmx).toMatch(/<Button [^>]*align="center"[^>]* paddingLeft="24" paddingRight="24">Get started<\/Button>/);
    // `textAlign: 'center' as const`: the footer's alignment is read through TypeScript's wrapper.
    expect(lmx).toMatch(/<Paragraph align="center"[^>]* blockColor="#f4f4f5"[^>]*><Text textColor="#71717a">Acme Inc/);
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
  });

  it('makes a padding every block shares the body’s, and lists a card narrower than LMX’s body at its place', () => {
    const { lmx, findings } = fromReact(
      REACT_WELCOME.replace("padding: '24px', maxWidth: '600px'", "padding: '24px', maxWidth: '480px'").replace(
        '<Text style={footer}>Acme Inc, 1 Main Street, Springfield</Text>',
        '',
      ),
    );
    // At 600 px the card's content starts 8 + 52 + 24 px in (the browser's margin, the card's centring, its padding): the body's
    // padding; on a phone the card fills the screen, and LMX's padding does not shrink with it.
    expect(lmx).toContain('bodyXPadding="84"');
    const listed = findings.remediation.filter((item) => item.outcome === 'not carried').map((item) => `${item.line} ${item.construct}: ${item.done}`);
    expect(listed).toContain("14 the layout of <Paragraph>: its text spans 84 px to 291 px at 375 px wide, where the source's spans 32 px to 343 px");
  });
});

describe('HTML: a cell’s alignment reaches the blocks inside', () => {
  it('centres the text, the image and the button of a cell whose align says center, and of a <center>', () => {
    const { lmx } = fromHtml(`<!doctype html><html><head><title>Hi</title></head><body style="margin:0">
      <table width="600" align="center" role="presentation" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:0 30px">
        <img src="https://acme.example/logo.png" width="100" alt="Acme">
        <p>Welcome aboard.</p>
        <a href="https://acme.example/go" style="background-color:#0000ff;color:#ffffff;padding:10px 20px">Go</a>
      </td></tr></table>
      <center><p>Centred by a center element.</p></center>
    </body></html>`);
    expect(lmx).toMatch(/<Image [^>]*align="center"[^>]* paddingLeft="30" paddingRight="30"/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Welcome aboard.<\/Paragraph>/);
    expect(lmx).toMatch(/<Button [^>]*align="center"[^>]*>Go<\/Button>/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Centred by a center element.<\/Paragraph>/);
  });
});

describe('HTML: a card on a coloured page', () => {
  /** Foundation's form: a grey page, a 580 px white container centred on it, 95% of a phone's screen. */
  const page = (container: string) => `<!doctype html><html><head><title>Hi</title>
    <style>body { margin: 0; background: #f3f3f3 } @media (max-width: 596px) { .container { width: 95% !important } }</style></head><body>
    <table class="container" align="center" style="${container}" cellpadding="0" cellspacing="0"><tr><td style="padding: 0 16px">
      <p>Your order is on its way, and should reach you before the weekend.</p>
    </td></tr></table></body></html>`;

  it('stands the body where the card does at both widths: the page’s padding, its colour around the body', () => {
    const { lmx, findings } = fromHtml(page('width: 580px; background: #fefefe'));
    expect(lmx).toContain('<Style backgroundColor="#f3f3f3" bodyColor="#fefefe" textBaseColor="#000000" backgroundXPadding="10" bodyXPadding="16" />');
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
  });

  it('leaves the page’s padding to the theme where the card stands in by different amounts at 600 and 375 px', () => {
    // 560 px wide: 20 px in at 600 px, but 95% of a phone's screen, 9 px in there.
    expect(fromHtml(page('width: 560px; background: #fefefe')).lmx).not.toContain('backgroundXPadding');
    // As wide as the screen: no page around it.
    expect(fromHtml(page('width: 100%; background: #fefefe')).lmx).not.toContain('backgroundXPadding');
  });
});

describe('bad input: layouts no team means to write', () => {
  const page = (body: string) => `<!doctype html><html><head><title>Hi</title></head><body style="margin:0">${body}</body></html>`;

  it('adds up 10 nested paddings, each cell’s 8 px and the 2 px its table leaves, into the body’s padding', () => {
    let inner = '<p>Deep text inside ten paddings.</p>';
    for (let level = 1; level <= 10; level += 1)
      inner = `<table role="presentation" width="100%"><tr><td style="padding:${level}px 8px">${inner}</td></tr></table>`;
    const { lmx, findings } = fromHtml(page(inner));
    expect(lmx).toContain('<Style textBaseColor="#000000" bodyXPadding="100" />');
    expect(findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('reads percentages of the box around and ems of 16 px as a browser does', () => {
    // The cell: 2em (32 px) each side of a 600 px table 2 px in from the page; the paragraph: 10% of the cell's 532 px inside.
    const { lmx } = fromHtml(page('<table width="600"><tr><td style="padding:5% 2em"><p style="padding:1.5em 10%">Units of padding.</p></td></tr></table>'));
    const style = /bodyXPadding="(\d+)"/.exec(lmx)![1]!;
    const left = Number(style) + Number(/<Paragraph[^>]* paddingLeft="(\d+)"/.exec(lmx)?.[1] ?? 0);
    expect(left).toBe(Math.round(2 + 32 + 53.2));
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('lists alignment given twice, and aligns as a browser does: by the style', () => {
    const { lmx, findings } = fromHtml(
      page('<p align="right" style="text-align:center">Which way?</p><table align="right"><tr><td>A table placed right.</td></tr></table>'),
    );
    expect(lmx).toContain('<Paragraph align="center">Which way?</Paragraph>');
    expect(
      findings.remediation.filter((item) => item.outcome === 'listed').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual(['1:75 align="right" with text-align: center: aligned center, as the style wins over the attribute in a browser']);
  });

  it('draws MJML’s attributes given twice as MJML does, by the first, and lists each at its tag', async () => {
    const source =
      '<mjml><mj-body><mj-section><mj-column>\n<mj-button align="left" align="right" href="https://acme.example/go">Go</mj-button>\n<mj-text align="center" align="right">Which way?</mj-text>\n</mj-column></mj-section></mj-body></mjml>';
    // MJML's own compiler: the button's cell is aligned left, the text centred.
    // @ts-expect-error: mjml ships no types; the test only calls it.
    const { html } = (await import('mjml')).default(source, { validationLevel: 'strict' }) as { html: string };
    expect(html).toMatch(/<td\s+align="left"[^>]*>\s*<table[^>]*>\s*<tbody>\s*<tr>\s*<td[^>]*bgcolor/);
    expect(html).toMatch(/text-align:center;color:#000000;"\s*>Which way\?/);
    const { lmx, findings } = fromMjml(source);
    expect(lmx).toMatch(/<Button href="https:\/\/acme.example\/go"[^>]* align="left"/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Which way\?<\/Paragraph>/);
    expect(
      findings.remediation.filter((item) => item.outcome === 'listed').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual([
      '2:1 <mj-button> align given twice ("left", "right"): read as align="left", the first, as MJML reads it',
      '3:1 <mj-text> align given twice ("center", "right"): read as align="center", the first, as MJML reads it',
    ]);
    expect(checkSource('draft.lmx', lmx, 'transactional', new Map()).errors).toEqual([]);
  });

  it('lists an HTML attribute given twice, and draws by the first, as a browser does', () => {
    const { lmx, findings } = fromHtml(page('\n<p align="left" align="right">Which way?</p>'));
    expect(lmx).toContain('<Paragraph>Which way?</Paragraph>');
    expect(
      findings.remediation.filter((item) => item.outcome === 'listed').map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual(['2:17 align given twice (the second align="right"): read by the first, as a browser reads it']);
  });

  it('lists a word LMX cannot break that widens a phone’s page, where the source’s cell breaks it', () => {
    const address = 'https://acme.example/account/reset-password?token=4f9c2a7e1b';
    const { findings } = fromHtml(
      page(`<table width="100%"><tr><td style="word-break:break-all">Open <a href="${address}">${address}</a> to choose a new password.</td></tr></table>`),
    );
    const listed = findings.remediation.filter((item) => item.outcome === 'not carried').map((item) => item.done);
    expect(listed).toEqual([
      expect.stringMatching(
        /^its word "https:\/\/acme.example\/account\/reset-pass…" takes about \d+ px on a 375 px screen, where the block has \d+ px: the page grows wider than the screen/,
      ),
    ]);
  });
});

describe('a column too narrow for its words on a phone', () => {
  it('says the page grows wider than the screen, beside the column’s other difference', () => {
    // E-Com Plus's abandoned cart: cells of 400, 400, 50 and 50 px shared out of the table's width, a price in the last.
    const row = (item: string, price: string) =>
      `<tr><td style="width:400px;padding:10px"><img src="https://shop.example/${item}.jpg" alt="${item}" width="100" style="display:block;width:50%"></td><td style="width:400px;padding:10px">A stoneware mug</td><td style="width:50px">x 2</td><td style="width:50px">${price}</td></tr>`;
    const table = `<table style="width:85%" align="center">${row('mug', 'R$ 36,00')}${row('tea', 'R$ 16,00')}</table>`;
    const { lmx, findings } = fromHtml(`<!doctype html><html><head><title>Hi</title></head><body style="margin:0">${table}</body></html>`);
    expect(lmx).toContain('36,00');
    const listed = findings.remediation.filter((item) => item.outcome === 'not carried' && item.done.includes('36,00')).map((item) => item.done);
    expect(listed).toEqual([
      expect.stringMatching(/; its word "36,00" takes about \d+ px on a 375 px screen, where the block has \d+ px: the page grows wider than the screen/),
    ]);
  });
});

describe('a row of a table whose cells give widths their content overrides', () => {
  it('shares the columns out as the source draws them, so that a price fits a phone', () => {
    // E-Com Plus's abandoned cart: cells of 400, 400, 50 and 50 px in a table of 85%, which Chromium sizes by their content,
    // the totals' row widening the last two columns: 45–198, 198–394, 394–468 and 468–555 at 600 px (30, 38, 15 and 17%).
    const cells = (first: string, second: string, third: string, fourth: string) =>
      `<td style="width:400px;padding:10px">${first}</td><td style="width:400px;padding:10px">${second}</td><td style="width:50px">${third}</td><td style="width:50px;padding:20px">${fourth}</td>`;
    const table = `<table style="width:85%;border-collapse:collapse" align="center"><tbody>
      <tr>${cells('<img src="https://shop.example/mug.jpg" alt="Mug" width="100" style="display:block;width:50%">', '<div>Stoneware mug</div>', '<div>x 2</div>', '<div>R$ 36,00</div>')}</tr>
      <tr>${cells('&nbsp;', '&nbsp;', '<div><strong style="font-size:20px">Subtotal</strong></div>', '<div><strong style="font-size:20px">R$ 52,00</strong></div>')}</tr>
      </tbody></table>`;
    const { lmx, findings } = fromHtml(`<!doctype html><html><head><title>Hi</title></head><body style="margin:0"><div>${table}</div></body></html>`);
    const widths = /<Columns [^>]*widths="(\d+),(\d+),(\d+),(\d+)"/.exec(lmx)?.slice(1).map(Number);
    [30, 38, 15, 17].forEach((share, index) => expect(Math.abs(widths![index]! - share), `${index}`).toBeLessThanOrEqual(5));
    expect(findings.remediation.filter((item) => item.done.includes('grows wider than the screen'))).toEqual([]);
  });
});

describe('a full-width button on a phone', () => {
  it('narrows the inner padding that widens it, so that it still fits a 375 px screen', () => {
    const { lmx } = fromReact(`import { Body, Button, Html } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body>
        <Button href="https://acme.example/dashboard" style={{ display: 'block', width: '100%', padding: '10px', fontSize: '16px' }}>View your Acme Dashboard</Button>
      </Body>
    </Html>
  );
}
`);
    const padding = Number(/innerXPadding="(\d+)"/.exec(lmx)![1]);
    // Widened to stand full width at 600 px, it would take the 100 px LMX allows at each side: 415 px on a phone's 369.
    // The label takes about 215 of them: the rest is its padding.
    expect(padding).toBeGreaterThan(60);
    expect(padding).toBeLessThanOrEqual(Math.floor((369 - 215) / 2));
  });
});

describe('padding a media query changes on a phone', () => {
  it('stands each block within a few pixels of the source at both widths, where one padding can', () => {
    // Lee Munroe's form: a card of 580 px at most, centred, its padding 10 px narrower on a phone.
    const email = (card: number) => `<!DOCTYPE html><html><head><style>
@media only screen and (max-width: 620px) { .wrapper { padding: 10px !important; } }
</style></head><body style="margin: 0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td>
<div style="max-width: ${card}px; margin: 0 auto;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td class="wrapper" style="padding: 20px;">
<p style="margin: 0">Your order has shipped, and should reach you within three days of today.</p>
</td></tr></table>
</div>
</td></tr></table>
</body></html>`;
    // At 600 px its text stands 10 + 10 px in (the card centred, the phone's padding: 600 is below 620); at 375, 10 px:
    // 15 px stands within 6 px of both.
    const fits = fromHtml(email(580));
    expect(fits.findings.remediation.filter((item) => item.outcome === 'not carried')).toEqual([]);
    expect(fits.lmx).toMatch(/bodyXPadding="15"/);
    // A card of 560 px: 20 + 10 px in at 600 and 10 at 375, beyond one padding's reach; carried as at 600, listed at 375.
    const apart = fromHtml(email(560)).findings.remediation.filter((item) => item.outcome === 'not carried');
    expect(apart.map((item) => item.done)).toEqual([expect.stringMatching(/at 375 px wide, where the source's spans 10 px to 365 px$/)]);
  });
});

describe('a band of another colour at the foot of a card', () => {
  it('is a section of its own colour cut from the card’s, no strip of the card’s white between its lines (E-Com Plus’s footer)', () => {
    const { lmx } = fromHtml(`<!doctype html><html><head><title>Order</title></head><body style="margin:0;background:#ebebeb">
<table width="100%" bgcolor="#f7f7f7"><tr><td><table width="600" align="center"><tr><td bgcolor="#ffffff" style="padding:0">
<h2 style="text-align:center">Thanks for your purchase!</h2>
<p style="text-align:center">Your order is paid.</p>
<div style="background-color:#f7f7f7;color:#7a7a7a;font-size:11px;padding:30px 0;text-align:center">
<p>Lumen Goods Ltd</p>
<p>12 Harbour Road, Portsmouth</p>
</div>
</td></tr></table></td></tr></table></body></html>`);
    expect(lmx).toMatch(
      /<Section blockColor="#ffffff"[^>]*>\s*<H2[\s\S]*Your order is paid.(<\/Text>)?<\/Paragraph>\s*<\/Section>\s*<Section blockColor="#f7f7f7"[^>]*>\s*<Paragraph[^>]*>(<Text[^>]*>)?Lumen Goods Ltd/,
    );
    expect(lmx.match(/blockColor="#f7f7f7"/g)).toHaveLength(1);
  });
});
