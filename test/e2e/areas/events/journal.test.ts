/**
 * The import journal against the ways a run could send twice or not at all: two runs at once, a
 * journal that meets another input, a last line cut short, a symlink planted where it goes; and
 * inputs that are not what they should be (the wrong file, an empty CSV).
 */
import { existsSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../../support/api-server.js';
import { closedAfter } from '../../../support/closing.js';
import { run, tempDir } from '../../../support/main.js';
import { sandboxEachTest } from '../../../support/recording.js';
import { spawnCli } from '../../../support/run-cli.js';

const openSandbox = sandboxEachTest();
const kept = closedAfter(afterEach);

const event = (n: number) => JSON.stringify({ eventName: 'signup', email: `p${n}@example.com`, eventProperties: { n } });

/** The events the sandbox accepted (status 200), by email. */
function delivered(requests: { path: string; status: number; body: any }[]): string[] {
  return requests.filter((request) => request.path === '/v1/events/send' && request.status === 200).map((request) => request.body.email as string);
}

describe('the import journal', () => {
  it('is held by one run at a time: a second run on the same journal exits 2 naming it, and sends nothing', async () => {
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const api = kept(
      await startApiServer({
        'POST /v1/events/send': async (_req, res) => {
          arrived();
          await released;
          json(res, 200, { success: true });
        },
      }),
    );
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, `${event(1)}\n${event(2)}\n`);
    const env = { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url };
    const first = run(['events', 'import', file, '--json'], { env });
    await firstArrived;
    const second = await run(['events', 'import', file, '--json'], { env });
    // Another process, as two shells would run it, finds the journal held as well.
    const otherProcess = await spawnCli(['events', 'import', file, '--json'], { env });
    release();
    expect(otherProcess.code).toBe(2);
    expect(JSON.parse(otherProcess.stderr).error.message).toBe(`the journal ${file}.journal.jsonl is in use by another run`);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`the journal ${file}.journal.jsonl is in use by another run`);
    // Only the first run's two sends ever reached the API.
    expect((await first).json()).toMatchObject({ sent: 2, failed: 0 });
    expect(api.requests).toHaveLength(2);
    // Once the first run is over, the journal is free again.
    expect((await run(['events', 'import', file, '--json'], { env })).json()).toMatchObject({ sent: 0, skipped: 2 });
  });

  it('is bound to its input: removing a failed record and running again sends nothing twice, and the moved records are refused', async () => {
    const { loopsctl, requests } = await openSandbox();
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, [event(1), '{"eventName": "signup"}', event(3), event(4)].join('\n'));
    const first = await loopsctl(['events', 'import', file, '--json']);
    expect(first.json()).toMatchObject({ sent: 3, failed: 1 });
    // The failed line is deleted: every record after it moves up one.
    writeFileSync(file, [event(1), event(3), event(4)].join('\n'));
    const second = await loopsctl(['events', 'import', file, '--json']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('does not match its input');
    expect(delivered(requests).sort()).toEqual(['p1@example.com', 'p3@example.com', 'p4@example.com']);
  });

  it('keys each event by its content: the same record has the same key wherever it stands', async () => {
    const { loopsctl, requests } = await openSandbox();
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, `${event(1)}\n`);
    await loopsctl(['events', 'import', file, '--json']);
    const keyOf = (email: string) => requests.filter((request) => request.body?.email === email).map((request) => request.headers['idempotency-key']);
    // A blank line put before it changes its line, not its key.
    writeFileSync(`${file}.2`, `\n\n${event(1)}\n`);
    const journal = readFileSync(`${file}.journal.jsonl`, 'utf8');
    writeFileSync(`${file}.2.journal.jsonl`, `${journal.split('\n')[0]!}\n`);
    await loopsctl(['events', 'import', `${file}.2`, '--json']);
    const keys = keyOf('p1@example.com');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(delivered(requests)).toEqual(['p1@example.com']);
  });

  it('refuses to take another stdin for done: the same --journal with a different input exits 2 and sends nothing', async () => {
    const { loopsctl, requests } = await openSandbox();
    const journal = join(tempDir(), 'stdin.journal.jsonl');
    const first = await loopsctl(['events', 'import', '-', '--journal', journal, '--json'], { input: `${event(1)}\n${event(2)}\n` });
    expect(first.json()).toMatchObject({ sent: 2 });
    const other = await loopsctl(['events', 'import', '-', '--journal', journal, '--json'], { input: `${event(7)}\n${event(8)}\n` });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`the journal ${journal} does not match its input: record 1 (line 1)`);
    expect(delivered(requests)).toEqual(['p1@example.com', 'p2@example.com']);
  });

  it('repairs a last line cut short, so that it resumes every time', async () => {
    const { loopsctl, requests } = await openSandbox();
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, [1, 2, 3].map(event).join('\n'));
    await loopsctl(['events', 'import', file, '--json']);
    // As a kill in the middle of writing record 3's outcome would leave it.
    const journal = `${file}.journal.jsonl`;
    const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
    writeFileSync(journal, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 12)}`);
    const resumed = await loopsctl(['events', 'import', file, '--json']);
    expect(resumed).toMatchObject({ code: 0 });
    expect(resumed.json()).toMatchObject({ sent: 0, skipped: 3 });
    const again = await loopsctl(['events', 'import', file, '--json']);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(again.json()).toMatchObject({ skipped: 3 });
    for (const line of readFileSync(journal, 'utf8').trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(delivered(requests)).toHaveLength(3);
  });

  it('refuses a journal naming a record number no run could have written, instead of making room for it', async () => {
    const { loopsctl } = await openSandbox();
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, `${event(1)}\n`);
    const header = JSON.stringify({ journal: 'loopsctl-import', version: 2, kind: 'events', runId: 'r1', input: file });
    writeFileSync(`${file}.journal.jsonl`, `${header}\n${JSON.stringify({ n: 1e12, line: 1, d: '000000000000', status: 'sent' })}\n`);
    const result = await loopsctl(['events', 'import', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 2 names record 1000000000000');
  });

  it('is never written through a symlink, and only to a regular file', async () => {
    const { loopsctl, requests } = await openSandbox();
    const dir = tempDir();
    const file = join(dir, 'events.jsonl');
    writeFileSync(file, `${event(1)}\n`);
    const target = join(tempDir(), 'elsewhere.jsonl');
    symlinkSync(target, `${file}.journal.jsonl`);
    const linked = await loopsctl(['events', 'import', file]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`cannot open the journal ${file}.journal.jsonl: it is a symbolic link`);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(`${file}.journal.jsonl`).isSymbolicLink()).toBe(true);
    const notFile = await loopsctl(['events', 'import', file, '--journal', '/dev/null']);
    expect(notFile.code).toBe(2);
    expect(notFile.stderr).toContain('it is not a regular file');
    expect(delivered(requests)).toEqual([]);
  });
});

describe('inputs that are not what they should be', () => {
  it('stops the wrong file after a bounded number of bad lines, with one summary of them', async () => {
    const { loopsctl, requests } = await openSandbox();
    const file = join(tempDir(), 'contacts.csv');
    writeFileSync(file, ['email,firstName', ...Array.from({ length: 5000 }, (_, index) => `p${index}@example.com,P${index}`)].join('\n'));
    const result = await loopsctl(['events', 'import', file]);
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(14);
    expect(lines.filter((line) => line.startsWith('line '))).toHaveLength(10);
    expect(result.stderr).toContain('stopped after 100 records in a row that cannot be sent (from line 1: not valid JSON)');
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
    // A dry run stops the same way.
    const dry = await loopsctl(['events', 'import', file, '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('Error: stopped after 100 records in a row that cannot be sent (from line 1: not valid JSON)');
    expect(dry.stderr.trimEnd().split('\n').length).toBeLessThanOrEqual(14);
  });

  it('says an empty CSV has no header row, exit 2, and writes no journal', async () => {
    const { loopsctl } = await openSandbox();
    const file = join(tempDir(), 'empty.csv');
    writeFileSync(file, '');
    const result = await loopsctl(['contacts', 'import', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}: no header row`);
    expect(existsSync(`${file}.journal.jsonl`)).toBe(false);
  });
});
