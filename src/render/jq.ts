/**
 * --jq: JSON output filtered through the jq language. jq itself runs, compiled to WebAssembly
 * (jq-web), so expressions mean exactly what they mean to jq; it is loaded only when --jq is given.
 * Each result comes back as one line of compact JSON, which the Output prints as `gh --jq` does.
 *
 * jq runs in a worker thread (jq-worker.ts), where it can be stopped: an expression may loop
 * forever, recurse or build without end, or print without end. The worker has a time limit, a limit
 * on jq's memory and on what one run prints, its output streams to the reader at the reader's pace,
 * Ctrl-C ends it at once (exit 130), and whatever stops it is an error naming the expression
 * (exit 2), never a crash of loopsctl. What jq writes on its own stderr (`debug`, `stderr`) comes
 * back as data and is sanitized before it is shown.
 */
import { InterruptedError, UsageError } from '../base/errors.js';
import { sanitize } from '../base/sanitize.js';
import { type PathStep, plainPath, stringsAlong } from './jq-path.js';
import { type JqWorker, releaseWorker, takeWorker } from './jq-worker.js';

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

/**
 * What the worker answers at the end of one run; its output came before, in chunks. A run that
 * ended as jq ends says how large jq's memory has grown.
 */
type Reply = { messages: string[] } & (
  | { done: true; memoryBytes: number }
  | { failed: { exitCode: number; stderr: string | null }; memoryBytes: number }
  | { crashed: string }
  | { tooLarge: true }
  | { outOfMemory: true }
);
/** A piece of jq's output: the worker waits until it has been written. */
type Chunk = { chunk: Uint8Array };

/** The results jq printed, a chunk at a time, each written before jq goes on. */
export type ResultSink = (results: string[]) => Promise<void>;

export class JqFilter {
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
    const reply = await this.ask(await takeWorker(this.limits.memoryMb, MAX_OUTPUT_BYTES), input, expression, sink);
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
   * One run in `worker`, its output handed to `sink` chunk by chunk, ended at once by Ctrl-C. The
   * time limit counts jq's own time: it stops while a chunk waits for the reader.
   */
  private ask(worker: JqWorker, input: string, expression: string, sink: ResultSink): Promise<Reply> {
    const { signal } = this.options;
    const { thread, gate } = worker;
    return new Promise<Reply>((resolve, reject) => {
      const lines = new LineSplitter();
      /** Output handed to the sink and not yet written. */
      let writing: Promise<void> = Promise.resolve();
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const startTimer = () => {
        const tooLong = () => this.stopped(`it ran longer than ${this.limits.seconds} s`, 'LOOPSCTL_JQ_TIMEOUT sets the limit, in seconds');
        timer = setTimeout(() => finish(() => reject(tooLong())), this.limits.seconds * 1000);
      };
      /** Settles the run; the worker is kept only after a run that ended as jq ends, which says how much memory jq holds. */
      const finish = (settle: () => void, memoryBytes?: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        thread.off('message', onMessage).off('error', onError).off('exit', onExit);
        releaseWorker(worker, memoryBytes);
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
              (error: unknown) => finish(() => reject(error)),
            );
          return;
        }
        // jq ends each result with a line break: a line left cut is where a limit stopped it.
        const memoryBytes = 'memoryBytes' in message ? message.memoryBytes : undefined;
        writing = writing
          .then(() => sink(memoryBytes === undefined ? [] : lines.end()))
          .then(
            () => finish(() => resolve(message), memoryBytes),
            (error: unknown) => finish(() => reject(error)),
          );
      };
      const onAbort = () => finish(() => reject(new InterruptedError('interrupted')));
      const onError = (error: Error & { code?: string }) =>
        finish(() => reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.outOfMemory() : this.stopped(`jq failed (${sanitize(error.message)})`)));
      const onExit = (code: number) => finish(() => reject(this.stopped(`jq exited (${code})`)));
      // Ctrl-C may have come while the worker was made ready.
      if (signal.aborted) return onAbort();
      startTimer();
      signal.addEventListener('abort', onAbort, { once: true });
      thread.on('message', onMessage).once('error', onError).once('exit', onExit);
      thread.postMessage({ input, expression });
    });
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
