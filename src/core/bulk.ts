/**
 * The machinery of bulk imports (`contacts import`, `events import`): records streamed from the
 * input, a few requests in flight (the transport's pacer keeps the run under the rate limit), a
 * journal (src/core/import-journal.ts) that records each record's outcome as it completes, so that a run
 * stopped at any point resumes without sending a finished record again, a progress line on a
 * terminal, and the summary at the end. Memory stays flat: records are read one at a time, and of
 * an earlier run only what the journal says of each record number is kept.
 */
import { closeSync, createReadStream, fstatSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import {
  AuthError,
  InterruptedError,
  InvalidResponseError,
  LocalFileError,
  LoopsctlError,
  NetworkError,
  OutputError,
  ProtectedError,
  RateLimitError,
  ServerError,
  UsageError,
  withDetails,
} from '../base/errors.js';
import { sanitize } from '../base/sanitize.js';
import { formatCount } from '../render/numbers.js';
import type { Output } from '../render/output.js';
import { ProgressLine, type ProgressStream } from '../render/progress.js';
import { refusesTheYes } from './bound-calls.js';
import type { Uses } from './capabilities.js';
import { Journal, type JournalRecord, type Outcome, recordDigest, type Status } from './import-journal.js';
import { describeBytes, isLinkRefusal, notUtf8Text, readFlags } from './input.js';
import type { Runtime } from './runtime.js';
import { isHeldWrite } from './write-path.js';

export type { Outcome } from './import-journal.js';

/** One record of the input: what to send, or why it cannot be sent. */
export interface InputRecord<T> {
  line: number;
  /** The text the record is made of: its digest binds the journal to the input. */
  source: string;
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

export interface RecordContext extends JournalRecord {
  /** The journal's run id: with the record's content, it makes a stable idempotency key. */
  runId: string;
  /** An earlier run started sending this record and stopped before its outcome was written. */
  resumed: boolean;
}

/** Where the journal goes: --journal, else beside the input file; stdin has no "beside". */
export function journalPath(input: string, journal: string | undefined): string {
  if (journal !== undefined) return journal;
  if (input === '-')
    throw new UsageError('reading from stdin needs --journal <file>', {
      hint: 'the journal is what lets a stopped import resume without sending a record twice',
    });
  return `${input}.journal.jsonl`;
}

/** The input as text chunks: a file (checked before anything is sent) or stdin. */
export function openInput(runtime: Pick<Runtime, 'stdin'>, input: string): Readable {
  if (input === '-') return utf8Text(runtime.stdin, 'stdin');
  let fd: number;
  try {
    // Never through a link, as every file a person names (input.ts): a committed `audience.csv -> ~/.aws/credentials` sends nothing.
    fd = openSync(input, readFlags(input));
  } catch (error) {
    if (isLinkRefusal(error))
      throw new LocalFileError(`"${input}" is a symbolic link: content is never read through a link`, {
        hint: 'give the file itself, or - to read it from stdin',
      });
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new LocalFileError(`cannot read "${input}": ${reason}`);
  }
  // The file checked is the file read: one descriptor for both.
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new LocalFileError(`"${input}" is not a file`);
  }
  return utf8Text(createReadStream('', { fd }), input);
}

/**
 * The input's text, decoded as it streams: bytes that are not UTF-8 text (an image, a spreadsheet,
 * a UTF-16 export) end the reading with an error that gives their first bytes in hex, rather than
 * lines of garbled characters quoted back in messages.
 */
function utf8Text(bytes: Readable, name: string): Readable {
  // Pulled as the import reads, so that the error reaches the reader, whenever it starts reading.
  return Readable.from(decodedChunks(bytes, name));
}

async function* decodedChunks(bytes: Readable, name: string): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start: Buffer | undefined;
  let offset = 0;
  const hint = 'give a UTF-8 text file: CSV or JSON Lines';
  const binary = () => new LocalFileError(`${name} is binary data, not text (it starts with bytes ${describeBytes(start ?? Buffer.alloc(0))})`, { hint });
  for await (const chunk of bytes) {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    start ??= Buffer.from(data.subarray(0, 16));
    let text: string;
    try {
      text = decoder.decode(data, { stream: true });
    } catch {
      throw notUtf8Text(name, data, hint, offset, start);
    }
    if (text.includes('\0')) throw binary();
    if (text !== '') yield text;
    offset += data.length;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    // The input ends inside a character.
    throw binary();
  }
  if (rest !== '') yield rest;
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
    // Called for every record: off a terminal, nothing is built that nobody will see.
    if (!this.line.visible) return;
    const seconds = (this.now().getTime() - this.started) / 1000;
    const rate = seconds > 0 ? sentThisRun / seconds : 0;
    const parts = [
      `done ${formatCount(done)}${this.total === undefined ? '' : ` of ${formatCount(this.total)}`}`,
      `failed ${formatCount(failed)}`,
      `${rate.toFixed(1)}/s`,
    ];
    if (this.total !== undefined && rate > 0) parts.push(`${formatDuration(Math.max(0, this.total - done) / rate)} left`);
    this.line.show(parts.join(' · '));
  }

  clear(): void {
    this.line.clear();
  }
}

function formatDuration(seconds: number): string {
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
const IMPORT_CONCURRENCY = 4;
/** Failures shown one a line; the rest are counted in the summary and kept in the journal. */
const SHOWN_FAILURES = 10;
/** So many records in a row that cannot be read: the wrong file, and the run stops. */
const INVALID_IN_A_ROW = 100;

/** Where the journal goes and what it is for; opened once the input has shown a first record. */
export interface JournalPlace {
  path: string;
  kind: string;
  input: string;
}

/**
 * An import as a command runs it: records through runBulk, progress on stderr, the summary as
 * output. The first record is read before the journal is opened, so an input that cannot be read
 * at all (an empty CSV, a header naming unknown columns) leaves no journal behind.
 */
export async function runImport<T>(
  context: Uses<'out' | 'clock' | 'globals'>,
  run: Pick<BulkRun<T>, 'records' | 'statuses' | 'send'> & { journal: JournalPlace | undefined; total: number | undefined },
): Promise<number> {
  const { runtime, out } = context;
  const records = await readAhead(run.records, runtime.signal);
  const place = run.journal;
  // A run held for a person's question sends nothing, and keeps no journal that a later run would resume.
  const journal =
    place === undefined
      ? undefined
      : context.writes.capture === true
        ? Journal.unkept(place.path)
        : await Journal.open(place.path, place.kind, place.input, runtime.now());
  const result = await runBulk({
    ...run,
    records,
    journal,
    concurrency: IMPORT_CONCURRENCY,
    out,
    progress: new ImportProgress(() => runtime.stderr, runtime.now, run.total, runtime.paged),
  });
  await out.present(result.summary, (_out, summary) => summaryText(summary));
  return result.exitCode;
}

/**
 * The records with the first one already read (its errors thrown now), then the rest as they come.
 * A wait for a record ends at Ctrl-C as a request does: stdin whose writer keeps it open
 * (`tail -f app.log | ...`) would otherwise hold the run until it writes again.
 */
async function readAhead<T>(records: AsyncIterable<T>, signal: AbortSignal): Promise<AsyncIterable<T>> {
  const iterator = records[Symbol.asyncIterator]();
  // One listener for the run, which ends the read under way: none is added and removed per record.
  let endWaiting: ((error: InterruptedError) => void) | undefined;
  signal.addEventListener('abort', () => endWaiting?.(new InterruptedError('interrupted')), { once: true });
  const read = (): Promise<IteratorResult<T>> => {
    if (signal.aborted) return Promise.reject(new InterruptedError('interrupted'));
    return new Promise((resolve, reject) => {
      endWaiting = reject;
      iterator.next().then(resolve, reject);
    });
  };
  let first: IteratorResult<T> | undefined = await read();
  // The rest is asked of the records' own iterator: no generator in between, a step less a record.
  const ahead: AsyncIterator<T> = {
    next: () => {
      if (first === undefined) return read();
      const result = first;
      first = undefined;
      return Promise.resolve(result);
    },
  };
  return { [Symbol.asyncIterator]: () => ahead };
}

export interface BulkResult {
  summary: Record<string, unknown>;
  /** The exit code of the first failure; 0 when none failed. */
  exitCode: number;
}

/**
 * Failures that would hit every record alike: the run stops and a rerun resumes. A write loopsctl
 * held back to protect the account (another team, a yes needed) and a refusal of a run made on a
 * person's yes (a call other than the one approved) stop it too: nothing after them is sent.
 */
function stopsTheRun(error: unknown): boolean {
  return (
    error instanceof AuthError ||
    error instanceof InterruptedError ||
    error instanceof NetworkError ||
    error instanceof OutputError ||
    error instanceof RateLimitError ||
    error instanceof ProtectedError ||
    refusesTheYes(error) ||
    !(error instanceof LoopsctlError)
  );
}

/** Runs an import (or, without a journal, a dry run) and returns its summary. */
// One piece: the sends in flight, the counts, the journal and what stops the run are state its steps share while records stream in.
export async function runBulk<T>(run: BulkRun<T>): Promise<BulkResult> {
  const { journal, out, progress } = run;
  const counts: Record<string, number> = Object.fromEntries(run.statuses.map((status) => [status, 0]));
  let valid = 0;
  let exitCode = 0;
  let sentThisRun = 0;
  let shownFailures = 0;
  let invalidInARow = 0;
  let firstInvalid: { line: number; problem: string } | undefined;
  let stop: unknown;
  /** Records finished in any way: the sum of the counts. */
  let finished = 0;
  /** Sends under way, and the loop's wait for one of them to end (a free slot, or the last). */
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const slotFreed = () => new Promise<void>((resolve) => (wake = resolve));

  const count = (status: string) => {
    counts[status] = (counts[status] ?? 0) + 1;
    finished += 1;
  };
  const report = (record: { line: number }, outcome: Outcome) => {
    count(outcome.status);
    if (outcome.status !== 'failed') return;
    if (exitCode === 0) exitCode = outcome.exitCode ?? 1;
    shownFailures += 1;
    if (shownFailures > SHOWN_FAILURES + 1) return;
    progress.clear();
    // Said at the first failure not shown, so that it never stands after the last one.
    if (shownFailures > SHOWN_FAILURES)
      out.stderr.write(`further failures are counted in the summary${journal === undefined ? '' : ` and kept in the journal ${journal.path}`}\n`);
    else out.stderr.write(`line ${record.line}: ${sanitize(outcome.message ?? 'failed')}\n`);
  };
  /** An invalid record; so many in a row mean the wrong input, which stops the run. */
  const invalid = (record: { line: number; problem: string }) => {
    invalidInARow += 1;
    if (invalidInARow === 1) firstInvalid = record;
    if (invalidInARow >= INVALID_IN_A_ROW) {
      stop ??= new LocalFileError(
        `stopped after ${formatCount(invalidInARow)} records in a row that cannot be sent (from line ${firstInvalid!.line}: ${sanitize(firstInvalid!.problem)})`,
        {
          hint: 'check that this is the right file; records already sent are in the journal, and a rerun resumes',
        },
      );
    }
  };

  /** One record's send, in a slot of its own; whatever it throws (a journal that cannot be written) stops the run. */
  const handle = async (body: T, record: RecordContext) => {
    try {
      try {
        journal!.sending(record);
        const outcome = await run.send(body, record);
        journal!.outcome(record, outcome);
        sentThisRun += 1;
        report(record, outcome);
      } catch (error) {
        // Held for a person's question: the next record is tried, so that each write is held.
        if (isHeldWrite(error)) {
          count('held');
          return;
        }
        if (stopsTheRun(error)) {
          stop ??= error;
          return;
        }
        const failure = error as LoopsctlError;
        // A server error or an unreadable answer may come after the API acted on the record.
        const mayHaveSent = failure instanceof ServerError || failure instanceof InvalidResponseError;
        const outcome: Outcome = { status: 'failed', message: failure.message, exitCode: failure.exitCode, ...(mayHaveSent && { mayHaveSent }) };
        journal!.outcome(record, outcome);
        report(record, outcome);
      }
      progress.update(finished, counts.failed ?? 0, sentThisRun);
    } catch (error) {
      stop ??= error;
    } finally {
      inFlight -= 1;
      wake?.();
      wake = undefined;
    }
  };

  let n = 0;
  /**
   * The next record, numbered: its send, or undefined when it is dealt with here (done in an
   * earlier run, invalid, or counted by a dry run). Apart from the loop, which so stays small.
   */
  const take = (record: InputRecord<T>): RecordContext | undefined => {
    n += 1;
    const digest = recordDigest(record.source);
    const position: JournalRecord = { n, line: record.line, digest };
    const earlier = journal?.check(position);
    if (earlier === 'done') {
      count('skipped');
      return undefined;
    }
    if (record.problem !== undefined) {
      const outcome: Outcome = { status: 'failed', message: record.problem, exitCode: 2 };
      journal?.outcome(position, outcome);
      report(position, outcome);
      invalid({ line: record.line, problem: record.problem });
      return undefined;
    }
    invalidInARow = 0;
    if (journal === undefined) {
      valid += 1;
      return undefined;
    }
    return { n, line: record.line, digest, runId: journal.runId, resumed: earlier === 'in-flight' };
  };

  try {
    for await (const record of run.records) {
      if (stop !== undefined) break;
      const next = take(record);
      if (next === undefined) continue;
      while (inFlight >= run.concurrency) await slotFreed();
      if (stop !== undefined) break;
      inFlight += 1;
      void handle(record.body as T, next);
    }
  } catch (error) {
    // Interrupted while waiting for the next record: said with how far the run got, as any interrupt.
    if (!(error instanceof InterruptedError)) throw error;
    stop ??= error;
  } finally {
    // Whatever stopped the loop, requests already out finish and their outcomes are written.
    while (inFlight > 0) await slotFreed();
    progress.clear();
    journal?.close();
  }
  if (stop instanceof InterruptedError && journal !== undefined) {
    // Ctrl-C: what this run did, and that running it again takes up where it stopped.
    throw withDetails(stop, {
      message: `interrupted after ${formatCount(sentThisRun)} ${sentThisRun === 1 ? 'record' : 'records'} sent in this run (${formatCount(finished)} done in all)`,
      hint: `run the same command again to resume: the journal ${journal.path} keeps what was sent, and nothing is sent twice`,
    });
  }
  if (stop !== undefined) throw stop;
  const summary = journal === undefined ? { dryRun: true, valid, failed: counts.failed ?? 0 } : { ...counts, journal: journal.path };
  return { summary, exitCode };
}

/** The summary as a line for people. */
function summaryText(summary: Record<string, unknown>): string {
  if (summary.dryRun === true) return `Dry run: ${summary.valid} valid, ${summary.failed} invalid; nothing was sent.\n`;
  const counts = Object.entries(summary)
    .filter(([key]) => key !== 'journal')
    .map(([key, value]) => `${formatCount(value as number)} ${key}`)
    .join(', ');
  return `${counts}\nJournal: ${summary.journal}\n`;
}
