/**
 * `content review --allow-network` in Chromium: the emails' images are fetched by loopsctl's
 * fetcher for outside addresses, never by a browser. The page (--out), opened later with the network
 * on, holds each image as loopsctl fetched it and loads nothing from the web; the screenshots
 * (--screenshots) are drawn by a Chromium whose requests are handed to the fetcher. An image at a
 * loopback address (an internal server, as far as the review can tell) is listed on stderr (and on
 * the page, a placeholder in the email) and asked by nobody unless --allow-private-links; with it,
 * the host is asked by loopsctl (its user agent), once for each address.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, CHROMIUM, keepScreenshot, type Page, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { type DrawnImage, drawnImages, type ImageHost, startImageHost } from '../../../support/image-host.js';
import { run, tempDir } from '../../../support/main.js';
import { CAMPAIGNS, editTree, resetRepository, reviewRepository } from '../../../support/review-tree.js';

describe.skipIf(browserSkipReason() !== undefined)("a review's images with --allow-network, in Chromium", () => {
  let root: string;
  let host: ImageHost;
  let port: number;
  let asked: ImageHost['asked'];
  let browser: TestBrowser;

  beforeAll(async () => {
    root = reviewRepository();
    host = await startImageHost();
    ({ port, asked } = host);
    editTree(
      root,
      `${CAMPAIGNS[0]}/email.lmx`,
      /<Button /,
      `<Image src="http://127.0.0.1:${port}/internal.png" alt="Internal" width="40" />\n<Image src="http://localhost:${port}/admin.png" alt="Admin" width="40" />\n<Button `,
    );
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    resetRepository(root);
    await host?.close();
  });

  const review = async (...more: string[]) => {
    const out = join(tempDir('loopsctl-review-images-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', out, '--allow-network', ...more]);
    expect(result.code, result.stderr).toBe(0);
    return { out, stderr: result.stderr };
  };

  /** The page opened at a width, every request the browser makes recorded; the campaign's images once each has loaded or failed. */
  const open = async (out: string, width: number): Promise<{ tab: Page; requests: string[]; images: DrawnImage[] }> => {
    const tab = await browser.page(width);
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(out).href);
    for (const frame of tab.frames()) await frame.waitForLoadState();
    const frame = tab.locator('section.email', { hasText: CAMPAIGNS[0]! }).locator('iframe[title$="After, 600 px"]').contentFrame();
    await frame.locator('img[alt="Admin"]').waitFor({ state: 'attached' });
    const images = await drawnImages(frame.locator('img[alt="Internal"], img[alt="Admin"]'));
    return { tab, requests, images };
  };

  /** The requests the browser made of anything but the file and what it holds. */
  const fromTheWeb = (requests: string[]) => requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:') && url !== 'about:srcdoc');

  /**
   * Whether the page may load an image from the web, asked by a script run in it: the policy says
   * no (Chromium reports the request it then blocks; the host never gets it).
   */
  const loadsFromTheWeb = (tab: Page): Promise<boolean> =>
    tab.evaluate(`new Promise((resolve) => {
      const image = new Image();
      image.onload = () => resolve(true);
      image.onerror = () => resolve(false);
      image.src = 'http://127.0.0.1:${port}/probe.png';
    })`);

  it('lists an image at a loopback address, asked by nobody, and the page loads nothing from anywhere', async () => {
    asked.length = 0;
    const { out, stderr } = await review();
    expect(stderr).toContain(
      `Not loaded in the review: http://127.0.0.1:${port}/internal.png: a loopback address (127.0.0.0/8) (--allow-private-links loads it).`,
    );
    expect(stderr).toContain(`Not loaded in the review: http://localhost:${port}/admin.png: a loopback address (localhost) (--allow-private-links loads it).`);
    const { tab, requests, images } = await open(out, 1440);
    try {
      expect(images).toEqual([
        { src: 'data:image/svg+xml;charset=utf-8', offline: `http://127.0.0.1:${port}/internal.png`, embedded: null, naturalWidth: 40 },
        { src: 'data:image/svg+xml;charset=utf-8', offline: `http://localhost:${port}/admin.png`, embedded: null, naturalWidth: 40 },
      ]);
      const listed = tab.locator('details.images-not-shown');
      await listed.locator('summary').click();
      expect(await listed.textContent()).toContain(`http://127.0.0.1:${port}/internal.png: refused: a loopback address (127.0.0.0/8)`);
      await keepScreenshot(tab, 'content-review-page-images-refused');
      expect(fromTheWeb(requests)).toEqual([]);
      expect(await loadsFromTheWeb(tab)).toBe(false);
      expect(asked).toEqual([]);
    } finally {
      await tab.close();
    }
  });

  it('with --allow-private-links, holds each image as loopsctl fetched it, once: the browser asks the host nothing', async () => {
    asked.length = 0;
    const { out, stderr } = await review('--allow-private-links');
    expect(stderr).not.toContain('Not loaded');
    expect(asked.map((request) => request.path).sort()).toEqual(['/admin.png', '/internal.png']);
    for (const request of asked) expect(request.agent).toMatch(/^loopsctl\//);
    for (const width of [1440, 600, 375]) {
      const { tab, requests, images } = await open(out, width);
      try {
        expect(images).toEqual([
          { src: 'data:image/png;base64', offline: null, embedded: `http://127.0.0.1:${port}/internal.png`, naturalWidth: 1 },
          { src: 'data:image/png;base64', offline: null, embedded: `http://localhost:${port}/admin.png`, naturalWidth: 1 },
        ]);
        expect(await tab.locator('details.images-not-shown').count()).toBe(0);
        await keepScreenshot(tab, `content-review-page-images-${width}`);
        expect(fromTheWeb(requests)).toEqual([]);
        expect(await loadsFromTheWeb(tab)).toBe(false);
      } finally {
        await tab.close();
      }
    }
    // Only loopsctl's two requests: the browser's probes were blocked before they left it.
    expect(asked).toHaveLength(2);
  });

  describe('the screenshots', () => {
    const shoot = (...more: string[]) =>
      run(
        [
          'content',
          'review',
          root,
          '--base',
          'HEAD',
          '--out',
          join(tempDir('loopsctl-review-net-'), 'review.html'),
          '--screenshots',
          '--allow-network',
          ...more,
        ],
        { env: { LOOPSCTL_CHROMIUM: CHROMIUM } },
      );

    it('list an image at a loopback address, loaded by nobody, unless --allow-private-links', async () => {
      asked.length = 0;
      const result = await shoot();
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        `Not loaded in the review: http://127.0.0.1:${port}/internal.png: a loopback address (127.0.0.0/8) (--allow-private-links loads it).`,
      );
      expect(result.stderr).toContain(
        `Not loaded in the review: http://localhost:${port}/admin.png: a loopback address (localhost) (--allow-private-links loads it).`,
      );
      expect(asked).toEqual([]);
    });

    it('are drawn with each image loopsctl fetched, once, when allowed: the browser asks nothing of the host', async () => {
      asked.length = 0;
      const result = await shoot('--allow-private-links');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('Not loaded');
      expect(asked.map((request) => request.path).sort()).toEqual(['/admin.png', '/internal.png']);
      for (const request of asked) expect(request.agent).toMatch(/^loopsctl\//);
    });
  });
});
