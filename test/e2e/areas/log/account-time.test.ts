/**
 * The journal dates a change by the account's clock as well as this machine's: on a sandbox whose
 * clock was moved, the two differ, and the metrics (dated by the account) are set against the first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accountTime, type JournalEntry, journalFiles } from '../../../../src/config/change-journal-files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { run, tempDir } from '../../../support/main.js';

describe("the journal's account time", () => {
  it("keeps the answer's Date as accountAt, the sandbox's moved clock, beside this machine's at", async () => {
    const config = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: config };
    const ahead = new Date(Date.now() + 30 * 86_400_000);
    ahead.setUTCMilliseconds(0);
    const moved = await run(['sandbox', 'clock', 'set', ahead.toISOString()], { env });
    expect(moved.code, moved.stderr).toBe(0);
    const result = await run(['--sandbox', 'themes', 'update', seedId('theme/Midnight'), '--name', 'Night'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(journalFiles(config)[0]!)).toBe(true);
    const entry = JSON.parse(readFileSync(journalFiles(config)[0]!, 'utf8').trim().split('\n').at(-1)!) as JournalEntry;
    expect(entry.accountAt).toBeDefined();
    const account = Date.parse(entry.accountAt!);
    expect(account - ahead.getTime()).toBeGreaterThanOrEqual(0);
    expect(account - ahead.getTime()).toBeLessThan(60_000);
    expect(Date.parse(entry.at)).toBeLessThan(ahead.getTime() - 86_400_000);
    expect(accountTime(entry)).toBe(account);
  });

  it('reads a line written before accountAt was kept by its at', () => {
    const at = '2026-01-02T03:04:05.000Z';
    expect(accountTime({ at } as JournalEntry)).toBe(Date.parse(at));
  });
});
