/**
 * The images of the sandbox inbox's emails, in Chromium. `loopsctl sandbox` hands the inbox
 * loopsctl's fetcher for outside addresses: each image is served through the inbox, fetched by
 * loopsctl, and the browser loads none from its own address; one at a loopback address (an app's
 * server on the machine, as far as the inbox can tell) is said on stderr and not loaded unless
 * --allow-private-links. `loopsctl/sandbox`, in an app's tests, loads no remote image at all: each
 * is a placeholder naming its address.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../../src/emulator/public.js';
import { browserSkipReason, keepScreenshot, type Page, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { type DrawnImage, drawnImages, type ImageHost, startImageHost } from '../../../support/image-host.js';
import { type Running, run, startRun, tempDir } from '../../../support/main.js';

describe.skipIf(browserSkipReason() !== undefined)("the sandbox inbox's images, in Chromium", () => {
  let host: ImageHost;
  let port: number;
  let asked: ImageHost['asked'];
  let browser: TestBrowser;
  let fixtures: string;

  beforeAll(async () => {
    host = await startImageHost();
    ({ port, asked } = host);
    fixtures = join(tempDir('loopsctl-inbox-images-'), 'loops.yaml');
    writeFileSync(
      fixtures,
      `transactionalEmails:
  - id: tx_images
    name: Images
    subject: Your receipt
    lmx: |
      <H1>Your receipt</H1>
      <Image src="http://127.0.0.1:${port}/internal.png" alt="Internal" width="40" />
      <Image src="http://localhost:${port}/admin.png" alt="Admin" width="40" />
`,
    );
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  /** `loopsctl sandbox` started from the fixtures, with the email sent once: its address, and what it says on stderr. */
  const serve = async (...options: string[]): Promise<{ running: Running; url: string; said: () => string }> => {
    let stderr = '';
    const state = join(tempDir('loopsctl-inbox-state-'), 'sandbox.json');
    const running = startRun(['sandbox', '--port', '0', '--state', state, '--fixtures', fixtures, '--rate-limit', 'off', ...options], {
      onWrite: (stream, text) => {
        if (stream === 'stderr') stderr += text;
      },
    });
    const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+)\n/);
    const sent = await run(['transactional', 'send', 'tx_images', '--to', 'ada@example.com'], { env: { LOOPS_BASE_URL: url!, LOOPS_API_KEY: 'sandbox-key' } });
    expect(sent.code, sent.stderr).toBe(0);
    return { running, url: url!, said: () => stderr };
  };

  /** The inbox opened at a width, each request the browser makes recorded; the email's images in its desktop frame, once each has loaded or failed. */
  const open = async (url: string, width: number): Promise<{ tab: Page; requests: string[]; images: DrawnImage[] }> => {
    const tab = await browser.page(width);
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(`${url}/_sandbox/inbox`);
    const frame = tab.frameLocator('#desktop');
    await frame.locator('img[alt="Admin"]').waitFor({ state: 'attached' });
    const images = await drawnImages(frame.locator('img'));
    return { tab, requests, images };
  };

  /** The requests the browser made of anything but the sandbox. */
  const elsewhere = (requests: string[], url: string) => requests.filter((request) => !request.startsWith(`${url}/`) && !request.startsWith('data:'));
  const routed = (url: string, address: string) => `${url}/_sandbox/inbox/image?address=${encodeURIComponent(address)}`;

  it('serves each image through the inbox, fetched by loopsctl: one at a loopback address is said and loaded by nobody, unless --allow-private-links', async () => {
    asked.length = 0;
    const refused = await serve();
    try {
      const { tab, requests, images } = await open(refused.url, 1440);
      try {
        expect(images).toEqual([
          { src: routed(refused.url, `http://127.0.0.1:${port}/internal.png`), offline: null, embedded: null, naturalWidth: 0 },
          { src: routed(refused.url, `http://localhost:${port}/admin.png`), offline: null, embedded: null, naturalWidth: 0 },
        ]);
        expect(elsewhere(requests, refused.url)).toEqual([]);
      } finally {
        await tab.close();
      }
      expect(asked).toEqual([]);
      expect(refused.said()).toContain(
        `Not loaded in the inbox: http://127.0.0.1:${port}/internal.png: a loopback address (127.0.0.0/8) (--allow-private-links loads it).`,
      );
      expect(refused.said()).toContain(
        `Not loaded in the inbox: http://localhost:${port}/admin.png: a loopback address (localhost) (--allow-private-links loads it).`,
      );
    } finally {
      await refused.running.stop();
    }
    const allowed = await serve('--allow-private-links');
    try {
      for (const width of [1440, 600, 375]) {
        const { tab, requests, images } = await open(allowed.url, width);
        try {
          expect(images.map((image) => image.naturalWidth)).toEqual([1, 1]);
          expect(elsewhere(requests, allowed.url)).toEqual([]);
          await keepScreenshot(tab, `sandbox-inbox-images-${width}`);
        } finally {
          await tab.close();
        }
      }
      // Asked by loopsctl, once each, however many frames and pages drew them; never by the browser.
      expect(asked.map((request) => request.path).sort()).toEqual(['/admin.png', '/internal.png']);
      for (const request of asked) expect(request.agent).toMatch(/^loopsctl\//);
      expect(allowed.said()).not.toContain('Not loaded');
    } finally {
      await allowed.running.stop();
    }
  });

  it('loads no remote image in an app’s tests (loopsctl/sandbox): each is a placeholder naming its address', async () => {
    asked.length = 0;
    const sandbox = await startSandbox({ fixtures, rateLimit: false });
    try {
      const sent = await run(['transactional', 'send', 'tx_images', '--to', 'ada@example.com'], {
        env: { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: sandbox.apiKey },
      });
      expect(sent.code, sent.stderr).toBe(0);
      const { tab, requests, images } = await open(sandbox.url, 1440);
      try {
        expect(images).toEqual([
          { src: 'data:image/svg+xml;charset=utf-8', offline: `http://127.0.0.1:${port}/internal.png`, embedded: null, naturalWidth: 40 },
          { src: 'data:image/svg+xml;charset=utf-8', offline: `http://localhost:${port}/admin.png`, embedded: null, naturalWidth: 40 },
        ]);
        expect(await tab.request.get(routed(sandbox.url, `http://127.0.0.1:${port}/internal.png`)).then((answer) => answer.status())).toBe(404);
        expect(elsewhere(requests, sandbox.url)).toEqual([]);
        await keepScreenshot(tab, 'sandbox-inbox-images-placeholders');
      } finally {
        await tab.close();
      }
      expect(asked).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});
