/**
 * A real browser for the tests of loopsctl's web pages (`content preview`, the sandbox's inbox):
 * Debian's Chromium (its headless build where installed), driven through playwright-core, which
 * downloads no browser of its own. It starts headless, with a new empty profile in a temporary
 * directory, and with the flags that keep it from reaching the network by itself (no component
 * updates, no sync, no background requests), so the only pages it loads are the test's, on
 * loopback. Where Chromium is missing (`.ci/run` installs it), `browserSkipReason()` says why and
 * the tests that need it skip, saying so.
 *
 * One Chromium serves every file a test process runs (the in-process files share their processes,
 * vitest.config.ts): starting and closing one costs about a second of CPU. Each file gets a context
 * of its own, a new empty profile in memory (cookies, storage, cache), closed with its pages when
 * the file ends. The browser is started by the first file that asks, and killed, its directories
 * removed, as the process ends: on the signal vitest ends its workers with, or on exit.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { countSharedCpu, processGroupCpuMs } from './file-cpu.js';
import { BROWSER_HOME_PREFIX } from './temp.js';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Debian's build of Chromium made to run headless alone (chromium-headless-shell), which draws the
 * pages with the same engine for about a quarter less CPU than the whole browser (the browser files
 * took 23 to 27 s against 34 to 36 s), else the whole browser; LOOPSCTL_TEST_CHROMIUM names another.
 */
export const CHROMIUM = process.env.LOOPSCTL_TEST_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The pages are the tests' own, on loopback: one renderer process serves them all. Site
  // isolation's process for each site guards a person's browsing, not these, and spared so the
  // browser tests take about a tenth less CPU.
  '--disable-site-isolation-trials',
  '--renderer-process-limit=1',
];

/** Screenshots the tests keep for a person to look at: test-artifacts/ at the top of the project (git ignores it). */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-artifacts');

let reason: string | undefined | null = null;

/** Why no browser can run here, or undefined when one can. */
export function browserSkipReason(): string | undefined {
  if (reason === null) {
    const probe = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    reason =
      probe.status === 0
        ? undefined
        : `${CHROMIUM} did not run (${probe.error?.message ?? probe.stderr.trim()}); Debian: apt-get install chromium-headless-shell`;
  }
  return reason;
}

export interface TestBrowser {
  browser: BrowserContext;
  /** A new tab of the given width. */
  page(width: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

/** A new context of the process's Chromium, which it starts if need be: the file's own, until close(). */
export async function startBrowser(): Promise<TestBrowser> {
  // What the browser spends while the file uses it, its start included when the file starts it,
  // counts as the file's CPU (file-cpu.ts): no process waits for it while files run.
  const started = running !== undefined;
  const { browser, group } = await sharedBrowser();
  const cpuAtStart = started ? processGroupCpuMs(group) : 0;
  const context = await browser.newContext({
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
    close: async () => {
      await context.close();
      countSharedCpu(processGroupCpuMs(group) - cpuAtStart);
    },
  };
}

/** The signals a process is ended with: vitest ends its workers with SIGTERM. */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** A running browser, and the group of its processes (its first one's id: playwright starts it detached). */
interface Shared {
  browser: Browser;
  group: number;
}

let running: Promise<Shared> | undefined;

/** The process's Chromium, started by the first call. */
function sharedBrowser(): Promise<Shared> {
  running ??= launch().catch((error: unknown) => {
    running = undefined;
    throw error;
  });
  return running;
}

async function launch(): Promise<Shared> {
  // Not a test file's tempDir(), removed when that file ends: the browser outlives the file.
  const home = mkdtempSync(join(tmpdir(), BROWSER_HOME_PREFIX));
  const scratch = join(home, 'tmp');
  mkdirSync(scratch);
  const removeHome = () => rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  let browser: Browser | undefined;
  let group: number;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      env: { ...process.env, TMPDIR: scratch, HOME: home },
      // playwright's handlers would close the browser and leave the process running: those below end it.
      handleSIGTERM: false,
      handleSIGINT: false,
      handleSIGHUP: false,
    });
    group = await browserProcess(browser);
  } catch (error) {
    await browser?.close();
    removeHome();
    throw error;
  }
  // On exit, playwright's handler (added by the launch, so run first) kills the browser's
  // processes and removes the directories playwright made (the profile); this one removes the home,
  // last: the global setup's check waits for it.
  process.on('exit', removeHome);
  // On a signal the process exits at once, which kills the browser, rather than close it and wait:
  // a close takes a few hundred milliseconds on a busy machine, and vitest kills a worker that has
  // not ended half a second after its SIGTERM, which would leave the profile behind.
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    for (const each of SIGNALS) process.off(each, onSignal);
    try {
      process.exit(128 + constants.signals[signal]);
    } catch {
      // vitest's stand-in for process.exit, while a worker runs its first file, throws: the signal
      // again, unhandled now, ends the process, and Chromium ends with its pipe.
      process.kill(process.pid, signal);
    }
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  browser.on('disconnected', () => {
    // Ended by itself: a later file starts another.
    running = undefined;
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('exit', removeHome);
    removeHome();
  });
  return { browser, group };
}

/** The id of the browser's first process, which playwright starts as the leader of a process group. */
async function browserProcess(browser: Browser): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await cdp.detach();
  const first = processInfo.find((info) => info.type === 'browser');
  if (first === undefined) throw new Error(`Chromium named no browser process: ${JSON.stringify(processInfo)}`);
  return first.id;
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
