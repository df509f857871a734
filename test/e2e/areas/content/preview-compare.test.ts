/**
 * `content preview --compare` in a real browser (Debian's Chromium through playwright-core; skipped,
 * saying why, where it is missing): an email `content convert` made drawn beside the original it
 * was made from, at 600 and 375 px, and one above the other on a narrow screen. The original as the
 * server serves it is preview-server.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { describeBrowser, keepScreenshot } from '../../../support/browser.js';
import { converted, frameShows, original, startPreview } from '../../../support/content-preview.js';

describe('content preview --compare in a browser', () => {
  const chromium = describeBrowser();

  it('draws the original and the converted email side by side at 600 and 375 px, stacked on a narrow screen', async (context) => {
    const browser = chromium(context, 'content preview --compare');
    const { running, url } = await startPreview(await converted(), '--compare', original());
    try {
      const page = await browser.page(1440);
      await page.goto(url);
      const widths = await page.locator('#frames iframe').evaluateAll((frames) => frames.map((frame) => `${frame.id}:${frame.getAttribute('width')}`));
      expect(widths).toEqual(['original-desktop:600', 'desktop:600', 'original-mobile:375', 'mobile:375']);
      expect(await page.locator('#frames figcaption').allTextContents()).toEqual([
        'Original: action.html · Desktop · 600 px',
        'Converted: transactional/action/draft.lmx · Desktop · 600 px',
        'Original: action.html · Mobile · 375 px',
        'Converted: transactional/action/draft.lmx · Mobile · 375 px',
      ]);
      for (const frame of ['original-desktop', 'original-mobile', 'desktop', 'mobile'] as const) {
        await frameShows(page, frame, 'Please confirm your email address by clicking the link below.');
        await frameShows(page, frame, 'Confirm Email Address');
      }
      /** Where each frame is drawn: the original's box and the converted one's, at one width. */
      const boxes = async (device: 'desktop' | 'mobile') => ({
        original: (await page.locator(`#original-${device}`).boundingBox())!,
        converted: (await page.locator(`#${device}`).boundingBox())!,
      });
      // Side by side: at each width the two frames share a row, the original on the left, neither over the other.
      await page.waitForFunction(() => {
        const { document } = globalThis as unknown as { document: { querySelector(selector: string): { getBoundingClientRect(): { top: number } } } };
        return document.querySelector('#original-desktop').getBoundingClientRect().top === document.querySelector('#desktop').getBoundingClientRect().top;
      });
      for (const device of ['desktop', 'mobile'] as const) {
        const { original, converted } = await boxes(device);
        expect(Math.abs(original.y - converted.y), device).toBeLessThan(1);
        expect(original.x + original.width, device).toBeLessThanOrEqual(converted.x);
      }
      // The phone frames at their own size; the desktop ones as large as half the room lets them be.
      const scales = await page.locator('#frames figure').evaluateAll((figures) => figures.map((figure) => Number(figure.getAttribute('data-scale'))));
      expect(scales[2]).toBe(1);
      expect(scales[3]).toBe(1);
      for (const scale of scales.slice(0, 2)) expect(scale).toBeGreaterThan(0.5);
      await keepScreenshot(page, 'content-preview-compare-1440');
      // A room that changes with no resize of the window (the frames' column narrowed, as a panel beside them would narrow it):
      // each frame follows its own, the half of its pair.
      const wide = (await boxes('desktop')).converted.width;
      await page.locator('#frames').evaluate((frames) => {
        frames.style.maxWidth = '800px';
      });
      for (const frame of ['original-desktop', 'desktop']) {
        const half = await page.locator(`.pair > .device:has(#${frame})`).evaluate((device) => device.clientWidth);
        expect(half, frame).toBeLessThan(wide - 100);
        // Scaled once the page has seen its room change: looked at until it is, or the time runs out.
        await expect.poll(async () => (await page.locator(`#${frame}`).boundingBox())!.width, { message: frame, timeout: 10_000 }).toBeCloseTo(half, 0);
      }
      await page.locator('#frames').evaluate((frames) => {
        frames.style.maxWidth = '';
      });
      for (const width of [600, 375]) {
        await page.setViewportSize({ width, height: 900 });
        // Narrower than two frames side by side: the original above the converted email, each drawn whole within the window.
        // The page scales each frame once its room is laid out at the new width: waited for as the page shows it, every frame
        // within the window and the desktop ones as wide as the room (as asserted below, which says what differs if it never comes).
        await page
          .waitForFunction(
            (window) => {
              type Box = { getBoundingClientRect(): { right: number; width: number } };
              type Page = { querySelectorAll(selector: string): Iterable<Box>; querySelector(selector: string): Box & { clientWidth: number } };
              const { document } = globalThis as unknown as { document: Page };
              const room = document.querySelector('.workspace').clientWidth;
              const within = [...document.querySelectorAll('#frames iframe')].every((frame) => frame.getBoundingClientRect().right <= window);
              const desktops = ['#original-desktop', '#desktop'].map((id) => document.querySelector(id).getBoundingClientRect().width);
              return within && desktops.every((drawn) => Math.abs(drawn - room) < 0.5);
            },
            width,
            { timeout: 10_000 },
          )
          .catch(() => undefined);
        for (const device of ['desktop', 'mobile'] as const) {
          const { original, converted } = await boxes(device);
          expect(original.y + original.height, `${device} at ${width} px`).toBeLessThanOrEqual(converted.y);
        }
        for (const frame of ['original-desktop', 'desktop']) {
          const scale = Number(await page.locator(`figure:has(#${frame})`).getAttribute('data-scale'));
          expect(scale, `${frame} at ${width} px`).toBeLessThan(1);
          // As wide as the room there is: smaller, not shrunk further than it must be.
          const room = await page.locator('.workspace').evaluate((workspace) => workspace.clientWidth);
          expect((await page.locator(`#${frame}`).boundingBox())!.width).toBeCloseTo(room, 0);
        }
        await frameShows(page, 'original-mobile', '- The Mailgunners');
        await frameShows(page, 'desktop', 'Confirm Email Address');
        await keepScreenshot(page, `content-preview-compare-${width}`);
      }
    } finally {
      await running.stop();
    }
  });
});
