/**
 * What the tests that hold convert's layout model to Chromium share: the blocks of a converted
 * email with the source element each stands in, each element found in the drawn page by the
 * place written on it (`data-lc="lc-L-C"`, or MJML's `css-class`), and the content boxes there
 * measured against the model's.
 */

import { placeholderSrc } from '../../src/base/page-images.js';
import { sourceOf } from '../../src/convert/layout/block-source.js';
import { type Box, SourceLayout } from '../../src/convert/layout/layout.js';
import type { LmxBlock } from '../../src/convert/lmx-out.js';
import type { SourceElement } from '../../src/convert/model.js';
import type { Page } from './browser.js';

/** The blocks of a converted email with the element each stands in. */
export function pairs(blocks: readonly LmxBlock[]): { block: LmxBlock; place: string }[] {
  return blocks.flatMap((block) => {
    const from = sourceOf(block);
    const own = from === undefined ? [] : [{ block, place: `lc-${from.element.at.line}-${from.element.at.column}` }];
    const inner = block.tag === 'Columns' ? (block.blocks ?? []).flatMap((item) => item.blocks ?? []) : block.tag === 'Section' ? (block.blocks ?? []) : [];
    return [...own, ...pairs(inner)];
  });
}

/**
 * The marked element of a place in the page, as the box a block stands in: MJML's section, wrapper
 * or column box is the padded cell inside the marked one (a column's only where it has one, its
 * gutter: a cell of no alignment around its own table, where a column of no padding holds its first
 * element's cell). A script's function, for the page.
 */
export const LOCATE = `(place) => {
  let element = document.querySelector('[data-lc="' + place + '"]') ?? document.querySelector('.' + place);
  if (element === null) return null;
  if (element.tagName === 'DIV' && element.classList.contains(place)) {
    const cell = element.querySelector(':scope > table > tbody > tr > td') ?? element.querySelector(':scope > div > table > tbody > tr > td');
    const gutter = cell !== null && !cell.hasAttribute('align') && cell.querySelector(':scope > table') !== null;
    if (cell !== null && element.querySelector(':scope > table, :scope > div > table') !== null && (!element.className.includes('mj-column') || gutter)) element = cell;
  }
  return element;
}`;

/**
 * The content box of an element, less its padding and borders: a script's function, for the page. A
 * table whose borders collapse draws no padding, though its computed style still names it.
 */
export const CONTENT_BOX = `(element) => {
  const rect = element.getBoundingClientRect();
  const style = getComputedStyle(element);
  const px = (value) => Number.parseFloat(value) || 0;
  const padded = !(style.display === 'table' && style.borderCollapse === 'collapse');
  return {
    left: rect.left + (padded ? px(style.paddingLeft) : 0) + px(style.borderLeftWidth),
    right: rect.right - (padded ? px(style.paddingRight) : 0) - px(style.borderRightWidth),
  };
}`;

/** The content boxes of the marked elements in the page. */
const MEASURE = `(places) => places.map((place) => {
  const element = (${LOCATE})(place);
  return element === null ? undefined : (${CONTENT_BOX})(element);
})`;

/**
 * The page's images sized without loading them (no network): each takes the size its attributes
 * give it, as the model does. One its width attribute sizes is drawn as a placeholder of that size,
 * where a browser would widen a broken image to its alt text.
 */
export function sizedImages(html: string): string {
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const [width, height] = ['width', 'height'].map((name) => new RegExp(`\\s${name}\\s*=\\s*["']?(\\d+)["'\\s/>]`, 'i').exec(tag)?.[1]);
    if (width === undefined) return tag;
    const src = placeholderSrc({ address: '', width: Number(width), ...(height === undefined ? {} : { height: Number(height) }) }, 'not loaded');
    return tag.replace(/\ssrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i, ` src="${src}"`);
  });
}

/**
 * Each paired block's box as the model lays out the source and as Chromium draws the page, at each
 * of the widths (the browser's undefined where the element is not drawn). The page is loaded once
 * and the tab made wider or narrower for each width: Chromium lays it out again as a new load at
 * that width would, for about half the browser's work.
 */
export async function measureBoxes(
  page: Page,
  html: string,
  body: SourceElement,
  paired: readonly { block: LmxBlock; place: string }[],
  widths: readonly number[],
): Promise<{ width: number; place: string; model: Box; browser: Box | undefined }[]> {
  await page.setContent(sizedImages(html), { waitUntil: 'domcontentloaded' });
  const measured: { width: number; place: string; model: Box; browser: Box | undefined }[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    const boxes = (await page.evaluate(`(${MEASURE})(${JSON.stringify(paired.map((pair) => pair.place))})`)) as (Box | undefined)[];
    const layout = new SourceLayout(body, width);
    paired.forEach((pair, at) => {
      const model = layout.of(sourceOf(pair.block)!.element)?.box;
      if (model !== undefined) measured.push({ width, place: pair.place, model, browser: boxes[at] });
    });
  }
  return measured;
}
