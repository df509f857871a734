/**
 * --jq: JSON output filtered through the jq language. jq itself runs, compiled to WebAssembly
 * (jq-web), so expressions mean exactly what they mean to jq; it is loaded only when --jq is given.
 * Each result comes back as one line of compact JSON, which the Output prints as `gh --jq` does.
 *
 * jq runs in a worker thread, where it can be stopped: an expression may loop forever, recurse
 * until WebAssembly aborts, or print without end. The worker has a time limit and a memory limit
 * (which bounds what it can print), Ctrl-C ends it at once (exit 130), and whatever stops it is an
 * error naming the expression (exit 2), never a crash of loopsctl. What jq writes on its own stderr
 * (`debug`, `stderr`) comes back as data and is sanitized before it is shown.
 */
import { Worker } from 'node:worker_threads';
import { InterruptedError, UsageError } from '../api/errors.js';
import { sanitize } from './sanitize.js';

/** The limits from the environment: LOOPSCTL_JQ_TIMEOUT (seconds) and LOOPSCTL_JQ_MEMORY_MB. */
export function jqLimits(env: Record<string, string | undefined>): Partial<JqLimits> {
  const positive = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value.trim() === '') return undefined;
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0) throw new UsageError(`${name} must be a positive number, not "${sanitize(value)}"`);
    return number;
  };
  return { seconds: positive('LOOPSCTL_JQ_TIMEOUT'), memoryMb: positive('LOOPSCTL_JQ_MEMORY_MB') };
}

/** jq's exit status for an expression that does not compile. */
const COMPILE_ERROR = 3;
/** Long enough for jq over any answer loopsctl reads (32 MiB). */
export const DEFAULT_JQ_SECONDS = 30;
/** The worker's heap: jq-web keeps what jq prints as an array of bytes, 8 bytes each. */
export const DEFAULT_JQ_MEMORY_MB = 512;
/** What one run of the expression may print: far above any useful output. */
const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;

export interface JqLimits {
  seconds: number;
  memoryMb: number;
}

export interface JqOptions {
  /** Ctrl-C: ends a run of jq at once. */
  signal: AbortSignal;
  /** Where what jq writes on its own stderr goes, a line at a time (already sanitized). */
  message: (line: string) => void;
  limits?: Partial<JqLimits>;
}

/** What the worker answers for one run. */
type Reply = { messages: string[] } & ({ output: string | null } | { failed: { exitCode: number; stderr: string | null } } | { crashed: string } | { tooLarge: true });

/**
 * The worker: loads jq-web from the path it is given (node_modules, or dist/vendor in the bundle),
 * runs each expression it is sent, and answers with jq's output or how it failed. console is
 * taken over, so that nothing of jq-web's reaches the terminal but through the reply.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
let messages = [];
const keep = (...args) => { messages.push(String(args[args.length - 1])); };
console.log = console.info = console.warn = console.error = console.debug = keep;
const loading = require(workerData.jqPath);
parentPort.on('message', async ({ input, expression }) => {
  messages = [];
  try {
    const jq = await loading;
    const output = jq.raw(input, expression, ['-c']);
    if (output !== undefined && output.length > workerData.maxOutput) parentPort.postMessage({ tooLarge: true, messages });
    else parentPort.postMessage({ output: output === undefined ? null : output, messages });
  } catch (error) {
    if (error && typeof error.exitCode === 'number') parentPort.postMessage({ failed: { exitCode: error.exitCode, stderr: error.stderr ?? null }, messages });
    else parentPort.postMessage({ crashed: String((error && error.message) || error), messages });
  }
});
`;

export class JqFilter {
  private worker: Worker | undefined;

  private constructor(
    private readonly expression: string,
    private readonly options: JqOptions,
    private readonly limits: JqLimits,
    /** jq-web's module, which the worker loads. */
    private readonly jqPath: string,
  ) {}

  /** Loads jq and checks the expression, so that a mistake in it is found before any request. */
  static async compile(expression: string, options: JqOptions): Promise<JqFilter> {
    const given = Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined));
    const limits: JqLimits = { seconds: DEFAULT_JQ_SECONDS, memoryMb: DEFAULT_JQ_MEMORY_MB, ...given };
    const { path } = await import('./jq-web-loader.cjs');
    const filter = new JqFilter(expression, options, limits, path);
    // Without input, jq compiles the program and then has nothing to run it on.
    await filter.run('', expression);
    return filter;
  }

  /** The results of the expression on one JSON text, each as one line of compact JSON. */
  results(json: string): Promise<string[]> {
    return this.run(json, this.expression);
  }

  /**
   * The results of the expression on each item of a JSON array, in order: one run for the whole
   * array rather than one per item, which would compile the program again each time. The newline
   * ends a comment the expression may end with.
   */
  resultsOfEach(jsonArray: string): Promise<string[]> {
    return this.run(jsonArray, `.[] | (${this.expression}\n)`);
  }

  private async run(input: string, expression: string): Promise<string[]> {
    const reply = await this.ask(input, expression);
    // What jq says as it aborts is in the error.
    if ('crashed' in reply) throw this.stopped(`jq aborted (${sanitize(reply.crashed)})`, 'an expression that recurses without end exhausts jq\'s stack');
    for (const message of reply.messages) for (const line of message.split('\n')) if (line.trim() !== '') this.options.message(sanitize(line));
    if ('failed' in reply) {
      const { exitCode, stderr } = reply.failed;
      const message = sanitize(jqMessage(stderr ?? undefined) || `jq stopped with status ${exitCode}`);
      if (exitCode === COMPILE_ERROR) throw new UsageError(`invalid --jq expression: ${message}`, { code: 'jq', hint: 'see the jq manual: https://jqlang.org/manual/' });
      throw new UsageError(`the --jq expression failed on the output: ${message}`, { code: 'jq' });
    }
    if ('tooLarge' in reply) throw this.stopped(`its output passed ${MAX_OUTPUT_CHARS / 1024 / 1024} MiB`);
    // jq-web removes the newline that ends jq's last line, and gives nothing for no output.
    return reply.output === null ? [] : `${reply.output}\n`.split('\n').slice(0, -1);
  }

  /** One run in the worker, within the time limit, ended at once by Ctrl-C. */
  private ask(input: string, expression: string): Promise<Reply> {
    const { signal } = this.options;
    if (signal.aborted) return Promise.reject(new InterruptedError('interrupted'));
    const worker = this.startedWorker();
    worker.ref();
    return new Promise<Reply>((resolve, reject) => {
      const finish = (settle: () => void, end: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (end) this.end();
        else worker.unref();
        settle();
      };
      const onMessage = (reply: Reply) => finish(() => resolve(reply), 'crashed' in reply);
      const onAbort = () => finish(() => reject(new InterruptedError('interrupted')), true);
      const onError = (error: Error & { code?: string }) =>
        finish(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.stopped(`it used more than ${this.limits.memoryMb} MB of memory`, 'an expression that prints without end is stopped this way') : this.stopped(`jq failed (${sanitize(error.message)})`)), true);
      const onExit = (code: number) => finish(() => reject(this.stopped(`jq exited (${code})`)), true);
      const timer = setTimeout(() => finish(() => reject(this.stopped(`it ran longer than ${this.limits.seconds} s`, 'LOOPSCTL_JQ_TIMEOUT sets the limit, in seconds')), true), this.limits.seconds * 1000);
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.postMessage({ input, expression });
    });
  }

  private startedWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { jqPath: this.jqPath, maxOutput: MAX_OUTPUT_CHARS },
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb },
      // The worker's own streams would reach the terminal unsanitized: they are read and dropped.
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    return this.worker;
  }

  /** Ends the worker: after a run that was stopped, it may be in any state. */
  private end(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private stopped(why: string, hint?: string): UsageError {
    return new UsageError(`the --jq expression ${JSON.stringify(sanitize(this.expression))} was stopped: ${why}`, { code: 'jq', ...(hint === undefined ? {} : { hint }) });
  }
}

/**
 * jq's own error lines, without the "jq: error" prefixes, the echo of the program and the count
 * of compile errors; the name of jq's input file means nothing here either.
 */
function jqMessage(stderr: string | undefined): string {
  const lines = (stderr ?? '').split('\n').filter((line) => line.startsWith('jq: error'));
  // "... at <top-level>, line 1:" introduces the echo of the program, which is left out.
  const messages = lines.map((line) => line.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/:$/, ''));
  return messages.length > 0 ? messages.join('; ') : (stderr ?? '').trim();
}
