/**
 * `content review --out review.html --allow-network`, opened in Chromium with the network on, as a
 * reviewer opens the file later: the emails' images were fetched by loopsctl's fetcher for outside
 * addresses when the page was written, and are inside it; the browser loads none from its address.
 * An image at a loopback address (an internal server, as far as the review can tell) is listed on
 * stderr and on the page, a placeholder in the email, and asked by nobody, unless
 * --allow-private-links; the page's policy keeps the browser from loading any address of the web.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, startBrowser, type Page, type TestBrowser } from '../../../support/browser.js';
import { run, tempDir } from '../../../support/main.js';
import { CAMPAIGNS, editTree, resetRepository, reviewRepository } from '../../../support/review-tree.js';

/** A PNG of one pixel. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** What an image of an email's frame is once it has loaded or failed: its address and its width as decoded. */
type Drawn = { src: string; offline: string | null; embedded: string | null; naturalWidth: number };

describe.skipIf(browserSkipReason() !== undefined)('the review page with --allow-network, in Chromium', () => {
  let root: string;
  let host: Server;
  let port: number;
  let browser: TestBrowser;
  const asked: { path: string; agent: string }[] = [];

  beforeAll(async () => {
    root = reviewRepository();
    host = createServer((req, res) => {
      asked.push({ path: req.url ?? '', agent: req.headers['user-agent'] ?? '' });
      res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    port = (host.address() as AddressInfo).port;
    editTree(
      root,
      `${CAMPAIGNS[0]}/email.lmx`,
      /<Button /,
      `<Image src="http://127.0.0.1:${port}/internal.png" alt="Internal" width="40" />\n<Image src="http://localhost:${port}/admin.png" alt="Admin" width="40" />\n<Button `,
    );
    browser = await startBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    resetRepository(root);
    host.closeAllConnections();
    await new Promise<void>((resolve) => host.close(() => resolve()));
  });

  const review = async (...more: string[]) => {
    const out = join(tempDir('loopsctl-review-images-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', out, '--allow-network', ...more]);
    expect(result.code, result.stderr).toBe(0);
    return { out, stderr: result.stderr };
  };

  /** The page opened at a width, every request the browser makes recorded; the campaign's images once each has loaded or failed. */
  const open = async (out: string, width: number): Promise<{ tab: Page; requests: string[]; images: Drawn[] }> => {
    const tab = await browser.page(width);
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(out).href);
    for (const frame of tab.frames()) await frame.waitForLoadState();
    const frame = tab.locator('section.email', { hasText: CAMPAIGNS[0]! }).locator('iframe[title$="After, 600 px"]').contentFrame();
    await frame.locator('img[alt="Admin"]').waitFor({ state: 'attached' });
    const images = await frame.locator('img[alt="Internal"], img[alt="Admin"]').evaluateAll((elements) =>
      Promise.all(
        elements.map(
          (element) =>
            new Promise<Drawn>((resolve) => {
              type Image = {
                src: string;
                complete: boolean;
                naturalWidth: number;
                onload: unknown;
                onerror: unknown;
                getAttribute(name: string): string | null;
              };
              const image = element as unknown as Image;
              const drawn = () =>
                resolve({
                  src: image.src.split(',')[0]!,
                  offline: image.getAttribute('data-offline-image'),
                  embedded: image.getAttribute('data-embedded-image'),
                  naturalWidth: image.naturalWidth,
                });
              if (image.complete) drawn();
              else image.onload = image.onerror = drawn;
            }),
        ),
      ),
    );
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
  }, 120_000);

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
  }, 120_000);
});
