/**
 * Everything a run of loopsctl takes from the world, made once in `main()`'s caller and handed to
 * every command: streams, environment, clock and the abort signal that Ctrl-C fires. Nothing else
 * in loopsctl reads process.stdout, process.env or the clock directly, so a test builds a runtime
 * of its own and runs `main(argv, runtime)` in-process.
 */
import type { Readable, Writable } from 'node:stream';
import type { Pacer } from '../api/pacer.js';
import { builtinModule } from '../base/builtin.js';
import type { RequestPool } from '../base/node-http.js';
import type { Installation } from './installation.js';
import { standardStream } from './standard-stream.js';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** Where input given as `-` comes from. */
export type InputSource = Pick<Runtime, 'stdin' | 'stdinFd' | 'files'>;

/**
 * What a run may read of local files when it is not the person's own (a tool call of `loopsctl
 * mcp`): content given inline, by the name the call gave it, and files under `root`, if any.
 */
export interface FileAccess {
  inline: ReadonlyMap<string, Buffer>;
  root?: string;
}

export interface Runtime {
  stdout: OutStream;
  stderr: OutStream;
  /** Opened on first use: prompts and line-by-line input read it. */
  stdin: InStream;
  /**
   * The real process's stdin as a file descriptor, which whole inputs (`--body-file -`, `@-`) are
   * read from directly: opening the stdin stream takes a start several milliseconds. A test's
   * runtime leaves it out and gives `stdin`.
   */
  stdinFd?: number;
  env: Record<string, string | undefined>;
  now: () => Date;
  /** Aborted on Ctrl-C: requests in flight and waits between retries end with InterruptedError. */
  signal: AbortSignal;
  /**
   * Aborted when stdout can no longer be written, with the write error as its reason: EPIPE when
   * the reader went away (`| head -1`), anything else (a full disk) is a failure of its own.
   */
  stdoutClosed?: AbortSignal;
  /**
   * How to run loopsctl again as a program of its own (sandbox --detach): Node and the script, or
   * the single executable alone.
   */
  command?: [program: string, ...args: string[]];
  /** How this copy was installed (doctor, the update notice); undefined in-process. */
  installation?: Installation;
  /**
   * stdout goes to a pager, which owns the terminal until it exits: nothing else may draw there (no
   * live progress line), or it would land inside the paged text and over the pager's prompt.
   */
  paged?: boolean;
  /** The platform, for the few rules that differ on Windows (file modes). */
  platform: NodeJS.Platform;
  /**
   * A pace that runs sharing one process keep together (the tool calls of `loopsctl mcp`, each a
   * run of its own): the API's limit is the account's, not a run's. A run makes its own otherwise.
   */
  pacer?: Pacer;
  /** Set for a run an agent started: input files are read only as it allows. */
  files?: FileAccess;
  /**
   * Starts the sandbox that a `--sandbox` run talks to in this process: the emulator's face, handed
   * in by the process (cli.ts) or a test, so that the core never imports the emulator.
   */
  startSandbox?: SandboxStarter;
}

/** A sandbox answering a run's requests in this process: its base URL, its key, and the pool that answers. */
export interface InProcessSandbox {
  url: string;
  apiKey: string;
  pool: RequestPool;
  close(): Promise<void>;
}

export type SandboxStarter = (options: {
  /** The config directory, whose state file the sandbox keeps its data in. */
  configDir: string;
  now: () => Date;
  /** The state file cannot be read: the run's requests can no longer be answered. */
  onStateError: (error: Error) => void;
}) => Promise<InProcessSandbox>;

/** The runtime of the real process, and when what it wrote is out. */
export interface ProcessRuntime extends Runtime {
  /**
   * Resolves once everything written to stdout, and to stderr if it was opened, has reached them
   * or can no longer (a reader that went away).
   */
  written(): Promise<void>;
}

/**
 * The runtime of the real process. Ctrl-C aborts `interruption`; so does stdout failing (the
 * reader went away, a full disk), which also aborts the runtime's `stdoutClosed`.
 */
export function processRuntime(interruption: AbortController): ProcessRuntime {
  const stdoutClosed = new AbortController();
  const platform = process.platform;
  // Node makes each standard stream on first use, which takes a start a few milliseconds, and more
  // for stdin; most commands never read stdin, and a successful run never writes to stderr.
  const stdout = standardStream(1, platform, () => process.stdout.on('error', stdoutFailed), stdoutFailed);
  // A closed stderr leaves nothing to say; the exit code still tells.
  const stderr = standardStream(
    2,
    platform,
    () => process.stderr.on('error', () => {}),
    () => {},
  );
  function stdoutFailed(error: NodeJS.ErrnoException): void {
    stdoutClosed.abort(error);
    interruption.abort();
  }
  return {
    stdoutClosed: stdoutClosed.signal,
    get command(): [string, ...string[]] {
      return builtinModule('node:sea').isSea() ? [process.execPath] : [process.execPath, process.argv[1]!];
    },
    get installation(): Installation {
      const { basename, dirname, join } = builtinModule('node:path');
      const node = process.versions.node;
      if (builtinModule('node:sea').isSea()) return { method: 'executable', directory: dirname(process.execPath), node };
      const fs = builtinModule('node:fs');
      // bin/loopsctl.js, through the link a global npm install makes.
      const directory = dirname(dirname(fs.realpathSync(process.argv[1]!)));
      if (fs.existsSync(join(directory, '.git'))) return { method: 'clone', directory, node };
      // A project's node_modules (npm install --prefix makes one too) sits beside its package.json; the global one never does.
      const prefix = dirname(dirname(directory));
      const local = basename(dirname(directory)) === 'node_modules' && fs.existsSync(join(prefix, 'package.json'));
      return { method: 'npm', directory, node, ...(local ? { npmPrefix: prefix } : {}) };
    },
    stdout: stdout.stream,
    stderr: stderr.stream,
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    env: process.env,
    now: () => new Date(),
    signal: interruption.signal,
    platform,
    async written() {
      const streams = [stdout, stderr].filter(({ opened }) => opened).map(({ stream }) => stream);
      const waiting = streams.filter((stream) => stream.writableLength > 0 && !stream.destroyed);
      await Promise.all(waiting.map((stream) => new Promise<void>((resolve) => stream.end(() => resolve()))));
    },
  };
}
