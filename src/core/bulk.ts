/**
 * The machinery of bulk imports (`contacts import`, `events import`): records streamed from the
 * input, a few requests in flight (the transport's pacer keeps the run under the rate limit), a
 * journal that records each record's outcome as it completes, so that a run stopped at any point
 * (even by kill -9) resumes without sending a finished record again, a progress line on a terminal,
 * and the summary at the end.
 *
 * The journal is JSON Lines: a header `{"journal": "loopsctl-import", "kind", "runId", ...}`, then
 * for each record a `sending` line before its request goes out and an outcome line once it
 * completes. A record with a `sending` line and no outcome was in flight when a run stopped: the
 * importer is told (`resumed`), so it can check before sending again. Records are numbered from 1
 * in input order (`n`); `line` is where each starts in the input.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, fsyncSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { AuthError, InterruptedError, LocalFileError, LoopsctlError, NetworkError, OutputError, RateLimitError, UsageError } from '../api/errors.js';
import { formatCount } from '../render/numbers.js';
import type { Output } from '../render/output.js';
import { ProgressLine, type ProgressStream } from '../render/progress.js';
import { sanitize } from '../render/sanitize.js';
import type { CommandContext } from './context.js';
import type { Runtime } from './runtime.js';

export type Status = 'created' | 'updated' | 'sent' | 'skipped' | 'failed';

export interface Outcome {
  status: Status;
  /** Why it failed or was skipped; the API's message for a refusal. */
  message?: string;
  /** The exit code a failure stands for (5 for a refusal, 2 for an invalid record). */
  exitCode?: number;
  /** What the API returned that is worth keeping (a contact's id). */
  id?: string;
}

/** One record of the input: what to send, or why it cannot be sent. */
export interface InputRecord<T> {
  line: number;
  body?: T;
  problem?: string;
}

/** A line of a JSONL input as the object it must hold, or what is wrong with it. */
export function jsonObjectLine(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { problem: 'not a JSON object' };
  return { value: value as Record<string, unknown> };
}

export interface RecordContext {
  n: number;
  line: number;
  /** The journal's run id: with n and the record, it makes a stable idempotency key. */
  runId: string;
  /** An earlier run started sending this record and stopped before its outcome was written. */
  resumed: boolean;
}

const JOURNAL_MARK = 'loopsctl-import';
const JOURNAL_VERSION = 1;

/** Numbers seen so far, kept as "every number below b" plus the few above it: flat for records that finish roughly in order. */
class NumberSet {
  private below = 1;
  private readonly above = new Set<number>();

  add(n: number): void {
    if (n < this.below) return;
    this.above.add(n);
    while (this.above.delete(this.below)) this.below += 1;
  }

  has(n: number): boolean {
    return n < this.below || this.above.has(n);
  }
}

export class Journal {
  private readonly finished = new NumberSet();
  /** Records whose last outcome was a failure: tried again by a later run. */
  private readonly failed = new Set<number>();
  /** Records sent by an earlier run with no outcome written. */
  private readonly inFlight = new Set<number>();
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    readonly runId: string,
  ) {}

  /** Opens the journal for a run: reads what an earlier run recorded, or starts a new one. */
  static async open(path: string, kind: string, input: string, now: Date): Promise<Journal> {
    if (!existsSync(path) || statSync(path).size === 0) {
      const journal = new Journal(path, randomBytes(12).toString('hex'));
      journal.fd = openJournal(path);
      journal.append({ journal: JOURNAL_MARK, version: JOURNAL_VERSION, kind, runId: journal.runId, input, startedAt: now.toISOString() });
      return journal;
    }
    const journal = await Journal.read(path, kind);
    journal.fd = openJournal(path);
    // A run killed mid-write may have left half a line; the next entry starts on a line of its own.
    if (!endsWithNewline(path)) writeSync(journal.fd, '\n');
    return journal;
  }

  private static async read(path: string, kind: string): Promise<Journal> {
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    let journal: Journal | undefined;
    let broken: number | undefined;
    let number = 0;
    for await (const text of lines) {
      number += 1;
      if (text.trim() === '') continue;
      // Only the last line may be broken (a write cut short); one before it means the file is not ours.
      if (broken !== undefined) throw unusableJournal(path, `line ${broken} is not JSON`);
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(text) as Record<string, unknown>;
      } catch {
        broken = number;
        continue;
      }
      if (journal === undefined) {
        if (entry.journal !== JOURNAL_MARK || typeof entry.runId !== 'string') throw unusableJournal(path, 'it is not a loopsctl import journal');
        if (entry.kind !== kind) throw unusableJournal(path, `it is the journal of a ${String(entry.kind)} import, not of a ${kind} import`);
        journal = new Journal(path, entry.runId);
        continue;
      }
      journal.replay(entry);
    }
    if (journal === undefined) throw unusableJournal(path, 'it is not a loopsctl import journal');
    return journal;
  }

  private replay(entry: Record<string, unknown>): void {
    const n = entry.n;
    if (typeof n !== 'number') return;
    if (entry.status === 'sending') {
      this.inFlight.add(n);
      return;
    }
    this.inFlight.delete(n);
    this.finished.add(n);
    if (entry.status === 'failed') this.failed.add(n);
    else this.failed.delete(n);
  }

  /** Finished by an earlier run (a failure is tried again). */
  isDone(n: number): boolean {
    return this.finished.has(n) && !this.failed.has(n);
  }

  wasInFlight(n: number): boolean {
    return this.inFlight.has(n);
  }

  sending(record: { n: number; line: number }): void {
    this.append({ n: record.n, line: record.line, status: 'sending' });
  }

  outcome(record: { n: number; line: number }, outcome: Outcome): void {
    this.append({ n: record.n, line: record.line, status: outcome.status, ...(outcome.id === undefined ? {} : { id: outcome.id }), ...(outcome.message === undefined ? {} : { message: outcome.message }) });
  }

  /** One line per write, so a kill leaves whole lines (the OS keeps what was written). */
  private append(entry: object): void {
    try {
      writeSync(this.fd!, `${JSON.stringify(entry)}\n`);
    } catch (error) {
      throw new OutputError(`cannot write to the journal ${this.path}: ${(error as Error).message}`);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    fsyncSync(this.fd);
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function openJournal(path: string): number {
  try {
    return openSync(path, 'a', 0o600);
  } catch (error) {
    throw new LocalFileError(`cannot open the journal ${path}: ${(error as Error).message}`, { hint: 'choose another place with --journal <file>' });
  }
}

function endsWithNewline(path: string): boolean {
  const size = statSync(path).size;
  if (size === 0) return true;
  const fd = openSync(path, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

function unusableJournal(path: string, reason: string): LocalFileError {
  return new LocalFileError(`the journal ${path} cannot be used: ${reason}`, { hint: 'give another file with --journal, or move this one away to start over' });
}

/** Where the journal goes: --journal, else beside the input file; stdin has no "beside". */
export function journalPath(input: string, journal: string | undefined): string {
  if (journal !== undefined) return journal;
  if (input === '-') throw new UsageError('reading from stdin needs --journal <file>', { hint: 'the journal is what lets a stopped import resume without sending a record twice' });
  return `${input}.journal.jsonl`;
}

/** The input as text chunks: a file (checked before anything is sent) or stdin. */
export function openInput(runtime: Pick<Runtime, 'stdin'>, input: string): Readable {
  if (input === '-') return runtime.stdin.setEncoding('utf8');
  let isFile: boolean;
  try {
    isFile = statSync(input).isFile();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new LocalFileError(`cannot read "${input}": ${reason}`);
  }
  if (!isFile) throw new LocalFileError(`"${input}" is not a file`);
  return createReadStream(input, { encoding: 'utf8' });
}

/** Lines of the input, numbered from 1, without their line ends. */
export async function* inputLines(input: Readable): AsyncGenerator<{ line: number; text: string }> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line += 1;
    yield { line, text };
  }
}

/** How many lines a file has, to estimate the time left; undefined for stdin. */
export async function countLines(input: string): Promise<number | undefined> {
  if (input === '-') return undefined;
  let count = 0;
  for await (const chunk of createReadStream(input)) {
    const bytes = chunk as Buffer;
    for (let index = bytes.indexOf(0x0a); index >= 0; index = bytes.indexOf(0x0a, index + 1)) count += 1;
  }
  return count;
}

/** The live line on a terminal's stderr: done, failed, rate and time left. Nothing off a terminal. */
export class ImportProgress {
  private readonly line: ProgressLine;
  private readonly started: number;

  constructor(
    stream: () => ProgressStream,
    private readonly now: () => Date,
    /** Records in the input, when known. */
    private readonly total: number | undefined,
    paged = false,
  ) {
    this.line = new ProgressLine(stream, paged);
    this.started = now().getTime();
  }

  update(done: number, failed: number, sentThisRun: number): void {
    const seconds = (this.now().getTime() - this.started) / 1000;
    const rate = seconds > 0 ? sentThisRun / seconds : 0;
    const parts = [`done ${formatCount(done)}${this.total === undefined ? '' : ` of ${formatCount(this.total)}`}`, `failed ${formatCount(failed)}`, `${rate.toFixed(1)}/s`];
    if (this.total !== undefined && rate > 0) parts.push(`${formatDuration(Math.max(0, this.total - done) / rate)} left`);
    this.line.show(parts.join(' · '));
  }

  clear(): void {
    this.line.clear();
  }
}

export function formatDuration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

export interface BulkRun<T> {
  records: AsyncIterable<InputRecord<T>>;
  /** Undefined for a dry run: nothing is sent or journaled. */
  journal: Journal | undefined;
  /** The statuses the summary counts, in order: ['created', 'updated', 'skipped', 'failed']. */
  statuses: Status[];
  concurrency: number;
  send(body: T, record: RecordContext): Promise<Outcome>;
  out: Output;
  progress: ImportProgress;
}

/** A few requests in flight keep an import at the pace the API allows without crowding it. */
export const IMPORT_CONCURRENCY = 4;

/** An import as a command runs it: records through runBulk, progress on stderr, the summary as output. */
export async function runImport<T>(context: CommandContext, run: Pick<BulkRun<T>, 'records' | 'journal' | 'statuses' | 'send'> & { total: number | undefined }): Promise<number> {
  const { runtime, out } = context;
  const result = await runBulk({ ...run, concurrency: IMPORT_CONCURRENCY, out, progress: new ImportProgress(() => runtime.stderr, runtime.now, run.total, runtime.paged) });
  await out.present(result.summary, (_out, summary) => summaryText(summary));
  return result.exitCode;
}

export interface BulkResult {
  summary: Record<string, unknown>;
  /** The exit code of the first failure; 0 when none failed. */
  exitCode: number;
}

/** Failures that would hit every record alike: the run stops and a rerun resumes. */
function stopsTheRun(error: unknown): boolean {
  return error instanceof AuthError || error instanceof InterruptedError || error instanceof NetworkError || error instanceof OutputError || error instanceof RateLimitError || !(error instanceof LoopsctlError);
}

/** Runs an import (or, without a journal, a dry run) and returns its summary. */
export async function runBulk<T>(run: BulkRun<T>): Promise<BulkResult> {
  const { journal, out, progress } = run;
  const counts: Record<string, number> = Object.fromEntries(run.statuses.map((status) => [status, 0]));
  let valid = 0;
  let exitCode = 0;
  let sentThisRun = 0;
  let stop: unknown;
  const inFlight = new Set<Promise<void>>();

  const report = (record: { line: number }, outcome: Outcome) => {
    counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
    if (outcome.status !== 'failed') return;
    if (exitCode === 0) exitCode = outcome.exitCode ?? 1;
    progress.clear();
    out.stderr.write(`line ${record.line}: ${sanitize(outcome.message ?? 'failed')}\n`);
  };
  const done = () => Object.entries(counts).reduce((sum, [, count]) => sum + count, 0);

  const handle = async (body: T, record: RecordContext) => {
    try {
      journal!.sending(record);
      const outcome = await run.send(body, record);
      journal!.outcome(record, outcome);
      sentThisRun += 1;
      report(record, outcome);
    } catch (error) {
      if (stopsTheRun(error)) {
        stop ??= error;
        return;
      }
      const failure = error as LoopsctlError;
      const outcome: Outcome = { status: 'failed', message: failure.message, exitCode: failure.exitCode };
      journal!.outcome(record, outcome);
      report(record, outcome);
    }
    progress.update(done(), counts.failed ?? 0, sentThisRun);
  };

  let n = 0;
  try {
    for await (const record of run.records) {
      if (stop !== undefined) break;
      n += 1;
      const position = { n, line: record.line };
      if (journal === undefined) {
        if (record.problem === undefined) valid += 1;
        else report(position, { status: 'failed', message: record.problem, exitCode: 2 });
        continue;
      }
      if (journal.isDone(n)) {
        counts.skipped = (counts.skipped ?? 0) + 1;
        continue;
      }
      if (record.problem !== undefined) {
        const outcome: Outcome = { status: 'failed', message: record.problem, exitCode: 2 };
        journal.outcome(position, outcome);
        report(position, outcome);
        continue;
      }
      while (inFlight.size >= run.concurrency) await Promise.race(inFlight);
      if (stop !== undefined) break;
      const task: Promise<void> = handle(record.body as T, { ...position, runId: journal.runId, resumed: journal.wasInFlight(n) }).finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  } finally {
    // Whatever stopped the loop, requests already out finish and their outcomes are written.
    await Promise.all(inFlight);
    progress.clear();
    journal?.close();
  }
  if (stop !== undefined) throw stop;
  const summary = journal === undefined ? { dryRun: true, valid, failed: counts.failed ?? 0 } : { ...counts, journal: journal.path };
  return { summary, exitCode };
}

/** The summary as a line for people. */
export function summaryText(summary: Record<string, unknown>): string {
  if (summary.dryRun === true) return `Dry run: ${summary.valid} valid, ${summary.failed} invalid; nothing was sent.\n`;
  const counts = Object.entries(summary)
    .filter(([key]) => key !== 'journal')
    .map(([key, value]) => `${formatCount(value as number)} ${key}`)
    .join(', ');
  return `${counts}\nJournal: ${summary.journal}\n`;
}
