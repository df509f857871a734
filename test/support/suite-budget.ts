/**
 * The suite's budget: no test file may cost more than a set share of the CPU the whole run cost,
 * so that a slow file is seen the day it is added, not when the suite has grown slow. Shares, not
 * seconds: a machine loaded by other work slows every file alike, and the share stays. Each file's
 * cost is what vitest's report carries for it: the CPU its worker spent on it (file-cpu.ts, left in
 * the file's meta by setup.ts), else, where that is missing, the time vitest reports it took.
 * vitest.config.ts runs it as a reporter of every run, which it fails (exit 1) when a file is over;
 * `npm run bench -- suite` reads the same figures, which it writes as JSON to the file
 * LOOPSCTL_SUITE_COSTS names.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule, TestRunEndReason, Vitest } from 'vitest/node';
import './file-cpu.js';

/**
 * The largest share of the run's CPU one file may take. The suite holds some 370 files, under a
 * third of a percent each on average; the costliest took 4.4% to 5.3% of about 120 s (every example
 * of the help and the docs, test/e2e/examples.test.ts; the hostile inputs of every command; a
 * page drawn in a browser of the file's own). A file past 5% waits for something, runs as
 * processes what could run in-process, or tests in one file what belongs in several. A machine
 * without the programs some tests need (Chromium, zsh, fish) skips those, which raises every other
 * file's share a little.
 */
export const MAX_FILE_SHARE = 0.05;

/** A run of fewer files than this is someone's chosen few, where a share says nothing. */
export const MIN_FILES = 50;

/** What one file cost: CPU milliseconds when known, and the duration vitest reports. */
export interface FileCost {
  file: string;
  cpuMs: number | undefined;
  durationMs: number;
}

/** The cost a share is taken of: CPU when every file has it, else the durations. */
export function costOf(files: readonly FileCost[]): { unit: 'CPU' | 'duration'; of: (file: FileCost) => number } {
  return files.every((file) => file.cpuMs !== undefined) ? { unit: 'CPU', of: (file) => file.cpuMs! } : { unit: 'duration', of: (file) => file.durationMs };
}

/** The files over budget, costliest first, with their share of the whole. */
export function overBudget(files: readonly FileCost[], maxShare = MAX_FILE_SHARE): { file: string; share: number; ms: number }[] {
  const { of } = costOf(files);
  const total = files.reduce((sum, file) => sum + of(file), 0);
  if (total === 0) return [];
  return files
    .map((file) => ({ file: file.file, share: of(file) / total, ms: of(file) }))
    .filter((cost) => cost.share > maxShare)
    .sort((a, b) => b.share - a.share);
}

/** A file's cost as vitest's reporter API gives it. */
function costOfModule(module: TestModule, root: string): FileCost {
  const diagnostic = module.diagnostic();
  return {
    file: module.moduleId.startsWith(`${root}/`) ? module.moduleId.slice(root.length + 1) : module.moduleId,
    // A file skipped whole (a test of a build CI makes elsewhere) runs no hook, so counts no CPU: it took none.
    cpuMs: module.meta().cpuMs ?? (module.state() === 'skipped' ? 0 : undefined),
    durationMs: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
  };
}

/**
 * Fails a run that covers every file of the projects it ran, and passed, when a file is over its
 * share; a run of chosen files, or one that failed already, is left alone.
 */
export default class SuiteBudget implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    const vitest = this.vitest;
    if (vitest === undefined) return;
    const files = modules.map((module) => costOfModule(module, vitest.config.root));
    const costsFile = process.env.LOOPSCTL_SUITE_COSTS;
    if (costsFile) writeFileSync(costsFile, JSON.stringify({ reason, files }));
    if (reason !== 'passed' || modules.length < MIN_FILES) return;
    if ((await vitest.globTestSpecifications()).length > modules.length) return;
    const over = overBudget(files);
    if (over.length === 0) return;
    const { unit } = costOf(files);
    const lines = over.map(({ file, share, ms }) => `  ${file}: ${(share * 100).toFixed(1)}% (${(ms / 1000).toFixed(1)} s)`);
    vitest.logger.error(
      `\nThe suite's budget: a test file may take at most ${MAX_FILE_SHARE * 100}% of the run's ${unit}, and ${over.length === 1 ? 'one takes' : `${over.length} take`} more:\n${lines.join('\n')}\nMake it cheaper (in-process runs, one sandbox per file, no waits) or split it (docs/development.md).\n`,
    );
    process.exitCode = 1;
  }
}
