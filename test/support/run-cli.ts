/**
 * Runs loopsctl as a user would, with its own environment and config dir: in-process through
 * `main(argv, runtime)` (fast; most tests), or as a child process of the built binary
 * (`spawnCli`) where a test needs a real process: signals, pipes, exit codes of the binary.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { tempDir } from './temp.js';

export const BIN = resolve(import.meta.dirname, '../../bin/loopsctl.js');

/** When a test kills a child as hung: within vitest's limit of a test (120 s), and long, since a loaded machine is slow. */
export const HUNG_AFTER_MS = 100_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built binary as a child process; its stdin is null when not a pipe (RunOptions.stdin). */
export type SpawnedCli = ChildProcessByStdio<Writable | null, Readable, Readable>;

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** The child's stdin: a pipe that gets `input` (the default), /dev/null ('ignore'), or an open file descriptor. Spawns. */
  stdin?: 'pipe' | 'ignore' | number;
  /** When the child is killed as hung: HUNG_AFTER_MS unless a test needs less. */
  timeoutMs?: number;
  /** The directory the child runs in. */
  cwd?: string;
  /** Called with the child once it runs: to send it a signal, or close its stdout early. */
  onSpawn?: (child: SpawnedCli) => void;
  /** The Node.js that runs the binary: this process's unless given (spawns). */
  node?: string;
  /** The binary run: the clone's bin/loopsctl.js unless given (a copy of it, with its bundles; spawns). */
  bin?: string;
  /** The user (and their group) the child runs as, for a test run as root of what only binds another user (spawns). */
  user?: { uid: number; gid: number };
}

export function tempConfigDir(): string {
  return tempDir('loopsctl-test-');
}

/** In-process, with a clean environment: no key, no colour forcing, a private config dir unless one is given. */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  if (options.onSpawn !== undefined || options.stdin !== undefined || options.node !== undefined || options.bin !== undefined || options.user !== undefined)
    return spawnCli(args, options);
  const { run } = await import('./main.js');
  const { code, stdout, stderr } = await run(args, { env: options.env, input: options.input });
  return { code, stdout, stderr };
}

/** The built binary as a child process, with a clean environment. */
export function spawnCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const configDir = tempConfigDir();
  // The code cache a run may write goes to the temporary directory too.
  // Keys in the config file, as in run() (test/support/main.ts); a test of the keychain gives its own.
  // DO_NOT_TRACK: no update check leaves a test (see test/support/main.ts).
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOOPSCTL_CONFIG_DIR: configDir,
    XDG_CACHE_HOME: join(configDir, 'cache'),
    LOOPSCTL_KEY_STORAGE: 'file',
    DO_NOT_TRACK: '1',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(options.node ?? process.execPath, [options.bin ?? BIN, ...args], {
      env,
      cwd: options.cwd,
      stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'],
      ...options.user,
    }) as SpawnedCli;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? HUNG_AFTER_MS);
    child.on('error', reject);
    options.onSpawn?.(child);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}
