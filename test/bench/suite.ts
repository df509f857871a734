/**
 * `npm run bench -- suite`: the test suite run as `npm test` runs it after its build (vitest run,
 * or the directories BENCH_SUITE_DIRS names, separated by spaces), its CPU (user and system, every
 * process it waited for) and wall time, and each file's CPU as the suite's budget counts it
 * (test/support/suite-budget.ts): the slowest files, and the largest share of one file against the
 * budget's. Each file's CPU is the one its worker counted; the whole run's, vitest's own included,
 * is what /proc says this process's children took.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenCpuMs } from '../support/file-cpu.js';
import { costOf, type FileCost } from '../support/suite-budget.js';

export interface SuiteFigures {
  /** The files run: the whole suite, or those of the directories named. */
  scope: string;
  cpuMs: number;
  wallMs: number;
  /** Whether every test passed (the budget aside: it is a figure of its own). */
  passed: boolean;
  files: FileCost[];
  /** What a file's share is a share of: its CPU, or where that was not counted, its duration. */
  unit: 'CPU' | 'duration';
  /** The files, costliest first, with their share of the files' sum. */
  slowest: { file: string; ms: number; share: number }[];
}

/** Runs the suite in the environment `npm test` would (this process's), as it runs there. */
export async function measureSuite(root: string): Promise<SuiteFigures> {
  const dirs = (process.env.BENCH_SUITE_DIRS ?? '').split(' ').filter(Boolean);
  const scratch = mkdtempSync(join(tmpdir(), 'loopsctl-bench-suite-'));
  try {
    const costsFile = join(scratch, 'costs.json');
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const vitest = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...dirs], {
        cwd: root,
        env: { ...process.env, LOOPSCTL_SUITE_COSTS: costsFile },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      vitest.on('error', reject);
      vitest.on('close', () => resolve());
    });
    const wallMs = performance.now() - started;
    const cpuMs = childrenCpuMs() - cpuBefore;
    const { reason, files } = JSON.parse(readFileSync(costsFile, 'utf8')) as { reason: string; files: FileCost[] };
    const { unit, of } = costOf(files);
    const total = files.reduce((sum, file) => sum + of(file), 0);
    const slowest = files.map((file) => ({ file: file.file, ms: of(file), share: of(file) / total })).sort((a, b) => b.ms - a.ms);
    return { scope: dirs.length === 0 ? 'the whole suite' : dirs.join(' '), cpuMs, wallMs, passed: reason === 'passed', files, unit, slowest };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
