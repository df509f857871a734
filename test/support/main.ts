/**
 * Runs `main(argv, runtime)` in-process, as the binary would but with captured streams, its own
 * environment and config dir, and a terminal or not as the test says. Most end-to-end tests use
 * this; the few that need a real process (signals, pipes, a pseudo-terminal) spawn bin/loopsctl.js.
 */
import { PassThrough, Readable, Writable } from 'node:stream';
import { Pacer } from '../../src/api/pacer.js';
import type { Runtime } from '../../src/core/runtime.js';
import { startInProcessSandbox } from '../../src/emulator/index.js';
import { type SandboxServer, type SandboxServerOptions, startServer } from '../../src/emulator/server.js';
import { main } from '../../src/main.js';
import { tempDir, unmadePath } from './temp.js';

export { tempDir };

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
  /** Whether the run asked the runtime for stderr, which the real process opens only then. */
  stderrOpened: boolean;
  /** stdout parsed as JSON. */
  json<T = any>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** What stdin holds; a string or a stream. */
  input?: string | Readable;
  /** Pretend stdout (and stderr, stdin) are a terminal of this many columns. */
  tty?: { columns: number };
  now?: () => Date;
  signal?: AbortSignal;
  /** Told of each piece of output as it is written, for a test that waits for a line. */
  onWrite?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Called with all of stdout so far after each write: to act once the run has printed something. */
  onStdout?: (text: string) => void;
  /** How this copy was installed, with the Node that runs it, as the process would say (none in-process). */
  installation?: Runtime['installation'];
  /**
   * The pace of the run's requests, and the `--sandbox` limit: 'sandbox' (the default) paces at
   * what the server says it allows and no faster than the sandbox answers, with the `--sandbox`
   * limit off, since a test's sandboxes have no limit unless a test turns it on and a file runs
   * its commands back to back; 'api' paces as a real run does, at the API's 10 a second until an
   * answer states a limit, against a `--sandbox` that keeps the platform's limit: for the tests of
   * the pace and the limit. A run given a cap of its own (--rate, LOOPSCTL_RATE) paces as a real
   * run does whatever this says, since a runtime's pace takes the place of the one the cap makes.
   */
  pace?: 'sandbox' | 'api';
  /** Told each time the run starts its sandbox (--sandbox), for a test that counts them. */
  onSandboxStart?: () => void;
  /** The loopsctl that runs, its main and its sandbox: this source's unless a test runs a copy of it (test/e2e/scaffold.test.ts). */
  program?: Program;
}

/** A loopsctl in this process: the entry that runs a command line, and the sandbox a `--sandbox` run starts. */
export interface Program {
  main: typeof main;
  startInProcessSandbox: typeof startInProcessSandbox;
}

class Capture extends Writable {
  text = '';
  isTTY?: boolean;
  columns?: number;
  constructor(
    tty?: { columns: number },
    private readonly onWrite?: (text: string, all: string) => void,
  ) {
    super();
    if (tty) {
      this.isTTY = true;
      this.columns = tty.columns;
    }
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    this.onWrite?.(chunk.toString(), this.text);
    callback();
  }
}

/**
 * A clean environment: no key, no colour forcing, a private config dir unless one is given, and
 * keys kept in the config file: the keychain library talks to the session of the process that runs
 * the tests, which on a desktop is the person's own keychain (test/spawned/config/keychain.test.ts runs its own).
 */
export async function run(argv: string[], options: RunOptions = {}): Promise<Result> {
  // A config dir of the run's own when the test gives none (nor removes it), not made: the run
  // makes it if it writes to it, as on a new machine.
  // DO_NOT_TRACK: `doctor` asks the release feed otherwise; a test of that gives a feed of its own.
  const given = options.env ?? {};
  const env: Record<string, string | undefined> = {
    LOOPSCTL_CONFIG_DIR: Object.hasOwn(given, 'LOOPSCTL_CONFIG_DIR') ? undefined : unmadePath('config'),
    LOOPSCTL_KEY_STORAGE: 'file',
    DO_NOT_TRACK: '1',
  };
  // A test may remove a variable by giving it as undefined.
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const stdout = new Capture(options.tty, (text, all) => {
    options.onWrite?.('stdout', text);
    options.onStdout?.(all);
  });
  const stderr = new Capture(options.tty, (text) => options.onWrite?.('stderr', text));
  const input = options.input;
  const stdin = (input === undefined ? Readable.from([]) : typeof input === 'string' ? Readable.from([Buffer.from(input)]) : input) as Runtime['stdin'];
  if (options.tty) stdin.isTTY = true;
  let stderrOpened = false;
  // A process that ends takes with it what it left running (a request it no longer waits for, a
  // retry's wait); in-process, the run's signal ends them, or they would go on into a later test,
  // and reach the server a later file started on the same port.
  const ended = new AbortController();
  const api = options.pace === 'api' || argv.some((word) => word === '--rate' || word.startsWith('--rate=')) || env.LOOPSCTL_RATE !== undefined;
  const runtime: Runtime = {
    stdout,
    get stderr() {
      stderrOpened = true;
      return stderr;
    },
    stdin,
    env,
    now: options.now ?? (() => new Date()),
    signal: options.signal === undefined ? ended.signal : AbortSignal.any([options.signal, ended.signal]),
    platform: process.platform,
    startSandbox: (sandbox) => {
      options.onSandboxStart?.();
      return (options.program?.startInProcessSandbox ?? startInProcessSandbox)(api ? sandbox : { ...sandbox, rateLimit: false });
    },
    installation: options.installation,
    // Until an answer states a limit (x-ratelimit-limit), none: a pace of its own for each run, as a real run has.
    pacer: api ? undefined : new Pacer({ perSecond: Number.POSITIVE_INFINITY }),
  };
  const code = await (options.program?.main ?? main)(argv, runtime);
  const result = { code, stdout: stdout.text, stderr: stderr.text, stderrOpened, json: () => JSON.parse(stdout.text) };
  ended.abort(RUN_ENDED);
  return result;
}

/**
 * Why a run's signal is aborted once the run has ended: one reason for every run, since abort()
 * without one makes a DOMException, stack and all, for each run (thousands in a file).
 */
const RUN_ENDED = new DOMException('the run ended', 'AbortError');

/** A terminal's stdin that a test types into. */
export function typedInput(): PassThrough & { isTTY: boolean; setRawMode: (mode: boolean) => void } {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
}

/**
 * A sandbox of the test's own on loopback, for tests that need odd records or want to inspect
 * the state: run commands against it with `sandboxEnv(server)`.
 */
/**
 * A sandbox for a test file, whose many commands share it: without the platform's rate limit
 * unless the test asks for it, since each command paces only its own requests and a file runs
 * them back to back (the limit has tests of its own).
 */
export function startTestSandbox(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  return startServer({ rateLimit: false, ...options });
}

export function sandboxEnv(server: SandboxServer, key = 'sandbox-key'): { LOOPS_BASE_URL: string; LOOPS_API_KEY: string } {
  return { LOOPS_BASE_URL: server.url, LOOPS_API_KEY: key };
}

export interface Running {
  /** Resolves with the match once stdout (all of it so far) matches; rejects if the run ends first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  /** Ctrl-C: aborts the run's signal, and resolves with its result. */
  stop(): Promise<Result>;
  /** The result, once the run ends by itself. */
  result: Promise<Result>;
}

/** A command that runs until interrupted (a server), run in-process: wait for what it prints, then stop it. */
export function startRun(argv: string[], options: RunOptions = {}): Running {
  const interrupt = new AbortController();
  let stdout = '';
  let ended = false;
  const waiting = new Set<() => void>();
  const result = run(argv, {
    ...options,
    signal: interrupt.signal,
    onWrite: (stream, text) => {
      if (stream === 'stdout') stdout += text;
      options.onWrite?.(stream, text);
      for (const check of waiting) check();
    },
  }).finally(() => {
    ended = true;
    for (const check of waiting) check();
  });
  return {
    result,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (match !== null) {
            waiting.delete(check);
            resolve(match);
          } else if (ended) {
            waiting.delete(check);
            void result.then((done) => reject(new Error(`the run ended (exit ${done.code}) before printing ${pattern}:\n${done.stdout}\n${done.stderr}`)));
          }
        };
        waiting.add(check);
        check();
      }),
    stop: () => {
      interrupt.abort();
      return result;
    },
  };
}

/**
 * A terminal's stdin where a person answers each question as it is asked: an answer is typed each
 * time loopsctl starts reading (a prompt resumes the stream), never before.
 */
export function answering(answers: string[]): ReturnType<typeof typedInput> {
  const stdin = typedInput();
  const resume = stdin.resume.bind(stdin);
  stdin.resume = () => {
    const asking = stdin.readableFlowing !== true;
    resume();
    const answer = asking ? answers.shift() : undefined;
    if (answer !== undefined) stdin.write(`${answer}\r`);
    return stdin;
  };
  return stdin;
}
