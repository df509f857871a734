/**
 * What a person at a terminal sees: hidden key entry, aligned tables, colour and the tree. That
 * every line of a table fits the terminal's width is checked in-process (test/e2e/areas/text-width.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSandbox, KEYS, startFixtureSandbox } from '../support/fixture-sandbox.js';
import { runCli, tempConfigDir } from '../support/run-cli.js';
import { runInTerminal, script } from '../support/run-in-terminal.js';

let api: FixtureSandbox;
beforeAll(async () => {
  api = await startFixtureSandbox();
});
afterAll(() => api.close());

describe.skipIf(script.skip)(script.title('on a terminal'), () => {
  it('asks for the key without echoing it, then stores it', async () => {
    const dir = tempConfigDir();
    const result = await runInTerminal(
      ['auth', 'login'],
      { LOOPS_BASE_URL: api.url, LOOPSCTL_CONFIG_DIR: dir },
      { input: `${KEYS.valid}\r`, after: 'Loops API key: ' },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Paste an API key from the Loops app, Settings > API (https://app.loops.so/settings?page=api); it is not shown as you type.\nLoops API key: ',
    );
    expect(result.stdout).toContain('Logged in to Acme Inc (profile "default").');
    expect(result.stdout).not.toContain(KEYS.valid);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.apiKey).toBe(KEYS.valid);
  });

  it('aligns tables under a bold header and draws the tree with box characters, coloured', async () => {
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid };
    const table = await runInTerminal(['ips', 'list'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('\u001b[1mADDRESS');
    expect(table.stdout).toContain('\n52.21.45.123       IPv4\n2600:1f18:4a3::10  IPv6\n');
    expect(table.stdout).not.toMatch(/[┌│]/);

    const tree = await runInTerminal(['workflow', 'show', 'wf_welcome'], env);
    expect(tree.stdout).toContain('└─ ');
    expect(tree.stdout).toContain('↪');

    const plain = await runInTerminal(['ips', 'list', '--no-color'], env);
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toContain('ADDRESS            VERSION\n52.21.45.123       IPv4\n');
    const noColor = await runInTerminal(['ips', 'list'], { ...env, NO_COLOR: '1' });
    expect(noColor.stdout).not.toContain('\u001b[');
  });

  it('groups counts in a table, and keeps a table of names and rates on a narrow terminal', async () => {
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid };
    const wide = await runInTerminal(['transactional', 'metrics', 'tx_welcome', '--no-color'], env);
    expect(wide.stdout).toMatch(/^tx_welcome +Welcome +1,200 +960 +80\.00% /m);
    const narrow = await runInTerminal(['transactional', 'metrics', 'tx_welcome', '--no-color'], { ...env, COLUMNS: '60' });
    expect(narrow.stdout).toMatch(/^tx_welcome +Welcome +1,200 +80\.00% +20\.00% +2\.00%\r?$/m);
  });

  it('pages output through the pager on a terminal, and not with --no-pager or off a terminal', async () => {
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: KEYS.valid, LOOPSCTL_PAGER: 'sed s/^/paged:/' };
    const paged = await runInTerminal(['ips', 'list', '--no-color'], env);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toContain('paged:52.21.45.123');
    const direct = await runInTerminal(['ips', 'list', '--no-color', '--no-pager'], env);
    expect(direct.stdout).toContain('52.21.45.123');
    expect(direct.stdout).not.toContain('paged:');
    const piped = await runCli(['ips', 'list'], { env });
    expect(piped.stdout).not.toContain('paged:');
  });
});
