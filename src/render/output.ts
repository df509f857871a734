/**
 * Where output goes and in which form: JSON for scripts, tables for people. Decides colour from
 * the terminal, NO_COLOR, FORCE_COLOR and --no-color, knows the terminal's width that tables fit,
 * and writes with backpressure so that long listings stream instead of piling up in memory.
 */
import type { Writable } from 'node:stream';
import { escapeControls } from '../api/body-preview.js';
import { sanitize } from './sanitize.js';

/** A stream that may be a terminal, with the terminal's width when it is one. */
export type OutputStream = Writable & { isTTY?: boolean; columns?: number };

export interface OutputOptions {
  json: boolean;
  /** false when --no-color was given. */
  color: boolean;
  stdout?: OutputStream;
  stderr?: OutputStream;
  env?: NodeJS.ProcessEnv;
  /** The terminal's width in columns; by default stdout's, else $COLUMNS, else 80. */
  columns?: number;
}

export class Output {
  readonly json: boolean;
  /** stdout is a terminal: tables fitted to its width, else tab-separated rows. */
  readonly tty: boolean;
  readonly color: boolean;
  /** Width that text for the terminal is fitted to. */
  readonly columns: number;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;

  constructor(options: OutputOptions) {
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
    this.json = options.json;
    this.tty = this.stdout.isTTY === true;
    const env = options.env ?? process.env;
    this.color = colorEnabled(options.color, this.tty, env);
    this.columns = terminalColumns(options.columns, this.stdout.columns, env.COLUMNS);
  }

  /** Writes to stdout, waiting for the stream to drain when its buffer is full. */
  async write(text: string): Promise<void> {
    if (this.stdout.write(text)) return;
    await new Promise<void>((resolve) => this.stdout.once('drain', resolve));
  }

  writeJson(value: unknown): Promise<void> {
    return this.write(`${formatJson(value)}\n`);
  }

  /** The API's data as JSON under --json, else the text view of it. */
  present<T>(data: T, renderText: (out: Output, data: T) => string): Promise<void> {
    return this.json ? this.writeJson(data) : this.write(renderText(this, data));
  }

  /** A note for the person at the terminal: stderr, and never under --json. Notes quote the API, so they are sanitized. */
  note(text: string): void {
    if (!this.json) this.stderr.write(`${sanitize(text)}\n`);
  }
}

/**
 * The data exactly, as JSON. JSON.stringify escapes C0 controls but leaves DEL and C1 (such as the
 * one-byte CSI) raw; they are escaped too, which a JSON reader turns back into the same string.
 */
export function formatJson(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, escapeControls);
}

/**
 * Streams a JSON array item by item, so a listing of any length needs memory for one page only.
 * The text is the same as formatJson of the whole array.
 */
export class JsonArrayWriter {
  private count = 0;

  constructor(private readonly out: Output) {}

  /**
   * Appends items with one write, so a page costs one write rather than one per item. The items
   * come as an array, not as arguments, so a page of any size fits on the stack.
   */
  async add(items: readonly unknown[]): Promise<void> {
    let text = '';
    for (const item of items) {
      text += `${this.count === 0 ? '[\n  ' : ',\n  '}${formatJson(item).replace(/\n/g, '\n  ')}`;
      this.count += 1;
    }
    if (text !== '') await this.out.write(text);
  }

  end(): Promise<void> {
    return this.out.write(this.count === 0 ? '[]\n' : '\n]\n');
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
  return tty;
}
