/**
 * Long output through a pager, as gh and git do: on a terminal, text goes to `$LOOPSCTL_PAGER`,
 * else `$PAGER`, else `less -FRX` when less is on the PATH and the terminal is not dumb (quit when the text fits one screen,
 * keep colours, leave the text on the screen); the pager gets LESS=FRX unless LESS is set. `--no-pager`, or
 * LOOPSCTL_PAGER or PAGER set to the empty string, turns it off; so does stdout not being a
 * terminal. A person who quits the pager before the end has seen what they wanted: whatever is
 * written after that is dropped quietly, and `signal` aborts, so a long listing can stop fetching
 * pages and the command end with status 0.
 *
 * The environment and the streams are parameters, so that nothing here reads the process's own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Writable } from 'node:stream';
import type { OutputStream } from './output.js';

export interface PagerOptions {
  /** The real stdout: paging happens only when it is a terminal. */
  stdout: OutputStream;
  /** Where the pager writes its own errors. */
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  /** false under --no-pager. */
  enabled: boolean;
  /**
   * Ctrl-C: the pager is ended at once (as less, it would ignore the SIGINT the terminal sent it,
   * and keep the person at its prompt), so that the person is back at the shell.
   */
  interrupted?: AbortSignal;
  /** Whether a program is on the PATH; by default, an executable file in one of env.PATH's directories. */
  onPath?: (program: string, env: NodeJS.ProcessEnv) => boolean;
}

export interface Pager {
  /** Where to write: the pager's input, or stdout itself when there is no pager. */
  stream: OutputStream;
  /** True once the pager has exited: nothing more will be shown, so a command may stop early. */
  readonly closed: boolean;
  /** Aborted when the pager exits; never, without a pager. */
  readonly signal: AbortSignal;
  /** Ends the pager's input and waits for the person to quit it. */
  close(): Promise<void>;
}

/**
 * The pager command line to run, or undefined for none. LOOPSCTL_PAGER wins over PAGER; either set
 * to the empty string means no pager; with neither, `less` when it is on the PATH.
 */
export function pagerCommand(options: Omit<PagerOptions, 'stderr'>): string | undefined {
  if (!options.enabled || options.stdout.isTTY !== true) return undefined;
  const { env } = options;
  const chosen = env.LOOPSCTL_PAGER ?? env.PAGER;
  if (chosen !== undefined) return chosen.trim() === '' ? undefined : chosen;
  // less on a dumb terminal cannot draw its screen and stops to ask for Return: only a pager the
  // person chose runs there.
  if (env.TERM === 'dumb') return undefined;
  return (options.onPath ?? isOnPath)('less', env) ? 'less -FRX' : undefined;
}

/** Starts the pager when there is one to start; else writing goes straight to stdout. */
export async function startPager(options: PagerOptions): Promise<Pager> {
  const command = pagerCommand(options);
  const direct: Pager = { stream: options.stdout, closed: false, signal: new AbortController().signal, close: async () => {} };
  if (command === undefined) return direct;
  const [program, ...args] = splitCommand(command);
  if (program === undefined) return direct;
  // The pager writes to the terminal itself when the stream has a file descriptor (a real stdout
  // or stderr); a stream without one gets what the pager writes passed on to it.
  const child = spawn(program, args, {
    stdio: ['pipe', hasDescriptor(options.stdout) ? options.stdout : 'pipe', hasDescriptor(options.stderr) ? options.stderr : 'pipe'],
    env: { ...options.env, LESS: options.env.LESS ?? 'FRX' },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) {
    options.stderr.write(`Warning: could not start the pager "${command}"; printing directly.\n`);
    return direct;
  }
  child.stdout?.pipe(options.stdout, { end: false });
  child.stderr?.pipe(options.stderr, { end: false });
  return new RunningPager(child, options.stdout, options.interrupted);
}

function hasDescriptor(stream: Writable): boolean {
  return typeof (stream as { fd?: unknown }).fd === 'number';
}

class RunningPager implements Pager {
  readonly stream: OutputStream;
  private readonly exited = new AbortController();
  private readonly exit: Promise<void>;

  constructor(child: ChildProcess, stdout: OutputStream, interrupted: AbortSignal | undefined) {
    this.exit = new Promise((resolve) => child.once('close', () => resolve()));
    const end = () => child.kill('SIGTERM');
    if (interrupted?.aborted) end();
    else interrupted?.addEventListener('abort', end, { once: true });
    child.once('exit', () => {
      interrupted?.removeEventListener('abort', end);
      this.exited.abort();
    });
    const input = child.stdin!;
    // EPIPE when the pager has quit: not an error, the person has read enough.
    input.on('error', () => this.exited.abort());
    const writable = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        if (this.closed) return done();
        // Waiting for the pager to take each chunk gives the command backpressure from it.
        input.write(chunk, () => done());
      },
      final: (done) => (this.closed ? done() : input.end(() => done())),
    });
    // Tables are fitted to the terminal behind the pager, as wide as it is at each page.
    this.stream = Object.defineProperties(writable, { isTTY: { value: true }, columns: { get: () => stdout.columns } }) as OutputStream;
  }

  get closed(): boolean {
    return this.exited.signal.aborted;
  }

  get signal(): AbortSignal {
    return this.exited.signal;
  }

  async close(): Promise<void> {
    if (!this.closed) await new Promise<void>((resolve) => this.stream.end(resolve));
    await this.exit;
  }
}

/** Whether `program` is an executable file in one of the PATH's directories (with PATHEXT's endings on Windows). */
export function isOnPath(program: string, env: NodeJS.ProcessEnv): boolean {
  const endings = ['', ...(env.PATHEXT ?? '').split(';').filter(Boolean)];
  for (const directory of (env.PATH ?? '').split(delimiter)) {
    if (directory === '') continue;
    for (const ending of endings) {
      try {
        accessSync(join(directory, program + ending), constants.X_OK);
        return true;
      } catch {
        // Not here; try the next.
      }
    }
  }
  return false;
}

/**
 * A command line split into words as a shell would for simple cases: spaces separate words,
 * single quotes keep everything, double quotes keep spaces, a backslash keeps the next character.
 * `less -R`, `"/opt/my pager/bin/p" --flag` and `moar -no-linenumbers` all work; pipes and
 * redirections do not (run them through `sh -c '...'` in the variable).
 */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (char === '\\' && index + 1 < command.length) {
      word += command[++index];
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
