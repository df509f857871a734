/**
 * `--web` on campaigns, transactional emails and workflows, and `loopsctl open`: the page opened
 * with $BROWSER (a script of the test's own that records what it was given), or its address
 * printed where no browser can be shown: off a terminal, or on a terminal with neither $BROWSER nor
 * a display. Only pages of the Loops app are opened.
 */
import { chmodSync, existsSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLACES } from '../../../src/areas/open/index.js';
import { appPage, browserCommand, hasDisplay } from '../../../src/core/browser.js';
import type { SandboxServer } from '../../../src/emulator/server.js';
import { json, startApiServer } from '../../support/api-server.js';
import { transactionalEmail } from '../../support/fixtures.js';
import { run, sandboxEnv, startTestSandbox, tempDir } from '../../support/main.js';
import { SEED_IDS } from '../../support/sandbox.js';

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

/** A browser that writes the arguments it was started with to a file, all at once, and ends with `exit`. */
function fakeBrowser(exit = 0): { command: string; recorded: string } {
  dir = tempDir('loopsctl-browser-');
  const command = join(dir, 'browser.sh');
  const recorded = join(dir, 'arguments');
  writeFileSync(command, `#!/bin/sh\nprintf '%s\\n' "$@" > "${recorded}.part" && mv "${recorded}.part" "${recorded}"\nexit ${exit}\n`);
  chmodSync(command, 0o755);
  return { command, recorded };
}

/**
 * Resolves once the file exists: the browser has run. The watcher is started before the file is
 * looked for, so that a file made in between is seen by one or the other.
 */
function appeared(file: string): Promise<string> {
  return new Promise((resolve) => {
    const done = () => {
      if (!existsSync(file)) return;
      watcher.close();
      resolve(readFileSync(file, 'utf8'));
    };
    const watcher = watch(dirname(file), (_event, name) => {
      if (name === basename(file)) done();
    });
    done();
  });
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

  it('prints the address on a terminal with neither $BROWSER nor a display', async () => {
    const env = { ...sandboxEnv(sandbox), BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined };
    for (const [args, url] of PAGES) {
      const result = await run([...args, '--web'], { env, tty: { columns: 80 } });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: `${url}\n`, stderr: '' });
    }
  });

  it('opens the page with $BROWSER on a terminal without a display (a browser of the terminal)', async () => {
    const browser = fakeBrowser();
    const [args, url] = PAGES[0]!;
    const result = await run([...args, '--web'], {
      env: { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: undefined, WAYLAND_DISPLAY: undefined },
      tty: { columns: 80 },
    });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: `Opening ${url} in the browser.\n` });
    expect(await appeared(browser.recorded)).toBe(`${url}\n`);
  });

  it('reports a browser that fails, and prints the address', async () => {
    const browser = fakeBrowser(3);
    const [args, url] = PAGES[1]!;
    const said = `Could not open the browser (${browser.command}: it exited with code 3); open this address yourself:`;
    // A terminal wide enough for the line, whatever the depth of the temporary directory it names.
    const result = await run([...args, '--web'], {
      env: { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: ':0' },
      tty: { columns: said.length + 1 },
    });
    expect(result).toMatchObject({ code: 0, stdout: `${url}\n` });
    expect(result.stderr).toBe(`Opening ${url} in the browser.\n${said}\n`);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    '--new-window=http://example.com',
    'https://app.loops.so.example.com/x',
    'https://user@app.loops.so/x',
    'http://app.loops.so/x',
  ])('never opens an address the API gives outside the Loops app: %s', async (url) => {
    const browser = fakeBrowser();
    const api = await startApiServer({ 'GET /v1/transactional-emails/:id': (_req, res) => json(res, 200, { ...transactionalEmail, url }) });
    try {
      const result = await run(['transactional', 'get', 'tx_welcome', '--web'], {
        env: { LOOPS_API_KEY: 'test-key-not-real', LOOPS_BASE_URL: api.url, BROWSER: browser.command, DISPLAY: ':0' },
        tty: { columns: 80 },
      });
      expect(result.code).toBe(9);
      expect(result.stderr).toContain('which is not an address of the Loops app (https://app.loops.so/…)');
      expect(existsSync(browser.recorded)).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('opens the page with $BROWSER on a terminal with a display', async () => {
    for (const [args, url] of PAGES) {
      const browser = fakeBrowser();
      const result = await run([...args, '--web'], { env: { ...sandboxEnv(sandbox), BROWSER: browser.command, DISPLAY: ':0' }, tty: { columns: 200 } });
      expect(result, args.join(' ')).toMatchObject({ code: 0, stdout: '' });
      expect(result.stderr).toBe(`Opening ${url} in the browser.\n`);
      expect(await appeared(browser.recorded)).toBe(`${url}\n`);
      rmSync(dir!, { recursive: true, force: true });
    }
  });

  it('prints the address, saying why, when the browser cannot be started', async () => {
    // Started by `--web` with the record's page, as below.
    dir = tempDir('loopsctl-browser-');
    const missing = join(dir, 'no-such-browser');
    const [args, url] = PAGES[0]!;
    // Wide enough for the line, which names the path twice (the browser and spawn's error), however deep it is.
    const result = await run([...args, '--web'], {
      env: { ...sandboxEnv(sandbox), BROWSER: missing, DISPLAY: ':0' },
      tty: { columns: 200 + 2 * missing.length },
    });
    expect(result).toMatchObject({ code: 0, stdout: `${url}\n` });
    expect(result.stderr).toContain(`Could not open the browser (${missing}: `);
  });

  it('cannot be combined with --json', async () => {
    for (const [args] of PAGES) {
      const result = await run([...args, '--web', '--json'], { env: sandboxEnv(sandbox) });
      expect(result.code, args.join(' ')).toBe(2);
      expect(JSON.parse(result.stderr).error.message, args.join(' ')).toBe('--web and --json cannot be used together');
    }
  });
});

describe('loopsctl open', () => {
  const ID = 'cw509z9tjxv56rte3vt30437u';
  const expected: Record<string, string> = {
    home: 'https://app.loops.so/',
    campaigns: 'https://app.loops.so/campaigns',
    transactional: 'https://app.loops.so/transactional',
    workflows: 'https://app.loops.so/workflows',
    audience: 'https://app.loops.so/audience',
    lists: 'https://app.loops.so/settings?page=lists',
    forms: 'https://app.loops.so/forms',
    domain: 'https://app.loops.so/settings?page=domain',
    webhooks: 'https://app.loops.so/settings?page=webhooks',
    'api-keys': 'https://app.loops.so/settings?page=api',
    team: 'https://app.loops.so/settings?page=team',
  };
  const env = { BROWSER: undefined, DISPLAY: undefined, WAYLAND_DISPLAY: undefined };

  it('prints the address of each place on a terminal without a display', async () => {
    expect(PLACES.map(({ name }) => name)).toEqual(Object.keys(expected));
    for (const [place, url] of Object.entries(expected)) {
      expect(await run(['open', place], { env, tty: { columns: 80 } }), place).toMatchObject({ code: 0, stdout: `${url}\n`, stderr: '' });
    }
    expect(await run(['open'], { env })).toMatchObject({ code: 0, stdout: 'https://app.loops.so/\n' });
    expect((await run(['open', 'team', '--json'], { env: { ...env, DISPLAY: ':0', NO_COLOR: '1' }, tty: { columns: 80 } })).json()).toEqual({
      url: 'https://app.loops.so/settings?page=team',
    });
  });

  it("prints a record's page, by its id", async () => {
    for (const place of ['campaigns', 'transactional', 'workflows', 'workflow']) {
      const url = `https://app.loops.so/${place === 'workflow' ? 'workflows' : place}/${ID}`;
      expect(await run(['open', place, ID], { env }), place).toMatchObject({ code: 0, stdout: `${url}\n` });
    }
  });

  it('refuses an id that could name another page, and places that take none', async () => {
    for (const id of ['..', 'a/b', 'a b']) {
      const result = await run(['open', 'campaigns', id], { env });
      expect(result.code, id).toBe(2);
      expect(result.stderr, id).toContain(`Error: ${JSON.stringify(id)} is not the id of a campaign\n`);
      expect(result.stdout, id).toBe('');
    }
    // An id that starts with "-" is taken for an option, and refused as one; after "--", as an id.
    const dashed = await run(['open', 'campaigns', '-x?y'], { env });
    expect(dashed).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("Error: unknown option '-x?y'") });
    const afterDashes = await run(['open', 'campaigns', '--', '-x?y'], { env });
    expect(afterDashes).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('Error: "-x?y" is not the id of a campaign') });
    const domain = await run(['open', 'domain', ID], { env });
    expect(domain).toMatchObject({ code: 2, stderr: expect.stringContaining("Error: too many arguments for 'domain'. Expected 0 arguments but got 1.") });
  });

  it('opens the page with $BROWSER on a terminal with a display', async () => {
    const browser = fakeBrowser();
    const result = await run(['open', 'webhooks'], { env: { BROWSER: browser.command, DISPLAY: ':0' }, tty: { columns: 80 } });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'Opening https://app.loops.so/settings?page=webhooks in the browser.\n' });
    expect(await appeared(browser.recorded)).toBe('https://app.loops.so/settings?page=webhooks\n');
  });
});

describe('the browser command', () => {
  it('opens only pages of the Loops app', () => {
    expect(appPage('https://app.loops.so/campaigns/c1')).toBe('https://app.loops.so/campaigns/c1');
    for (const url of ['-https://app.loops.so/', ' https://app.loops.so/x', 'https://app.loops.so:8443/x', 'HTTPS://evil.example/https://app.loops.so/'])
      expect(appPage(url), url).toBeUndefined();
  });

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
