/**
 * `content review --out review.html` opened in Chromium with the network off: every request the
 * page makes is recorded and none leaves the file; each email changed is drawn before and after at
 * 600 and 375 px, the changed block outlined on both sides; an image is a placeholder. The
 * Markdown of the same review fits a GitHub comment, and the Slack message Slack's limits. Each
 * frame is as tall as its email (the page's one script, allowed by its hash): a short email leaves
 * no empty space below it, a long one is not cut.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, type Page, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { run, tempDir } from '../../../support/main.js';
import { ALL_EMAILS, CAMPAIGNS, editTree, insertionBeforeComponent, resetRepository, reviewRepository, TRANSACTIONAL } from '../../../support/review-tree.js';

let root: string;
beforeAll(() => {
  root = reviewRepository();
});

const skip = browserSkipReason();

/** The file's one Chromium: started by the first block that draws a page, closed after the last. */
let chromium: TestBrowser | undefined;
const sharedBrowser = async () => (chromium ??= await startBrowser());
afterAll(() => chromium?.close());

describe.skipIf(skip !== undefined)('the review page in Chromium, offline', () => {
  let browser: TestBrowser;
  let page: string;

  beforeAll(async () => {
    editTree(root, `${CAMPAIGNS[0]}/email.lmx`, 'It says something', 'It now says something');
    editTree(root, `${TRANSACTIONAL[10]}/draft.lmx`, 'hero-1.png', 'hero-2.png');
    // A long email: taller than the frame's fixed height at either width.
    const long = Array.from({ length: 40 }, (_, index) => `<Paragraph>Line ${index + 1} of a long letter, said at length.</Paragraph>`);
    editTree(root, `${TRANSACTIONAL[10]}/draft.lmx`, '<Button', `${long.join('\n')}\n<Button`);
    page = join(tempDir('loopsctl-review-page-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', page]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`Wrote the review to ${page}`);
    resetRepository(root);
    browser = await sharedBrowser();
  });

  it('loads nothing but itself, and shows each changed email before and after at both widths, the changed block outlined', async () => {
    const tab = await browser.page(1400);
    await tab.context().setOffline(true);
    const requests: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    await tab.goto(pathToFileURL(page).href);
    const sections = tab.locator('section.email');
    await expect.poll(() => sections.count()).toBe(2);
    const frames = tab.locator('section.email iframe');
    expect(await frames.count()).toBe(8);
    const widths = await frames.evaluateAll((elements) => elements.map((element) => element.getAttribute('width')));
    expect(widths).toEqual(['600', '600', '375', '375', '600', '600', '375', '375']);
    // The campaign's copy edit: its paragraph outlined on both sides, the new words after.
    const campaign = sections.filter({ hasText: CAMPAIGNS[0]! });
    const after = campaign.locator('iframe[title$="After, 600 px"]').contentFrame();
    await expect.poll(() => after.locator('[data-review-change]').textContent()).toContain('It now says something');
    const before = campaign.locator('iframe[title$="Before, 375 px"]').contentFrame();
    await expect.poll(() => before.locator('[data-review-change]').textContent()).toContain('It says something');
    // The image is drawn as a placeholder from the page itself.
    const image = sections.filter({ hasText: TRANSACTIONAL[10]! }).locator('iframe[title$="After, 600 px"]').contentFrame().locator('img[data-offline-image]');
    expect(await image.getAttribute('data-offline-image')).toBe('https://cdn.acme.example/hero-2.png');
    expect(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth)).toBe(560);
    for (const frame of tab.frames()) await frame.waitForLoadState();
    await keepScreenshot(tab, 'content-review-page');
    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:') && url !== 'about:srcdoc')).toEqual([]);
  });

  it('makes each frame as tall as its email: a short one without empty space below, a long one not cut', async () => {
    const tab = await browser.page(1400);
    await tab.context().setOffline(true);
    await tab.goto(pathToFileURL(page).href);
    // Each frame's height beside its document's: the height it scrolls to, and where its content ends.
    const sizes = () =>
      tab.evaluate(`[...document.querySelectorAll('section.email iframe')].map((frame) => ({
        title: frame.title,
        path: frame.closest('section').querySelector('code').textContent,
        frame: frame.clientHeight,
        scroll: frame.contentDocument.documentElement.scrollHeight,
        content: frame.contentDocument.body.getBoundingClientRect().bottom,
      }))`) as Promise<{ title: string; path: string; frame: number; scroll: number; content: number }[]>;
    await expect.poll(async () => (await sizes()).every((size) => size.frame !== 638)).toBe(true);
    const all = await sizes();
    expect(all).toHaveLength(8);
    for (const size of all) {
      // Not cut: the frame shows the whole document, which has nothing to scroll.
      expect(size.frame, size.title).toBeGreaterThanOrEqual(size.scroll);
      // No empty space: at most the body's bottom margin and a little more below the content.
      expect(size.frame, size.title).toBeLessThanOrEqual(Math.ceil(size.content) + 40);
    }
    const short = all.filter((size) => size.path === CAMPAIGNS[0]);
    // The long letter is the image email's after its edit; before it, that email is short too.
    const long = all.filter((size) => size.path === TRANSACTIONAL[10] && size.title.includes(': After,'));
    expect(long).toHaveLength(2);
    expect(short).toHaveLength(4);
    for (const size of short) expect(size.frame, size.title).toBeLessThan(600);
    for (const size of long) expect(size.frame, size.title).toBeGreaterThan(640);
  });

  it('reads at phone width: nothing wider than the screen but the frames, which scroll', async () => {
    const tab = await browser.page(375);
    await tab.goto(pathToFileURL(page).href);
    const overflow = await tab.evaluate("document.querySelector('header').scrollWidth <= window.innerWidth");
    expect(overflow).toBe(true);
    for (const frame of tab.frames()) await frame.waitForLoadState();
    await keepScreenshot(tab, 'content-review-page-phone');
  });
});

describe.skipIf(skip !== undefined)('the review page of an insertion before a changed component, in Chromium', () => {
  let browser: TestBrowser;
  let page: string;

  beforeAll(async () => {
    const { root: tree } = insertionBeforeComponent();
    page = join(tempDir('loopsctl-review-insertion-page-'), 'review.html');
    const result = await run(['content', 'review', tree, '--base', 'HEAD', '--out', page]);
    expect(result.code, result.stderr).toBe(0);
    browser = await sharedBrowser();
  });

  /** Each block a frame marks, in order: how it changed, and whether its outline is a box drawn whole within the frame. */
  const marksIn = (tab: Page, title: string) =>
    tab
      .locator(`iframe[title$="${title}"]`)
      .contentFrame()
      .locator('[data-review-change]')
      .evaluateAll((elements) =>
        elements.map((element) => {
          const view = element.ownerDocument.defaultView!;
          const style = view.getComputedStyle(element);
          const box = element.getBoundingClientRect();
          const width = Number.parseFloat(style.outlineWidth);
          const offset = Number.parseFloat(style.outlineOffset);
          // The outline's outer edge, on each side: inside the frame's viewport, so all four sides show.
          const outer = width + offset;
          const whole = box.left - outer >= 0 && box.top - outer >= 0 && box.right + outer <= view.innerWidth && style.outlineStyle === 'solid' && width > 0;
          return { change: element.getAttribute('data-review-change'), whole, text: element.textContent!.trim() };
        }),
      );

  for (const width of [1440, 600, 375])
    it(`at ${width} px: one block added, the paragraph and the component changed, each outlined as a box, and listed so`, async () => {
      const tab = await browser.page(width);
      await tab.context().setOffline(true);
      await tab.goto(pathToFileURL(page).href);
      for (const frame of tab.frames()) await frame.waitForLoadState();
      for (const frameWidth of [600, 375]) {
        await expect
          .poll(() => marksIn(tab, `After, ${frameWidth} px`))
          .toEqual([
            { change: 'changed', whole: true, text: 'Thank you for joining Acme. Your workspace is ready whenever you are.' },
            { change: 'added', whole: true, text: 'Questions? Reply to this email and a person will answer.' },
            { change: 'changed', whole: true, text: 'Acme Inc · 2 Market Square' },
          ]);
        expect(await marksIn(tab, `Before, ${frameWidth} px`)).toEqual([
          { change: 'changed', whole: true, text: 'Thanks for joining Acme. Your workspace is ready whenever you are.' },
          { change: 'changed', whole: true, text: 'Acme Inc · 1 Main Street' },
        ]);
      }
      const listed = await tab
        .locator('ul.blocks li')
        .evaluateAll((items) =>
          items.map((item) => [item.getAttribute('data-block-change'), item.querySelector('.tag')!.textContent, item.lastChild!.textContent]),
        );
      expect(listed).toEqual([
        ['changed', 'changed', 'paragraph ("Thank you for joining Acme. Your workspace is ready whenever you are.")'],
        ['added', 'added', 'paragraph ("Questions? Reply to this email and a person will answer.")'],
        ['changed', 'changed', 'component cmp2 ("Acme Inc · 2 Market Square")'],
      ]);
      expect(await tab.locator('section.email p.muted').textContent()).toContain('body (2 blocks changed, 1 added)');
      await keepScreenshot(tab, `content-review-insertion-${width}`);
    });
});

describe('the review as a page, a comment and a message', () => {
  it('holds its policy of no network, and 40 changed emails in under 5 MB', async () => {
    editTree(root, 'components/header--cmp1/component.lmx', 'your workspace', 'your team');
    const out = join(tempDir('loopsctl-review-size-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--out', out, '--json']);
    resetRepository(root);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { emails: unknown[] }).emails.length).toBe(ALL_EMAILS.length - 10);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:;`);
    // One script, the page's own, and the policy allows it by its hash and nothing else.
    const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/gi)].map((match) => match[1]!);
    expect(html.match(/<script/gi)).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(html).toMatch(new RegExp(`; script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'">`));
    expect(html).not.toMatch(/ src="https?:/);
    expect(statSync(out).size).toBeLessThan(5 * 1024 * 1024);
  });

  it('--format markdown: a table of the emails, the page and the digest, within a comment', async () => {
    editTree(root, 'components/promo--cmp3/component.lmx', '14 days', '30 days');
    const out = join(tempDir('loopsctl-review-markdown-'), 'review.html');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'markdown', '--out', out]);
    resetRepository(root);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('| Email | Kind | Change | What changed |');
    expect(result.stdout.match(/^\| T \d\d/gm)).toHaveLength(7);
    expect(result.stdout).toContain(`\`${out}\``);
    expect(result.stdout).toMatch(/Review digest: `[0-9a-f]{64}`/);
    expect(result.stdout.length).toBeLessThanOrEqual(65_536);
  });

  it('--format slack: Block Kit, under its limits', async () => {
    editTree(root, 'themes/ocean--th1/theme.json', '#0e7490', '#155e75');
    const result = await run(['content', 'review', root, '--base', 'HEAD', '--format', 'slack']);
    resetRepository(root);
    expect(result.code, result.stderr).toBe(0);
    const message = JSON.parse(result.stdout) as { text: string; blocks: { type: string; text?: { text: string } }[] };
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Email review' } });
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const block of message.blocks) expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(message)).toContain('21 emails change');
  });
});
