/**
 * `content preview`'s images, in Chromium: each is served through the preview, fetched by
 * loopsctl's fetcher for outside addresses, never loaded by the browser from its own address. An
 * image at a loopback address (an internal server, as far as the preview can tell) is said on
 * stderr and not loaded unless --allow-private-links; with it, the host is asked by loopsctl, and
 * the email shows the image. The route serves only the images of emails it drew, and no other
 * site's page.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { contentTree } from '../../../support/content-tree.js';
import { drawnImages, type ImageHost, startImageHost } from '../../../support/image-host.js';
import { type Running, startRun } from '../../../support/main.js';

const WELCOME = 'transactional/welcome--cx1';

/** The preview of a directory, run in-process until stopped; its address, and what it says on stderr. */
async function startPreview(root: string, ...options: string[]): Promise<{ running: Running; url: string; said: () => string }> {
  let stderr = '';
  const running = startRun(['content', 'preview', root, '--port', '0', ...options], {
    env: { LOOPS_API_KEY: undefined },
    onWrite: (stream, text) => {
      if (stream === 'stderr') stderr += text;
    },
  });
  const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
  return { running, url: url!, said: () => stderr };
}

function get(url: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = request({ host: hostname, port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('content preview, the images of its emails', () => {
  let browser: TestBrowser | undefined;
  let host: ImageHost;
  let port: number;
  let asked: ImageHost['asked'];
  const skip = browserSkipReason();

  beforeAll(async () => {
    host = await startImageHost();
    ({ port, asked } = host);
    if (skip === undefined) browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  const tree = () =>
    contentTree({
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: `<H1>Welcome</H1>\n<Image src="http://127.0.0.1:${port}/internal.png" alt="Internal" width="40" />\n`,
    });
  /** The widths the image was drawn at, in the email's frames, once each has loaded or failed. */
  const drawnWidths = async (url: string) => {
    const page = await browser!.page(1440);
    try {
      await page.goto(url);
      const widths: number[] = [];
      for (const frame of ['desktop', 'mobile']) {
        const image = page.frameLocator(`#${frame}`).locator('img');
        await image.waitFor({ state: 'attached' });
        widths.push(...(await drawnImages(image)).map((drawn) => drawn.naturalWidth));
      }
      return widths;
    } finally {
      await page.close();
    }
  };

  it.skipIf(skip !== undefined)('says an image at a loopback address and loads it from nowhere, unless --allow-private-links', async () => {
    asked.length = 0;
    const root = tree();
    const refused = await startPreview(root);
    try {
      expect(await drawnWidths(refused.url)).toEqual([0, 0]);
      expect(asked).toEqual([]);
      expect(refused.said()).toContain(
        `Not loaded in the preview: http://127.0.0.1:${port}/internal.png: a loopback address (127.0.0.0/8) (--allow-private-links loads it).`,
      );
    } finally {
      await refused.running.stop();
    }
    const allowed = await startPreview(root, '--allow-private-links');
    try {
      expect(await drawnWidths(allowed.url)).toEqual([1, 1]);
      // Asked by loopsctl, once for both frames; never by the browser.
      expect(asked).toEqual([{ path: '/internal.png', agent: expect.stringMatching(/^loopsctl\//) }]);
      expect(allowed.said()).not.toContain('Not loaded');
    } finally {
      await allowed.running.stop();
    }
  });

  it('serves no image an email it drew was not given, nor one a page of another site asks for', async () => {
    asked.length = 0;
    const root = tree();
    const { running, url } = await startPreview(root, '--allow-private-links');
    try {
      const image = `/image?address=${encodeURIComponent(`http://127.0.0.1:${port}/internal.png`)}`;
      // Before an email naming it is drawn, the address is no image of the preview's.
      expect(await get(url, image)).toBe(404);
      expect(await get(url, `/email.html?path=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`)).toBe(200);
      expect(await get(url, `/image?address=${encodeURIComponent(`http://127.0.0.1:${port}/other.png`)}`)).toBe(404);
      expect(await get(url, image, { 'sec-fetch-site': 'cross-site' })).toBe(403);
      expect(asked).toEqual([]);
      expect(await get(url, image, { 'sec-fetch-site': 'same-origin' })).toBe(200);
      expect(asked.map((each) => each.path)).toEqual(['/internal.png']);
    } finally {
      await running.stop();
    }
  });
});
