/**
 * The HTML reader's reading of media queries held to a real browser: each of the corpus's HTML
 * emails drawn in Chromium at 375 px with the rules of its `max-width` media queries
 * (test/support/convert-source-layout.ts), and every row of two or more cells that show something
 * compared: the cells Chromium stacks one under another, each as wide as the row, are exactly those
 * the reader marks as made full width on a phone (src/convert/sources/html-cascade.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../../../../src/convert/layout/layout-compare.js';
import { Findings, FULL_WIDTH_UP_TO, type SourceElement } from '../../../../src/convert/model.js';
import { readHtml } from '../../../../src/convert/sources/html-source.js';
import { describeBrowser } from '../../../support/browser.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { corpusFiles, marked, readRulesOnly } from '../../../support/convert-source-layout.js';

const CORPUS = corpusDirectory();

const files = corpusFiles(CORPUS, '.html');

describe('the rows the HTML reader stacks on a phone, against Chromium', () => {
  const chromium = describeBrowser();

  it('stacks on a phone exactly the rows of cells the HTML reader reads as made full width by a media query', async (context) => {
    const browser = chromium(context, 'the stacking read from media queries against Chromium');
    const page = await browser.page(VIEWPORTS[1], 800);
    const rows: { file: string; places: string[]; stacked: boolean; read: boolean }[] = [];
    for (const file of files) {
      const source = readFileSync(join(CORPUS, file), 'utf8');
      const document = readHtml(source, file, new Findings());
      const marks = new Map<string, string | undefined>();
      const visit = (node: SourceElement) => {
        if (node.name === 'td' || node.name === 'th') marks.set(`lc-${node.at.line}-${node.at.column}`, node.attrs[FULL_WIDTH_UP_TO]);
        for (const child of node.children) if (child.type === 'element') visit(child);
      };
      visit(document.body);
      await page.setContent(readRulesOnly(marked(source)), { waitUntil: 'domcontentloaded' });
      // Each row of two or more cells that show something: whether its cells stand one under another, each as wide as the row.
      const drawn = (await page.evaluate(`[...document.querySelectorAll('tr')].map((row) => {
        const cells = [...row.children].filter((cell) => /^T[DH]$/.test(cell.tagName) && cell.getBoundingClientRect().width > 0 && cell.textContent.trim() !== '');
        const boxes = cells.map((cell) => cell.getBoundingClientRect());
        const width = row.getBoundingClientRect().width;
        return { places: cells.map((cell) => cell.dataset.lc), stacked: boxes.every((box, index) => index === 0 || box.top >= boxes[index - 1].bottom - 1) && boxes.every((box) => box.width >= width - 1) };
      }).filter((row) => row.places.length >= 2)`)) as { places: string[]; stacked: boolean }[];
      for (const row of drawn) rows.push({ file, ...row, read: row.places.every((place) => (Number(marks.get(place)) || 0) >= VIEWPORTS[1]) });
    }
    const apart = rows
      .filter((row) => row.stacked !== row.read)
      .map((row) => `${row.file} ${row.places.join(' ')}: ${row.stacked ? 'stacked' : 'side by side'}`);
    console.log(`${rows.length} rows: ${rows.filter((row) => row.stacked).length} stacked`);
    expect(apart).toEqual([]);
    // Measured: 85 rows, 25 stacked (Foundation's columns of `small-12`, in its three forms); the rest side by side
    // (Foundation's `small-6` columns and menus, and the tables of receipts and buttons of the other templates).
    expect(rows.filter((row) => row.stacked).length).toBeGreaterThanOrEqual(25);
    expect(rows.filter((row) => !row.stacked).length).toBeGreaterThanOrEqual(50);
  });
});
