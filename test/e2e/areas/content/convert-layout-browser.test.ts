/**
 * The layout model held to a real browser on the corpus's HTML emails: each source drawn in
 * Chromium as its recipients' clients draw it, with the rules of its `max-width` media queries
 * (test/support/convert-source-layout.ts), at 600 and 375 px, and the content box of every element a
 * converted block stands in compared with the box convert's model (src/convert/layout/layout.ts)
 * computes for it. The MJML emails are convert-layout-browser-mjml.test.ts's; the rows the HTML
 * reader reads as stacked on a phone, convert-stacking-browser.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../../../../src/convert/layout/layout-compare.js';
import { describeBrowser } from '../../../support/browser.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { apart, corpusFiles, measureSources } from '../../../support/convert-source-layout.js';

const CORPUS = corpusDirectory();

const files = corpusFiles(CORPUS, '.html');

describe('the layout model against Chromium, on the corpus’s HTML', () => {
  const chromium = describeBrowser();

  it('places every block’s box where the browser draws the source’s, within a few pixels, at 600 and 375 px', async (context) => {
    const browser = chromium(context, 'the layout model against Chromium');
    const { found, off } = apart(await measureSources(await browser.page(VIEWPORTS[0], 800), CORPUS, files));
    expect(found.length).toBeGreaterThan(1500);
    // Measured: none of 2,035 apart; every block stands where Chromium draws it. Text is measured in Arial's widths, Arial
    // Bold's for bold text, less the pairs they kern (E-Com Plus's cart's subtotal sizes its last column; Foundation's
    // welcome fits three menu items on a phone's line of 324 px, with under a pixel to spare). Cells of a table without widths
    // (receipts, invoices) are shared out by their content, each column by its cells in every row, the white space at a
    // line's ends left out; a table is as wide as the widest of each column summed (E-Com Plus's cart on a phone); a table
    // of no width (a button's, a menu's) shrinks to what it holds; one of `table-layout: fixed` takes its columns from its
    // first row; a table's row, and a table whose borders collapse, take no padding; tables wider than a phone grow the
    // page: as in Chromium. Foundation's columns stand one under another on a phone, its containers 95% of the screen, its
    // menus' items inline-blocks that wrap, each line centred, as its media queries draw them. The emails written with a
    // stylesheet of classes (Lee Munroe's, Mailgen's four themes before Mailgen inlines them) stand as their inlined twins
    // do. A cell a phone's media query hides (Salted's header link) has no box there, as Chromium draws none.
    expect(off).toEqual([]);
  });
});
