/**
 * The screenshots of a review (`content review --screenshots`): each email reported drawn by
 * Chromium on both sides at 600 and at 375 px, as its recipients' clients lay it out (its own
 * styles, the columns that stack on a phone), and the regions that changed found from the page
 * as drawn: the boxes of the blocks the review compares as changed (blocks.ts), measured where
 * the browser laid each out on its side. Boxing blocks rather than pixels keeps a paragraph that
 * grew from boxing everything below it, which only moved.
 */

import type { ImageLoader } from '../../../base/page-images.js';
import { startChromium, type Tab } from './chromium.js';
import type { Review } from './compare.js';
import { type Box, markedHtml, offlineImages, type Pictures, type Shot, WIDTHS } from './page.js';

/** The tallest a screenshot is drawn: an email longer than this is cut there (the frames below it show the rest). */
export const MAX_SHOT_HEIGHT = 4000;

/** Two tabs draw at once: a page is laid out on one core while the other is encoded on the other. */
const TABS = 2;

/** What the page tells after it is drawn: its height, and where each changed block stands. */
const MEASURE = `(async () => {
  await Promise.all([...document.images].map((image) => image.complete ? undefined : new Promise((done) => { image.onload = image.onerror = done; })));
  const boxes = [...document.querySelectorAll('[data-review-change]')].map((element) => {
    const box = element.getBoundingClientRect();
    return { change: element.getAttribute('data-review-change'), x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height };
  });
  return { height: Math.ceil(document.documentElement.scrollHeight), boxes };
})()`;

/** One side of an email at one width, drawn and measured. */
async function shoot(tab: Tab, html: string, width: number): Promise<Shot> {
  // Laid out in a short window first, so that the page's height is its content's, not the window's.
  await tab('Emulation.setDeviceMetricsOverride', { width, height: 100, deviceScaleFactor: 1, mobile: false });
  const { frameTree } = (await tab('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
  await tab('Page.setDocumentContent', { frameId: frameTree.frame.id, html });
  const measured = (await tab('Runtime.evaluate', { expression: MEASURE, awaitPromise: true, returnByValue: true })) as {
    result: { value: { height: number; boxes: Box[] } };
  };
  const { boxes } = measured.result.value;
  const height = Math.max(1, Math.min(MAX_SHOT_HEIGHT, measured.result.value.height));
  await tab('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  const { data } = (await tab('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false })) as { data: string };
  const round = (value: number) => Math.round(value);
  return {
    width,
    height,
    png: Buffer.from(data, 'base64'),
    boxes: boxes
      .filter((box) => box.y < height && box.width > 0 && box.height > 0)
      .map((box) => ({ change: box.change, x: round(box.x), y: round(box.y), width: round(box.width), height: round(Math.min(box.height, height - box.y)) })),
  };
}

/**
 * Every email's screenshots, by its path: each side it has, at each width. With `load`
 * (--allow-network) the emails' images are drawn, each fetched by it; without, each is a placeholder.
 */
export async function screenshotsOf(review: Review, program: string, env: Readonly<Record<string, string | undefined>>, load?: ImageLoader): Promise<Pictures> {
  const drawn = (html: string) => (load === undefined ? offlineImages(html) : html);
  const jobs = review.emails.flatMap((email) =>
    (['before', 'after'] as const).flatMap((side) =>
      email[side] === undefined ? [] : WIDTHS.map((width) => ({ email, side, width, html: drawn(markedHtml(email, side, false)) })),
    ),
  );
  const pictures: Pictures = new Map();
  if (jobs.length === 0) return pictures;
  const chromium = await startChromium(program, env);
  try {
    const tabs = await Promise.all(Array.from({ length: Math.min(TABS, jobs.length) }, () => chromium.tab(load)));
    let next = 0;
    await Promise.all(
      tabs.map(async (tab) => {
        for (let job = jobs[next++]; job !== undefined; job = jobs[next++]) {
          const shot = await shoot(tab, job.html, job.width);
          const entry = pictures.get(job.email.path) ?? { before: [], after: [] };
          entry[job.side].push(shot);
          pictures.set(job.email.path, entry);
        }
      }),
    );
  } finally {
    await chromium.close();
  }
  for (const entry of pictures.values()) for (const shots of [entry.before, entry.after]) shots.sort((a, b) => b.width - a.width);
  return pictures;
}
