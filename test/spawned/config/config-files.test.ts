/**
 * Logins in processes of their own at once, over the stale lock a process that died left on the
 * config file: every key kept, and nothing of the lock left behind. What a config directory or
 * file someone else prepared does to a login is tested in-process (test/e2e/config/config-files.test.ts).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../../support/run-cli.js';

describe('the config file', () => {
  // One round: the moment two processes race for the same stale lock is pinned in-process
  // (test/unit/base/lock-takeover.test.ts); here, that processes of the built CLI take over a dead
  // one's lock, wait for each other, and leave nothing behind.
  it('keeps every key when 20 logins in 20 processes take over a stale lock at once', async () => {
    const LOGINS = 20;
    // The pid of a process that has ended: the lock it "left" is stale.
    const dead = spawn(process.execPath, ['-e', '0']);
    const deadPid = dead.pid!;
    await new Promise((resolve) => dead.on('close', resolve));
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json.lock'), JSON.stringify({ pid: deadPid, since: Date.now() }));
    const profiles = Array.from({ length: LOGINS }, (_, index) => `p${index}`);
    const results = await Promise.all(
      profiles.map((profile) =>
        spawnCli(['auth', 'login', '--with-key-stdin', '--skip-verify', '--profile', profile], {
          env: { LOOPSCTL_CONFIG_DIR: dir },
          input: `sk-test-${profile}`,
        }),
      ),
    );
    expect(results.map((result) => [result.code, result.stderr])).toEqual(profiles.map(() => [0, '']));
    const stored = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(stored).sort()).toEqual([...profiles].sort());
    for (const profile of profiles) expect(stored[profile].apiKey).toBe(`sk-test-${profile}`);
    // No lock, take-over guard or renamed stale lock is left behind.
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
