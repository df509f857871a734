/**
 * The HTML reader's media queries: which queries name a phone's screen, how their rules weigh
 * against an element's own style, and which cells they stack, read from Foundation for Emails' own
 * stylesheet as its package ships it and from rules written as templates write them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SourceLayout } from '../../../../src/convert/layout/layout.js';
import { Findings, FULL_WIDTH_UP_TO, type SourceElement } from '../../../../src/convert/model.js';
import { MAX_STYLE_RULES } from '../../../../src/convert/sources/html-cascade.js';
import { maxWidthOf, minWidthOf } from '../../../../src/convert/sources/html-rules.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { styleAt } from '../../../../src/convert/styles.js';
import { fromHtml } from '../layout-support.js';

const FOUNDATION_CSS = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('foundation-emails/package.json')), 'dist/foundation-emails.css'),
  'utf8',
);

const page = (css: string, body: string) => `<!DOCTYPE html><html><head><style>${css}</style></head><body>${body}</body></html>`;

/** The elements of a read document by their class. */
function byClass(body: SourceElement, name: string): SourceElement[] {
  const found: SourceElement[] = [];
  const walk = (node: SourceElement) => {
    if ((node.attrs.class ?? '').split(/\s+/).includes(name)) found.push(node);
    for (const child of node.children) if (child.type === 'element') walk(child);
  };
  walk(body);
  return found;
}

/** A Foundation row as its Inky compiles it: a table of class row, a `th` of columns per column, with the styles the stylesheet inlines. */
const foundationRow = (small: number, large: number) => `<table class="body"><tr><td><table class="container" style="width: 580px"><tr><td>
  <table class="row"><tbody><tr>
    <th class="small-${small} large-${large} columns first" style="width: 274px; padding-left: 16px; padding-right: 8px"><p>One</p></th>
    <th class="small-${small} large-${large} columns last" style="width: 274px; padding-left: 8px; padding-right: 16px"><p>Two</p></th>
  </tr></tbody></table>
</td></tr></table></td></tr></table>`;

describe('the media queries of an HTML email', () => {
  it('reads a query of a screen’s width alone, in pixels or ems, and no other', () => {
    expect(maxWidthOf('only screen and (max-width: 596px)')).toBe(596);
    expect(maxWidthOf('screen and (max-width:600px)')).toBe(600);
    expect(maxWidthOf('(max-width: 37.5em)')).toBe(600);
    expect(maxWidthOf('screen and (max-device-width: 480px), screen and (max-width: 500px)')).toBe(500);
    for (const other of [
      'only screen',
      'print',
      'screen and (min-width: 600px)',
      '(prefers-color-scheme: dark)',
      'screen and (max-width: 600px) and (orientation: portrait)',
    ])
      expect(maxWidthOf(other)).toBeUndefined();
  });

  it('stacks Foundation’s small-12 columns on a phone, by its own stylesheet, and keeps its small-6 columns side by side', () => {
    const stacked = readHtml(page(FOUNDATION_CSS, foundationRow(12, 6)), 'email.html', new Findings());
    const columns = byClass(stacked.body, 'columns');
    expect(columns.map((cell) => cell.attrs[FULL_WIDTH_UP_TO])).toEqual(['596', '596']);
    // Its phone padding, `!important`, over the element's own; its 100% width, over 274 px.
    expect(styleAt(columns[0]!, 375)).toMatchObject({ 'padding-left': '16px', 'padding-right': '16px', width: '100%', display: 'inline-block' });
    expect(styleAt(columns[0]!, 600)).toMatchObject({ 'padding-right': '8px', width: '274px' });
    const layout = new SourceLayout(stacked.body, 375);
    // One under the other, each the width of its row less its 16 px each side, in a container 95% of what holds it.
    const row = layout.of(byClass(stacked.body, 'row')[0]!)!.box;
    expect(columns.map((cell) => layout.of(cell)!.box)).toEqual([
      { left: row.left + 16, right: row.right - 16 },
      { left: row.left + 16, right: row.right - 16 },
    ]);
    const container = byClass(stacked.body, 'container')[0]!;
    expect(styleAt(container, 375).width).toBe('95%');
    expect(layout.of(container)!.box.right - layout.of(container)!.box.left).toBeLessThanOrEqual(0.95 * 375);
    const wide = new SourceLayout(stacked.body, 600);
    expect(wide.of(columns[1]!)!.box.left).toBeGreaterThan(wide.of(columns[0]!)!.box.right);

    const halves = readHtml(page(FOUNDATION_CSS, foundationRow(6, 6)), 'email.html', new Findings());
    expect(byClass(halves.body, 'columns').map((cell) => cell.attrs[FULL_WIDTH_UP_TO])).toEqual([undefined, undefined]);
  });

  it('converts stacked cells to Columns that stack on mobile, and says so where it lists the stylesheet', () => {
    const { lmx, findings } = fromHtml(page(FOUNDATION_CSS, foundationRow(12, 6)));
    expect(lmx).toMatch(/<Columns(?![^>]*stackOnMobile)[^>]*>/);
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    expect(css.done).toContain('columns that stack on a phone (2 cells, read as Columns that stack)');
    expect(fromHtml(page(FOUNDATION_CSS, foundationRow(6, 6))).lmx).toMatch(/<Columns[^>]*stackOnMobile="false"/);
  });

  it('weighs an element’s own style over a rule that is not important, and an important rule over both', () => {
    const row = (style: string) => `<table><tr><td class="stack" style="${style}">One</td><td class="stack" style="${style}">Two</td></tr></table>`;
    const read = (css: string, style = '') => byClass(readHtml(page(css, row(style)), 'email.html', new Findings()).body, 'stack');
    // Cerberus' form: `.stack-column { display: block !important; width: 100% !important }`.
    expect(
      read('@media screen and (max-width: 600px) { .stack { display: block !important; width: 100% !important } }', 'width: 50%')[0]!.attrs[FULL_WIDTH_UP_TO],
    ).toBe('600');
    expect(read('@media screen and (max-width: 600px) { .stack { display: block; width: 100% } }', 'width: 50%')[0]!.attrs[FULL_WIDTH_UP_TO]).toBeUndefined();
    expect(read('@media screen and (max-width: 600px) { .stack { display: block } }')[0]!.attrs[FULL_WIDTH_UP_TO]).toBe('600');
    // Later rules win, but never over an important one.
    expect(read('@media (max-width: 600px) { .stack { display: block !important } td.stack { display: table-cell } }')[0]!.attrs[FULL_WIDTH_UP_TO]).toBe('600');
    expect(read('@media (max-width: 600px) { .stack { display: block } td.stack { display: table-cell } }')[0]!.attrs[FULL_WIDTH_UP_TO]).toBeUndefined();
    // A shorthand of the rule's over the element's own longhand.
    const [cell] = read('@media (max-width: 600px) { .stack { padding: 4px !important } }', 'padding-left: 30px');
    expect(styleAt(cell!, 375)).toMatchObject({ padding: '4px' });
    expect(styleAt(cell!, 375)['padding-left']).toBeUndefined();
  });

  it('reads nothing of a stylesheet it cannot parse, and passes over a selector it does not know', () => {
    const row = '<table><tr><td class="stack">One</td><td class="stack">Two</td></tr></table>';
    const broken = readHtml(page('@media (max-width: 600px) { .stack { display: block !important ', row), 'email.html', new Findings());
    expect(byClass(broken.body, 'stack').map((cell) => cell.attrs[FULL_WIDTH_UP_TO])).toEqual([undefined, undefined]);
    const unknown = readHtml(
      page('@media (max-width: 600px) { .stack::-webkit-scrollbar { display: block } .stack { display: block !important } }', row),
      'email.html',
      new Findings(),
    );
    expect(byClass(unknown.body, 'stack').map((cell) => cell.attrs[FULL_WIDTH_UP_TO])).toEqual(['600', '600']);
  });

  it('reads an email’s stylesheet up to its bounds, listing the rules past them', () => {
    const findings = new Findings();
    const rules = Array.from({ length: MAX_STYLE_RULES + 1000 }, (_, index) => `.s${index} { display: block !important; }`).join('\n');
    const { body } = readHtml(
      page(`@media (max-width: 600px) {\n${rules}\n}`, '<table><tr><td class="s4999">A</td><td class="s5000">B</td></tr></table>'),
      'email.html',
      findings,
    );
    // The last rule read is the 5,000th: its cell stacks on a phone, the next one's does not.
    expect(byClass(body, 's4999')[0]!.attrs[FULL_WIDTH_UP_TO]).toBe('600');
    expect(byClass(body, 's5000')[0]!.attrs[FULL_WIDTH_UP_TO]).toBeUndefined();
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    expect(css.done).toContain('1000 rules of it not read');
  });

  it('reads fewer rules of an email of many elements, so that matching them stays bounded', () => {
    const findings = new Findings();
    const rules = Array.from({ length: 1000 }, (_, index) => `td.c${index} { display: block !important; }`).join('\n');
    const rows = Array.from({ length: 500 }, (_, index) => `<tr><td class="c${index}"><div><span>${index}</span></div></td><td>x</td></tr>`).join('');
    readHtml(page(`@media (max-width: 600px) {\n${rules}\n}`, `<table>${rows}</table>`), 'email.html', findings);
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    const unread = Number(/(\d+) rules of it not read/.exec(css.done)?.[1]);
    // About 2,500 elements (five a row): two million tests of a selector against one reach some 800 rules.
    expect(unread).toBeGreaterThan(150);
    expect(unread).toBeLessThan(250);
  });

  it('bounds the declarations rules give the elements they match, all told: `* { … }` repeated gives each element every one', () => {
    const findings = new Findings();
    const declarations = Array.from({ length: 20 }, (_, index) => `padding-left: ${index}px`).join('; ');
    const rules = Array.from({ length: 300 }, () => `* { ${declarations} }`).join('\n');
    const rows = Array.from({ length: 100 }, (_, index) => `<div><p>Row ${index}</p></div>`).join('');
    readHtml(page(rules, rows), 'email.html', findings);
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    // About 200 elements: 200,000 declarations given are some 50 rules of 20, the rest unread.
    const unread = Number(/(\d+) rules of it not read/.exec(css.done)?.[1]);
    expect(unread).toBeGreaterThan(230);
    expect(unread).toBeLessThan(260);
  });

  it('passes over a rule of :has(), which tests every element below each one', () => {
    const { body } = readHtml(
      page(
        '@media (max-width: 600px) { td:has(span) { display: block !important } }',
        '<table><tr><td class="a"><span>A</span></td><td class="a"><span>B</span></td></tr></table>',
      ),
      'email.html',
      new Findings(),
    );
    expect(byClass(body, 'a').map((cell) => cell.attrs[FULL_WIDTH_UP_TO])).toEqual([undefined, undefined]);
  });
});

describe('a text size a phone’s media query changes', () => {
  it('is listed at the block, which LMX draws at one size on every screen; a size the same on both is not', () => {
    // Mailgun's transactional templates: `@media only screen and (max-width: 640px) { h1 { font-size: 22px !important } }`.
    const css = '@media only screen and (max-width: 640px) { h1 { font-size: 22px !important } .same { font-size: 14px !important } }';
    const { lmx, findings } = fromHtml(
      page(css, '<h1 style="font-size: 32px">$33.98 Paid</h1><p class="same" style="font-size: 14px">Thanks for using Acme Inc.</p><p>Questions?</p>'),
    );
    expect(lmx).toContain('<H1 fontSize="32"');
    expect(findings.remediation.filter((item) => item.construct.startsWith('font-size')).map((item) => `${item.construct}: ${item.done}`)).toEqual([
      'font-size 22px on a screen up to 640 px wide: drawn at 32 px on every screen: LMX gives a block one size',
    ]);
  });
});

describe('the rules of an HTML email’s stylesheet, applied as a browser applies them', () => {
  /** The style the reader gives the element of class `x`, with its stylesheet and its own style attribute. */
  const styleOf = (css: string, attributes = '', tag = 'p') =>
    byClass(readHtml(page(css, `<div id="main" class="card"><${tag} class="x" ${attributes}>Text</${tag}></div>`), 'email.html', new Findings()).body, 'x')[0]!;

  it('weighs importance, then the style attribute over a rule, then specificity, then order', () => {
    expect(styleOf('.x { color: #111111 }').style.color).toBe('#111111');
    // The element's own style over a rule; an important rule over both; the style's own important declaration over that.
    expect(styleOf('.x { color: #111111 }', 'style="color: #222222"').style.color).toBe('#222222');
    expect(styleOf('.x { color: #111111 !important }', 'style="color: #222222"').style.color).toBe('#111111');
    expect(styleOf('.x { color: #111111 !important }', 'style="color: #222222 !important"').style.color).toBe('#222222');
    // Specificity over order: an id's rule written first, a class's, then an element's.
    expect(styleOf('#main .x { color: #333333 } .card .x { color: #444444 } p.x { color: #555555 } p { color: #666666 }').style.color).toBe('#333333');
    expect(styleOf('.card .x { color: #444444 } p.x { color: #555555 }').style.color).toBe('#444444');
    // Order between rules of equal weight, across stylesheets too.
    expect(styleOf('.x { color: #111111 } .x { color: #222222 }').style.color).toBe('#222222');
    // :where() weighs nothing, :not() and :is() as their argument.
    expect(styleOf('p.x { color: #111111 } :where(#main) .x { color: #222222 }').style.color).toBe('#111111');
    expect(styleOf('div p:not(#other) { color: #111111 } .card .x { color: #222222 }').style.color).toBe('#111111');
    // A presentational attribute under any rule.
    expect(styleOf('.x { color: #111111 }', 'color="#222222"', 'font').style.color).toBe('#111111');
    expect(styleOf('.y { color: #111111 }', 'color="#222222"', 'font').style.color).toBe('#222222');
  });

  it('styles the body itself, as the root the rules match from', () => {
    const { body } = readHtml(
      page('body { margin: 0; background-color: #f6f6f6 } body p { color: #111111 }', '<p class="x">Text</p>'),
      'email.html',
      new Findings(),
    );
    expect(body.style).toMatchObject({ margin: '0', 'background-color': '#f6f6f6' });
    expect(byClass(body, 'x')[0]!.style.color).toBe('#111111');
  });

  it('lets a shorthand clear the longhands it outweighs, and a longhand stand over a weaker shorthand', () => {
    expect(styleOf('.x { padding-left: 30px }', 'style="padding: 4px"').style).toMatchObject({ padding: '4px' });
    expect(styleOf('.x { padding-left: 30px }', 'style="padding: 4px"').style['padding-left']).toBeUndefined();
    expect(styleOf('.x { padding-left: 30px !important }', 'style="padding: 4px"').style).toMatchObject({ padding: '4px', 'padding-left': '30px' });
    expect(styleOf('.x { background-color: #111111 } .card .x { background: #222222 }').style['background-color']).toBeUndefined();
    // `inherit` gives the property back to the parent's value: as if not declared.
    expect(styleOf('.x { color: inherit }', 'style="color: #222222"').style.color).toBe('#222222');
    expect(styleOf('.x { color: #111111 }', 'style="color: inherit"').style.color).toBeUndefined();
  });

  it('weighs a media query’s rule against every screen’s rules by the same cascade', () => {
    // A phone's rule of less weight than the rule for every screen changes nothing there; of the same weight, later, it holds.
    const weaker = styleOf('.card .x { color: #111111 } @media (max-width: 480px) { .x { color: #222222 } }');
    expect(styleAt(weaker, 375).color).toBe('#111111');
    const later = styleOf('.x { color: #111111; padding: 20px } @media (max-width: 480px) { .x { color: #222222; padding-left: 8px } }');
    expect(styleAt(later, 600)).toMatchObject({ color: '#111111', padding: '20px' });
    expect(styleAt(later, 375)).toMatchObject({ color: '#222222', padding: '20px', 'padding-left': '8px' });
    // A phone's shorthand clears the wide screen's longhands.
    const cleared = styleOf('.x { padding-left: 30px } @media (max-width: 480px) { .card .x { padding: 4px } }');
    expect(styleAt(cleared, 375)['padding-left']).toBeUndefined();
    expect(styleAt(cleared, 600)['padding-left']).toBe('30px');
  });

  it('carries nothing of a pointer’s hover or focus, a pseudo-element or other media, and counts it in the stylesheet’s entry', () => {
    const findings = new Findings();
    const css =
      '.x:hover { color: #111111 } .x:focus { color: #111111 } .x::before { color: #111111 } @media print { .x { color: #111111 } } @media (prefers-color-scheme: dark) { .x { color: #111111 } } .x { font-size: 18px }';
    const [element] = byClass(readHtml(page(css, '<p class="x">Text</p>'), 'email.html', findings).body, 'x');
    expect(element!.style).toEqual({ 'font-size': '18px' });
    const entry = findings.remediation.find((item) => item.construct === 'custom CSS (<style>)')!;
    expect(entry.outcome).toBe('approximated');
    expect(entry.done).toContain('its rules carried onto the 1 element they style');
    expect(entry.done).toContain('5 rules of it not carried');
  });

  it('converts what classes style as the inline styles: colours, padding, alignment and hidden preview text', () => {
    const css = [
      '.preheader { display: none !important; max-height: 0; overflow: hidden }',
      '.band { background-color: #8a8a8a }',
      '.band p { color: #ffffff; text-align: center; padding: 0 24px }',
      '.note { color: #cacaca }',
    ].join('\n');
    const { lmx, previewText } = fromHtml(
      page(
        css,
        '<span class="preheader">Your receipt, ready to print.</span><table class="band" width="100%" cellpadding="0" cellspacing="0"><tr><td><p>Welcome aboard</p></td></tr></table><p>Body text of the email, and <span class="note">a note</span>.</p>',
      ),
    );
    expect(previewText).toBe('Your receipt, ready to print.');
    expect(lmx).not.toContain('ready to print');
    expect(lmx).toMatch(/blockColor="#8a8a8a"/);
    expect(lmx).toMatch(/<Paragraph[^>]*align="center"[^>]*paddingLeft="24"[^>]*paddingRight="24"[^>]*>(<Text textColor="#ffffff">)?Welcome aboard/);
    expect(lmx).toContain('<Text textColor="#cacaca">a note</Text>');
  });
});

describe('text a stylesheet hides', () => {
  it('says of text hidden on a wide screen that a media query shows on a phone that it shows there, and takes neither for a preheader', () => {
    const css = '.phone-only { display: none } @media (max-width: 480px) { .phone-only { display: block !important } } .never { display: none }';
    const { lmx, findings, previewText } = fromHtml(
      page(css, '<p>Your order has shipped.</p><div class="phone-only">Open the app to track it.</div><div class="never">Internal note.</div>'),
    );
    expect(lmx).not.toContain('track it');
    expect(lmx).not.toContain('Internal note');
    // Text hidden after text that shows is no preheader, nor is text a phone shows.
    expect(previewText).toBeUndefined();
    expect(fromHtml(page(css, '<div class="phone-only">Open the app.</div><p>Your order has shipped.</p>')).previewText).toBeUndefined();
    expect(fromHtml(page(css, '<div class="never">Your order, on its way.</div><p>Your order has shipped.</p>')).previewText).toBe('Your order, on its way.');
    const hidden = findings.remediation.filter((item) => item.construct === 'hidden text').map((item) => item.done);
    expect(hidden).toEqual([
      '"Open the app to track it." left out, as the source hides it on a screen wider than 480 px (it shows on a phone)',
      '"Internal note." left out, as the source hides it',
    ]);
  });
});

describe('an order drawn twice, once for a desktop and once for a phone', () => {
  // E-Com Plus's order emails: `.desktop-only` hidden up to 480 px, `.mobile-only` from 480 px up.
  const css = '@media (max-width: 480px) { .desktop-only { display: none } } @media (min-width: 480px) { .mobile-only { display: none } }';
  const body =
    '<p>Thanks for your order.</p><table class="desktop-only" width="100%"><tr><td>Stoneware mug</td><td>x 2</td><td>$36.00</td></tr></table>' +
    '<table class="mobile-only" width="100%"><tr><td>Stoneware mug x 2</td><td>$36.00</td></tr></table>';

  it('keeps the desktop’s, which a recipient at the email’s width sees, and lists the phone’s as shown on a phone only', () => {
    const { lmx, findings } = fromHtml(page(css, body));
    expect(lmx.match(/Stoneware mug/g)).toHaveLength(1);
    expect(lmx).not.toContain('Stoneware mug x 2');
    const hidden = findings.remediation.filter((item) => item.construct === 'hidden text');
    expect(hidden.map((item) => item.done)).toEqual([
      '"Stoneware mug x 2$36.00" left out, as the source hides it on a screen wider than 479 px (it shows on a phone)',
    ]);
    // Its words are the desktop's table's, which every screen shows: nothing is to be added.
    expect(hidden[0]!.todo).toContain('nothing to do where another block shows these words on every screen');
  });

  it('reads a `min-width` query up to the email’s width as a desktop’s, and passes over a wider screen’s', () => {
    expect(minWidthOf('(min-width: 480px)')).toBe(480);
    expect(minWidthOf('only screen and (min-width: 30em), screen and (min-device-width: 400px)')).toBe(400);
    expect(minWidthOf('screen and (max-width: 480px)')).toBeUndefined();
    const wider = fromHtml(page('@media (min-width: 800px) { .wide-only { display: none } }', '<p class="wide-only">Shown at 600 px.</p>'));
    expect(wider.lmx).toContain('Shown at 600 px.');
  });
});

describe('a link whose colour the stylesheet gives back', () => {
  it('takes its text’s colour, where a link of no colour of its own is a browser’s blue', () => {
    const body = '<p style="color: #394851">Read <a href="https://acme.example/guide">the guide</a> first, then the notes.</p>';
    expect(fromHtml(page('a { color: inherit !important }', body)).lmx).toMatch(/<Style [^>]*textLinkColor="#394851"/);
    expect(fromHtml(page('p { margin: 0 }', body)).lmx).toMatch(/<Style [^>]*textLinkColor="#0000ee"/);
  });

  it('is listed where its colour is not the email’s one link colour, once a colour, `#555` and `#555555` one colour', () => {
    const link = (colour: string, words: string) => `<a href="https://acme.example/${words.length}" style="color: ${colour}">${words}</a>`;
    const body =
      `<p>${link('#3869d4', 'Read the guide')}, ${link('#3869d4', 'the notes')} and ${link('#3869D4', 'the changelog')}.</p>` +
      `<p>Questions? ${link('#555', 'Contact us')} or ${link('#555555', 'write')}.</p>`;
    const { lmx, findings } = fromHtml(page('p { margin: 0 }', body));
    expect(lmx).toMatch(/<Style [^>]*textLinkColor="#3869d4"/);
    expect(findings.remediation.filter((item) => / links? in #/.test(item.construct)).map((item) => `${item.construct}: ${item.outcome}`)).toEqual([
      '2 links in #555555: approximated',
    ]);
  });
});

describe('a list its style draws with no markers', () => {
  it('is lines of text, as it shows, where a rule or its own style says `list-style: none`; a list with markers stays a list', () => {
    const body = (attributes: string) =>
      `<p>Shipping to:</p><ul ${attributes}><li>Ada Lovelace</li><li>12 St James's Square</li><li>London</li></ul><p>Thanks for your order.</p>`;
    // Vendure's order confirmation: `ul.address { list-style-type: none; padding: 0; }`.
    const byRule = fromHtml(page('ul.address { list-style-type: none; padding: 0 }', body('class="address"'))).lmx;
    expect(byRule).toContain("<Paragraph>Ada Lovelace<Br />12 St James's Square<Br />London</Paragraph>");
    expect(byRule).not.toContain('List');
    expect(fromHtml(page('p { margin: 0 }', body('style="list-style: none outside"'))).lmx).toContain("Ada Lovelace<Br />12 St James's Square<Br />London");
    const marked = fromHtml(page('ul.address { list-style-type: square }', body('class="address"'))).lmx;
    expect(marked).toMatch(/<UnorderedList>\s*<ListItem[^>]*>Ada Lovelace<\/ListItem>/);
  });
});
