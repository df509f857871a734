/** Running commands for the benchmark: wall time, CPU time, peak memory, and medians over interleaved runs. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Command {
  label: string;
  /** The program to run; node by default. */
  file?: string;
  /** Arguments to the program; to node, a script and its arguments. */
  args: string[];
  env?: Record<string, string>;
}

export interface Run {
  ms: number;
  stdout: string;
  stderr: string;
}

/** Runs the command (node with its options first); fails on a non-zero exit, so a broken run never counts. */
export function run(command: Command, baseEnv: Record<string, string>, nodeOptions: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [file, args] = command.file === undefined ? [process.execPath, [...nodeOptions, ...command.args]] : [command.file, command.args];
    const child = spawn(file, args, { env: { ...baseEnv, ...command.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${command.label} exited with ${code}: ${stderr.trim()}`));
      else resolve({ ms, stdout: Buffer.concat(stdout).toString('utf8'), stderr });
    });
  });
}

/**
 * As run, but its figure is the CPU time (user and system) the command's process used, as bash's
 * `times` reports it for its children (getrusage, to the millisecond): the work a start does,
 * which a loaded machine moves far less than its wall time. The command runs as it would without
 * bash (no option of Node's added, which would keep a shipped code cache from serving it).
 */
export async function runForCpu(command: Command, baseEnv: Record<string, string>): Promise<Run> {
  const [file, args] = command.file === undefined ? [process.execPath, command.args] : [command.file, command.args];
  const result = await run(
    { label: command.label, file: 'bash', args: ['-c', '"$@" || exit $?; times >&2', 'bash', file, ...args], env: command.env },
    baseEnv,
  );
  const times = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\n$/.exec(result.stderr);
  if (times === null) throw new Error(`${command.label}: bash's times printed nothing to read`);
  const [userMinutes, user, systemMinutes, system] = times.slice(5).map(Number) as [number, number, number, number];
  return { ...result, ms: (userMinutes + systemMinutes) * 60_000 + (user + system) * 1000, stderr: result.stderr.slice(0, times.index) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs the commands round after round, each round in a rotated order so that none always goes
 * first, and returns each command's median wall time in milliseconds, by label. Whatever a run
 * wrote to stderr is handed to `onStderr`.
 */
export async function interleaved(
  commands: Command[],
  rounds: number,
  baseEnv: Record<string, string>,
  onStderr: (label: string, text: string) => void = () => {},
): Promise<Map<string, number>> {
  const times = await interleavedRounds(commands, rounds, baseEnv, onStderr);
  return new Map([...times].map(([label, values]) => [label, median(values)]));
}

/**
 * As interleaved, but each command's wall time in every round (with `measure` runForCpu, its CPU
 * time), in the order of the rounds: for ratios taken round by round.
 */
export async function interleavedRounds(
  commands: Command[],
  rounds: number,
  baseEnv: Record<string, string>,
  onStderr: (label: string, text: string) => void = () => {},
  measure: (command: Command, baseEnv: Record<string, string>) => Promise<Run> = run,
): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(commands.map((command) => [command.label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let offset = 0; offset < commands.length; offset += 1) {
      const command = commands[(round + offset) % commands.length]!;
      const result = await measure(command, baseEnv);
      times.get(command.label)!.push(result.ms);
      if (result.stderr !== '') onStderr(command.label, result.stderr);
    }
  }
  return times;
}

export interface Usage extends Run {
  /** Peak resident set size, bytes. */
  rss: number;
  /** CPU time used, user and system, milliseconds: the work done, whatever the waits. */
  cpuMs: number;
}

/** Runs the command with report-usage.cjs preloaded, which records getrusage figures as it exits. */
export async function runWithUsage(command: Command, baseEnv: Record<string, string>, benchDir: string): Promise<Usage> {
  return withUsageFile(async (file) => {
    const result = await run({ ...command, env: { ...command.env, BENCH_USAGE_FILE: file } }, baseEnv, ['--require', join(benchDir, 'report-usage.cjs')]);
    return { ...result, ...readUsage(file) };
  });
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the command on a pseudo-terminal of 160 columns (util-linux `script`), as someone at a
 * terminal would, with the same usage figures. stdout is what the terminal showed. No pager: it
 * would wait for a key, and what is measured is loopsctl's own work.
 */
export async function runOnTerminal(command: Command, baseEnv: Record<string, string>, benchDir: string): Promise<Usage> {
  return withUsageFile(async (file) => {
    const node = [process.execPath, '--require', join(benchDir, 'report-usage.cjs'), ...command.args].map(quote).join(' ');
    const inner = `stty cols 160 rows 50; exec ${node}`;
    const result = await run(
      {
        label: command.label,
        file: 'script',
        args: ['-qec', inner, '/dev/null'],
        env: { ...command.env, BENCH_USAGE_FILE: file, TERM: 'xterm-256color', LOOPSCTL_PAGER: '' },
      },
      baseEnv,
    );
    return { ...result, ...readUsage(file) };
  });
}

async function withUsageFile<T>(use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'loopsctl-bench-usage-'));
  try {
    return await use(join(dir, 'usage'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readUsage(file: string): { rss: number; cpuMs: number } {
  const [rss, cpuMicros] = readFileSync(file, 'utf8').trim().split(' ').map(Number);
  return { rss: rss!, cpuMs: cpuMicros! / 1000 };
}
