/**
 * A real browser for the tests of loopsctl's web pages (`content preview`, the sandbox's inbox):
 * Debian's Chromium (its headless build where installed), driven through playwright-core, which
 * downloads no browser of its own. It starts headless, with a new empty profile in a temporary
 * directory, and with the flags that keep it from reaching the network by itself (no component
 * updates, no sync, no background requests), so the only pages it loads are the test's, on
 * loopback. Where Chromium is missing (`.ci/run` installs it), `browserSkipReason()` says why and
 * the tests that need it skip, saying so.
 *
 * Each test file that needs one starts a Chromium of its own (startBrowser, in a beforeAll) and
 * closes it (in an afterAll): the browser's every file is in a directory of its own (its profile,
 * its HOME and its TMPDIR, where Chromium's own temporary files go, and playwright's artifacts), in
 * the run's directory for sockets (temp.ts, socketDir), since Chromium makes one in its TMPDIR,
 * which the close removes once every process of the browser has ended, and must then find gone. A
 * test process ended before the close (a run interrupted) kills the browser and removes its
 * directory as it ends.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { childrenCpuMs, countSharedCpu, ProcessGroupWatch } from './file-cpu.js';
import { socketDir } from './temp.js';

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
  // The pages are the tests' own, on loopback: the browser draws them in its own process, with no
  // renderer, GPU or zygote process beside it. Those processes guard a person's browsing from the
  // sites they visit, not these pages; a browser without them starts for about a third less CPU,
  // and the browser files took about a seventh less (32.2 to 36.2 s of CPU against 38.7 to 41.2 s).
  '--single-process',
  '--no-zygote',
];

/** Screenshots the tests keep for a person to look at: test-artifacts/ at the top of the project (git ignores it). */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-artifacts');

/**
 * Screenshots are kept only when asked for (LOOPSCTL_TEST_SCREENSHOTS=1), by a person about to
 * look at a page after changing it: no test reads them, and drawing each page whole at each width
 * cost the browser files about a seventh of their CPU in every run of the suite.
 */
const KEEP_SCREENSHOTS = process.env.LOOPSCTL_TEST_SCREENSHOTS === '1';

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
  /** The browser's one context: a new empty profile of its own. */
  browser: BrowserContext;
  /** A new tab of the given width. */
  page(width: number, height?: number): Promise<Page>;
  /** Closes the browser, waits until every process of it has ended, then removes its directory. */
  close(): Promise<void>;
}

/** The signals a test process is ended with: vitest ends its workers with SIGTERM. */
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/** How often the close looks whether the browser's processes have all ended. */
const LOOK_EVERY_MS = 10;

/** A Chromium of the test file's own, in a directory of its own, until close(). */
export async function startBrowser(): Promise<TestBrowser> {
  // Chromium makes its singleton's socket in its TMPDIR, which a directory of the test file's own is too deep for.
  const home = socketDir('browser-');
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(join(home, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      env: { ...process.env, TMPDIR: home, HOME: home },
      artifactsDir: join(home, 'artifacts'),
      // The pages are the test's own, on 127.0.0.1: nothing else is reached.
      offline: false,
      viewport: null,
      // playwright's handlers would close the browser and leave the process running: those below end it.
      handleSIGTERM: false,
      handleSIGINT: false,
      handleSIGHUP: false,
    });
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const watch = new ProcessGroupWatch(browserGroup(home));
  // Ended before the close (a run interrupted): the browser is killed and its directory removed as
  // the process ends, and a signal then ends it as it would have without this.
  const killNow = () => {
    try {
      process.kill(-watch.group, 'SIGKILL');
    } catch {
      // Gone already.
    }
    rmSync(home, { recursive: true, force: true, maxRetries: 3 });
  };
  const onSignal = (signal: (typeof SIGNALS)[number]) => {
    forget();
    killNow();
    process.kill(process.pid, signal);
  };
  const forget = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('exit', killNow);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  process.on('exit', killNow);
  return {
    browser: context,
    page: async (width, height = 900) => {
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      return page;
    },
    close: async () => {
      watch.look();
      const reaped = childrenCpuMs();
      await context.close();
      // playwright has waited for the browser's first process; its helpers end after it, and are reaped by init.
      while (watch.look()) await sleep(LOOK_EVERY_MS);
      forget();
      // The first process is this one's child, whose CPU the file's count takes as this process's
      // children's; the others' is counted as what they were last seen to spend.
      countSharedCpu(watch.spentMs() - (childrenCpuMs() - reaped));
      await rm(home, { recursive: true, force: true, maxRetries: 3 });
      if (existsSync(home)) throw new Error(`the browser's directory ${home} is still there after its removal, with ${readdirSync(home).join(', ')}`);
    },
  };
}

/**
 * The process group of the browser started with this home: playwright starts its first process
 * as the leader of a group of its own, a child of this process, and its helpers stay in it.
 */
function browserGroup(home: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    let commandLine: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const [, parent, group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(parent) === process.pid && commandLine.includes(home)) return Number(group);
  }
  throw new Error(`no process of this one runs Chromium with its profile in ${home}`);
}

/** Keeps a screenshot of the whole page, or of one element, as test-artifacts/<name>.png, when KEEP_SCREENSHOTS says to. */
export async function keepScreenshot(target: Page | Locator, name: string): Promise<void> {
  if (!KEEP_SCREENSHOTS) return;
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = join(ARTIFACTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage: true });
  else await target.screenshot({ path: file });
}

export type { Page };

/**
 * The Chromium of the tests of a `describe` (called in it): started before them, closed after them.
 * Each test asks for it with its context and what it checks, in words; on a machine without
 * Chromium the test is skipped, saying so.
 */
export function describeBrowser(): (context: TestContext, what: string) => TestBrowser {
  const skip = browserSkipReason();
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    if (skip === undefined) browser = await startBrowser();
  });
  afterAll(async () => browser?.close());
  return (context, what) => {
    if (skip !== undefined) {
      console.warn(`skipped "${what}": ${skip}`);
      context.skip();
    }
    return browser!;
  };
}
