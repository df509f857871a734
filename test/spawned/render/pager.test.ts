/**
 * The pager on a real (pseudo-)terminal: while it shows stdout, nothing else draws on the terminal;
 * Ctrl-C ends it at once and the person is back at the shell with exit 130; an import, which
 * prints one summary line at the end, never starts one. The pager is a stand-in that behaves as
 * less does (it ignores the SIGINT the terminal sends, and at the end of its input waits for the
 * person) and records what it was given, and its process id.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../support/api-server.js';
import { type FixtureSandbox, KEYS, startFixtureSandbox, themes } from '../../support/fixture-sandbox.js';
import * as fx from '../../support/fixtures.js';
import { runInTerminal, script } from '../../support/run-in-terminal.js';
import { tempDir } from '../../support/temp.js';

const FAKE_PAGER = `
const { appendFileSync, writeFileSync } = require('node:fs');
const [record, atEnd] = process.argv.slice(2);
writeFileSync(record + '.pid', String(process.pid));
writeFileSync(record, '');
// As less: Ctrl-C does not end it.
process.on('SIGINT', () => {});
process.stdin.on('data', (chunk) => appendFileSync(record, chunk));
process.stdin.on('end', () => {
  if (atEnd !== 'wait') return;
  // As less at the end of its input: it waits for the person to quit.
  process.stdout.write('(END)');
  setInterval(() => {}, 60_000);
});
`;

let dir: string;
let sandbox: FixtureSandbox;
beforeAll(async () => {
  dir = tempDir('loopsctl-pager-');
  writeFileSync(join(dir, 'pager.cjs'), FAKE_PAGER);
  sandbox = await startFixtureSandbox();
});
afterAll(async () => {
  await sandbox.close();
  // A stand-in left waiting by a failed test is ended with it.
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.pid'))) {
    const pid = Number(readFileSync(join(dir, name), 'utf8'));
    if (running(pid)) process.kill(pid);
  }
});

/** LOOPSCTL_PAGER for the stand-in, recording into `record`; `wait` keeps it at its end as less does. */
function pager(record: string, atEnd: 'quit' | 'wait' = 'quit'): string {
  return `${process.execPath} ${join(dir, 'pager.cjs')} ${record} ${atEnd}`;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(script.skip)(script.title('the pager on a terminal'), () => {
  it('has the terminal to itself: no progress line is drawn while it shows a listing of several pages', async () => {
    const record = join(dir, 'listing');
    const env = { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: KEYS.valid, LOOPSCTL_PAGER: pager(record) };
    const result = await runInTerminal(['themes', 'list', '--per-page', '10', '--no-color'], env);
    expect(result.code).toBe(0);
    // Everything went to the pager, every row whole.
    const paged = readFileSync(record, 'utf8');
    for (const theme of themes) expect(paged).toMatch(new RegExp(`^${theme.id} +${theme.name} `, 'm'));
    // And nothing of the progress reached the terminal.
    expect(result.stdout).not.toContain('fetched');
    expect(result.stdout).not.toContain('\u001b[2K');
  });

  it('still shows the progress line without a pager', async () => {
    const env = { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: KEYS.valid };
    const result = await runInTerminal(['themes', 'list', '--per-page', '10', '--no-color', '--no-pager'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('fetched 10 of 25 themes');
  });

  it('goes away at once on Ctrl-C during a listing, and the run ends with exit 130', async () => {
    const record = join(dir, 'interrupted');
    // The first page comes at once; the second never does, until Ctrl-C.
    let secondPageAsked!: () => void;
    const asked = new Promise<void>((resolve) => (secondPageAsked = resolve));
    const api = await startApiServer({
      'GET /v1/themes': (req, res) => {
        if (req.query.get('cursor') === null)
          return json(
            res,
            200,
            fx.envelope(
              Array.from({ length: 10 }, (_, index) => fx.theme(index + 1)),
              'page2',
              10,
              30,
            ),
          );
        secondPageAsked();
      },
    });
    try {
      // Ctrl-C once the first page is in the pager: the pager has its own file once it has started.
      const typed = asked.then(() => waitFor(() => readFileSync(record, 'utf8').includes('theme_10')));
      const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'key_test', LOOPSCTL_PAGER: pager(record, 'wait') };
      const result = await runInTerminal(['themes', 'list', '--per-page', '10', '--no-color'], env, { input: '\u0003', after: typed });
      expect(result.code).toBe(130);
      expect(result.stdout).toContain('Error: interrupted\n');
      // The pager was ended, not left at its prompt for the person to quit.
      expect(result.stdout).not.toContain('(END)');
      // Ended, and gone once the system has reaped it (a loaded machine may take a moment).
      const pid = Number(readFileSync(`${record}.pid`, 'utf8'));
      await waitFor(() => !running(pid));
    } finally {
      await api.close();
    }
  });

  it('is not started by an import, which prints one summary line at the end', async () => {
    const record = join(dir, 'import');
    const events = join(dir, 'events.jsonl');
    writeFileSync(events, '{"eventName":"trial_started","email":"ada@example.com"}\n');
    const env = { LOOPS_BASE_URL: sandbox.url, LOOPS_API_KEY: KEYS.valid, LOOPSCTL_PAGER: pager(record, 'wait') };
    const result = await runInTerminal(['events', 'import', events, '--journal', join(dir, 'events.journal.jsonl'), '--no-color'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('1 sent, 0 skipped, 0 failed');
    expect(existsSync(`${record}.pid`)).toBe(false);
  });
});

/** Resolves once `check` holds: what another process writes to a file, looked at again every few milliseconds. */
async function waitFor(check: () => boolean): Promise<void> {
  for (;;) {
    try {
      if (check()) return;
    } catch {
      // Not there yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
