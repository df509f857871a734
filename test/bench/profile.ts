/**
 * Where a start's CPU goes, for the figures that compare starts: each command run a few times
 * with V8's CPU profiler started by a preloaded script (cpu-profile.cjs, through NODE_OPTIONS,
 * which sets no V8 flag: Node's own modules and loopsctl's shipped code caches serve as in a plain
 * run), its samples counted by the function they fell in. Counted rather than timed: on a loaded
 * machine a sample's interval also holds the time the process waited for a core.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Command, run } from './measure.js';

/** Runs profiled a command, and the entries shown. */
const PROFILED_RUNS = 5;
const TOP_ENTRIES = 6;
/** V8's sampling interval, µs: a start of some 20 to 60 ms gives a few hundred samples a run. */
const INTERVAL_US = 50;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

/**
 * The command's CPU profile over PROFILED_RUNS runs: its TOP_ENTRIES busiest functions by their own
 * samples, each as its share of all samples and its milliseconds a run ("21% vm.Script (node:vm) 3.7
 * ms"). Compiling a bundle from its code cache shows as `Script (node:vm)`; collections as `(garbage
 * collector)`; time in Node's C++ not under a JavaScript function as `(program)`.
 */
export async function profileTop(command: Command, benchDir: string, baseEnv: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-profile-'));
  try {
    const env = {
      ...command.env,
      NODE_OPTIONS: `--require ${join(benchDir, 'cpu-profile.cjs')}`,
      BENCH_PROFILE_DIR: dir,
      BENCH_PROFILE_INTERVAL: String(INTERVAL_US),
    };
    for (let index = 0; index < PROFILED_RUNS; index += 1) await run({ ...command, env }, baseEnv);
    return topEntries(readdirSync(dir).map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Samples that are not the command's work: waiting (for a server, a child), and the profiler's own
 * stopping at the exit, which in a start of 25 ms is most of what a short command's profile holds.
 */
const NOT_THE_COMMAND = /^\(idle\)$|\((?:node:inspector|cpu-profile\.cjs:\d+)\)$/;

/** The busiest functions of the profiles by their own samples, as profileTop shows them. */
export function topEntries(profiles: CpuProfile[]): string[] {
  const samples = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const names = new Map(profile.nodes.map((node) => [node.id, entryName(node)]));
    for (const id of profile.samples) {
      const name = names.get(id)!;
      if (NOT_THE_COMMAND.test(name)) continue;
      samples.set(name, (samples.get(name) ?? 0) + 1);
      total += 1;
    }
  }
  const runs = Math.max(profiles.length, 1);
  return [...samples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_ENTRIES)
    .map(([name, count]) => `${((100 * count) / total).toFixed(0)}% ${name} ${((count * INTERVAL_US) / 1000 / runs).toFixed(1)} ms`);
}

/** A function by its name and where it is: a bundle's file name and line, or Node's module. */
function entryName({ callFrame: { functionName, url, lineNumber } }: ProfileNode): string {
  const name = functionName || '(anonymous)';
  if (url === '') return name;
  const file = url.slice(url.lastIndexOf('/') + 1);
  return url.startsWith('node:') ? `${name} (${url})` : `${name} (${file}:${lineNumber + 1})`;
}
