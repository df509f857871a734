/**
 * `loopsctl --sandbox` commands in processes of their own at once, on one state file: every write
 * kept, and a read that writes nothing (test/e2e/areas/sandbox/sandbox-flag.test.ts runs the
 * commands in-process). Processes alone: this file loads none of loopsctl's sources.
 */
import { existsSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../../../support/run-cli.js';

describe('--sandbox commands run in parallel', () => {
  it('all persist, with ids of their own, and a read-only command writes nothing', async () => {
    const env = { LOOPSCTL_CONFIG_DIR: tempConfigDir() };
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, index) => spawnCli(['--sandbox', 'transactional', 'create', '--name', `Parallel ${index}`, '--json'], { env })),
    );
    expect(
      created.map((result) => result.code),
      created.map((result) => result.stderr).join(''),
    ).toEqual(created.map(() => 0));
    const ids = created.map((result) => JSON.parse(result.stdout).id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const listed = await spawnCli(['--sandbox', 'transactional', 'list', '--json', '--per-page', '50'], { env });
    const names = (JSON.parse(listed.stdout) as { name: string }[]).map((email) => email.name);
    for (let index = 0; index < 8; index += 1) expect(names).toContain(`Parallel ${index}`);

    // The file is dated in the past, and its inode known: a write (in place, or a new file renamed
    // over it) would date it now or replace it, however fast the machine.
    const stateFile = join(env.LOOPSCTL_CONFIG_DIR, 'sandbox-state.db');
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(stateFile, past, past);
    const before = statSync(stateFile);
    expect((await spawnCli(['--sandbox', 'themes', 'list'], { env })).code).toBe(0);
    const after = statSync(stateFile);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, past.getTime()]);
    // Nor in the database's write-ahead log, which its last reader leaves empty or removes.
    expect(existsSync(`${stateFile}-wal`) ? statSync(`${stateFile}-wal`).size : 0).toBe(0);
  });
});
