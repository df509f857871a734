/**
 * `content preview` in a real browser (Debian's Chromium through playwright-core; the tests that
 * need it skip, saying why, where it is missing): the list, the frames at 600 and 375 px, redraws,
 * sample values, and with --compare an email `content convert` made drawn beside the original it was
 * made from. What its server must refuse is asked of it directly in preview-server.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, startBrowser, type Page, type TestBrowser } from '../../../support/browser.js';
import { converted, NEWS, original, startPreview, tree, WELCOME } from '../../../support/content-preview.js';

/** Waits until the email shown in a frame of the page holds this text. */
const frameShows = (page: Page, frame: 'desktop' | 'mobile' | 'original-desktop' | 'original-mobile', text: string) =>
  page.frameLocator(`#${frame}`).getByText(text, { exact: false }).first().waitFor();

describe('content preview in a browser', () => {
  let browser: TestBrowser | undefined;
  const skip = browserSkipReason();

  beforeAll(async () => {
    if (skip === undefined) browser = await startBrowser();
  }, 60_000);
  afterAll(async () => browser?.close());

  const test = (name: string, body: () => Promise<void>) =>
    it(name, async (context) => {
      if (skip !== undefined) {
        console.warn(`skipped "${name}": ${skip}`);
        context.skip();
      }
      await body();
    }, 60_000);

  test('lists the emails and components by kind, and shows the chosen one at 600 and 375 px with its check results', async () => {
    const root = tree();
    const { running, url } = await startPreview(root);
    try {
      const page = await browser!.page(1440);
      await page.goto(url);
      expect(await page.locator('nav h2').allTextContents()).toEqual(['Campaigns', 'Components', 'Transactional emails']);
      expect(await page.locator('nav li .name').allTextContents()).toEqual(['October news', 'Footer', 'Welcome (draft)']);
      // The first is shown: a campaign with an error, which the check panel names with its fix.
      expect(await page.textContent('#checks')).toContain('<Bold> is not an LMX tag');
      // And what a recipient meets (the qa rules of `check`): a link that says nothing alone.
      expect(await page.textContent('#checks')).toContain('the link text "here" says nothing alone');
      await page.click('text=Welcome (draft)');
      await page.locator('main h1', { hasText: 'Welcome (draft)' }).waitFor();
      expect([await page.locator('iframe#desktop').getAttribute('width'), await page.locator('iframe#mobile').getAttribute('width')]).toEqual(['600', '375']);
      await frameShows(page, 'mobile', 'Acme Inc · 1 Main Street');
      await frameShows(page, 'desktop', 'Welcome to Acme, {data.firstName}!');
      expect(await page.textContent('#checks')).toContain('No problems');
      expect(await page.locator('#values-form label').allTextContents()).toEqual(['{data.firstName}']);
      await keepScreenshot(page, 'content-preview-1440');
      for (const width of [600, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await keepScreenshot(page, `content-preview-${width}`);
      }
      // The email alone, as drawn at each width.
      await page.setViewportSize({ width: 1440, height: 900 });
      for (const device of ['desktop', 'mobile']) await keepScreenshot(page.locator(`#${device}`), `content-preview-email-${device}`);
    } finally {
      await running.stop();
    }
  });

  test('lists a workflow’s emails by workflow and subject, draws them with the tree’s components, and fits 375 px', async () => {
    const root = tree();
    const flow = 'workflows/welcome-flow--wf1';
    const loose = 'drafts/onboarding--c0eyw5clakhdc9jo8zce88dn8c0eyw5clakhdc9jo8zce88dn8/email.lmx';
    for (const [path, text] of Object.entries({
      [`${flow}/workflow.yaml`]: 'name: Welcome flow\n',
      [`${flow}/emails/hello/email.json`]: '{"subject":"Hello, {contact.firstName}"}\n',
      [`${flow}/emails/hello/email.lmx`]: '<H1>Hello from the flow</H1>\n<Paragraph>Hi {contact.firstName}.</Paragraph>\n<Component componentId="cmp1" />\n',
      [loose]: '<H1>A loose draft</H1>\n',
    })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const { running, url } = await startPreview(root);
    try {
      const page = await browser!.page(375);
      await page.goto(`${url}?email=${encodeURIComponent(`${flow}/emails/hello/email.lmx`)}`);
      expect(await page.locator('nav h2').allTextContents()).toContain('Workflow emails');
      await page.locator('main h1', { hasText: 'Welcome flow: Hello, {contact.firstName}' }).waitFor();
      expect(await page.textContent('.email-head')).toContain('Workflow email');
      await frameShows(page, 'desktop', 'Acme Inc · 1 Main Street');
      expect(await page.textContent('#checks')).toContain('No problems');
      expect(await page.locator('#values-form label').allTextContents()).toEqual(['{contact.firstName}']);
      // A long name wraps: nothing of the page is wider than the phone.
      await page.goto(`${url}?email=${encodeURIComponent(loose)}`);
      await page.locator('main h1', { hasText: 'onboarding--c0eyw5' }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await keepScreenshot(page, 'content-preview-workflow-375');
    } finally {
      await running.stop();
    }
  });

  test('redraws by itself when an .lmx file is saved', async () => {
    const root = tree();
    const { running, url } = await startPreview(root);
    try {
      const page = await browser!.page(1440);
      await page.goto(`${url}?email=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
      await frameShows(page, 'desktop', 'What shipped in October');
      writeFileSync(
        join(root, NEWS, 'email.lmx'),
        '<H1>What shipped in November</H1>\n<Paragraph>Hi {contact.firstName}, <Strong>sharing</Strong> is here.</Paragraph>\n',
      );
      // The positive signal: the new heading in both frames, and the check panel clean again.
      await frameShows(page, 'desktop', 'What shipped in November');
      await frameShows(page, 'mobile', 'What shipped in November');
      await page.locator('#checks', { hasText: 'No problems' }).waitFor();
      expect(await page.locator('nav a[aria-current=page] .badge').textContent()).toBe('✓');
    } finally {
      await running.stop();
    }
  });

  test("draws each frame once on opening: the live stream's first look loads nothing again", async () => {
    const root = tree();
    const { running, url } = await startPreview(root);
    try {
      const page = await browser!.page(1440);
      const drawings: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/email.html') drawings.push(request.url());
      });
      await page.addInitScript(() => {
        const counted = globalThis as unknown as { redrawn: number; addEventListener(name: string, listener: () => void): void };
        counted.redrawn = 0;
        counted.addEventListener('viewer:redrawn', () => (counted.redrawn += 1));
      });
      await page.goto(`${url}?email=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
      // The positive signal: the page looked once when its stream opened, and both frames show the email.
      await page.waitForFunction(() => (globalThis as unknown as { redrawn: number }).redrawn >= 1);
      await frameShows(page, 'desktop', 'What shipped in October');
      await frameShows(page, 'mobile', 'What shipped in October');
      expect(drawings).toHaveLength(2);
    } finally {
      await running.stop();
    }
  });

  test('saves sample values beside the email and draws with them', async () => {
    const root = tree();
    const { running, url } = await startPreview(root);
    try {
      const page = await browser!.page(1440);
      await page.goto(`${url}?email=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`);
      await page.fill('#values-form input[name="data.firstName"]', '<b>Ada</b>');
      await page.click('text=Save and redraw');
      await frameShows(page, 'desktop', 'Welcome to Acme, <b>Ada</b>!');
      expect(JSON.parse(readFileSync(join(root, WELCOME, '.draft.values.json'), 'utf8'))).toEqual({ data: { firstName: '<b>Ada</b>' } });
      // The value is text in the email, never markup.
      expect(await page.frameLocator('#desktop').locator('b').count()).toBe(0);
      await page.reload();
      expect(await page.inputValue('#values-form input[name="data.firstName"]')).toBe('<b>Ada</b>');
    } finally {
      await running.stop();
    }
  });
  test('with --compare, draws the original and the converted email side by side at 600 and 375 px, stacked on a narrow screen', async () => {
    const { running, url } = await startPreview(await converted(), '--compare', original());
    try {
      const page = await browser!.page(1440);
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
      for (const width of [600, 375]) {
        await page.setViewportSize({ width, height: 900 });
        // Narrower than two frames side by side: the original above the converted email, each drawn whole within the window.
        // The page's own resize handler draws every frame within the window: waited for as the page shows it.
        await page.waitForFunction((room) => {
          type Frames = { querySelectorAll(selector: string): Iterable<{ getBoundingClientRect(): { right: number } }> };
          const { document } = globalThis as unknown as { document: Frames };
          return [...document.querySelectorAll('#frames iframe')].every((frame) => frame.getBoundingClientRect().right <= room);
        }, width);
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
