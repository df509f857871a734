/**
 * The layout model held to a real browser on the corpus's HTML emails: each source drawn in
 * Chromium as its recipients' clients draw it, with the rules of its `max-width` media queries
 * (test/support/convert-source-layout.ts), at 600 and 375 px, and the content box of every element a
 * converted block stands in compared with the box convert's model (src/convert/layout/layout.ts)
 * computes for it. The MJML emails are convert-layout-browser-mjml.test.ts's; the rows the HTML
 * reader reads as stacked on a phone, convert-stacking-browser.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../../../../src/convert/layout/layout-carry.js';
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
    // Measured: 328 of 2,048 apart, in 42 of 72 emails (each styled email apart where its inlined twin is, below). Foundation's menus and rows of icons in tables of `width: auto`, sized by images that have
    // no size until they load (124, in its three forms); cells of Mailgen's Neopolitan theme that the model insets 11 to
    // 15 px further than Chromium draws them (45); Cerberus' centred buttons and Salted's centred header link, which the
    // model takes as wide as their cell, and a row of Cerberus' wider than a phone in the model (20). Cells of a table
    // without widths (receipts, invoices) are shared out by their content, as a browser does, and tables wider than a
    // phone grow the page, as in Chromium. Foundation's columns stand one under another on a phone, its containers 95%
    // of the screen, as its media queries draw them. The emails written with a stylesheet of classes (Lee Munroe's, Mailgen's
    // four themes before Mailgen inlines them) are apart where their inlined twins are (13). E-Com Plus's order tables, cells
    // of widths in px (`width: 400px; max-width: 33.333%`) that Chromium sizes by their content, 8 to 12 px off, and a
    // picture’s cell of `width: 50%` (106); its buttons and Auth.js's, in a table of no width that shrinks to them, taken
    // as wide as their cell (as Cerberus'), and the line of text below in the same shrunk table (20). Every block of the
    // other emails stands where Chromium draws it.
    expect(off.length / found.length).toBeLessThan(0.17);
    expect(new Set(off.map((item) => item.file)).size).toBeLessThanOrEqual(42);
  });
});
