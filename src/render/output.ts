/**
 * Where output goes and in which form: JSON for scripts, tables for people. Decides colour from
 * the terminal, NO_COLOR, FORCE_COLOR and --no-color, knows the terminal's width that tables fit,
 * and writes with backpressure so that long listings stream instead of piling up in memory. With
 * --jq, every piece of JSON output goes through the jq expression on its way out, whichever
 * command wrote it.
 */
import type { Writable } from 'node:stream';
import { escapeControls } from '../base/body-preview.js';
import { InterruptedError } from '../base/errors.js';
import { escapeC1, escapeInvisible, sanitize, sanitizeKeepingLines } from '../base/sanitize.js';
import type { JqFilter } from './jq.js';
import type { Style } from './style.js';
import { wrapText } from './wrap.js';

/** A stream that may be a terminal, with the terminal's width when it is one. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

export interface OutputOptions {
  json: boolean;
  /** false when --no-color was given. */
  color: boolean;
  stdout?: OutputStream;
  /** stderr, or how to open it: a run that writes nothing there should not pay for opening it. */
  stderr?: OutputStream | (() => OutputStream);
  env?: NodeJS.ProcessEnv;
  /** The terminal's width in columns, fixed; by default stdout's as it is at each use, else $COLUMNS, else 80. */
  columns?: number;
  /** --jq: the compiled expression JSON output goes through; it implies JSON output. */
  jq?: JqFilter;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
  /** stdout goes to a pager that owns the terminal (Runtime.paged). */
  paged?: boolean;
  /** --debug: where to say that stdout's reader is not taking the output. */
  debug?: (line: string) => void;
  /** Keep what is written as JSON (see Output.written): a run for a caller in this process, which takes the values, not the text. */
  keepWritten?: boolean;
}

/**
 * A piece of JSON output as the command gave it: the value (the API's data as the client parsed
 * it, an integer past 2^53 still exact), or the JSON text it passed through as the API sent it.
 */
export type Written = { value: unknown } | { text: string };

export class Output {
  readonly json: boolean;
  /** stdout is a terminal: tables fitted to its width, else tab-separated rows. */
  readonly tty: boolean;
  readonly color: boolean;
  private readonly givenColumns?: number;
  private readonly env: NodeJS.ProcessEnv;
  readonly stdout: OutputStream;
  /** stdout goes to a pager: no progress line may be drawn on the terminal. */
  readonly paged: boolean;
  private errorStream?: OutputStream;
  private readonly openStderr: () => OutputStream;
  private readonly filter?: JqFilter;
  /** chalk, once loadPalette() has loaded it. */
  private painter?: Style;
  /** Ctrl-C: ends a wait for a reader that stopped reading. */
  private readonly signal?: AbortSignal;
  private readonly debug?: (line: string) => void;
  /** The debug line about a reader that is not taking the output was written, and stdout has not drained since. */
  private waitNoted = false;
  /** What was written as JSON, in order, when the run keeps it (OutputOptions.keepWritten). */
  readonly written?: Written[];

  constructor(options: OutputOptions) {
    this.signal = options.signal;
    this.stdout = options.stdout ?? process.stdout;
    this.paged = options.paged === true;
    this.debug = options.debug;
    const { stderr } = options;
    this.openStderr = typeof stderr === 'function' ? stderr : () => stderr ?? process.stderr;
    this.json = options.json || options.jq !== undefined;
    this.filter = options.jq;
    this.tty = this.stdout.isTTY === true;
    const env = options.env ?? process.env;
    this.color = colorEnabled(options.color, this.tty, env);
    this.env = env;
    this.givenColumns = options.columns;
    if (options.keepWritten) this.written = [];
  }

  /** Width that text for the terminal is fitted to, as wide as the terminal is now: it may be resized between pages. */
  get columns(): number {
    return terminalColumns(this.givenColumns, this.stdout.columns, this.env.COLUMNS);
  }

  /**
   * Loads chalk when colour is on, before anything is written; styleFor() paints with it. Loading
   * it takes several milliseconds that no run without colour (JSON, a pipe) pays.
   */
  async loadPalette(): Promise<void> {
    if (!this.color || this.painter !== undefined) return;
    const { colourPalette } = await import('./palette.js');
    this.painter = colourPalette();
  }

  get stderr(): OutputStream {
    this.errorStream ??= this.openStderr();
    return this.errorStream;
  }

  /** chalk, with colour on and once loadPalette() has run. */
  get palette(): Style | undefined {
    return this.painter;
  }

  /** JSON output goes through a --jq expression. */
  get filtered(): boolean {
    return this.filter !== undefined;
  }

  /**
   * Writes to stdout, waiting for the stream to drain when its buffer is full. Once stdout can no
   * longer be written (the reader went away, the disk is full), writing does nothing: the run
   * decides what that means. Ctrl-C while the reader is not taking the output (a full pipe) ends
   * the wait, and the run, which cannot deliver its output whole: InterruptedError.
   */
  async write(text: string): Promise<void> {
    const { stdout } = this;
    if (stdout.destroyed || stdout.writableEnded) return;
    // A C1 control written raw to a terminal is acted on (U+009B begins a control sequence): no
    // command of loopsctl's writes one for a terminal, so any one is text from elsewhere.
    const taken = stdout.write(this.tty ? escapeC1(text) : text);
    if (stdout.writableLength > 0) this.noteWaiting(stdout);
    if (taken) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        stdout.off('drain', done).off('close', done).off('error', done);
        this.signal?.removeEventListener('abort', done);
        resolve();
      };
      stdout.once('drain', done).once('close', done).once('error', done);
      this.signal?.addEventListener('abort', done, { once: true });
      // A signal aborted before the wait began fires no event.
      if (this.signal?.aborted === true) done();
    });
    // Output still waiting for its reader at Ctrl-C will not arrive whole. A stream that failed
    // instead (the reader went away) is the run's to judge, not an interruption.
    if (this.signal?.aborted === true && !stdout.destroyed && stdout.writableNeedDrain) throw new InterruptedError('interrupted');
  }

  /**
   * Under --debug, one line when output is left waiting for stdout's reader (a full pipe, a pager
   * behind), until it drains: `loopsctl ... | slow-program` shows where the time goes.
   */
  private noteWaiting(stdout: OutputStream): void {
    if (this.debug === undefined || this.waitNoted) return;
    this.waitNoted = true;
    this.debug(`stdout: ${stdout.writableLength} bytes wait for the reader to take them`);
    stdout.once('drain', () => (this.waitNoted = false));
  }

  /** Sentences for a person: on a terminal, wrapped at word boundaries to fit its width. */
  writeProse(text: string): Promise<void> {
    return this.write(`${this.tty ? wrapText(text, this.columns) : text}\n`);
  }

  /** The value as indented JSON; coloured when colour is on (a terminal, or FORCE_COLOR on a pipe). */
  async writeJson(value: unknown): Promise<void> {
    this.written?.push({ value });
    // formatJson writes an integer past 2^53 as the digits the API sent, for jq to read as a number.
    if (this.filter) return this.filter.results(formatJson(value, 0), (results) => this.writeResults(results));
    const text = this.forTerminal(formatJson(value));
    return this.write(`${this.color ? ((await this.prettyPrinter())(text) ?? text) : text}\n`);
  }

  /** Items as JSON Lines, one compact item per line; with --jq, the results of each item in turn. */
  async writeJsonLines(items: readonly unknown[]): Promise<void> {
    this.written?.push({ value: items });
    if (this.filter) return this.filter.resultsOfEach(formatJson(items, 0), (results) => this.writeResults(results));
    return this.write(this.forTerminal(jsonLines(items)));
  }

  /**
   * JSON as the API sent it, byte for byte, ended by a newline when it has none, so that what
   * follows (a shell prompt, the next command's output) starts on a line of its own; on a terminal
   * indented and coloured. With --jq (unless `filter` is false), the results of the expression on
   * it. Text that is not JSON is written as it is, escaped on a terminal.
   */
  async writeJsonText(text: string, { filter = true }: { filter?: boolean } = {}): Promise<void> {
    this.written?.push({ text });
    if (filter && this.filter) return this.filter.results(text, (results) => this.writeResults(results));
    if (text === '') return;
    const pretty = this.tty || this.color ? (await this.prettyPrinter())(text) : undefined;
    if (pretty !== undefined) return this.write(`${pretty}\n`);
    const shown = this.tty ? sanitizeKeepingLines(text) : text;
    return this.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  /** The API's data as JSON under --json, else the text view of it. */
  present<T>(data: T, renderText: (out: Output, data: T) => string): Promise<void> {
    return this.json ? this.writeJson(data) : this.write(renderText(this, data));
  }

  /**
   * A note for the person at the terminal: stderr, and never under --json. Notes quote the API, so
   * they are sanitized. A command to copy (`command: true`) is never wrapped: a break the shell
   * does not see as one would run half of it.
   */
  note(text: string, options: { command?: boolean } = {}): void {
    if (this.json) return;
    // On a terminal, wrapped at words to its width, as help is; in a pipe or a log, one line each.
    const { stderr } = this;
    const width = stderr.isTTY === true && options.command !== true ? stderr.columns : undefined;
    this.stderr.write(`${width === undefined || width <= 0 ? sanitize(text) : wrapText(sanitize(text), width)}\n`);
  }

  /**
   * The results of --jq, as `gh --jq` prints them: strings raw, one per line, other values as
   * compact JSON; on a terminal, values indented and coloured, and strings with control characters
   * escaped, since a raw string could otherwise drive the terminal.
   */
  private async writeResults(results: string[]): Promise<void> {
    if (results.length === 0) return;
    const pretty = this.tty && results.some((result) => !result.startsWith('"')) ? await this.prettyPrinter() : undefined;
    let text = '';
    for (const result of results) {
      if (result.startsWith('"')) {
        const raw = JSON.parse(result) as string;
        text += `${this.tty ? sanitizeKeepingLines(raw) : raw}\n`;
      } else {
        text += `${pretty?.(result) ?? result}\n`;
      }
    }
    await this.write(text);
  }

  /**
   * JSON text as written to stdout: on a terminal, the invisible characters that make text read
   * otherwise (bidi overrides, zero-width characters) as \u escapes, still the same JSON; on a
   * pipe, exactly as it is.
   */
  forTerminal(json: string): string {
    return this.tty ? escapeInvisible(json) : json;
  }

  /** Indents and colours JSON text for the terminal; undefined for text that is not JSON. */
  async prettyPrinter(): Promise<(json: string) => string | undefined> {
    const [{ prettyJson }, { styleFor }] = await Promise.all([import('./json-pretty.js'), import('./style.js')]);
    const style = styleFor(this);
    return (json) => prettyJson(json, style);
  }
}

/** Items as JSON Lines: one compact item per line. */
export function jsonLines(items: readonly unknown[]): string {
  return items.map((item) => `${formatJson(item, 0)}\n`).join('');
}

/**
 * The data exactly, as JSON. JSON.stringify escapes C0 controls but leaves DEL and C1 (such as the
 * one-byte CSI) raw; they are escaped too, which a JSON reader turns back into the same string.
 */
export function formatJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent)
    .replace(/[\u007f-\u009f]/g, escapeControls)
    .replace(EXACT_INTEGERS, '$1');
}

/** An integer the API sent beyond 2^53, kept as a marked string (see parseJsonKeepingIntegers), written as its digits. */
const EXACT_INTEGERS = /"\\u0000int:(-?\d+)"/g;

/**
 * Streams a JSON array item by item, so a listing of any length needs memory for one page only.
 * The text is the same as formatJson of the whole array.
 */
export class JsonArrayWriter {
  private count = 0;
  /** With --jq the expression needs the whole array, so items are kept until the end. */
  private readonly kept: unknown[] = [];

  constructor(private readonly out: Output) {}

  /**
   * Appends items with one write, so a page costs one write rather than one per item. The items
   * come as an array, not as arguments, so a page of any size fits on the stack.
   */
  async add(items: readonly unknown[]): Promise<void> {
    if (this.out.filtered || this.out.written !== undefined) {
      for (const item of items) this.kept.push(item);
      return;
    }
    const pretty = this.out.color ? await this.out.prettyPrinter() : undefined;
    let text = '';
    for (const item of items) {
      const json = this.out.forTerminal(formatJson(item));
      text += `${this.count === 0 ? '[\n  ' : ',\n  '}${(pretty?.(json) ?? json).replace(/\n/g, '\n  ')}`;
      this.count += 1;
    }
    if (text !== '') await this.out.write(text);
  }

  end(): Promise<void> {
    // Kept whole for --jq, which needs the whole array, and for a caller that takes the values: both write it at once.
    if (this.out.filtered || this.out.written !== undefined) return this.out.writeJson(this.kept);
    return this.out.write(this.count === 0 ? '[]\n' : '\n]\n');
  }

  /**
   * Every page's items as one array. A listing that fails part way leaves a closed array of the
   * items that arrived (nothing when none did, nor with --jq), then its error: stdout is always
   * whole JSON, and the exit code says whether it is all of the listing.
   */
  async writeAll(pages: AsyncIterable<{ data: readonly unknown[] }>): Promise<void> {
    try {
      for await (const page of pages) await this.add(page.data);
    } catch (error) {
      if (!this.out.filtered && this.out.written !== undefined && this.kept.length > 0) await this.out.writeJson(this.kept).catch(() => {});
      else if (!this.out.filtered && this.count > 0) {
        // Where stdout itself failed (a reader gone, Ctrl-C on a full pipe), there is nothing to close.
        await this.out.write('\n]\n').catch(() => {});
      }
      throw error;
    }
    await this.end();
  }
}

/** The first positive width of: the one given, the stream's, $COLUMNS; else 80. */
function terminalColumns(given: number | undefined, stream: number | undefined, env: string | undefined): number {
  for (const candidate of [given, stream, env === undefined ? undefined : Number(env)]) {
    if (candidate !== undefined && Number.isInteger(candidate) && candidate > 0) return candidate;
  }
  return 80;
}

function colorEnabled(flag: boolean, tty: boolean, env: NodeJS.ProcessEnv): boolean {
  if (!flag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  // A dumb terminal (Emacs's shell, some CI consoles) shows escape codes as text, as git assumes.
  return tty && env.TERM !== 'dumb';
}
