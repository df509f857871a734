/**
 * `content review --out review.html --screenshots`: each changed email drawn by Chromium before and
 * after at 600 and 375 px, its PNGs in the page as data: images, and the regions that changed boxed.
 * A fixture where one paragraph of one email changes: the box covers that paragraph, as the
 * browser lays it out, and none of the blocks around it; the pixels differ inside the box and
 * nowhere above it. Without Chromium, --screenshots says what to install and writes nothing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, CHROMIUM, keepScreenshot, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { run, tempDir } from '../../../support/main.js';
import { CAMPAIGNS, editTree, insertionBeforeComponent, resetRepository, reviewRepository } from '../../../support/review-tree.js';

let root: string;
beforeAll(() => {
  root = reviewRepository();
});

type Rect = { x: number; y: number; width: number; height: number };
const inside = (inner: Rect, outer: Rect) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;
const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe.skipIf(browserSkipReason() !== undefined)('the review page with screenshots', () => {
  let browser: TestBrowser;
  let page: string;
  const CHANGED = 'It now says something';

  beforeAll(async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', `${CHANGED}, at some length, so that the paragraph is not the one it was`);
    page = join(tempDir('loopsctl-review-shots-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', page, '--screenshots'], { env: { LOOPSCTL_CHROMIUM: CHROMIUM } });
    resetRepository(root);
    expect(result.code, result.stderr).toBe(0);
    browser = await startBrowser();
  });
  afterAll(() => browser?.close());

  it('boxes the changed paragraph where Chromium drew it, and nothing around it, at both widths and on both sides', async () => {
    const tab = await browser.page(1400);
    await tab.context().setOffline(true);
    await tab.goto(pathToFileURL(page).href);
    const section = tab.locator('section.email');
    expect(await section.count()).toBe(1);
    await expect.poll(() => section.locator('figure.shot img').count()).toBe(4);
    for (const src of await section.locator('figure.shot img').evaluateAll((images) => images.map((image) => image.getAttribute('src')!)))
      expect(src.startsWith('data:image/png;base64,')).toBe(true);
    // The same HTML in frames, below the pictures, laid out once opened.
    await section.locator('summary', { hasText: 'As HTML, in frames' }).click();
    for (const frame of tab.frames()) await frame.waitForLoadState();
    for (const [side, width] of [
      ['After', 600],
      ['Before', 600],
      ['After', 375],
      ['Before', 375],
    ] as const) {
      const figure = section.locator(`figure.shot:has(h3:text-is("${side}, ${width} px, screenshot"))`);
      const boxes = figure.locator('.box');
      expect(await boxes.count(), `${side} ${width}`).toBe(1);
      // The box in the picture's own pixels.
      const box = await boxes.evaluate((element) => {
        const image = element.parentElement!.querySelector('img')!;
        const at = image.getBoundingClientRect();
        const drawn = element.getBoundingClientRect();
        const scale = image.naturalWidth / at.width;
        return { x: (drawn.x - at.x) * scale, y: (drawn.y - at.y) * scale, width: drawn.width * scale, height: drawn.height * scale };
      });
      // Where the same HTML lays each block out at that width: the frame of that side, below the pictures.
      const frame = section.locator(`iframe[title$="${side}, ${width} px"]`).contentFrame();
      const rectOf = (text: string) =>
        frame
          .locator('p, h1, a', { hasText: text })
          .first()
          .evaluate((element) => {
            const rect = element.getBoundingClientRect();
            // The frame is never scrolled: its viewport is its document.
            return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
          });
      const paragraph = await rectOf(side === 'After' ? CHANGED : 'It says something');
      expect(inside(paragraph, box), `${side} ${width}: the paragraph ${JSON.stringify(paragraph)} in the box ${JSON.stringify(box)}`).toBe(true);
      for (const unchanged of ['Message 21 for', 'Open 21', 'Acme · your workspace'])
        expect(overlaps(await rectOf(unchanged), box), `${side} ${width}: ${unchanged} outside the box`).toBe(false);
    }
    // The pictures themselves: before and after are the same above the box, and differ inside it.
    // A string, as the page's own DOM is not this file's: the pixels of the 600 px pictures, read through a canvas.
    const rows = await tab.evaluate(`(() => {
      const images = [...document.querySelectorAll('section.email figure.shot[data-width="600"] img')];
      const pixels = (image) => {
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const drawing = canvas.getContext('2d');
        drawing.drawImage(image, 0, 0);
        return drawing.getImageData(0, 0, canvas.width, canvas.height);
      };
      const [before, after] = images.map(pixels);
      const boxTop = Math.floor((Number.parseFloat(images[1].parentElement.querySelector('.box').style.top) / 100) * after.height);
      const differs = (from, to) => {
        for (let index = from * after.width * 4; index < to * after.width * 4; index += 1) if (before.data[index] !== after.data[index]) return true;
        return false;
      };
      return { above: differs(0, boxTop - 4), within: differs(boxTop, boxTop + 40) };
    })()`);
    expect(rows).toEqual({ above: false, within: true });
    await keepScreenshot(tab, 'content-review-screenshots');
  });

  it('boxes an insertion before a changed component as the frames and --json pair them: one added, the paragraph and the component changed', async () => {
    const { root: tree } = insertionBeforeComponent();
    const out = join(tempDir('loopsctl-review-shots-insertion-'), 'review.html');
    const result = await run(['content', 'review', tree, '--base', 'HEAD', '--out', out, '--screenshots'], { env: { LOOPSCTL_CHROMIUM: CHROMIUM } });
    expect(result.code, result.stderr).toBe(0);
    const tab = await browser.page(1440);
    await tab.context().setOffline(true);
    await tab.goto(pathToFileURL(out).href);
    const boxes = (side: string, width: number) =>
      tab
        .locator(`figure.shot:has(h3:text-is("${side}, ${width} px, screenshot")) .box`)
        .evaluateAll((found) => found.map((box) => box.getAttribute('data-box')));
    for (const width of [600, 375]) {
      expect(await boxes('After', width), `after, ${width}`).toEqual(['changed', 'added', 'changed']);
      expect(await boxes('Before', width), `before, ${width}`).toEqual(['changed', 'changed']);
    }
    await keepScreenshot(tab, 'content-review-screenshots-insertion');
  });
});

describe('--screenshots without what it needs', () => {
  it('says what to install when there is no Chromium, and writes nothing', async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', 'It now says something');
    const page = join(tempDir('loopsctl-review-no-browser-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', page, '--screenshots'], {
      env: { LOOPSCTL_CHROMIUM: join(tempDir(), 'no-chromium') },
    });
    const bare = await run(['content', 'review', root, '--base', 'HEAD', '--out', page, '--screenshots'], { env: { PATH: tempDir() } });
    resetRepository(root);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('screenshots need Chromium');
    expect(result.stderr).toContain('apt-get install chromium');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('screenshots need Chromium, and none was found (on PATH, nor LOOPSCTL_CHROMIUM)');
    expect(existsSync(page)).toBe(false);
  });

  it('says in one line why a Chromium that is there did not start, with its exit code and last words, and writes nothing', async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', 'It now says something');
    const page = join(tempDir('loopsctl-review-failing-browser-'), 'review.html');
    const failing = join(tempDir(), 'chromium');
    writeFileSync(failing, "#!/bin/sh\necho 'cannot open the profile' >&2\nexit 7\n", { mode: 0o755 });
    const results = [];
    for (const program of ['/bin/false', failing])
      results.push(await run(['content', 'review', root, '--base', 'HEAD', '--out', page, '--screenshots'], { env: { LOOPSCTL_CHROMIUM: program } }));
    resetRepository(root);
    const [bare, said] = results;
    for (const result of results) {
      expect([result.code, result.stderr]).toEqual([2, expect.stringContaining('was found but did not start')]);
      expect(
        result.stderr.split('\n').filter((line) => line.startsWith('Error:')),
        result.stderr,
      ).toHaveLength(1);
      expect(result.stderr).not.toContain('install');
      expect(result.stderr).not.toMatch(/EPIPE|ECONNRESET|Unhandled/);
    }
    expect(bare!.stderr).toContain('Error: /bin/false was found but did not start (exit code 1)\n');
    expect(said!.stderr).toContain(`Error: ${failing} was found but did not start (exit code 7): cannot open the profile\n`);
    expect(existsSync(page)).toBe(false);
  });

  it('needs the page it draws into', async () => {
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--screenshots']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--screenshots draws the pictures into the page --out writes');
  });
});
