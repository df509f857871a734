/**
 * Chromium started from a deep temporary directory, as a clone's or a CI runner's TMPDIR can be:
 * the whole browser makes the socket that keeps one browser to a profile in its TMPDIR, and a Unix
 * socket's path is at most 107 bytes, so a browser given a TMPDIR deep in that one stops at start.
 * Both the tests' browser (test/support/browser.ts) and the one `content review --screenshots`
 * runs (src/areas/content/review/chromium.ts) must start whatever the depth.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startChromium } from '../../../src/areas/content/review/chromium.js';
import { SOCKET_PATH_MAX } from '../../../src/base/socket-dir.js';
import { browserSkipReason, CHROMIUM, startBrowser } from '../../support/browser.js';
import { tempDir } from '../../support/temp.js';

describe.skipIf(browserSkipReason() !== undefined)('Chromium from a deep temporary directory', () => {
  // The test file's own, which setup.ts sets before the file is imported.
  let before: string;
  let deep: string;
  beforeEach(() => {
    before = process.env.TMPDIR!;
    // Deep enough that nothing made in it leaves room for Chromium's socket.
    deep = join(tempDir('deep-'), 'a/very/deep/path/that/is/long/enough/to/matter/for/sockets');
    mkdirSync(deep, { recursive: true });
    process.env.TMPDIR = deep;
    expect(tmpdir().length).toBeGreaterThan(SOCKET_PATH_MAX - 45);
  });
  afterEach(() => {
    process.env.TMPDIR = before;
  });

  it("starts the tests' browser, which draws a page", async () => {
    const browser = await startBrowser();
    try {
      const page = await browser.page(400);
      await page.setContent('<p>drawn</p>');
      expect(await page.locator('p').textContent()).toBe('drawn');
    } finally {
      await browser.close();
    }
  });

  it('starts the browser of content review --screenshots, which answers', async () => {
    const chromium = await startChromium(CHROMIUM, process.env);
    try {
      const tab = await chromium.tab();
      const { result } = (await tab('Runtime.evaluate', { expression: '6 * 7' })) as { result: { value: number } };
      expect(result.value).toBe(42);
    } finally {
      await chromium.close();
    }
  });
});
