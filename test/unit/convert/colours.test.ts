/**
 * Colours counted: each text block's text colour and background as LMX draws them (its theme's
 * colours where it sets none) against its source's, in the fidelity line's `colours N of M`; each
 * change listed once for the email, with how many blocks it holds for.
 */
import { describe, expect, it } from 'vitest';
import { compareColours, rememberLook } from '../../../src/convert/contrast.js';
import { convertDocument } from '../../../src/convert/document.js';
import { writeLmx } from '../../../src/convert/lmx-out.js';
import { Findings } from '../../../src/convert/model.js';
import { readHtml } from '../../../src/convert/sources/html-source.js';
import { readMjml } from '../../../src/convert/sources/mjml-source.js';
import { readReact } from '../../../src/convert/sources/react-source.js';

function colours(read: (findings: Findings) => ReturnType<typeof readHtml>) {
  const findings = new Findings();
  const { style, blocks } = convertDocument(read(findings), 'transactional', findings);
  const measure = compareColours(blocks, style, findings);
  const entries = findings.remediation.filter((item) => /^the colours? of/.test(item.construct)).map((item) => `${item.line} ${item.construct}: ${item.done}`);
  return { measure, entries, lmx: writeLmx(style, blocks) };
}

const mjml = (body: string) =>
  colours((findings) => readMjml(`<mjml><mj-body>\n${body}\n</mj-body></mjml>`, 'email.mjml', findings, { readInclude: () => ({ file: '', source: '' }) }));
const html = (body: string) =>
  colours((findings) => readHtml(`<!doctype html><html><head><title>Hi</title></head><body>\n${body}\n</body></html>`, 'email.html', findings));

describe('colours in the fidelity line', () => {
  it('counts a text kept in its colour on its background as the source draws it, and lists nothing', () => {
    const { measure, entries } = html('<p style="color:#333333">Your order has shipped.</p>\n<p style="color:#333333">It arrives on Friday.</p>');
    expect(measure).toEqual({ source: 2, kept: 2 });
    expect(entries).toEqual([]);
  });

  it('draws headings in the colour the source draws them in: each level the email has takes the base colour, not the theme’s near-black', () => {
    const { measure, entries, lmx } = mjml(
      '<mj-section><mj-column><mj-text color="#f45e43"><h1>Welcome aboard</h1>\n<h2>One</h2>\n<p>Your account is ready.</p></mj-text></mj-column></mj-section>',
    );
    expect(lmx).toMatch(/^<Style textBaseColor="#f45e43"[^>]* heading1Color="#f45e43" heading2Color="#f45e43"/);
    expect(measure).toEqual({ source: 3, kept: 3 });
    expect(entries).toEqual([]);
  });

  it('lists one change once for the blocks it holds for: text drawn in the theme’s colour where LMX cannot give it its own', () => {
    const findings = new Findings();
    const blocks = ['One', 'Two', 'Three'].map((text) => ({ tag: 'Paragraph', attrs: {}, inline: [{ text }] }));
    for (const [line, made] of blocks.entries()) rememberLook(made, '#f45e43', undefined, { file: 'email.html', line: line + 2, column: 1 });
    expect(compareColours(blocks, { textBaseColor: '#333333' }, findings)).toEqual({ source: 3, kept: 0 });
    expect(findings.remediation.map((item) => `${item.line} ${item.construct}: ${item.done}`)).toEqual([
      '2 the colours of <Paragraph> and 2 more blocks: text drawn #333333, where the source draws it #f45e43',
    ]);
    // Each of the others named by its place, for each block to be found.
    expect(findings.remediation[0]!.also).toEqual([3, 4].map((line) => ({ file: 'email.html', line, column: 1 })));
  });

  it('draws text the source gave no colour in its black, and links of no colour in a browser’s blue, the email’s link colour', () => {
    const { measure, entries, lmx } = html(
      '<p>Read <a href="https://example.com/a">the guide</a> or <a href="https://example.com/b">the forum</a>.</p>\n<h1>Welcome</h1>',
    );
    expect(lmx).toMatch(/^<Style textBaseColor="#000000"[^>]* textLinkColor="#0000ee" heading1Color="#000000"/);
    expect(measure).toEqual({ source: 4, kept: 4 });
    expect(entries).toEqual([]);
  });

  it('draws links where none has a colour of its own in the browser’s blue they are drawn in', () => {
    const plain = (body: string) =>
      mjml(`<mj-section${body}><mj-column><mj-text>Write to <a href="mailto:help@acme.example">help@acme.example</a>.</mj-text></mj-column></mj-section>`);
    const { lmx, measure } = plain('');
    expect(lmx).toMatch(/^<Style [^>]*textLinkColor="#0000ee"/);
    expect(measure).toEqual({ source: 2, kept: 2 });
    // On a dark body too, as the source draws them there (content check warns that they do not read).
    expect(plain(' background-color="#111111"').lmx).toMatch(/^<Style [^>]*textLinkColor="#0000ee"/);
    // Below a dark header band taken for the body, on the white page they stood on, it reads.
    const receipt = mjml(
      `<mj-section background-color="#0f172a"><mj-column><mj-text color="#f8fafc">Your receipt from Acme, order 1042</mj-text></mj-column></mj-section>\n<mj-section><mj-column><mj-text>Write to <a href="mailto:help@acme.example">help@acme.example</a>.</mj-text></mj-column></mj-section>`,
    );
    expect(receipt.lmx).toMatch(/^<Style [^>]*bodyColor="#0f172a"[^>]*textLinkColor="#0000ee"/);
  });

  it('draws a React Email <Link> of no colour in the #067df7 React Email gives it, not the theme’s link colour', () => {
    const { measure, lmx } = colours((findings) =>
      readReact(
        `import { Body, Html, Link, Text } from '@react-email/components';
export default function Email() {
  return (<Html><Body><Text>Read <Link href="https://acme.example/docs">the docs</Link> first.</Text></Body></Html>);
}
`,
        'email.tsx',
        findings,
      ),
    );
    expect(lmx).toMatch(/^<Style [^>]*textLinkColor="#067df7"/);
    expect(measure).toEqual({ source: 2, kept: 2 });
  });

  it('keeps the colour of a box inside a section behind its text blocks, as LMX sections do not nest (Foundation’s callouts)', () => {
    const { lmx, measure } = html(
      '<p style="color:#333333">Plain words on the body, enough of them to be most of the text here.</p>\n' +
        '<div style="background:#f5f5f5"><p style="color:#333333">Band words.</p><div style="background:#dddddd"><p style="color:#333333">Callout words.</p></div></div>',
    );
    expect(lmx).toContain(
      '<Section blockColor="#f5f5f5" paddingLeft="8" paddingRight="8">\n  <Paragraph>Band words.</Paragraph>\n  <Paragraph blockColor="#dddddd">Callout words.</Paragraph>',
    );
    expect(measure).toEqual({ source: 3, kept: 3 });
  });

  it('colours a table of content’s rows as their first cells colour their text (Mailgen’s Salted receipts)', () => {
    const { lmx } = html(
      '<p style="color:#333333">Your receipt, with every line of the order and the total paid by card.</p>\n<table width="100%">' +
        '<tr><th style="color:#9ba2ab">Item</th><th style="color:#9ba2ab">Price</th></tr>' +
        '<tr><td style="color:#9ba2ab">Tea</td><td style="color:#9ba2ab">$2.00</td></tr><tr><td style="color:#9ba2ab">Cake</td><td style="color:#9ba2ab">$3.50</td></tr></table>',
    );
    expect(lmx).toContain('<Text textColor="#9ba2ab">Tea — $2.00</Text>');
  });

  it('colours a table of content’s rows as the blocks in their first cells colour their text (Mailgen’s Salted headers)', () => {
    const { lmx } = html(
      '<p style="color:#333333">Your receipt, with every line of the order and the total paid by card.</p>\n<table width="100%" style="color:#666666">' +
        '<tr><th><p style="color:#9ba2ab">Item</p></th><th><p style="color:#9ba2ab">Price</p></th></tr>' +
        '<tr><td>Tea</td><td><p style="color:#cc0000">$2.00</p></td></tr></table>',
    );
    expect(lmx).toContain('<Text textColor="#9ba2ab">Item — Price</Text>');
    // A cell's block of another colour than the row's keeps its own.
    expect(lmx).toContain('<Text textColor="#666666">Tea — </Text><Text textColor="#cc0000">$2.00</Text>');
  });

  it('counts and lists text that stood on a background image LMX drops as on another background (MJML’s hero)', () => {
    const { measure, entries } = mjml(
      '<mj-hero background-url="https://example.com/space.jpg" background-color="#2a3448"><mj-text color="#ffffff">Go to space</mj-text></mj-hero>',
    );
    expect(measure).toEqual({ source: 1, kept: 0 });
    expect(entries).toEqual(['2 the colours of <Paragraph>: on #2a3448, where the source has a background image']);
  });

  it('counts what an image and a button stand on, and lists the hero’s button where the source has its picture', () => {
    const { measure, entries } = mjml(
      '<mj-hero background-url="https://example.com/space.jpg" background-color="#2a3448"><mj-text color="#ffffff">Go to space</mj-text>\n<mj-button href="https://example.com/go">Book now</mj-button></mj-hero>\n<mj-section><mj-column><mj-image src="https://example.com/a.png" width="80px" /></mj-column></mj-section>',
    );
    // The text and the button on the picture LMX drops; the image on the body, as in the source.
    expect(measure).toEqual({ source: 3, kept: 1 });
    expect(entries).toEqual(['2 the colours of <Paragraph> and 1 more block: on #2a3448, where the source has a background image']);
  });

  it('draws an accordion’s titles and texts in their own colours, on their own backgrounds (MJML’s accordion)', () => {
    const { lmx, measure } = mjml(
      '<mj-section background-color="#ffffff"><mj-column background-color="#dededd"><mj-accordion><mj-accordion-element>' +
        '<mj-accordion-title background-color="#ffffff" color="#031017">Why use an accordion?</mj-accordion-title>' +
        '<mj-accordion-text background-color="#fafafa" color="#505050">Because emails with a lot of content read badly on a phone.</mj-accordion-text>' +
        '</mj-accordion-element></mj-accordion></mj-column></mj-section>',
    );
    expect(lmx).toMatch(/^<Style [^>]*textBaseColor="#031017"/);
    expect(lmx).toContain('<H3 blockColor="#ffffff">Why use an accordion?</H3>');
    expect(lmx).toContain('<Paragraph blockColor="#fafafa"><Text textColor="#505050">Because emails');
    expect(measure.kept).toBe(measure.source);
  });

  it('keeps text outside the sections of the body’s colour on the white of a page of no colour (Vendure’s order summary)', () => {
    const { lmx, measure } = mjml(
      '<mj-section background-color="#f5f5f5"><mj-column><mj-text>Dear customer, thank you for your order, which is on its way to you now.</mj-text></mj-column></mj-section>\n' +
        '<mj-section background-color="#f5f5f5"><mj-column><mj-text>We will write again once it has been delivered to your door.</mj-text></mj-column></mj-section>\n' +
        '<mj-section><mj-column><mj-text>Order summary</mj-text></mj-column></mj-section>',
    );
    expect(lmx).toMatch(/^<Style bodyColor="#f5f5f5"/);
    expect(lmx).toMatch(/<Paragraph blockColor="#ffffff"[^>]*>Order summary/);
    expect(measure).toEqual({ source: 3, kept: 3 });
  });

  it('gives text of no colour its black where the base colour is another text’s', () => {
    const { lmx } = html('<p style="color:#666666">Your order has shipped, and it should reach you on Friday.</p>\n<p>Order 1042</p>');
    expect(lmx).toContain('<Paragraph><Text textColor="#000000">Order 1042</Text></Paragraph>');
  });

  it('takes a link of `color: initial` as black, listed where the email’s link colour is another (Mailgen’s Neopolitan)', () => {
    const { measure } = html(
      '<p style="color:#333333">Read <a href="https://example.com/a" style="color:#0a7d4f">the guide</a> or paste <a href="https://example.com/b" style="color: initial">https://example.com/b</a>.</p>',
    );
    expect(measure).toEqual({ source: 3, kept: 2 });
  });

  it('counts a link of no colour in a browser’s blue: kept in its words’ own where the email’s link colour would not read (Mailgen’s Cerberus)', () => {
    // The header's white link gives the email its link colour; the links of the grey box have none.
    const { measure, lmx } = html(
      '<table width="600" style="background-color:#ffffff"><tr><td>\n' +
        '<table width="100%"><tr><td style="background-color:#222222"><a href="https://example.com/" style="color:#ffffff">Acme</a></td></tr></table>\n' +
        '<p style="color:#555555">Welcome to Acme: we are glad you are here.</p>\n' +
        '<table width="100%"><tr><td style="background-color:#f8f8f8"><p style="color:#555555">Or paste <a href="https://example.com/confirm">https://example.com/confirm</a> into your browser.</p></td></tr></table>\n' +
        '</td></tr></table>',
    );
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#ffffff"/);
    expect(lmx).toContain('<Link href="https://example.com/confirm"><Underline textColor="#0000ee">https://example.com/confirm</Underline></Link>');
    expect(measure).toEqual({ source: 4, kept: 4 });
  });

  it('counts and lists a link of no colour drawn in another link colour that reads, and takes `color: inherit` as the text’s (Mailgen’s Salted)', () => {
    const findings = new Findings();
    const { style, blocks } = convertDocument(
      readHtml(
        '<!doctype html><html><body><p style="color:#666666">Read <a href="https://example.com/a" style="color:#666666">the guide</a>, <a href="https://example.com/b" style="color:#666666">the forum</a> and <a href="https://example.com/c" style="color: inherit">the blog</a>, or paste <a href="https://example.com/d">https://example.com/d</a>.</p></body></html>',
        'email.html',
        findings,
      ),
      'transactional',
      findings,
    );
    expect(style.textLinkColor).toBe('#666666');
    expect(compareColours(blocks, style, findings)).toEqual({ source: 5, kept: 4 });
    expect(findings.remediation.filter((item) => / in #/.test(item.construct)).map((item) => `${item.line} ${item.construct}: ${item.done}`)).toEqual([
      "1 a link in #0000ee: drawn in the email's link colour #666666 (textLinkColor) (#0000ee is the blue a browser draws a link of no colour of its own in): LMX gives every link of an email one colour",
    ]);
  });

  it('takes a React Email <Link> of no style in the colour React Email draws it, not a browser’s blue', () => {
    const { measure, lmx } = colours((findings) =>
      readReact(
        'import { Body, Html, Link, Text } from \'@react-email/components\';\nexport default function Email() {\n  return (\n    <Html>\n      <Body>\n        <Text>Read <Link href="https://example.com/guide">the guide</Link> first.</Text>\n      </Body>\n    </Html>\n  );\n}\n',
        'email.tsx',
        findings,
      ),
    );
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#067df7"/);
    expect(measure).toEqual({ source: 2, kept: 2 });
  });

  it('counts links in the email’s link colour as kept, and one of another colour once, as the mapping lists it', () => {
    const { measure, entries } = html(
      '<p style="color:#333333">Read <a href="https://example.com/a" style="color:#0a7d4f">the guide</a>, <a href="https://example.com/b" style="color:#0a7d4f">the forum</a> or <a href="https://example.com/c" style="color:#cc0000">the blog</a>.</p>',
    );
    expect(measure).toEqual({ source: 4, kept: 3 });
    expect(entries).toEqual([]);
  });
});
