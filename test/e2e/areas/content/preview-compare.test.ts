/**
 * `content preview --compare`: an email converted by `content convert`, drawn beside the original
 * it was converted from, at desktop and mobile width, in a real browser (skipped, saying why,
 * where Chromium is missing); and the original served as the emails are: no script, images from
 * the hosts it names only.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, startBrowser, type Page, type TestBrowser } from '../../../support/browser.js';
import { run, startRun, tempDir, type Running } from '../../../support/main.js';

const ORIGINAL = join(import.meta.dirname, '../../../corpus/convert/html-mailgun/action.html');

/** The corpus' Mailgun action email converted into a new content directory. */
async function converted(): Promise<string> {
  const out = join(tempDir('loopsctl-compare-'), 'loops');
  const result = await run(['content', 'convert', ORIGINAL, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

async function startPreview(root: string, original: string): Promise<{ running: Running; url: string }> {
  const running = startRun(['content', 'preview', root, '--port', '0', '--compare', original], { env: { LOOPS_API_KEY: undefined } });
  const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
  return { running, url: url! };
}

const frameShows = (page: Page, frame: string, text: string) => page.frameLocator(`#${frame}`).getByText(text, { exact: false }).first().waitFor();

describe('content preview --compare', () => {
  let browser: TestBrowser | undefined;
  const skip = browserSkipReason();

  beforeAll(async () => {
    if (skip === undefined) browser = await startBrowser();
  }, 60_000);
  afterAll(async () => browser?.close());

  it('draws the original and the converted email side by side at 600 and 375 px', async (context) => {
    if (skip !== undefined) {
      console.warn(`skipped: ${skip}`);
      context.skip();
    }
    const { running, url } = await startPreview(await converted(), ORIGINAL);
    try {
      const page = await browser!.page(1440);
      await page.goto(url);
      const widths = await page.locator('#frames iframe').evaluateAll((frames) => frames.map((frame) => `${frame.id}:${frame.getAttribute('width')}`));
      expect(widths).toEqual(['original-desktop:600', 'original-mobile:375', 'desktop:600', 'mobile:375']);
      expect(await page.locator('#frames figcaption').allTextContents()).toEqual([
        'Original: action.html · Desktop · 600 px',
        'Original: action.html · Mobile · 375 px',
        'Desktop · 600 px',
        'Mobile · 375 px',
      ]);
      for (const frame of ['original-desktop', 'original-mobile', 'desktop', 'mobile']) {
        await frameShows(page, frame, 'Please confirm your email address by clicking the link below.');
        await frameShows(page, frame, 'Confirm email address');
      }
      await keepScreenshot(page, 'content-preview-compare-1440');
      for (const width of [600, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await frameShows(page, 'original-mobile', '— The Mailgunners');
        await keepScreenshot(page, `content-preview-compare-${width}`);
      }
    } finally {
      await running.stop();
    }
  }, 60_000);

  it('serves the original with no script and images only from the hosts it names', async () => {
    const { running, url } = await startPreview(await converted(), ORIGINAL);
    try {
      const response = await fetch(new URL('/original.html', url));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('Please confirm your email address');
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; img-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
      );
    } finally {
      await running.stop();
    }
  });

  it('takes the original as HTML only, and a file that is there', async () => {
    const root = await converted();
    const mjml = await run(['content', 'preview', root, '--compare', 'welcome.mjml']);
    expect(mjml.code).toBe(2);
    expect(mjml.stderr).toContain('--compare welcome.mjml: the original is compared as the HTML it sends');
    const missing = await run(['content', 'preview', root, '--compare', join(root, 'nothing.html')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
