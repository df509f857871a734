/**
 * `content preview` in a real browser (Debian's Chromium through playwright-core; the tests that
 * need it skip, saying why, where it is missing): the list, the frames at 600 and 375 px, redraws,
 * sample values. With --compare, preview-compare.test.ts; what its server must refuse is asked of it
 * directly in preview-server.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, startBrowser, type TestBrowser } from '../../../support/browser.js';
import { frameShows, NEWS, startPreview, tree, WELCOME } from '../../../support/content-preview.js';

describe('content preview in a browser', () => {
  let browser: TestBrowser | undefined;
  const skip = browserSkipReason();

  beforeAll(async () => {
    if (skip === undefined) browser = await startBrowser();
  });
  afterAll(async () => browser?.close());

  const test = (name: string, body: () => Promise<void>) =>
    it(name, async (context) => {
      if (skip !== undefined) {
        console.warn(`skipped "${name}": ${skip}`);
        context.skip();
      }
      await body();
    });

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
      [`${flow}/emails/hello/email.json`]: '{"subject":"Hello, {contact.firstName}","languageCode":"en"}\n',
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

  test('shows each accessibility finding with its severity and impact, counted by impact, as the rules file rules it', async () => {
    const root = tree();
    // A dark band whose links are drawn in the theme's link colour (serious), beside the vague link (moderate).
    writeFileSync(
      join(root, NEWS, 'email.lmx'),
      '<H1>What shipped in October</H1>\n<Paragraph>Exports are twice as fast. More <Link href="https://acme.example/october">here</Link>.</Paragraph>\n' +
        '<Section blockColor="#1f2937"><Paragraph><Text textColor="#ffffff">Acme Inc · <Link href="https://acme.example/preferences">Email preferences</Link></Text></Paragraph></Section>\n',
    );
    const rules = join(root, 'rules.yaml');
    writeFileSync(rules, 'rules:\n  vague-link-text: error\n');
    const { running, url } = await startPreview(root, '--rules', rules);
    try {
      const page = await browser!.page(1440);
      await page.goto(`${url}?email=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
      await page.locator('#checks .problems li').first().waitFor();
      const findings = await page
        .locator('#checks .problems li')
        .evaluateAll((items) => items.map((item) => `${item.querySelector('.rule')!.textContent} ${item.querySelector('.grade')!.textContent}`));
      expect(findings).toEqual(['vague-link-text error (moderate)', 'low-contrast warning (serious)']);
      expect(await page.textContent('#checks .accessibility')).toBe('Accessibility: 0 critical, 1 serious, 1 moderate, 0 mild.');
      await keepScreenshot(page.locator('#checks'), 'content-preview-accessibility');
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
});
