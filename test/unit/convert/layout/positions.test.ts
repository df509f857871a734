/**
 * Positions counted: each block's side (left, centred, right, full width) at 600 px against where
 * the source draws it as the layout model reads it, in the fidelity line's `positions N of M`; each
 * block that stands elsewhere listed.
 */
import { describe, expect, it } from 'vitest';
import { compareColours } from '../../../../src/convert/contrast.js';
import { convertDocument } from '../../../../src/convert/document.js';
import { fidelityLine, measureFidelity } from '../../../../src/convert/fidelity.js';
import { recordSource, sourceOf } from '../../../../src/convert/layout/block-source.js';
import { compareLayout } from '../../../../src/convert/layout/layout-compare.js';
import type { LmxBlock } from '../../../../src/convert/lmx-out.js';
import { Findings } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../../src/convert/sources/mjml-source.js';
import { readReact } from '../../../../src/convert/sources/react-source.js';

/** A React Email button of this style under a heading, in a section that centres its text. */
const REACT = (style: string) => `import { Body, Button, Container, Heading, Html, Section } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body>
        <Container>
          <Heading style={{ textAlign: 'center' }}>Your trial starts today</Heading>
          <Section style={{ textAlign: 'center' }}>
            <Button href="https://example.com/go" style={{ backgroundColor: '#111111', color: '#ffffff', ${style} }}>Get started</Button>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`;

function converted(read: (findings: Findings) => ReturnType<typeof readHtml>, misplace?: (blocks: readonly LmxBlock[]) => void) {
  const findings = new Findings();
  const document = read(findings);
  const { lmx, style, blocks } = convertDocument(document, 'transactional', findings);
  misplace?.(blocks);
  const placement = compareLayout(document.body, style, blocks, findings);
  const fidelity = measureFidelity(document, lmx, findings, new Map(), { ...placement, colours: compareColours(blocks, style, findings) });
  const entries = findings.remediation.filter((item) => item.construct.startsWith('the position of')).map((item) => `${item.construct}: ${item.done}`);
  return { fidelity, line: fidelityLine(fidelity), entries, lmx, findings };
}

const fromReact = (source: string, misplace?: (blocks: readonly LmxBlock[]) => void) =>
  converted((findings) => readReact(source, 'email.tsx', findings), misplace);

const fromMjml = (source: string) => converted((findings) => readMjml(source, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) }));

/** The first button among these blocks and those they hold. */
function buttonIn(blocks: readonly LmxBlock[]): LmxBlock | undefined {
  for (const block of blocks) {
    const found = block.tag === 'Button' ? block : buttonIn(block.blocks ?? []);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe('positions in the fidelity line', () => {
  it('counts a fixed-width block button at the left edge, where React Email draws it, as standing there', () => {
    const { fidelity, line, entries } = fromReact(REACT("display: 'block', width: '210px'"));
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
    expect(line).toMatch(/, positions 2 of 2$/);
    expect(entries).toEqual([]);
  });

  it('counts a full-width button as full width only where its padding reaches across the body, and lists one it does not', () => {
    // "Get started" widened by LMX's most inner padding, 100 px a side, is about 300 px of the body's 600.
    const { fidelity, entries } = fromReact(REACT("display: 'block'"));
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(entries).toEqual(['the position of <Button>: drawn centred, where the source draws it across the full width']);
    // A label long enough for the padding to reach across the body stands full width.
    const long = fromReact(
      REACT("display: 'block'").replace('Get started', 'Get started with your free trial of the whole plan, every feature included, today'),
    );
    expect(long.fidelity.positions).toEqual({ source: 2, kept: 2 });
    expect(long.entries).toEqual([]);
  });

  it('lists and counts a button drawn elsewhere than the source draws it, no other entry saying so', () => {
    // As a mapper that centres every block button would: its alignment recorded as the one it gave it, so the layout entry sees nothing.
    const { fidelity, line, entries } = fromReact(REACT("display: 'block', width: '210px'"), (blocks) => {
      const button = buttonIn(blocks)!;
      const from = sourceOf(button)!;
      button.attrs.align = 'center';
      recordSource(button, from.element, 'media', 'center', { own: from.own, position: from.position });
    });
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(line).toMatch(/, positions 1 of 2$/);
    expect(entries).toEqual(['the position of <Button>: drawn centred, where the source draws it at the left']);
  });

  it('reads a text’s position as the layout model does: its alignment', () => {
    const { fidelity } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="600"><tr><td align="right"><p>Paid in full</p></td></tr><tr><td><p style="text-align:center">Thank you</p></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
  });

  it('aligns a table of content’s rows as their first cells do, in a centred card (Mailgen’s receipts)', () => {
    const { fidelity, lmx } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="100%"><tr><td style="text-align:center"><p>Your receipt</p><table width="100%">' +
          '<tr><th style="text-align:left">Item</th><th style="text-align:left">Description</th><th style="text-align:left">Price</th></tr>' +
          '<tr><td style="text-align:left">Tea</td><td style="text-align:left">Green, loose</td><td style="text-align:left">$2.00</td></tr>' +
          '<tr><td style="text-align:left">Cake</td><td style="text-align:left">Lemon</td><td style="text-align:left">$3.50</td></tr>' +
          '</table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Your receipt/);
    expect(lmx).toMatch(/<Paragraph(?![^>]*align)[^>]*>Tea/);
    expect(fidelity.positions.kept).toBe(fidelity.positions.source);
  });

  it('starts a table’s text at its side where only an align around it centred it, as browsers draw it (Postmark’s templates)', () => {
    const { fidelity, lmx } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="100%"><tr><td align="center"><table align="center" width="570"><tr><td><p>Welcome aboard.</p></td></tr></table>' +
          '<table width="570" style="text-align:center"><tr><td><p>Thanks</p></td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    // The first table's text at its left; the second's centred by its own CSS, which a table does pass on.
    expect(lmx).toMatch(/<Paragraph[^>]*>Welcome aboard\.<\/Paragraph>/);
    expect(lmx).not.toMatch(/<Paragraph[^>]*align[^>]*>Welcome/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Thanks<\/Paragraph>/);
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
  });
  it('lists a button the source’s media queries make full width on a phone, which LMX draws at one width (Mailgen’s)', () => {
    const { fidelity, entries } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 500px) { .button { width: 100% !important; } }</style></head>' +
          '<body><table width="100%"><tr><td><p>Reset your password below.</p><table width="100%"><tr><td align="center">' +
          '<a href="https://example.com/reset" class="button" style="display:inline-block;width:200px;color:#ffffff;background-color:#dc4d2f">Reset</a>' +
          '</td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(entries).toEqual(["the position of <Button>: drawn centred at 375 px wide, where the source's stylesheet draws it across the full width"]);
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
  });

  it('centres a button whose table shrinks to it in a <center>, its cells’ left alignment placing nothing (Foundation’s drip)', () => {
    const { lmx, fidelity } = converted((findings) =>
      readHtml(
        '<!doctype html><html><body><table width="100%"><tr><td style="text-align:left"><p style="text-align:center">Learn something new today.</p>' +
          '<center style="width:100%"><table class="button float-center" style="text-align:center;margin:0 0 16px 0;width:auto"><tr><td style="text-align:left">' +
          '<table style="text-align:left;width:auto"><tr><td style="text-align:left;color:#fefefe;background:#3adb76">' +
          '<a align="center" href="https://example.com/go" style="color:#fefefe;padding:8px 16px">Get smarter now</a>' +
          '</td></tr></table></td></tr></table></center></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(lmx).toMatch(/<Button [^>]*align="center"[^>]*>Get smarter now<\/Button>/);
    expect(fidelity.positions).toEqual({ source: 2, kept: 2 });
  });

  it('counts a full-width button in a narrow column that its padding fills at 600 px and not on a phone, where the column stacks (Foundation’s sidebar)', () => {
    const { fidelity, lmx, findings } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media screen and (max-width: 600px) { .stack { display: block !important; width: 100% !important } }</style></head>' +
          '<body><table width="600"><tr><td class="stack" width="70%"><p>Our news this week, and the talks we gave.</p></td>' +
          '<td class="stack" width="30%"><a href="https://example.com/f" style="display:block;background-color:#2199e8;color:#ffffff;padding:8px 0;text-align:center">Facebook</a></td>' +
          '</tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(lmx).toMatch(/<Button [^>]*innerXPadding="100"[^>]*>Facebook<\/Button>/);
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    // Listed once, by the layout's entry where it has one, else the position's.
    expect(findings.remediation.filter((item) => /^the (layout|position) of <Button>/.test(item.construct))).toHaveLength(1);
  });

  it('counts an HTML image of no width, drawn at its own size, as moved where LMX draws it across its box; one 100% wide as kept', () => {
    const html = (image: string) =>
      converted((findings) => readHtml(`<!doctype html><html><body><p>Your order has shipped.</p>${image}</body></html>`, 'email.html', findings));
    const natural = html('<img src="https://example.com/logo.png" alt="Acme" style="display:block">');
    expect(natural.lmx).toMatch(/<Image src="https:\/\/example.com\/logo.png" alt="Acme" align="left" \/>/);
    expect(natural.fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(natural.findings.remediation.filter((item) => item.construct === 'the position of <Image>').map((item) => `${item.done} -> ${item.todo}`)).toEqual([
      "drawn across the full width, where the source draws it at the left at its own size -> set its width to the image's own, in pixels: LMX draws an image of no width across its box",
    ]);
    expect(html('<img src="https://example.com/hero.png" alt="Our new look" style="display:block;width:100%">').fidelity.positions).toEqual({
      source: 2,
      kept: 2,
    });
    expect(html('<img src="https://example.com/logo.png" alt="Acme" width="120" style="display:block">').fidelity.positions).toEqual({ source: 2, kept: 2 });
  });

  it('lists a picture of a width that widens its column on a phone, where LMX fits it to the column (React Email’s <Row>)', () => {
    const row = (width: number) => `import { Body, Column, Container, Html, Img, Row, Section, Text } from '@react-email/components';
export default function Email() {
  return (
    <Html>
      <Body style={{ margin: 0 }}>
        <Container style={{ maxWidth: '600px' }}>
          <Section style={{ padding: '24px' }}>
            <Row>
              <Column style={{ width: '50%', paddingRight: '12px' }}>
                <Img src="https://example.com/lamp.jpg" width="${width}" alt="Desk lamp" />
              </Column>
              <Column style={{ width: '50%', verticalAlign: 'top' }}>
                <Text>Warm light, a solid oak base, and a switch you can find in the dark.</Text>
              </Column>
            </Row>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`;
    // On a phone the row's half is about 150 px: a 264 px picture widens its column there, a 120 px one fits it.
    const wide = fromReact(row(264));
    expect(wide.fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(wide.entries).toEqual([expect.stringMatching(/^the position of <Image>: drawn \d+ px wide at 375 px wide, where the source keeps its 264 px/)]);
    const narrow = fromReact(row(120));
    expect(narrow.fidelity.positions).toEqual({ source: 2, kept: 2 });
    expect(narrow.entries).toEqual([]);
  });

  it('says to set the width of an image of no width, whatever else of it a media query restyles on a phone (Foundation’s `img { width: auto }`)', () => {
    const { fidelity, findings } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 596px) { table.body img { width: auto; height: auto } }</style></head>' +
          '<body><table class="body" width="100%"><tr><td><p>Our latest issue is out.</p><img src="https://example.com/icon.png" alt="Icon" style="display:block"></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(findings.remediation.filter((item) => /^the (layout|position) of <Image>/.test(item.construct)).map((item) => item.todo)).toEqual([
      expect.stringMatching(/^set its width to the image's own, in pixels/),
    ]);
  });

  it('lists an image the source’s media queries centre on a phone, which LMX draws at one side (Foundation’s `.small-float-center`)', () => {
    const { fidelity, findings } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 596px) { .small-float-center { margin: 0 auto !important; float: none !important } }</style></head>' +
          '<body><p>Our latest issue is out.</p><img class="small-float-center" src="https://example.com/cover.png" width="170" alt="Cover" style="display:block"></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(fidelity.positions).toEqual({ source: 2, kept: 1 });
    expect(findings.remediation.filter((item) => /^the (layout|position) of <Image>/.test(item.construct)).map((item) => item.done)).toEqual([
      expect.stringContaining('375 px wide'),
    ]);
  });

  it('takes a button cell’s link’s phone style as the button’s (Lee Munroe’s `.btn a { width: 100% }`)', () => {
    const { entries } = converted((findings) =>
      readHtml(
        '<!doctype html><html><head><style>@media only screen and (max-width: 620px) { .btn a { width: 100% !important; } }</style></head>' +
          '<body><table width="100%"><tr><td><p>Hi there.</p><table class="btn" width="100%"><tr><td align="left"><table><tr>' +
          '<td style="background-color:#3498db"><a href="https://example.com/go" style="display:inline-block;color:#ffffff;padding:12px 25px">Go</a></td>' +
          '</tr></table></td></tr></table></td></tr></table></body></html>',
        'email.html',
        findings,
      ),
    );
    expect(entries).toEqual([
      "the position of <Button>: drawn at the left at 600 px wide, where the source's stylesheet draws it across the full width; drawn at the left at 375 px wide, where the source's stylesheet draws it across the full width",
    ]);
  });

  it('counts and lists each picture of a carousel, which LMX draws one under another where the source shows one at a time', () => {
    const pictures = ['1', '2', '3'].map((name) => `\n<mj-carousel-image src="https://acme.example/${name}.jpg" />`).join('');
    const { fidelity, entries } = fromMjml(
      `<mjml><mj-body><mj-section><mj-column><mj-image src="https://acme.example/logo.png" width="120px" />\n<mj-carousel>${pictures}</mj-carousel></mj-column></mj-section></mj-body></mjml>`,
    );
    expect(fidelity.positions).toEqual({ source: 4, kept: 1 });
    expect(entries).toEqual(
      Array(3).fill(
        'the position of <Image>: drawn in a place of its own, one under another with the others, where the source shows one at a time in one place, with a row of thumbnails to choose it',
      ),
    );
  });

  it('lists a bold button whose label breaks across its box on a phone, where LMX draws it on one line at its side in the theme’s weight', () => {
    const button = (label: string) =>
      fromMjml(
        `<mjml><mj-body><mj-section><mj-column><mj-button href="https://acme.example/go" align="left" font-weight="700" font-size="15px" inner-padding="14px">${label}</mj-button></mj-column></mj-section></mj-body></mjml>`,
      );
    const long = button('Verify email and create your passwords →');
    expect(long.fidelity.positions).toEqual({ source: 1, kept: 0 });
    expect(long.entries).toEqual([
      "the position of <Button>: drawn at the left at 375 px wide on one line, where the source's bold label breaks across its box's full width",
    ]);
    // A label that fits a phone's box in bold too stands where the source's does.
    const short = button('Verify your email →');
    expect(short.fidelity.positions).toEqual({ source: 1, kept: 1 });
    expect(short.entries).toEqual([]);
  });

  it('keeps a centred bold button whose label breaks on a phone where LMX’s face on one line fills its box as well', () => {
    // Mailgen's Neopolitan's second button: LMX's regular label leaves its face 10 px short of its box, centred in it, where the source's fills the box.
    const { fidelity, entries } = fromMjml(
      '<mjml><mj-body><mj-section><mj-column><mj-button href="https://acme.example/go" align="center" font-weight="700" font-size="15px" inner-padding="14px 30px">Verify email and create your password</mj-button></mj-column></mj-section></mj-body></mjml>',
    );
    expect(fidelity.positions).toEqual({ source: 1, kept: 1 });
    expect(entries).toEqual([]);
  });
});

describe('a button made of one coloured cell', () => {
  // Auth.js's sign-in email: a table of no width, centred, its one cell coloured around a padded link.
  const signIn = (table: string) =>
    '<!doctype html><html><body style="background: #f9f9f9;"><table width="100%" style="background: #fff; max-width: 600px; margin: auto;"><tr><td align="center" style="padding: 20px 0;">' +
    `<table ${table} border="0" cellspacing="0" cellpadding="0"><tr><td align="center" style="border-radius: 5px;" bgcolor="#346df1">` +
    '<a href="https://app.example.com/sign-in" target="_blank" style="font-size: 18px; color: #fff; text-decoration: none; border-radius: 5px; padding: 10px 20px; border: 1px solid #346df1; display: inline-block; font-weight: bold;">Sign in</a>' +
    '</td></tr></table></td></tr></table></body></html>';

  it('is a centred button in the cell’s colour, not a band of it across the body', () => {
    const { lmx, entries } = converted((findings) => readHtml(signIn(''), 'email.html', findings));
    expect(lmx).toMatch(/<Button href="https:\/\/app.example.com\/sign-in" bgColor="#346df1" textColor="#fff"[^>]* align="center"[^>]*>Sign in<\/Button>/);
    expect(lmx).not.toContain('blockColor="#346df1"');
    expect(entries).toEqual([]);
  });

  it('stays a coloured band where its table is as wide as the body', () => {
    const { lmx } = converted((findings) => readHtml(signIn('width="100%"'), 'email.html', findings));
    expect(lmx).not.toContain('<Button');
    expect(lmx).toContain('blockColor="#346df1"');
  });
});

describe('a logo in a table of no width', () => {
  // E-Com Plus's logo: a table shrunk to the image, centred by the cell around it, its cell's bgcolor given back by its style.
  const logo = `<!doctype html><html><head><title>Order</title></head><body style="margin:0">
<table width="100%"><tr><td>
<table align="center" width="40%" style="table-layout:fixed;padding:15px"><tr><td align="center">
<table border="0" cellpadding="0" cellspacing="0" style="text-align:center"><tr><td align="center" bgcolor="#FFFFFF" style="border-radius:6px;text-align:center;background-color:inherit">
<a href="https://shop.example"><img style="display:block;width:100%;max-width:100% !important" src="https://shop.example/logo.png" alt="Lumen Goods" width="200"></a>
</td></tr></table>
</td></tr></table>
<p>Hello Ada, thanks for your purchase!</p>
</td></tr></table></body></html>`;

  it('stands where the cell around the table centres it, as Chromium draws it, with no box of the cell’s given-back colour', () => {
    const findings = new Findings();
    const { lmx } = convertDocument(readHtml(logo, 'email.html', findings), 'transactional', findings);
    expect(lmx).toContain('<Image src="https://shop.example/logo.png" alt="Lumen Goods" href="https://shop.example" width="200" align="center"');
    expect(lmx).not.toContain('blockColor');
  });

  it('keeps a cell’s bgcolor where its style gives no colour of its own', () => {
    const findings = new Findings();
    const { lmx } = convertDocument(readHtml(logo.replace(';background-color:inherit', ''), 'email.html', findings), 'transactional', findings);
    expect(lmx).toContain('blockColor="#ffffff"');
  });
});
