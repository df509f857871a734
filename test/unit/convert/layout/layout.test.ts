/**
 * Layout as the author meant it, held against the rendered email (`content render`'s renderer):
 * every child of React Email's containers carried, HTML's side-by-side layouts as columns, buttons
 * and rows of icons recognised, centring kept.
 */
import { describe, expect, it } from 'vitest';
import { SourceLayout } from '../../../../src/convert/layout/layout.js';
import { bodyBox, layoutLmx } from '../../../../src/convert/layout/lmx-layout.js';
import { block } from '../../../../src/convert/lmx-out.js';
import { Findings, type SourceElement, type SourceNode } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { parseLmx } from '../../../../src/lmx/index.js';
import { renderLmx } from '../../../../src/lmx/render/index.js';
import { LIST_INDENT_PX } from '../../../../src/lmx/render/text.js';
import { fromHtml, fromReact } from '../layout-support.js';

const REACT = (body: string) => `import { Body, Button, Column, Container, Heading, Hr, Html, Img, Link, Row, Section, Text } from '@react-email/components';

export default function Email() {
  return (
    <Html>
      <Body>
        ${body}
      </Body>
    </Html>
  );
}
`;

describe('React Email: every child of a container carried', () => {
  it('keeps a Row’s children that are not Columns, as one column', () => {
    const { text, lmx } = fromReact(
      REACT(`<Container>
          <Section>
            <Row>
              <Text>Thanks for your review of the Oak Chair.</Text>
              <Text>Every review helps other shoppers decide.</Text>
            </Row>
          </Section>
        </Container>`),
    );
    expect(text).toContain('Thanks for your review of the Oak Chair.');
    expect(text).toContain('Every review helps other shoppers decide.');
    expect(lmx).not.toContain('<Columns');
  });

  it('keeps loose content beside Columns as a column of its own', () => {
    const { text, lmx } = fromReact(
      REACT(`<Section>
            <Row>
              <Img src="https://example.com/logo.png" width="48" alt="Acme" />
              <Column><Text>Welcome to Acme, where the opening words are.</Text></Column>
            </Row>
          </Section>`),
    );
    expect(lmx).toMatch(/<Columns[^>]*>\s*<ColumnItem>\s*<Image src="https:\/\/example.com\/logo.png"/);
    expect(text).toContain('Welcome to Acme, where the opening words are.');
  });

  it('keeps a header image and the paragraphs of a Container before its Sections', () => {
    const { html, text } = fromReact(
      REACT(`<Container>
          <Img src="https://example.com/header.png" width="600" alt="Header" />
          <Text>First paragraph of the welcome.</Text>
          <Section><Text>Inside the section.</Text></Section>
          <Row><Column><Text>Left</Text></Column><Column><Text>Right</Text></Column></Row>
        </Container>`),
    );
    expect(html).toContain('https://example.com/header.png');
    expect(text).toMatch(/First paragraph of the welcome\..*Inside the section\..*Left.*Right/);
  });
});

describe('React Email: the classes of a <Tailwind> wrapper', () => {
  it('resolves the classes to the styles Tailwind’s default theme gives them, a style written beside them winning', () => {
    const { lmx, html, findings } = fromReact(
      REACT(`<Tailwind>
          <Container className="bg-white mx-auto p-[20px]">
            <Heading className="text-black text-[24px] font-normal text-center">Join the team</Heading>
            <Text className="text-gray-600 text-[14px] leading-[24px] uppercase">Invited by Ana</Text>
            <Text className="text-[#666666]" style={{ color: '#123456' }}>Written style wins</Text>
            <Button className="bg-[#000000] rounded text-white text-[12px] font-semibold px-5 py-3" href="https://example.com/join">Join</Button>
          </Container>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    expect(lmx).toMatch(/<H1 align="center" fontSize="24"[^>]*><Text textColor="#000000">Join the team<\/Text><\/H1>/);
    // LMX draws every heading bold: `font-normal` is listed.
    expect(
      findings.remediation.filter((item) => item.construct.startsWith('font-weight')).map((item) => `${item.line} ${item.construct} ${item.outcome}`),
    ).toEqual(['9 font-weight 400 approximated']);
    // Tailwind v4's gray-600, as its theme writes it in oklch, in hex.
    expect(lmx).toContain('<Text textColor="#4a5565">INVITED BY ANA</Text>');
    expect(lmx).toContain('#123456');
    expect(lmx).not.toContain('#666666');
    // `px-5 py-3`: the button's own padding, side by side, 20 and 12 px.
    expect(lmx).toMatch(
      /<Button href="https:\/\/example.com\/join" bgColor="#000000" textColor="#ffffff" borderRadius="4" fontSize="12" innerYPadding="12" innerXPadding="20"/,
    );
    expect(html).toContain('INVITED BY ANA');
  });

  it('carries a button’s padding written side by side, in a style as in classes, over its shorthand', () => {
    const { lmx } = fromReact(
      REACT(`<Container>
          <Button href="https://example.com/a" style={{ paddingTop: '14px', paddingBottom: '14px', paddingLeft: '28px', paddingRight: '28px' }}>A</Button>
          <Button href="https://example.com/b" style={{ padding: '10px', paddingLeft: '30px', paddingRight: '30px' }}>B</Button>
        </Container>`),
    );
    expect(lmx).toMatch(/<Button href="https:\/\/example.com\/a" innerYPadding="14" innerXPadding="28"/);
    expect(lmx).toMatch(/<Button href="https:\/\/example.com\/b" innerYPadding="10" innerXPadding="30"/);
  });

  it('reads the colours and spacing its config literal adds to the theme, which win over the default theme’s', () => {
    const { lmx, findings } = fromReact(
      REACT(`<Tailwind config={{ theme: { extend: { colors: { brand: '#2250f4' }, spacing: { 20: '20px' } } } }}>
          <Container className="p-20">
            <Text className="text-brand">Brand words</Text>
          </Container>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    // The only text's colour is the email's: the theme's text colour.
    expect(lmx).toMatch(/<Style textBaseColor="#2250f4"/);
    // Tailwind's default step 20 is 80 px; the config makes it 20 (and the browser's 8 px around the body adds to it).
    expect(lmx).toMatch(/ bodyXPadding="28"/);
    expect(findings.remediation.filter((item) => item.construct.startsWith('the Tailwind class'))).toEqual([]);
  });

  it('lists each class it cannot resolve once, at its place', () => {
    const { findings, text } = fromReact(
      REACT(`<Tailwind>
          <Text className="text-brand sm:text-[20px] font-bold">Hello</Text>
          <Text className="text-brand">Again</Text>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    expect(text).toContain('Hello');
    const listed = findings.remediation.filter((item) => item.construct.startsWith('the Tailwind class'));
    expect(listed.map((item) => `${item.line}:${item.column} ${item.construct}`)).toEqual([
      '8:11 the Tailwind class text-brand',
      '8:11 the Tailwind class sm:text-[20px]',
    ]);
  });
});

const HTML = (body: string) => `<!doctype html><html><head><title>Hello</title></head><body>${body}</body></html>`;

describe('HTML: layouts of tables and tricks', () => {
  it('makes hybrid (ghost) columns <Columns>, Outlook’s conditional table never printed', () => {
    const { lmx, text } = fromHtml(
      HTML(`<div style="max-width:600px;margin:0 auto">
        <!--[if mso]><table role="presentation" width="600"><tr><td width="200" valign="top"><![endif]-->
        <div class="column" style="display:inline-block;max-width:200px;width:100%;vertical-align:top"><p>Left words here</p></div>
        <!--[if mso]></td><td width="400" valign="top"><![endif]-->
        <div class="column" style="display:inline-block;max-width:400px;width:100%;vertical-align:top"><p>Right words here</p></div>
        <!--[if mso]></td></tr></table><![endif]-->
      </div>`),
    );
    expect(lmx).toMatch(
      /<Columns gap="12" widths="33,67">\s*<ColumnItem>\s*<Paragraph[^>]*>Left words here<\/Paragraph>\s*<\/ColumnItem>\s*<ColumnItem>\s*<Paragraph[^>]*>Right words here<\/Paragraph>/,
    );
    expect(text).toBe('Left words here Right words here');
    expect(lmx).not.toContain('endif');
  });

  it('makes a presentation table of 2 to 4 cells <Columns>, centring kept', () => {
    const { lmx } = fromHtml(
      HTML(`<table role="presentation" width="100%"><tr>
        <td width="50%" align="center"><p>Fast delivery</p></td>
        <td width="50%" align="center"><p>Free returns</p></td>
      </tr></table>`),
    );
    expect(lmx).toMatch(
      /<Columns gap="12" stackOnMobile="false"[^>]*>\s*<ColumnItem>\s*<Paragraph align="center"[^>]*>Fast delivery<\/Paragraph>\s*<\/ColumnItem>\s*<ColumnItem>\s*<Paragraph align="center"[^>]*>Free returns/,
    );
  });

  it('recognises a button whose class is on the cell or table around its link, with their colours', () => {
    const { lmx } = fromHtml(
      HTML(`<table class="button" role="presentation" align="center"><tr>
        <td bgcolor="#348eda" style="border-radius:6px;padding:12px 24px"><a href="https://example.com/start" style="color:#ffffff;text-decoration:none">Get started</a></td>
      </tr></table>`),
    );
    expect(lmx).toMatch(
      /<Button href="https:\/\/example.com\/start" bgColor="#348eda" textColor="#ffffff" borderRadius="6"[^>]*align="center"[^>]*>Get started<\/Button>/,
    );
  });

  it('takes a link drawn as a block as wide as its table: full width in a table of 100%, its text’s width in one that shrinks', () => {
    // Cerberus (Mailgen's theme): `<table align="center" style="margin: auto">…<td class="button-td"><a style="display: block; padding: 15px">`, 162 px wide in Chromium.
    const button = (table: string) =>
      fromHtml(
        HTML(`<p>Your order has shipped.</p><table ${table}><tr><td class="button-td" bgcolor="#3869D4" align="center" style="border-radius: 3px">
          <a href="https://example.com/orders" style="display: block; padding: 15px; color: #ffffff; font-size: 13px; background-color: #3869D4">Track your order</a>
        </td></tr></table>`),
      );
    const shrunk = button('align="center" style="margin: auto"');
    expect(shrunk.lmx).toMatch(/<Button [^>]*innerYPadding="15" innerXPadding="15"[^>]*>Track your order</);
    expect(shrunk.findings.remediation.filter((item) => item.construct.startsWith('a full-width button'))).toEqual([]);
    const full = button('width="100%"');
    expect(full.findings.remediation.filter((item) => item.construct.startsWith('a full-width button')).map((item) => item.construct)).toEqual([
      'a full-width button (display: block)',
    ]);
  });

  it('makes a row of linked social icons <Icons>, each with its link, centred', () => {
    const { lmx, html } = fromHtml(
      HTML(`<table role="presentation" align="center"><tr>
        <td><a href="https://www.facebook.com/acme"><img src="https://cdn.example.com/fb.png" alt="Facebook" width="24"></a></td>
        <td><a href="https://x.com/acme"><img src="https://cdn.example.com/x.png" alt="X" width="24"></a></td>
        <td><a href="https://www.instagram.com/acme"><img src="https://cdn.example.com/ig.png" alt="Instagram" width="24"></a></td>
        <td><a href="https://www.linkedin.com/company/acme"><img src="https://cdn.example.com/in.png" alt="LinkedIn" width="24"></a></td>
        <td><a href="https://www.youtube.com/@acme"><img src="https://cdn.example.com/yt.png" alt="YouTube" width="24"></a></td>
      </tr></table>`),
    );
    expect(lmx.replace(/>\s+</g, '><')).toContain(
      '<Icons align="center"><Icon name="facebook" href="https://www.facebook.com/acme" /><Icon name="x-twitter" href="https://x.com/acme" /><Icon name="instagram" href="https://www.instagram.com/acme" /><Icon name="linkedin" href="https://www.linkedin.com/company/acme" /><Icon name="youtube" href="https://www.youtube.com/@acme" /></Icons>',
    );
    for (const address of ['https://www.facebook.com/acme', 'https://x.com/acme', 'https://www.youtube.com/@acme']) expect(html).toContain(`href="${address}"`);
  });

  it('keeps linked images of no known network as linked images, not as text', () => {
    const { lmx } = fromHtml(
      HTML(`<table role="presentation"><tr>
        <td><a href="https://example.com/a"><img src="https://example.com/a.png" alt="A"></a></td>
        <td><a href="https://example.com/b"><img src="https://example.com/b.png" alt="B"></a></td>
      </tr></table>`),
    );
    expect(lmx).toContain('<Image src="https://example.com/a.png" alt="A" href="https://example.com/a"');
    expect(lmx).toContain('<Image src="https://example.com/b.png" alt="B" href="https://example.com/b"');
  });
});

describe('centring', () => {
  it('keeps an image centred by its auto margins, and text centred by its alignment', () => {
    const { lmx } = fromReact(
      REACT(`<Container>
          <Img src="https://example.com/logo.png" width="120" alt="Acme" style={{ margin: '0 auto' }} />
          <Text style={{ textAlign: 'center' }}>Centred words</Text>
        </Container>`),
    );
    expect(lmx).toMatch(/<Image src="https:\/\/example.com\/logo.png" alt="Acme" width="120" align="center"/);
    expect(lmx).toContain('<Paragraph align="center" lineHeight="171">Centred words</Paragraph>');
  });

  it('places a block image where its Column’s align puts it, as Chromium draws a cell’s align attribute, but not by a text-align; aligns its text by it', () => {
    // Chromium, vercel-invite-user.tsx at 600 px: the images 218–282, 294–306 and 318–382 in cells 89–282, 282–318 and 318–512.
    const { lmx } = fromReact(
      REACT(`<Section>
          <Row>
            <Column align="right"><Img src="https://example.com/a.png" width="64" height="64" alt="A" /></Column>
            <Column align="center"><Img src="https://example.com/b.png" width="12" height="9" alt="B" /></Column>
            <Column style={{ textAlign: 'right' }}><Img src="https://example.com/c.png" width="64" height="64" alt="C" /></Column>
            <Column align="center"><Text>Invited</Text></Column>
          </Row>
        </Section>`),
    );
    expect(lmx).toMatch(/alt="A" width="64" align="right"/);
    expect(lmx).toMatch(/alt="B" width="12" align="center"/);
    expect(lmx).toMatch(/alt="C" width="64" align="left"/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*>Invited<\/Paragraph>/);
  });

  it('centres a block image in a cell whose align attribute or <center> says so, through a div between, until a text-align says otherwise', () => {
    // As Chromium draws them (`-webkit-center`, the text-align an align attribute gives, moves a block; `text-align: center` does not).
    const image = (alt: string) => `<img src="https://example.com/${alt}.png" width="100" height="10" alt="${alt}" style="display:block">`;
    const { lmx } = fromHtml(
      HTML(`<table width="600"><tr><td align="center">${image('a')}</td></tr></table>
        <table width="600"><tr><td style="text-align:center">${image('b')}</td></tr></table>
        <table width="600"><tr><td align="right"><div>${image('c')}</div></td></tr></table>
        <table width="600"><tr><td align="right"><div style="text-align:left">${image('d')}</div></td></tr></table>
        <center>${image('e')}</center>`),
    );
    const aligns = [...lmx.matchAll(/alt="(\w)" width="100" align="(\w+)"/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(aligns).toEqual(['a center', 'b left', 'c right', 'd left', 'e center']);
  });
});

describe('what LMX draws around no box of blocks', () => {
  it('lists a card’s border, from Tailwind’s classes or a style, and its shadow; a border that draws no line is not listed', () => {
    const { findings } = fromReact(
      REACT(`<Tailwind>
          <Container className="mx-auto max-w-[465px] rounded border border-[#eaeaea] border-solid p-[20px]">
            <Text>Carded</Text>
          </Container>
          <Section style={{ border: '1px solid #eee', boxShadow: '0 5px 10px rgba(20,50,70,.2)' }}>
            <Text>Shadowed</Text>
          </Section>
          <Section style={{ borderWidth: '1px', borderColor: '#eee' }}><Text>No line style</Text></Section>
          <Section style={{ border: 'none' }}><Text>None</Text></Section>
          <Section style={{ borderTop: '0 solid #eee', borderBottom: '1px dashed #ddd' }}><Text>Below</Text></Section>
        </Tailwind>`).replace('{ Body,', '{ Body, Tailwind,'),
    );
    const listed = findings.remediation.filter((item) => /^the (border|shadow)/.test(item.construct));
    expect(listed.map((item) => `${item.line} ${item.construct} (${item.outcome})`)).toEqual([
      '8 the border 1px solid #eaeaea (dropped)',
      '11 the border 1px solid #eee (dropped)',
      '11 the shadow 0 5px 10px rgba(20,50,70,.2) (dropped)',
      '16 the border-bottom 1px dashed #ddd (dropped)',
    ]);
  });
});

describe('HTML: Foundation for Emails’ grid of <th> columns', () => {
  // Foundation's Inky writes each column as a <th class="columns">, inside a table of its own: blocks in a header cell.
  const GRID = HTML(`<table class="row"><tbody><tr>
      <th class="small-12 large-6 columns first"><table><tr><th>
        <h1>Hi, Susan Calvin</h1>
        <p>Your order has shipped.</p>
        <img src="https://example.com/parcel.png" width="200" alt="A parcel">
      </th><th class="expander"></th></tr></table></th>
      <th class="small-12 large-6 columns last"><table><tr><th>
        <p>Questions? Write to us.</p>
      </th></tr></table></th>
    </tr></tbody></table>`);

  it('lays out a row of <th>s holding blocks as columns, keeping each heading, paragraph and image, bold and centred as browsers draw a <th>', () => {
    const { lmx, findings } = fromHtml(GRID);
    expect(findings.remediation.map((item) => item.construct)).not.toContain('a table used for content');
    expect(lmx).toMatch(/<Columns[^>]*>\s*<ColumnItem>\s*<H1 align="center"[^>]*>Hi, Susan Calvin<\/H1>/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*><Strong>Your order has shipped.<\/Strong><\/Paragraph>/);
    expect(lmx).toMatch(/<Image src="https:\/\/example.com\/parcel.png" alt="A parcel"/);
    expect(lmx).toMatch(/<Paragraph align="center"[^>]*><Strong>Questions\? Write to us.<\/Strong><\/Paragraph>/);
  });

  it('takes a <th>’s own style over its defaults, and its row’s alignment', () => {
    const { lmx } = fromHtml(
      HTML(`<table><tr style="text-align: left"><th><p>From the row</p></th></tr></table>
        <table><tr><th style="font-weight: normal; text-align: right"><p>Its own</p></th></tr></table>`),
    );
    expect(lmx).toMatch(/<Paragraph><Strong>From the row<\/Strong><\/Paragraph>/);
    expect(lmx).toMatch(/<Paragraph align="right"[^>]*>Its own<\/Paragraph>/);
  });

  it('shares a row out as its cells’ widths in pixels do: a 7-of-12 column beside a 5-of-12', () => {
    const { lmx } = fromHtml(
      HTML(`<table style="width: 580px"><tr>
        <th style="width: 338.33px"><h2>Hello, Han Fastolfe</h2><p>The main column.</p></th>
        <th style="width: 241.67px"><h3>Header</h3><p>The sidebar.</p></th></tr></table>`),
    );
    expect(lmx).toMatch(/<Columns gap="12" widths="58,42"/);
  });

  it('still reads header cells of text over rows as a table of content, listed', () => {
    const { lmx, findings } = fromHtml(HTML(`<table><tr><th>Item</th><th>Price</th></tr><tr><td>Chair</td><td>$120</td></tr></table>`));
    expect(findings.remediation.map((item) => item.construct)).toContain('a table used for content');
    expect(lmx).toContain('<Strong>Item — Price</Strong>');
  });

  it('lists the stylesheet a template links, which it does not read', () => {
    const { findings } = fromHtml(
      `<!doctype html><html><head><link rel="stylesheet" href="../assets/css/foundation-emails.css"></head><body><p>Hello</p></body></html>`,
    );
    expect(findings.remediation).toContainEqual(
      expect.objectContaining({ line: 1, construct: 'a linked stylesheet (<link href="../assets/css/foundation-emails.css">)', outcome: 'dropped' }),
    );
  });
});

describe('the layout model of HTML cells', () => {
  /** The content box the model gives the element with `id`, at a 600 px viewport. */
  function boxOf(html: string, id: string) {
    const { body } = readHtml(HTML(html), 'email.html', new Findings());
    const find = (nodes: readonly SourceNode[]): SourceElement | undefined => {
      for (const node of nodes)
        if (node.type === 'element') {
          const found = node.attrs.id === id ? node : find(node.children);
          if (found !== undefined) return found;
        }
      return undefined;
    };
    const { left, right } = new SourceLayout(body, 600).of(find([body])!)!.box;
    return [Math.round(left), Math.round(right)];
  }

  // Each box below is where Chromium draws it (measured on Foundation's templates by convert-layout-browser.test.ts).
  it('narrows cells whose widths overflow their table, in proportion', () => {
    const row = (id: string) => `<th id="${id}" style="box-sizing: border-box; width: 298px; padding: 0"><p>Side</p></th>`;
    expect(boxOf(`<table style="width: 580px; border-collapse: collapse"><tr>${row('a')}${row('b')}</tr></table>`, 'b')).toEqual([298, 588]);
  });

  it('counts a border-box cell’s padding inside its width', () => {
    const html = `<table style="width: 580px; border-collapse: collapse"><tr>
      <th id="a" style="box-sizing: border-box; width: 177.33px; padding-left: 16px; padding-right: 8px"><p>One</p></th>
      <th id="b" style="box-sizing: border-box; width: 370.67px; padding-left: 8px; padding-right: 16px"><p>Two</p></th></tr></table>`;
    // Chromium: 24–188 and 204–572 (its table at 8 px); the model within a pixel.
    for (const [id, chromium] of [
      ['a', [24, 188]],
      ['b', [204, 572]],
    ] as const)
      boxOf(html, id).forEach((edge, side) => expect(Math.abs(edge - chromium[side]!), `${id} ${side}`).toBeLessThanOrEqual(1));
  });

  it('shrinks a table of no width to what it holds: a button’s table in a centred cell as wide as its button', () => {
    const html = `<table style="width: 580px; border-collapse: collapse"><tr><td align="center" style="padding: 0">
      <table border="0" cellpadding="0" cellspacing="0"><tr><td id="button" style="padding: 12px 20px; background-color: #333333">
      <a href="https://example.com" style="color: #ffffff; font-family: Arial, sans-serif; font-size: 16px">Order page</a></td></tr></table></td></tr></table>`;
    // Chromium: 258–338, the button's text 81 px wide in the middle of the page.
    boxOf(html, 'button').forEach((edge, side) => expect(Math.abs(edge - [258, 338][side]!), `${side}`).toBeLessThanOrEqual(3));
  });

  it('counts a no-break space in a cell’s width as a space, which white space around it does not collapse', () => {
    const html = `<table style="width: 580px; border-collapse: collapse"><tr><td align="center" style="padding: 0">
      <table border="0" cellpadding="0" cellspacing="0"><tr><td id="label" style="font-family: Arial, sans-serif; font-size: 13px">
      &nbsp;&nbsp;&nbsp;&nbsp;Confirm your account&nbsp;&nbsp;&nbsp;&nbsp;</td></tr></table></td></tr></table>`;
    // Chromium: 222–374, the label's eight no-break spaces 29 px of it.
    boxOf(html, 'label').forEach((edge, side) => expect(Math.abs(edge - [222, 374][side]!), `${side}`).toBeLessThanOrEqual(3));
  });

  it('takes the columns of a table of `table-layout: fixed` from its first row, shares of it each its content’s, narrowed to fit', () => {
    const html = `<table style="table-layout: fixed; width: 580px" cellspacing="0" cellpadding="0">
      <tr><td id="a" style="width: 20%; padding: 10px">Mug</td><td id="b" style="width: 80%; padding: 10px">Stoneware mug</td></tr>
      <tr><td id="c" style="width: 50%">Total</td><td id="d" style="width: 50%">$4</td></tr></table>`;
    // Chromium: 18–125 and 145–578, then 8–135 and 135–588 (the second row's own shares have no say).
    for (const [id, chromium] of [
      ['a', [18, 125]],
      ['b', [145, 578]],
      ['c', [8, 135]],
      ['d', [135, 588]],
    ] as const)
      boxOf(html, id).forEach((edge, side) => expect(Math.abs(edge - chromium[side]!), `${id} ${side}`).toBeLessThanOrEqual(1));
  });

  it('shares a table of `table-layout: fixed` evenly among cells of no width, whatever they hold', () => {
    const html = `<table width="100%" style="table-layout: fixed" cellspacing="0" cellpadding="0"><tr>
      <td id="a" style="padding: 30px">A picture’s cell, wide words</td><td id="b" style="padding: 20px">Stoneware mug at a price</td></tr></table>`;
    // Chromium: 38–270 and 320–572.
    expect(boxOf(html, 'a')).toEqual([38, 270]);
    expect(boxOf(html, 'b')).toEqual([320, 572]);
  });

  it('gives a table’s row no padding, as browsers draw it', () => {
    const html = `<table style="width: 580px" cellspacing="0" cellpadding="0"><tr style="padding: 10px"><td id="a">Tea</td></tr></table>`;
    expect(boxOf(html, 'a')).toEqual([8, 588]);
  });

  it('sizes a table’s columns by every row’s cells, a shorter row’s too, not by each row’s own', () => {
    const html = `<table style="width: 580px; font-family: Arial, sans-serif; font-size: 16px" cellspacing="0" cellpadding="0">
      <tr><td id="a">Tea</td><td id="b">$4</td></tr>
      <tr><td>x</td><td>Delivery on Tuesday, by noon</td></tr>
      <tr><td style="width: 300px">&nbsp;</td></tr></table>`;
    // Chromium: 8–308 and 308–588, the first column as wide as the last row's cell says.
    expect(boxOf(html, 'a')).toEqual([8, 308]);
    expect(boxOf(html, 'b')).toEqual([308, 588]);
  });

  it('gives a table whose borders collapse no padding, as browsers draw it (Mailgen’s Neopolitan band)', () => {
    const html = `<table width="100%" style="padding: 0 15px; border-collapse: collapse" cellpadding="0" cellspacing="0"><tr><td id="a">Hi John</td></tr></table>`;
    // Chromium draws Neopolitan's cell across the whole band, 0–600 in a body of no margin; here 8–592.
    expect(boxOf(html, 'a')).toEqual([8, 592]);
  });

  it('leaves out of a cell’s width the white space a line of text starts and ends with, as browsers drop it (Salted’s header)', () => {
    const html = `<table style="width: 580px" cellspacing="0" cellpadding="0"><tr><td align="center">
      <table border="0" cellpadding="0" cellspacing="0"><tr><td id="a" style="font-family: Helvetica, Arial, sans-serif; font-size: 23px">
        <span>
          <a href="https://mailgen.js/" style="color: inherit; text-decoration: none">
            Mailgen
          </a>
        </span>
      </td></tr></table></td></tr></table>`;
    // Chromium: 258–338, the word alone.
    boxOf(html, 'a').forEach((edge, side) => expect(Math.abs(edge - [258, 338][side]!), `${side}`).toBeLessThanOrEqual(3));
  });

  it('stands cells drawn as blocks one under another, each the row’s width', () => {
    const html = `<table style="width: 580px; border-collapse: collapse"><tr>
      <th id="a" style="display: block; padding: 0"><a href="https://example.com">Twitter</a></th>
      <th id="b" style="display: block; padding: 0"><a href="https://example.com">Facebook</a></th></tr></table>`;
    expect(boxOf(html, 'a')).toEqual([8, 588]);
    expect(boxOf(html, 'b')).toEqual([8, 588]);
  });

  it('indents a list’s items by a browser’s 40 px where its style gives no padding', () => {
    expect(boxOf(`<ul id="a"><li>One</li></ul>`, 'a')).toEqual([48, 592]);
    expect(boxOf(`<ul id="a" style="padding-left: 12px"><li>One</li></ul>`, 'a')).toEqual([20, 592]);
  });

  it('carries that indent into the list’s items, where the list is judged to stand', () => {
    const { lmx, findings } = fromHtml(
      HTML(`<table width="100%"><tr><td style="padding: 0 24px"><ul><li>The card expired</li><li>Insufficient funds</li></ul></td></tr></table>`),
    );
    // A browser's 40 px, less the 24 px LMX draws a list's items in with (render/text.ts).
    expect(lmx).toMatch(/<ListItem paddingLeft="16">The card expired<\/ListItem>/);
    expect(findings.remediation.map((item) => item.construct)).not.toContain('the layout of <UnorderedList>');
  });
});

describe("the model of LMX's drawing", () => {
  it('places a list’s items where the renderer draws them: its indent, then their own padding', () => {
    const item = block('ListItem', { paddingLeft: '16' }, { inline: [{ text: 'One' }] });
    const list = block('UnorderedList', {}, { blocks: [item] });
    const body = bodyBox({}, 600);
    const placed = layoutLmx({}, [list], 600);
    expect(placed.get(list)!.box.left).toBe(body.left);
    expect(placed.get(item)!.box.left).toBe(body.left + LIST_INDENT_PX + 16);
    // The indent the model reads is the one the renderer draws.
    expect(renderLmx(parseLmx('<UnorderedList><ListItem>One</ListItem></UnorderedList>').document).html).toContain(`padding-left:${LIST_INDENT_PX}px`);
  });
});
