/**
 * The HTML reader's media queries: which queries name a phone's screen, how their rules weigh
 * against an element's own style, and which cells they stack, read from Foundation for Emails' own
 * stylesheet as its package ships it and from rules written as templates write them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_NARROW_RULES, maxWidthOf } from '../../../../../src/areas/content/convert/html-media.js';
import { readHtml } from '../../../../../src/areas/content/convert/html-source.js';
import { SourceLayout } from '../../../../../src/areas/content/convert/layout.js';
import { Findings, FULL_WIDTH_UP_TO, type SourceElement } from '../../../../../src/areas/content/convert/model.js';
import { styleAt } from '../../../../../src/areas/content/convert/styles.js';
import { fromHtml } from './layout-support.js';

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
    const rules = Array.from({ length: MAX_NARROW_RULES + 1000 }, (_, index) => `.s${index} { display: block !important; }`).join('\n');
    const { body } = readHtml(
      page(`@media (max-width: 600px) {\n${rules}\n}`, '<table><tr><td class="s4999">A</td><td class="s5000">B</td></tr></table>'),
      'email.html',
      findings,
    );
    // The last rule read is the 5,000th: its cell stacks on a phone, the next one's does not.
    expect(byClass(body, 's4999')[0]!.attrs[FULL_WIDTH_UP_TO]).toBe('600');
    expect(byClass(body, 's5000')[0]!.attrs[FULL_WIDTH_UP_TO]).toBeUndefined();
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    expect(css.done).toContain('1000 of its media queries’ rules not read');
  });

  it('reads fewer rules of an email of many elements, so that matching them stays bounded', () => {
    const findings = new Findings();
    const rules = Array.from({ length: 1000 }, (_, index) => `td.c${index} { display: block !important; }`).join('\n');
    const rows = Array.from({ length: 500 }, (_, index) => `<tr><td class="c${index}"><div><span>${index}</span></div></td><td>x</td></tr>`).join('');
    readHtml(page(`@media (max-width: 600px) {\n${rules}\n}`, `<table>${rows}</table>`), 'email.html', findings);
    const css = findings.remediation.find((entry) => entry.construct === 'custom CSS (<style>)')!;
    const unread = Number(/(\d+) of its media queries’ rules not read/.exec(css.done)?.[1]);
    // About 2,500 elements (five a row): two million tests of a selector against one reach some 800 rules.
    expect(unread).toBeGreaterThan(150);
    expect(unread).toBeLessThan(250);
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
