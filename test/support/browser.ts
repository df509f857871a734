/**
 * A real browser for the tests of loopsctl's web pages (`content preview`, the sandbox's inbox):
 * Debian's Chromium, driven through playwright-core, which downloads no browser of its own. It
 * starts headless, with a new empty profile in a temporary directory, and with the flags that keep
 * it from reaching the network by itself (no component updates, no sync, no background requests),
 * so the only pages it loads are the test's, on loopback. Where Chromium is missing (`.ci/run`
 * installs it), `browserSkipReason()` says why and the tests that need it skip, saying so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { tempDir } from './temp.js';

/** Where Debian's package puts it; LOOPSCTL_TEST_CHROMIUM names another build. */
export const CHROMIUM = process.env.LOOPSCTL_TEST_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots the tests keep for a person to look at: test-artifacts/ at the top of the project (git ignores it). */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-artifacts');

let reason: string | undefined | null = null;

/** Why no browser can run here, or undefined when one can. */
export function browserSkipReason(): string | undefined {
  if (reason === null) {
    const probe = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    reason = probe.status === 0 ? undefined : `${CHROMIUM} did not run (${probe.error?.message ?? probe.stderr.trim()}); Debian: apt-get install chromium`;
  }
  return reason;
}

export interface TestBrowser {
  browser: BrowserContext;
  /** A new tab of the given width. */
  page(width: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

/** Starts Chromium with a new empty profile; its temporary files stay in a test directory too. */
export async function startBrowser(): Promise<TestBrowser> {
  const home = tempDir('loopsctl-browser-');
  const profile = join(home, 'profile');
  const scratch = join(home, 'tmp');
  mkdirSync(scratch);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    env: { ...process.env, TMPDIR: scratch, HOME: home },
    // The pages are the test's own, on 127.0.0.1: nothing else is reached.
    offline: false,
    viewport: null,
  });
  return {
    browser: context,
    page: async (width, height = 900) => {
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      return page;
    },
    close: () => context.close(),
  };
}

/** Keeps a screenshot of the whole page, or of one element, as test-artifacts/<name>.png, for a person to look at. */
export async function keepScreenshot(target: Page | Locator, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage: true });
  else await target.screenshot({ path: file });
  return file;
}

export type { Browser, Page };
