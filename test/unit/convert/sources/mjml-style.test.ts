/**
 * MJML's `<mj-style>`, applied as MJML's compiled HTML applies it: mjml-head-style's README says it
 * "Allows you to set CSS styles that will be applied to your MJML document as well as the outputted
 * HTML", and that "the `css-class` will be applied to the most outer HTML tag". Its own example,
 * from the corpus, and the class rules Covalent's design system writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { fromMjml } from '../layout-support.js';

const MJML = (body: string, head: string) => `<mjml><mj-head>${head}</mj-head><mj-body>${body}</mj-body></mjml>`;

describe('<mj-style>', () => {
  it('colours the README’s texts as MJML draws them: red and blue by their css-class’s rules, green by its mj-class', () => {
    const { lmx, findings } = fromMjml(readFileSync(join(corpusDirectory(), 'mjml/head-style-readme.mjml'), 'utf8'));
    const colourOf = (words: string) =>
      new RegExp(`<Text textColor="(#[0-9a-f]+)">${words}`).exec(lmx)?.[1] ?? /<Style [^>]*textBaseColor="(#[0-9a-f]+)"/.exec(lmx)?.[1];
    expect(colourOf("I'm red and underlined")).toBe('#ff0000');
    expect(colourOf("I'm blue because of inline")).toBe('#0000ff');
    expect(colourOf("I'm green")).toBe('#008000');
    const listed = findings.remediation.filter((item) => item.construct === 'custom CSS (<mj-style>)');
    expect(listed.map((item) => [item.outcome, item.done.split(';')[0]])).toEqual([
      ['approximated', 'its rules carried onto the 1 element they style, weighed as a browser weighs them'],
      ['approximated', 'its rules carried onto the 1 element they style, weighed as a browser weighs them'],
    ]);
  });

  it('weighs a rule under the attributes MJML writes inline, and an important one over them', () => {
    const body =
      '<mj-section><mj-column css-class="panel"><mj-text css-class="note" color="#333333">Your order is on its way.</mj-text></mj-column></mj-section>';
    const plain = fromMjml(MJML(body, '<mj-style>.note div { color: #ff0000 } .panel { background-color: #00233c !important }</mj-style>'));
    expect(plain.lmx).not.toContain('#ff0000');
    expect(plain.lmx).toContain('#00233c');
    const important = fromMjml(MJML(body, '<mj-style>.note div { color: #ffffff !important } .panel { background-color: #00233c !important }</mj-style>'));
    expect(important.lmx).toMatch(/<Text textColor="#ffffff">Your order is on its way.<\/Text>|textBaseColor="#ffffff"/);
  });

  it('draws a link whose colour the stylesheet gives back in its text’s colour, as Covalent’s `a { color: inherit }` does', () => {
    const body =
      '<mj-section><mj-column><mj-text color="#394851">Read <a href="https://acme.example/guide">the guide</a> first, then the notes.</mj-text></mj-column></mj-section>';
    const { lmx } = fromMjml(MJML(body, '<mj-style>a { color: inherit !important }</mj-style>'));
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#394851"/);
  });

  it('lists the links it colours otherwise than the email’s one link colour, and gives Covalent’s white link on its dark panel its own', () => {
    // `.color-white a { color: #ffffffff !important }` on the "Need help?" panel, `a { color: inherit !important }` in its grey texts.
    const { lmx, findings } = fromMjml(readFileSync(join(corpusDirectory(), 'mjml-covalent/welcome-letter.mjml'), 'utf8'));
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#394851"/);
    expect(
      findings.remediation.filter((item) => / links? in #/.test(item.construct)).map((item) => `${item.line}:${item.column} ${item.construct}: ${item.done}`),
    ).toEqual(["324:13 3 links in #727d9c: drawn in the email's link colour #394851 (textLinkColor): LMX gives every link of an email one colour"]);
    // The email's link colour would not read on the dark panel: the white link's words and underline keep their white.
    expect(lmx).toMatch(/<Link href="[^"]+"><Underline textColor="#ffffff">[^<]+<\/Underline><\/Link>/);
  });

  it('draws Vendure’s address as lines, its list drawn with no markers by `ul.address { list-style-type: none }`', () => {
    const { lmx } = fromMjml(readFileSync(join(corpusDirectory(), 'mjml-vendure/order-confirmation.mjml'), 'utf8'));
    expect(lmx).toMatch(/<Paragraph[^>]*>\{data\.order_shippingAddress_company\}<Br \/>\{data\.order_shippingAddress_streetLine1\}<Br \/>/);
    expect(lmx).not.toContain('<ListItem');
  });

  it('applies a <style> written in an <mj-raw>, which MJML writes into the page as it is (Vendure’s order confirmation)', () => {
    const body =
      '<mj-raw><style type="text/css">.callout { background-color: #375a67 } .callout-large > div { color: #fff !important; text-align: center !important }</style></mj-raw>' +
      '<mj-section css-class="callout"><mj-column><mj-text css-class="callout-large"><strong>Order Code</strong></mj-text></mj-column></mj-section>' +
      '<mj-section><mj-column><mj-text>Thank you for your order. We will let you know as soon as it ships, with a link to follow it.</mj-text></mj-column></mj-section>';
    const { lmx, findings } = fromMjml(`<mjml><mj-body>${body}</mj-body></mjml>`);
    expect(lmx).toContain('#375a67');
    expect(lmx).toMatch(
      /<Section blockColor="#375a67"[^>]*>\s*<Paragraph align="center"[^>]*><Text textColor="#fff"><Strong>Order Code<\/Strong><\/Text><\/Paragraph>/,
    );
    expect(findings.remediation.filter((item) => item.construct === 'custom CSS (<style>)').map((item) => item.outcome)).toEqual(['approximated']);
  });
});

describe('<mj-style> on a button', () => {
  const buttonsOf = (lmx: string) =>
    [...lmx.matchAll(/<Button [^>]*bgColor="(#[0-9a-f]+)" textColor="(#[0-9a-f]+)"[^>]*>([^<]*)</g)].map(
      ([, bg, text, label]) => `${label!.replace(/\s+/g, ' ').trim()}: ${bg} on ${text}`,
    );

  it('reaches its link and its cell as MJML compiles them: Covalent’s `.cta-button a` and `.primary-button td` colour its buttons', () => {
    // Covalent's stylesheet: `.cta-button p, .cta-button a, .cta-button td { background-color: #00233cff !important; color: #ffffffff !important }`,
    // and the same of `.primary-button` in #3053f4ff; mj-button's own default background is #414141.
    const read = (name: string) => buttonsOf(fromMjml(readFileSync(join(corpusDirectory(), `mjml-covalent/${name}`), 'utf8')).lmx);
    expect(read('welcome-letter.mjml')).toEqual(['Verify email and create your password →: #00233c on #ffffff']);
    expect(read('workshop.mjml')).toEqual(['Learn how →: #00233c on #ffffff', 'Get started →: #3053f4 on #ffffff']);
  });

  it('takes its cell’s background where a rule clears its link’s, keeps its own colours over a rule of less weight, and inherits one given back', () => {
    const body = (cssClass: string) =>
      `<mj-section><mj-column><mj-button css-class="${cssClass}" href="https://acme.example/start" background-color="#414141" color="#ffffff">Start</mj-button></mj-column></mj-section>`;
    const cleared = fromMjml(
      MJML(body('ghost'), '<mj-style>.ghost td { background-color: #123456 !important } .ghost a { background-color: transparent !important }</mj-style>'),
    );
    expect(buttonsOf(cleared.lmx)).toEqual(['Start: #123456 on #ffffff']);
    const plain = fromMjml(MJML(body('plain'), '<mj-style>.plain a { color: #ff0000 }</mj-style>'));
    // A rule under the link's own inline style, which MJML writes, does not win.
    expect(buttonsOf(plain.lmx)).toEqual(['Start: #414141 on #ffffff']);
    // Covalent's `a { color: inherit !important }` reaches a button's link too: with no colour on the page, a browser draws its text black.
    const inherited = fromMjml(MJML(body('any'), '<mj-style>a { color: inherit !important }</mj-style>'));
    expect(buttonsOf(inherited.lmx)).toEqual(['Start: #414141 on #000000']);
  });
});
