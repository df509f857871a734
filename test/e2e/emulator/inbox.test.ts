/**
 * The sandbox's inbox in a real browser (Debian's Chromium through playwright-core; the tests that
 * need it skip, saying why, where it is missing): an app's sends appear as they arrive, drawn with
 * the values they were sent with, beside the webhooks they caused.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxModule, StateCore } from '../../../src/emulator/module.js';
import { workflows } from '../../../src/emulator/routes/workflow-records.js';
import { type SandboxServer, startServer } from '../../../src/emulator/server.js';
import { seedState } from '../../../src/emulator/state/index.js';
import { browserSkipReason, keepScreenshot, type Page, startBrowser, type TestBrowser } from '../../support/browser.js';
import { run, sandboxEnv } from '../../support/main.js';
import { SEED_IDS } from '../../support/sandbox.js';
import { startWebhookApp, type WebhookApp } from '../../support/webhook-app.js';

const SECRET = `whsec_${Buffer.from('the secret of the inbox test, 32').toString('base64')}`;

/** The demo data, with the trial workflow sending its upgrade email as soon as trial_started comes. */
function demoWithInstantEmail(modules: SandboxModule[]): StateCore {
  const state = seedState(modules, 'demo');
  const trial = workflows.of(state).find((workflow) => workflow.name === 'Trial conversion')!;
  const trigger = trial.nodes.find((node) => node.id === trial.rootNodeId)!;
  trigger.nextNodeIds = [trial.nodes.find((node) => node.typeName === 'SendEmailAction')!.id];
  return state;
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path: `${pathname}${search}`, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject).end();
  });
}

describe('the sandbox inbox in a browser', () => {
  const skip = browserSkipReason();
  let browser: TestBrowser | undefined;
  let app: WebhookApp;
  let sandbox: SandboxServer;

  beforeAll(async () => {
    app = await startWebhookApp(SECRET);
    sandbox = await startServer({
      initialState: demoWithInstantEmail,
      webhookEndpoint: { url: app.url, secret: SECRET, simulateEngagement: false },
      deliverWebhooks: true,
    });
    if (skip === undefined) browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox.close();
    await app.close();
  });

  it('refuses a Host that is not an address (a DNS name pointed at it), and writes nothing', async () => {
    const refused = await get(`${sandbox.url}/_sandbox/inbox`, { host: `attacker.example:${new URL(sandbox.url).port}` });
    expect(refused.status).toBe(403);
    expect((await get(`${sandbox.url}/_sandbox/inbox/email.html?email=../../etc/passwd`)).status).toBe(404);
  });

  it('draws an optional data variable a send left out as its recipient reads it: empty', async () => {
    const plain = await startServer({ initialState: (modules) => seedState(modules, 'demo') });
    try {
      const sent = await run(
        ['transactional', 'send', SEED_IDS.passwordReset, '--to', 'ada@example.com', '--var', 'firstName=Ada', '--var', 'resetUrl=https://acme.example/r'],
        { env: sandboxEnv(plain) },
      );
      expect(sent.code, sent.stderr).toBe(0);
      const email = await get(`${plain.url}/_sandbox/inbox/email.html?email=0`);
      expect(email.status).toBe(200);
      expect(email.text).toContain('The link expires in  minutes.');
      expect(email.text).not.toContain('{data.expiresInMinutes}');
      expect(email.text).not.toContain('data-missing-variable');
      const page = await get(`${plain.url}/_sandbox/inbox?email=0`);
      expect(page.text).toContain('none (optional): read as empty');
    } finally {
      await plain.close();
    }
  });

  it('shows a send made after the page was drawn but before it was listening for changes', async (context) => {
    if (skip !== undefined) return context.skip();
    const plain = await startServer({ initialState: (modules) => seedState(modules, 'demo') });
    try {
      const page: Page = await browser!.page(1440);
      // The page's stream of changes is held until the send has been answered: no event of it can reach the page.
      let answered!: () => void;
      const sendAnswered = new Promise<void>((resolve) => (answered = resolve));
      await page.route('**/_sandbox/inbox/events', async (route) => {
        await sendAnswered;
        await route.continue();
      });
      await page.goto(`${plain.url}/_sandbox/inbox`);
      await page.getByText('Nothing has been sent yet').waitFor();
      const sent = await run(
        ['transactional', 'send', SEED_IDS.passwordReset, '--to', 'ada@example.com', '--var', 'firstName=Ada', '--var', 'resetUrl=https://acme.example/r'],
        { env: sandboxEnv(plain) },
      );
      expect(sent.code, sent.stderr).toBe(0);
      answered();
      await page.locator('#list .to', { hasText: 'ada@example.com' }).waitFor();
    } finally {
      await plain.close();
    }
  });

  it('shows sends as they arrive, newest first, each drawn with its values and beside its webhooks', async (context) => {
    if (skip !== undefined) {
      console.warn(`skipped "the sandbox inbox in a browser": ${skip}`);
      return context.skip();
    }
    const page: Page = await browser!.page(1440);
    await page.goto(`${sandbox.url}/_sandbox/inbox`);
    await page.getByText('Nothing has been sent yet').waitFor();

    const env = sandboxEnv(sandbox);
    const sent = await run(
      [
        'transactional',
        'send',
        SEED_IDS.passwordReset,
        '--to',
        'ada@example.com',
        '--var',
        'firstName=<script>alert(1)</script>Ada',
        '--var',
        'resetUrl=https://acme.example/reset/abc',
        '--var',
        'expiresInMinutes:=30',
      ],
      { env },
    );
    expect(sent.code, sent.stderr).toBe(0);
    // The positive signal: the page shows the new mail by itself, drawn with the values sent.
    await page.locator('#list .to', { hasText: 'ada@example.com' }).waitFor();
    const desktop = page.frameLocator('iframe[width="600"]');
    await desktop.getByText('Hi <script>alert(1)</script>Ada').waitFor();
    expect(await desktop.locator('script').count()).toBe(0);
    expect(await desktop.locator('a', { hasText: 'Choose a new password' }).getAttribute('href')).toBe('https://acme.example/reset/abc');
    await page.locator('.deliveries li.delivered', { hasText: 'transactional.email.sent' }).waitFor();

    const event = await run(['events', 'send', 'trial_started', '--email', 'grace@example.com', '--prop', 'plan=Pro'], { env });
    expect(event.code, event.stderr).toBe(0);
    await page.locator('#list li:first-child .to', { hasText: 'grace@example.com' }).waitFor();
    expect(await page.locator('#list .to').allTextContents()).toEqual(['grace@example.com', 'ada@example.com']);
    expect(await page.locator('#list li:first-child .meta').textContent()).toContain('Workflow Trial conversion');
    await page.frameLocator('iframe[width="375"]').getByText('Keep your projects').first().waitFor();
    await page.locator('.deliveries li.delivered', { hasText: 'loop.email.sent' }).waitFor();

    await keepScreenshot(page, 'sandbox-inbox-1440');
    for (const width of [600, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // Above the email on a narrow screen, the list takes the height of its two entries, no more.
      const [nav, list] = await Promise.all([page.locator('nav#list').boundingBox(), page.locator('#list .mail').boundingBox()]);
      expect(nav!.height, `${width} px`).toBeLessThanOrEqual(list!.height + 2);
      await keepScreenshot(page, `sandbox-inbox-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    // An older email, by its link: drawn with its own values.
    await page.click('#list a:has-text("ada@example.com")');
    await page.frameLocator('iframe[width="600"]').getByText('Hi <script>alert(1)</script>Ada').waitFor();
    for (const width of [600, 375]) await keepScreenshot(page.locator(`iframe[width="${width}"]`), `sandbox-inbox-email-${width}`);
  });
});
