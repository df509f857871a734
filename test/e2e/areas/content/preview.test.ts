/**
 * `content preview` in a real browser (Debian's Chromium through playwright-core; the tests that
 * need it skip, saying why, where it is missing), and its server asked directly for what it must
 * refuse: paths out of its directory, links out of it, foreign Host and Origin headers. With
 * --compare, an email `content convert` made is drawn beside the original it was made from.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkipReason, keepScreenshot, startBrowser, type Page, type TestBrowser } from '../../../support/browser.js';
import { contentTree } from '../../../support/content-tree.js';
import { corpusDirectory } from '../../../support/convert-corpus.js';
import { run, startRun, tempDir, type Running } from '../../../support/main.js';

const WELCOME = 'transactional/welcome--cx1';
const NEWS = 'campaigns/news--cm1';
const FOOTER = 'components/footer--cmp1';

const tree = () =>
  contentTree({
    [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
    [`${WELCOME}/draft.json`]: '{"subject":"Welcome, {data.firstName}"}\n',
    [`${WELCOME}/draft.lmx`]: [
      '<Style themeId="th1" />',
      '<H1>Welcome to Acme, {data.firstName}!</H1>',
      '<Paragraph>Your account is ready. Here is what you can do <Strong>right now</Strong>:</Paragraph>',
      '<UnorderedList><ListItem>Invite your team</ListItem><ListItem>Connect your <Link href="https://acme.example/data">data source</Link></ListItem></UnorderedList>',
      '<Button href="https://acme.example/login" align="center">Sign in to Acme</Button>',
      '<Columns widths="50,50"><ColumnItem><H2>Docs</H2><Paragraph>Start with the quickstart.</Paragraph></ColumnItem><ColumnItem><H2>Help</H2><Paragraph>Reply to this email any time.</Paragraph></ColumnItem></Columns>',
      '<Component componentId="cmp1" />',
      '',
    ].join('\n'),
    [`${NEWS}/campaign.json`]: '{"name":"October news"}\n',
    [`${NEWS}/email.lmx`]:
      '<H1>What shipped in October</H1>\n<Paragraph>Hi {contact.firstName}, exports are <Bold>twice</Bold> as fast. More <Link href="https://acme.example/october">here</Link>.</Paragraph>\n',
    [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
    [`${FOOTER}/component.lmx`]:
      '<Divider />\n<Paragraph align="center" fontSize="13">Acme Inc · 1 Main Street</Paragraph>\n<Icons><Icon name="github" href="https://github.com/acme" /></Icons>\n',
    'themes/ocean--th1/theme.json':
      '{"name":"Ocean","styles":{"backgroundColor":"#e6f2f8","buttonBodyColor":"#0e7490","heading1Color":"#0c2d3f","textLinkColor":"#0e7490"}}\n',
  });

/** The preview of a directory, run in-process until the test stops it; its address is its first line. */
async function startPreview(root: string, ...options: string[]): Promise<{ running: Running; url: string }> {
  const running = startRun(['content', 'preview', root, '--port', '0', ...options], { env: { LOOPS_API_KEY: undefined } });
  const [, url] = await running.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/);
  return { running, url: url! };
}

const ORIGINAL = join(corpusDirectory(), 'html-mailgun/action.html');

/** The corpus' Mailgun action email converted by `content convert` into a new content directory. */
async function converted(): Promise<string> {
  const out = join(tempDir('loopsctl-compare-'), 'loops');
  const result = await run(['content', 'convert', ORIGINAL, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  return out;
}

/** A request exactly as written: the path is sent as it is, not normalized by a URL parser. */
function rawGet(
  url: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; text: string; headers: IncomingHttpHeaders }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

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
    const { running, url } = await startPreview(await converted(), '--compare', ORIGINAL);
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

describe('content preview refuses what is not its own', () => {
  let root: string;
  let url: string;
  let running: Running;

  beforeAll(async () => {
    root = tree();
    // A link inside the directory to a file outside it.
    const outside = join(tempDir(), 'secret.lmx');
    writeFileSync(outside, '<Paragraph>secret outside the directory</Paragraph>\n');
    symlinkSync(outside, join(root, NEWS, 'linked.lmx'));
    ({ running, url } = await startPreview(root));
  });
  afterAll(async () => running.stop());

  it('prints its address as the first line, and its directory on stderr', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await rawGet(url, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('October news');
    // Its one error, <Bold>, counted in the singular.
    expect(page.text).toContain('<span class="badge error" title="1 error">1</span>');
    // The link out of the directory is not listed.
    expect(page.text).not.toContain('linked.lmx');
  });

  it.each([
    '/../../etc/passwd',
    '/..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/email.html?path=../../etc/passwd',
    '/email.html?path=%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/email.html?path=%252e%252e%252fetc%252fpasswd',
    '/email.html?path=/etc/passwd',
    '/email.html?path=campaigns/../../../etc/passwd',
    '/email.html?path=campaigns\\..\\..\\..\\etc\\passwd',
    `/email.html?path=${encodeURIComponent(`${NEWS}/linked.lmx`)}`,
    `/email.html?path=${encodeURIComponent(`${NEWS}/campaign.json`)}`,
    '/?email=../../etc/passwd',
    '/preview.js/../../../etc/passwd',
  ])('GET %s: 404, nothing read', async (path) => {
    const answer = await rawGet(url, path);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('root:');
    expect(answer.text).not.toContain('secret outside');
  });

  it('shows an email of its list', async () => {
    const answer = await rawGet(url, `/email.html?path=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('What shipped in October');
  });

  it('draws an email byte for byte as content render prints it, and shows the size Gmail measures', async () => {
    const answer = await rawGet(url, `/email.html?path=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`);
    expect(answer.status).toBe(200);
    const rendered = await run(['content', 'render', join(root, WELCOME, 'draft.lmx')], { env: { LOOPS_API_KEY: undefined } });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(answer.text).toBe(rendered.stdout);
    const page = await rawGet(url, `/?email=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`);
    expect(page.text).toContain(`data-bytes="${Buffer.byteLength(rendered.stdout)}"`);
  });

  it('refuses a Host that is not its own loopback address (a DNS name pointed at 127.0.0.1)', async () => {
    const answer = await rawGet(url, '/', { host: `attacker.example:${new URL(url).port}` });
    expect(answer.status).toBe(403);
    expect(answer.text).not.toContain('October news');
  });

  it('saves values only from its own page, as JSON, for an email of its list', async () => {
    const host = new URL(url).host;
    const path = `/values?path=${encodeURIComponent(`${NEWS}/email.lmx`)}`;
    const json = { 'content-type': 'application/json' };
    expect((await rawGet(url, path, { ...json, origin: 'http://attacker.example' }, 'POST', '{}')).status).toBe(403);
    expect((await rawGet(url, path, { ...json }, 'POST', '{}')).status).toBe(403);
    expect((await rawGet(url, path, { origin: `http://${host}`, 'content-type': 'text/plain' }, 'POST', '{}')).status).toBe(415);
    const outside = `/values?path=${encodeURIComponent('../../tmp/x.lmx')}`;
    expect((await rawGet(url, outside, { ...json, origin: `http://${host}` }, 'POST', '{}')).status).toBe(404);
    expect((await rawGet(url, path, { ...json, origin: `http://${host}` }, 'POST', '{"data":{"x":1}}')).status).toBe(400);
    expect(existsSync(join(root, NEWS, '.email.values.json'))).toBe(false);
    const saved = await rawGet(url, path, { ...json, origin: `http://${host}` }, 'POST', '{"contact":{"firstName":"Ada"}}');
    expect(saved.status).toBe(200);
    expect(JSON.parse(readFileSync(join(root, NEWS, '.email.values.json'), 'utf8'))).toEqual({ contact: { firstName: 'Ada' } });
  });
});

describe('content preview reads and writes no file through a link, and no file without bound', () => {
  const SECRET = 'test-key-not-real-but-secret';
  const email = (path: string) => `/email.html?path=${encodeURIComponent(path)}`;
  const values = (path: string) => `/values?path=${encodeURIComponent(path)}`;

  /** A tree whose welcome email shows an image with a variable in its address, and a credentials file beside it. */
  function treeWithCredentials(): { root: string; credentials: string } {
    const root = contentTree({
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: [
        '<Image src="https://collect.example/{data.token}.png" alt="" />',
        '<Image src="https://{data.host}/logo.png" alt="" />',
        '<Image src="HTTP://CDN.Acme.example:8443/logo.png" alt="" />',
        '',
      ].join('\n'),
    });
    const credentials = join(tempDir(), 'credentials.json');
    writeFileSync(credentials, `{"data": {"token": "${SECRET}", "host": "evil.example"}}\n`);
    return { root, credentials };
  }

  it('refuses a values file that is a link: nothing of what it points at is drawn into an image address', async () => {
    const { root, credentials } = treeWithCredentials();
    symlinkSync(credentials, join(root, WELCOME, '.draft.values.json'));
    const { running, url } = await startPreview(root);
    try {
      for (const path of [email(`${WELCOME}/draft.lmx`), `/?email=${encodeURIComponent(`${WELCOME}/draft.lmx`)}`]) {
        const answer = await rawGet(url, path);
        expect(answer.status, path).toBe(500);
        expect(answer.text).toContain('.draft.values.json is a symbolic link');
        expect(answer.text).not.toContain(SECRET);
      }
    } finally {
      await running.stop();
    }
  });

  it('never writes values through a link committed at the values file: the file it points at stays as it was', async () => {
    const { root, credentials } = treeWithCredentials();
    symlinkSync(credentials, join(root, WELCOME, '.draft.values.json'));
    const before = readFileSync(credentials, 'utf8');
    const { running, url } = await startPreview(root);
    try {
      const headers = { 'content-type': 'application/json', origin: `http://${new URL(url).host}` };
      const saved = await rawGet(url, values(`${WELCOME}/draft.lmx`), headers, 'POST', '{"data":{"token":"overwritten"}}');
      expect(saved.status).toBe(500);
      expect(saved.text).toContain('is a symbolic link');
      expect(readFileSync(credentials, 'utf8')).toBe(before);
    } finally {
      await running.stop();
    }
  });

  it('lets an email load images only from the hosts its LMX writes out, through the preview, never from one a value names', async () => {
    const { root } = treeWithCredentials();
    writeFileSync(join(root, WELCOME, '.draft.values.json'), '{"data": {"token": "t1", "host": "evil.example"}}\n');
    const { running, url } = await startPreview(root);
    try {
      const answer = await rawGet(url, email(`${WELCOME}/draft.lmx`));
      expect(answer.status).toBe(200);
      // The images of hosts the LMX writes out go through the preview; the one a value names stays as it is, and loads nothing.
      expect(answer.text).toContain(`/image?address=${encodeURIComponent('https://collect.example/t1.png')}`);
      expect(answer.text).toContain(`/image?address=${encodeURIComponent('HTTP://CDN.Acme.example:8443/logo.png')}`);
      expect(answer.text).toContain('src="https://evil.example/logo.png"');
      expect(answer.text).not.toContain('evil.example%2F');
      const policy = String(answer.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self'; ");
      expect(policy).toContain("default-src 'none'");
      expect(policy).not.toContain('evil.example');
      // The page around the drawings loads none of its own.
      expect(String((await rawGet(url, '/')).headers['content-security-policy'])).toContain("img-src 'none';");
      // An email without images loads none.
      writeFileSync(join(root, WELCOME, 'draft.lmx'), '<Paragraph>No images</Paragraph>\n');
      expect(String((await rawGet(url, email(`${WELCOME}/draft.lmx`))).headers['content-security-policy'])).toContain("img-src 'none';");
    } finally {
      await running.stop();
    }
  });

  it('refuses LMX larger than the API takes without reading it, and goes on serving the rest', async () => {
    const root = tree();
    writeFileSync(join(root, NEWS, 'email.lmx'), `<Paragraph>${'x'.repeat(150 * 1024)}</Paragraph>\n`);
    // A record's name file far larger than a pull writes: the record is listed by its directory's name.
    writeFileSync(join(root, NEWS, 'campaign.json'), `{"name":"${'n'.repeat(2 * 1024 * 1024)}"}`);
    rmSync(join(root, FOOTER, 'component.lmx'));
    const { running, url } = await startPreview(root);
    try {
      const frame = await rawGet(url, email(`${NEWS}/email.lmx`));
      expect(frame.status).toBe(422);
      expect(frame.text).toContain('the API takes at most 102400 (100 KB)');
      const page = await rawGet(url, `/?email=${encodeURIComponent(`${NEWS}/email.lmx`)}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('the API takes at most 102400 (100 KB)');
      expect(page.text).not.toContain('xxxxxxxxxx');
      expect(page.text).not.toContain('nnnnnnnnnn');
      const other = await rawGet(url, email(`${WELCOME}/draft.lmx`));
      expect(other.status).toBe(200);
      expect(other.text).toContain('Welcome to Acme');
    } finally {
      await running.stop();
    }
  });
});

describe('content preview --compare', () => {
  it('serves the original with no script and images only from the hosts it names', async () => {
    const { running, url } = await startPreview(await converted(), '--compare', ORIGINAL);
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
