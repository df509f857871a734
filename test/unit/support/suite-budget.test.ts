/** The suite's budget (test/support/suite-budget.ts): shares of the run's CPU, and when a run is held to it. */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import { childrenCpuMs, cpuMsNow, ProcessGroupWatch } from '../../support/file-cpu.js';
import SuiteBudget, { costOf, type FileCost, MAX_FILE_SHARE, MIN_FILES, overBudget } from '../../support/suite-budget.js';

const cost = (file: string, cpuMs: number | undefined, durationMs = 1000): FileCost => ({ file, cpuMs, durationMs });

/** `count` files of 1 s of CPU each, and one of `ms`. */
function suite(count: number, ms: number): FileCost[] {
  return [...Array.from({ length: count }, (_, index) => cost(`test/unit/f${index}.test.ts`, 1000)), cost('test/e2e/slow.test.ts', ms)];
}

describe('overBudget', () => {
  it('names a file whose share of the CPU is over the budget, with its share', () => {
    // 99 files of 1 s and one of 10 s: 10 / 109 of the whole, over 5%.
    expect(overBudget(suite(99, 10_000))).toEqual([{ file: 'test/e2e/slow.test.ts', share: 10_000 / 109_000, ms: 10_000 }]);
  });

  it('passes files within it, whatever the seconds: a loaded machine slows every file alike', () => {
    expect(overBudget(suite(99, 5000))).toEqual([]);
    const slowMachine = suite(99, 5000).map((file) => ({ ...file, cpuMs: file.cpuMs! * 7 }));
    expect(overBudget(slowMachine)).toEqual([]);
    expect(5000 / 104_000).toBeLessThan(MAX_FILE_SHARE);
  });

  it('takes the durations vitest reports when a file has no CPU figure', () => {
    const files = [...suite(30, 1000), cost('test/spawned/odd.test.ts', undefined, 20_000)];
    expect(costOf(files).unit).toBe('duration');
    expect(overBudget(files).map((over) => over.file)).toEqual(['test/spawned/odd.test.ts']);
  });
});

describe('the reporter', () => {
  const previousExitCode = process.exitCode;
  afterEach(() => {
    process.exitCode = previousExitCode;
  });

  /** A run of these files, vitest's own globbing finding `found` of them. */
  async function report(files: FileCost[], found = files.length, reason: 'passed' | 'failed' = 'passed'): Promise<string[]> {
    const said: string[] = [];
    const vitest = {
      config: { root: '/repo' },
      logger: { error: (text: string) => said.push(text) },
      globTestSpecifications: async () => Array.from({ length: found }),
    } as unknown as Vitest;
    const modules = files.map(
      (file) =>
        ({
          moduleId: `/repo/${file.file}`,
          meta: () => ({ cpuMs: file.cpuMs }),
          diagnostic: () => ({ collectDuration: file.durationMs / 2, setupDuration: 0, duration: file.durationMs / 2 }),
        }) as unknown as TestModule,
    );
    const reporter = new SuiteBudget();
    reporter.onInit(vitest);
    process.exitCode = undefined;
    await reporter.onTestRunEnd(modules, [], reason);
    return said;
  }

  it('fails a run of every file when one is over, naming it', async () => {
    const said = (await report(suite(99, 10_000))).join('');
    expect({ exitCode: process.exitCode, message: said }).toMatchObject({
      exitCode: 1,
      message: expect.stringMatching(/at most 5% of the run's CPU, and one takes more:\n {2}test\/e2e\/slow\.test\.ts: 9\.2% \(10\.0 s\)\n/),
    });
  });

  it('leaves alone a run of chosen files, a run that failed already, and one of a few files', async () => {
    expect(await report(suite(99, 10_000), 150)).toEqual([]);
    expect(await report(suite(99, 10_000), 100, 'failed')).toEqual([]);
    expect(await report(suite(MIN_FILES - 2, 10_000))).toEqual([]);
    expect(process.exitCode).toBeUndefined();
  });
});

describe("a file's CPU", () => {
  /** A child's work: some 30 ms beside Node's own start, several of the 10 ms ticks /proc counts in (5e7 took 0.3 s). */
  const BUSY = 'let sum = 0; for (let i = 0; i < 5e6; i += 1) sum += i;';

  it("counts this process's work", () => {
    const before = cpuMsNow();
    createHash('sha256')
      .update(Buffer.alloc(16 * 1024 * 1024))
      .digest();
    expect(cpuMsNow()).toBeGreaterThan(before);
  });

  it.runIf(process.platform === 'linux')('counts the work of a child process this one waited for', () => {
    const before = childrenCpuMs();
    const child = spawnSync(process.execPath, ['-e', BUSY]);
    expect(child.status).toBe(0);
    expect(childrenCpuMs()).toBeGreaterThan(before);
  });

  it.runIf(process.platform === 'linux')('sees what each process of a group spent, after it has ended too, until none runs', async () => {
    // A group of its own, as playwright starts a browser: busy for a while, then idle until killed.
    const child = spawn(process.execPath, ['-e', `${BUSY} console.log(sum); setInterval(() => {}, 1000);`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const watch = new ProcessGroupWatch(child.pid!);
    try {
      await once(child.stdout!, 'data');
      expect(watch.look()).toBe(true);
      expect(watch.spentMs()).toBeGreaterThan(0);
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    // Ended and reaped: nothing of the group runs, and what it spent is still known.
    expect(watch.look()).toBe(false);
    expect(watch.spentMs()).toBeGreaterThan(0);
  });
});
