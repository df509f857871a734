/** Ctrl-C during an import: the run says how many records it sent and how to resume, and a rerun sends the rest only. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiServer, json, startApiServer } from '../../support/api-server.js';
import { run, startRun, tempDir } from '../../support/main.js';

let api: ApiServer;
afterEach(() => api.close());

describe('an import stopped by Ctrl-C', () => {
  it('says how many records it sent and how to resume, and the rerun sends only the rest', async () => {
    const RECORDS = 12;
    const file = join(tempDir(), 'events.jsonl');
    writeFileSync(file, Array.from({ length: RECORDS }, (_, index) => JSON.stringify({ eventName: 'signup', email: `user${index}@example.com` })).join('\n'));
    let hold = true;
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const answered = new Set<string>();
    api = await startApiServer({
      'POST /v1/events/send': (req, res) => {
        const { email } = JSON.parse(req.body) as { email: string };
        // The first record is answered; the rest wait, until the run is stopped.
        if (hold && answered.size >= 1) return held();
        answered.add(email);
        json(res, 200, { success: true });
      },
    });
    const env = { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' };
    const running = startRun(['events', 'import', file], { env });
    await holding;
    const stopped = await running.stop();
    expect(stopped.code).toBe(130);
    // The first answer may still be on its way when the run stops: it counts if it arrived.
    const [, sent] = /^Error: interrupted after (\d+) records? sent in this run \(\1 done in all\)$/m.exec(stopped.stderr) ?? [];
    expect(sent, stopped.stderr).toMatch(/^[01]$/);
    expect(stopped.stderr).toContain(
      `Hint: run the same command again to resume: the journal ${file}.journal.jsonl keeps what was sent, and nothing is sent twice\n`,
    );
    expect(readFileSync(`${file}.journal.jsonl`, 'utf8')).toContain('"journal":"loopsctl-import"');

    hold = false;
    const resumed = await run(['events', 'import', file, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.json()).toMatchObject({ skipped: Number(sent), sent: RECORDS - Number(sent) });
    expect(answered.size).toBe(RECORDS);
  });

  it('ends at once while it waits for more input on stdin, and says how far it got', async () => {
    const journal = join(tempDir(), 'events.journal.jsonl');
    api = await startApiServer({ 'POST /v1/events/send': (_req, res) => json(res, 200, { success: true }) });
    // A writer that sent one record and keeps stdin open, as `tail -f app.log | jq ... |` does.
    const stdin = new PassThrough();
    stdin.write(`${JSON.stringify({ eventName: 'signup', email: 'user0@example.com' })}\n`);
    const running = startRun(['events', 'import', '-', '--journal', journal], {
      env: { LOOPS_BASE_URL: api.url, LOOPS_API_KEY: 'test-key-not-real' },
      input: stdin,
    });
    await vi.waitFor(() => expect(readFileSync(journal, 'utf8')).toContain('"status":"sent"'), { timeout: 10_000 });
    const stopped = await running.stop();
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/^Error: interrupted after 1 record sent in this run \(1 done in all\)$/m);
  });
});
