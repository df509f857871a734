/**
 * --jq: JSON output filtered through the jq language. jq itself runs, compiled to WebAssembly
 * (jq-web), so expressions mean exactly what they mean to jq; it is loaded only when --jq is given.
 * Each result comes back as one line of compact JSON, which the Output prints as `gh --jq` does.
 *
 * jq runs in a worker thread, where it can be stopped: an expression may loop forever, recurse or
 * build without end, or print without end. The worker has a time limit, a limit on jq's memory and
 * on what one run prints, its output streams to the reader at the reader's pace, Ctrl-C ends it at
 * once (exit 130), and whatever stops it is an error naming the expression (exit 2), never a crash
 * of loopsctl. What jq writes on its own stderr
 * (`debug`, `stderr`) comes back as data and is sanitized before it is shown.
 */
import type { Worker } from 'node:worker_threads';
import { InterruptedError, UsageError } from '../base/errors.js';
import { builtinModule } from '../base/builtin.js';
import { plainPath, stringsAlong, type PathStep } from './jq-path.js';
import { sanitize } from '../base/sanitize.js';

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
const DEFAULT_JQ_SECONDS = 30;
/** jq's own memory (WebAssembly's), and the worker's heap. */
const DEFAULT_JQ_MEMORY_MB = 512;
/** What one run of the expression may print: far above any useful output. */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

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

/** What the worker answers at the end of one run; its output came before, in chunks. */
type Reply = { messages: string[] } & (
  | { done: true }
  | { failed: { exitCode: number; stderr: string | null } }
  | { crashed: string }
  | { tooLarge: true }
  | { outOfMemory: true }
);
/** A piece of jq's output: the worker waits until it has been written. */
type Chunk = { chunk: Uint8Array };

/** The results jq printed, a chunk at a time, each written before jq goes on. */
export type ResultSink = (results: string[]) => Promise<void>;

/**
 * The worker: loads jq-web from the path it is given (node_modules, or dist/vendor in the bundle),
 * runs each expression it is sent, and answers with how it ended. console is taken over, so that
 * nothing of jq-web's reaches the terminal but through the reply.
 *
 * jq's output does not pile up: jq-web keeps what jq prints as an array of numbers, which an
 * expression that prints without end grows until the process dies of a full heap. jq's writes to
 * its stdout (WASI's fd_write on descriptor 1) are taken instead, handed over in chunks, and the
 * worker waits (on a shared gate) until the main thread has written each, so jq goes at the pace of
 * whoever reads the output; past maxOutput bytes the run is stopped. jq's own memory
 * (WebAssembly's, outside the worker's heap) may grow only to maxMemory: past it, jq's allocation
 * fails and the run ends. jq-web exposes neither, so both are reached through the imports it
 * instantiates its WebAssembly module with.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const gate = new Int32Array(workerData.gate);
let messages = [];
const keep = (...args) => { messages.push(String(args[args.length - 1])); };
console.log = console.info = console.warn = console.error = console.debug = keep;

let bounded = false;
let overMemory = false;
let memory;
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async (source, imports) => {
  const env = imports && imports.env;
  const wasi = imports && imports.wasi_snapshot_preview1;
  const resize = env && env.emscripten_resize_heap;
  const fdWrite = wasi && wasi.fd_write;
  if (typeof resize === 'function' && typeof fdWrite === 'function') {
    bounded = true;
    env.emscripten_resize_heap = (size) => ((size >>> 0) > workerData.maxMemory ? ((overMemory = true), false) : resize(size));
    wasi.fd_write = (fd, iov, count, written) => (fd === 1 ? writeOutput(iov, count, written) : fdWrite(fd, iov, count, written));
  }
  const result = await instantiate(source, imports);
  memory = result.instance.exports.memory;
  return result;
};

const CHUNK = 64 * 1024;
const pending = new Uint8Array(CHUNK);
let filled = 0;
let total = 0;
function flush() {
  if (filled === 0) return;
  Atomics.store(gate, 0, 0);
  parentPort.postMessage({ chunk: pending.slice(0, filled) });
  filled = 0;
  Atomics.wait(gate, 0, 0);
}
/** WASI's fd_write for jq's stdout: the bytes of each buffer go into chunks, and their count is returned. */
function writeOutput(iov, count, written) {
  let sum = 0;
  for (let index = 0; index < count; index++) {
    const view = new DataView(memory.buffer);
    const start = view.getUint32(iov + index * 8, true);
    const length = view.getUint32(iov + index * 8 + 4, true);
    total += length;
    if (total > workerData.maxOutput) throw new Error('output limit');
    for (let offset = 0; offset < length; ) {
      const taken = Math.min(length - offset, CHUNK - filled);
      pending.set(new Uint8Array(memory.buffer, start + offset, taken), filled);
      filled += taken;
      offset += taken;
      if (filled === CHUNK) flush();
    }
    sum += length;
  }
  new DataView(memory.buffer).setUint32(written, sum, true);
  return 0;
}

const ready = require(workerData.jqPath).then((jq) => {
  if (!bounded) throw new Error('this jq-web is not one loopsctl can bound');
  return jq;
});

parentPort.on('message', async ({ input, expression }) => {
  messages = [];
  filled = 0;
  total = 0;
  try {
    const jq = await ready;
    jq.raw(input, expression, ['-c']);
    flush();
    parentPort.postMessage({ done: true, messages });
  } catch (error) {
    if (total > workerData.maxOutput) return parentPort.postMessage({ tooLarge: true, messages });
    if (overMemory) return parentPort.postMessage({ outOfMemory: true, messages });
    // What jq printed before it failed is output, as jq itself would have printed it.
    flush();
    if (error && typeof error.exitCode === 'number') parentPort.postMessage({ failed: { exitCode: error.exitCode, stderr: error.stderr ?? null }, messages });
    else parentPort.postMessage({ crashed: String((error && error.message) || error), messages });
  }
});
`;

export class JqFilter {
  private worker: Worker | undefined;
  /** Where the worker waits while a chunk of its output is written: 0 waiting, 1 written. */
  private gate: Int32Array | undefined;

  /** jq-web's module, which the worker loads: found when jq first runs. */
  private jqPath: string | undefined;

  private constructor(
    private readonly expression: string,
    private readonly options: JqOptions,
    private readonly limits: JqLimits,
    /** The steps of an expression that is a plain path, whose string results need no jq (see jq-path.ts). */
    private readonly path: PathStep[] | undefined,
  ) {}

  /**
   * Loads jq and checks the expression, so that a mistake in it is found before any request. A
   * plain path needs no check, and jq is loaded only if a result needs it.
   */
  static async compile(expression: string, options: JqOptions): Promise<JqFilter> {
    const given = Object.fromEntries(Object.entries(options.limits ?? {}).filter(([, value]) => value !== undefined));
    const limits: JqLimits = { seconds: DEFAULT_JQ_SECONDS, memoryMb: DEFAULT_JQ_MEMORY_MB, ...given };
    const filter = new JqFilter(expression, options, limits, plainPath(expression));
    // Without input, jq compiles the program and then has nothing to run it on.
    if (filter.path === undefined) await filter.run('', expression, async () => undefined);
    return filter;
  }

  /** The results of the expression on one JSON text, each as one line of compact JSON, handed to `sink` as they come. */
  results(json: string, sink: ResultSink): Promise<void> {
    return this.answer(json, this.path, this.expression, sink);
  }

  /**
   * The results of the expression on each item of a JSON array, in order: one run for the whole
   * array rather than one per item, which would compile the program again each time. The newline
   * ends a comment the expression may end with.
   */
  resultsOfEach(jsonArray: string, sink: ResultSink): Promise<void> {
    return this.answer(jsonArray, this.path && ['each', ...this.path], `.[] | (${this.expression}\n)`, sink);
  }

  /**
   * The strings a plain path finds, as the compact JSON lines jq would print for them, when it
   * finds only strings; else what jq makes of the expression.
   */
  private async answer(input: string, path: PathStep[] | undefined, expression: string, sink: ResultSink): Promise<void> {
    const found = path === undefined ? undefined : stringsAlong(path, parsedOrUndefined(input));
    if (found === undefined) return this.run(input, expression, sink);
    if (this.options.signal.aborted) throw new InterruptedError('interrupted');
    if (found.length > 0) await sink(found.map((text) => JSON.stringify(text)));
  }

  private async run(input: string, expression: string, sink: ResultSink): Promise<void> {
    this.jqPath ??= (await import('./jq-web-loader.cjs')).path;
    const reply = await this.ask(input, expression, sink);
    // What jq says as it aborts is in the error.
    if ('crashed' in reply) throw this.stopped(`jq aborted (${sanitize(reply.crashed)})`, "an expression that recurses without end exhausts jq's stack");
    // What jq says as it is stopped at a limit (out of memory, aborted) is noise beside the error.
    if ('tooLarge' in reply) {
      throw this.stopped(`its output passed ${MAX_OUTPUT_BYTES / 1024 / 1024} MiB`, 'an expression that prints without end is stopped this way');
    }
    if ('outOfMemory' in reply) throw this.outOfMemory();
    for (const message of reply.messages) for (const line of message.split('\n')) if (line.trim() !== '') this.options.message(sanitize(line));
    if ('failed' in reply) {
      const { exitCode, stderr } = reply.failed;
      const message = sanitize(jqMessage(stderr ?? undefined) || `jq stopped with status ${exitCode}`);
      if (exitCode === COMPILE_ERROR)
        throw new UsageError(`invalid --jq expression: ${message}`, { code: 'jq', hint: 'see the jq manual: https://jqlang.org/manual/' });
      throw new UsageError(`the --jq expression failed on the output: ${message}`, { code: 'jq' });
    }
  }

  /**
   * One run in the worker, its output handed to `sink` chunk by chunk, ended at once by Ctrl-C. The
   * time limit counts jq's own time: it stops while a chunk waits for the reader.
   */
  private ask(input: string, expression: string, sink: ResultSink): Promise<Reply> {
    const { signal } = this.options;
    if (signal.aborted) return Promise.reject(new InterruptedError('interrupted'));
    const worker = this.startedWorker();
    const gate = this.gate!;
    worker.ref();
    return new Promise<Reply>((resolve, reject) => {
      const lines = new LineSplitter();
      /** Output handed to the sink and not yet written. */
      let writing: Promise<void> = Promise.resolve();
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const startTimer = () => {
        const tooLong = () => this.stopped(`it ran longer than ${this.limits.seconds} s`, 'LOOPSCTL_JQ_TIMEOUT sets the limit, in seconds');
        timer = setTimeout(() => finish(() => reject(tooLong()), true), this.limits.seconds * 1000);
      };
      const finish = (settle: () => void, end: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (end) this.end();
        else worker.unref();
        settle();
      };
      const onMessage = (message: Reply | Chunk) => {
        if ('chunk' in message) {
          clearTimeout(timer);
          writing = writing
            .then(() => sink(lines.take(message.chunk)))
            .then(
              () => {
                if (settled) return;
                startTimer();
                Atomics.store(gate, 0, 1);
                Atomics.notify(gate, 0);
              },
              (error: unknown) => finish(() => reject(error), true),
            );
          return;
        }
        // jq ends each result with a line break: a line left cut is where a limit stopped it.
        const whole = 'done' in message || 'failed' in message;
        writing = writing
          .then(() => sink(whole ? lines.end() : []))
          .then(
            () => finish(() => resolve(message), !whole),
            (error: unknown) => finish(() => reject(error), true),
          );
      };
      const onAbort = () => finish(() => reject(new InterruptedError('interrupted')), true);
      const onError = (error: Error & { code?: string }) =>
        finish(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.outOfMemory() : this.stopped(`jq failed (${sanitize(error.message)})`)), true);
      const onExit = (code: number) => finish(() => reject(this.stopped(`jq exited (${code})`)), true);
      startTimer();
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      worker.postMessage({ input, expression });
    });
  }

  private startedWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const gate = new SharedArrayBuffer(4);
    this.gate = new Int32Array(gate);
    // Loaded here: a plain path to strings needs no worker (see jq-path.ts).
    const { Worker } = builtinModule('node:worker_threads');
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { jqPath: this.jqPath, maxOutput: MAX_OUTPUT_BYTES, maxMemory: this.limits.memoryMb * 1024 * 1024, gate },
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

  private outOfMemory(): UsageError {
    const hint = 'LOOPSCTL_JQ_MEMORY_MB sets the limit; an expression that builds or prints without end is stopped this way';
    return this.stopped(`it used more than ${this.limits.memoryMb} MB of memory`, hint);
  }

  private stopped(why: string, hint?: string): UsageError {
    return new UsageError(`the --jq expression ${JSON.stringify(sanitize(this.expression))} was stopped: ${why}`, {
      code: 'jq',
      ...(hint === undefined ? {} : { hint }),
    });
  }
}

/** The value of a JSON text; undefined for text that is not JSON, which only jq may answer (with its error). */
function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
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

/** jq's output bytes as the lines they make, one result a line; a line cut between chunks waits for the rest. */
class LineSplitter {
  private readonly decoder = new TextDecoder();
  private rest = '';

  take(bytes: Uint8Array): string[] {
    const lines = (this.rest + this.decoder.decode(bytes, { stream: true })).split('\n');
    this.rest = lines.pop()!;
    return lines;
  }

  end(): string[] {
    const last = this.rest + this.decoder.decode();
    this.rest = '';
    return last === '' ? [] : [last];
  }
}
