/**
 * `--web` on campaigns, transactional emails and workflows: the record's page opened with $BROWSER
 * (a script of the test's own that records what it was given), or its address printed where no
 * browser can be shown: off a terminal, or on a terminal without a display.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { watch } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserCommand, hasDisplay } from '../../src/core/browser.js';
import type { SandboxServer } from '../../src/sandbox/server.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../support/main.js';
import { SEED_IDS } from '../support/sandbox.js';

const CAMPAIGN = 'cb9tvk4yur8c4puvh4crvzir7';
const PAGES: [string[], string][] = [
  [['campaigns', 'get', CAMPAIGN], `https://app.loops.so/campaigns/${CAMPAIGN}`],
  [['transactional', 'get', SEED_IDS.passwordReset], `https://app.loops.so/transactional/${SEED_IDS.passwordReset}`],
  [['workflow', 'show', SEED_IDS.trialWorkflow], `https://app.loops.so/workflows/${SEED_IDS.trialWorkflow}`],
];

let sandbox: SandboxServer;
let dir: string | undefined;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A browser that writes the arguments it was started with to a file, all at once. */
function fakeBrowser(): { command: string; recorded: string } {
  dir = tempDir('loopsctl-browser-');
  const command = join(dir, 'browser.sh');
  const recorded = join(dir, 'arguments');
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$@" > "${recorded}.part" && mv "${recorded}.part" "${recorded}"\n`);
  chmodSync(command, 0o755);
  return { command, recorded };
}

/** Resolves once the file exists: the browser has run. */
async function appeared(file: string): Promise<string> {
  const stop = new AbortController();
  const events = watch(dirname(file), { signal: stop.signal });
  try {
    if (!existsSync(file)) for await (const event of events) if (event.filename === basename(file) && existsSync(file)) break;
    return readFileSync(file, 'utf8');
  } finally {
    stop.abort();
  }
}

describe('--web', () => {
  it('prints the address when stdout is not a terminal, starting no browser', async () => {
    const browser = fakeBrowser();
    for (const [args, url] of PAGES) {
      const result = await run([...args, '--web'], { env: { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: ':0' } });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: `${url}\n`, stderr: '' });
    }
    expect(existsSync(browser.recorded)).toBe(false);
  });

  it('prints the address on a terminal without a display', async () => {
    const browser = fakeBrowser();
    const env = { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
    for (const [args, url] of PAGES) {
      const result = await run([...args, '--web'], { env, tty: { columns: 80 } });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: `${url}\n` });
    }
    expect(existsSync(browser.recorded)).toBe(false);
  });

  it('opens the page with $BROWSER on a terminal with a display', async () => {
    for (const [args, url] of PAGES) {
      const browser = fakeBrowser();
      const result = await run([...args, '--web'], { env: { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: ':0' }, tty: { columns: 80 } });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: '' });
      expect(result.stderr).toBe(`Opening ${url} in the browser.\n`);
      expect(await appeared(browser.recorded)).toBe(`${url}\n`);
      rmSync(dir!, { recursive: true, force: true });
    }
  });

  it('prints the address, saying why, when the browser cannot be started', async () => {
    dir = tempDir('loopsctl-browser-');
    const missing = join(dir, 'no-such-browser');
    const [args, url] = PAGES[0]!;
    const result = await run([...args, '--web'], { env: { ...sandboxEnv(sandbox), BROWSER: missing, DISPLAY: ':0' }, tty: { columns: 80 } });
    expect(result).toMatchObject({ code: 0, stdout: `${url}\n` });
    expect(result.stderr).toContain(`Could not start the browser (${missing}: `);
  });

  it('cannot be combined with --json', async () => {
    for (const [args] of PAGES) {
      const result = await run([...args, '--web', '--json'], { env: sandboxEnv(sandbox) });
      expect(result.code, args.join(' ')).toBe(2);
    }
  });
});

describe('the browser command', () => {
  const url = 'https://app.loops.so/workflows/cw1';
  it('is $BROWSER with the address added, or put where it says %s', () => {
    expect(browserCommand(url, { env: { BROWSER: 'firefox --new-window' }, platform: 'linux' })).toEqual(['firefox', ['--new-window', url]]);
    expect(browserCommand(url, { env: { BROWSER: 'w3m -o %s' }, platform: 'linux' })).toEqual(['w3m', ['-o', url]]);
  });

  it("is the platform's opener otherwise", () => {
    expect(browserCommand(url, { env: {}, platform: 'linux' })).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, { env: {}, platform: 'darwin' })).toEqual(['open', [url]]);
    expect(browserCommand(`${url}?a=1&b=2`, { env: {}, platform: 'win32' })).toEqual(['cmd', ['/c', 'start', '""', `${url}?a=1^&b=2`]]);
  });

  it('finds a display on macOS and Windows always, elsewhere through X11 or Wayland', () => {
    expect(hasDisplay({ env: {}, platform: 'darwin' })).toBe(true);
    expect(hasDisplay({ env: {}, platform: 'win32' })).toBe(true);
    expect(hasDisplay({ env: {}, platform: 'linux' })).toBe(false);
    expect(hasDisplay({ env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux' })).toBe(true);
  });
});
