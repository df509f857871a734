/**
 * `npm run bench -- suite`: the test suite run as `npm test` runs it after its build (vitest run,
 * or the directories BENCH_SUITE_DIRS names, separated by spaces), its CPU (user and system, every
 * process it waited for) and wall time, and each file's CPU as the suite's budget counts it
 * (test/support/suite-budget.ts): the slowest files, and the largest share of one file against the
 * budget's. Each file's CPU is the one its worker counted; the whole run's, vitest's own included,
 * is what /proc says this process's children took.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { childrenCpuMs } from '../support/file-cpu.js';
import { costOf, type FileCost } from '../support/suite-budget.js';

export interface SuiteFigures {
  /** The files run: the whole suite, or those of the directories named. */
  scope: string;
  cpuMs: number;
  wallMs: number;
  /** What the CPU figure counts: every process of the run, or those it waited for. */
  counted: string;
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
    const group = accountingGroup();
    const command = [process.execPath, join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...dirs];
    const cpuBefore = childrenCpuMs();
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      // In the group before it starts anything: the shell puts itself there, then becomes vitest.
      const [file, ...args] = group === undefined ? command : ['/bin/sh', '-c', 'echo $$ > "$1" && shift && exec "$@"', 'sh', group.tasks, ...command];
      const vitest = spawn(file!, args, { cwd: root, env: { ...process.env, LOOPSCTL_SUITE_COSTS: costsFile }, stdio: ['ignore', 'ignore', 'inherit'] });
      vitest.on('error', reject);
      vitest.on('close', () => resolve());
    });
    const wallMs = performance.now() - started;
    const waitedMs = childrenCpuMs() - cpuBefore;
    const cpuMs = group === undefined ? waitedMs : await group.spentMs();
    const { reason, files } = JSON.parse(readFileSync(costsFile, 'utf8')) as { reason: string; files: FileCost[] };
    const { unit, of } = costOf(files);
    const total = files.reduce((sum, file) => sum + of(file), 0);
    const slowest = files.map((file) => ({ file: file.file, ms: of(file), share: of(file) / total })).sort((a, b) => b.ms - a.ms);
    const counted = group === undefined ? 'every process it waited for' : `every process of the run (${(waitedMs / 1000).toFixed(1)} s of them waited for)`;
    return { scope: dirs.length === 0 ? 'the whole suite' : dirs.join(' '), cpuMs, counted, wallMs, passed: reason === 'passed', files, unit, slowest };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A control group of Linux's CPU accounting (cgroup v1's cpuacct) for the run, where this process
 * may make one (as root): it counts every process of the run, those that no process waits for as
 * well (a browser killed as its test worker ends, a closing Chromium's helpers that init reaps),
 * which the times of the children a process waited for miss. Undefined elsewhere.
 */
function accountingGroup(): { tasks: string; spentMs(): Promise<number> } | undefined {
  const dir = join('/sys/fs/cgroup/cpuacct', `loopsctl-bench-suite-${process.pid}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  const tasks = join(dir, 'tasks');
  return {
    tasks,
    // Once the last process of the run has ended: a killed browser's may outlive vitest by a moment.
    spentMs: async () => {
      for (let checks = 0; checks < 1000 && readFileSync(tasks, 'utf8').trim() !== ''; checks += 1) await setTimeout(10);
      const spent = Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8')) / 1e6;
      try {
        rmdirSync(dir);
      } catch {
        // A process of the run still in it after ten seconds: the group stays, as empty groups of the system do.
      }
      return spent;
    },
  };
}
