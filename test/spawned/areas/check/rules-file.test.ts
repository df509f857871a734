/**
 * `check` finds loops.check.yaml in the directory it runs in, which is often a repository that
 * anyone can commit to: a FIFO there is never opened, and were it opened, SIGTERM would still end
 * the run, which takes a process of its own. The other files it refuses there, and the one it
 * reads, are tested in-process (test/e2e/areas/check/rules-file.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SpawnedCli, spawnCli } from '../../../support/run-cli.js';
import { tempDir } from '../../../support/temp.js';

describe('check and the loops.check.yaml of the directory it runs in', () => {
  it('never opens a FIFO there; were it opened, SIGTERM would end the run', async () => {
    const repo = tempDir('loopsctl-check-repo-');
    const fifo = join(repo, 'loops.check.yaml');
    execFileSync('mkfifo', [fifo]);
    // Opening the write end waits until a reader opens the FIFO: if loopsctl does, this resolves.
    const writer = open(fifo, 'w');
    let child: SpawnedCli | undefined;
    const run = spawnCli(['check'], { cwd: repo, env: { LOOPS_API_KEY: 'test-key-never-used' }, onSpawn: (spawned) => (child = spawned) });
    const first = await Promise.race([run.then((result) => ({ ended: result })), writer.then(() => ({ opened: true }) as const)]);
    if ('opened' in first) {
      child!.kill('SIGTERM');
      const ended = await run;
      expect(ended.code === null || ended.code !== 0, 'SIGTERM ended the run').toBe(true);
      expect.fail('loopsctl opened the FIFO it found where loops.check.yaml goes');
    }
    expect(first.ended.code, first.ended.stderr).toBe(2);
    expect(first.ended.stderr).toContain('Error: loops.check.yaml is not a regular file');
    // The test's own pending open ends once a reader comes: this one, which it then closes.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    await (await writer).close();
    closeSync(reader);
  });
});
