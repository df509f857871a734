/**
 * A tool call is a run of its command: the input becomes the command's words, run by `main()` as
 * any other run (the same parsing, pacing, retries, idempotency keys and errors), with `--json`
 * and streams of its own. The answer is what the command printed; a failure is a tool error with
 * loopsctl's message, hint and exit code.
 */
import { Readable, Writable } from 'node:stream';
import { LoopsctlError, UsageError } from '../../api/errors.js';
import { EXIT_CODES } from '../../core/exit-codes.js';
import { errorPayload } from '../../core/report.js';
import type { Runtime } from '../../core/runtime.js';
import { main } from '../../main.js';
import { formatJson } from '../../render/output.js';
import { flagFor, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, within, type Param, type Tool } from './tools.js';
import type { Tier } from '../../core/declare.js';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../../api/paging.js';

/** What the protocol's tools/call answers. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

/**
 * Runs loopsctl with these words as the server's own process would, its output captured. Nothing
 * is read from the server's stdin, which carries the protocol: a command given `-` reads nothing.
 */
export async function runCaptured(argv: string[], base: RunBase, signal?: AbortSignal): Promise<Ran> {
  const stdout = new Captured();
  const stderr = new Captured();
  const runtime: Runtime = {
    stdout,
    stderr,
    stdin: Readable.from([]),
    env: base.env,
    now: base.now,
    signal: signal === undefined ? base.signal : AbortSignal.any([base.signal, signal]),
    command: base.command,
    platform: base.platform,
    pacer: base.pacer,
  };
  const code = await main(argv, runtime);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** What the runs of a server's calls take from its own runtime, with the pace they share. */
export type RunBase = Pick<Runtime, 'env' | 'now' | 'signal' | 'command' | 'platform' | 'pacer'>;

/** How a call runs its command: the server's global flags (--sandbox, --profile) and what its runs share. */
export interface Caller {
  globals: string[];
  runtime: RunBase;
  tier: Tier;
}

export async function callTool(caller: Caller, tool: Tool, input: Record<string, unknown>, signal?: AbortSignal): Promise<ToolAnswer> {
  try {
    const { words, limit, cursor } = commandWords(tool, input, caller.tier);
    // Arguments after --, so that one starting with - is never taken for a flag.
    const run = (extra: string[] = []) => runCaptured([...caller.globals, ...tool.path, ...words.options, ...extra, '--json', '--', ...words.args], caller.runtime, signal);
    if (tool.list === 'pages') return await pagedList(run, limit, cursor);
    const ran = await run();
    if (ran.code !== 0 || tool.list === undefined) return answer(ran);
    return arrayList(ran, limit, cursor);
  } catch (error) {
    if (error instanceof LoopsctlError) return refused(error);
    throw error;
  }
}

interface Words {
  options: string[];
  args: string[];
}

/** The command's options and arguments from a tool's input, checked against its parameters. */
export function commandWords(tool: Tool, input: Record<string, unknown>, tier: Tier): { words: Words; limit: number; cursor: string | undefined } {
  const byKey = new Map(tool.params.map((param) => [param.key, param]));
  const options: string[] = [];
  const args: string[][] = [];
  let limit = LIST_LIMIT_DEFAULT;
  let cursor: string | undefined;
  for (const [key, value] of Object.entries(input)) {
    const param = byKey.get(key);
    if (param === undefined) {
      throw new UsageError(`${tool.name} has no input "${key}"`, { hint: `its inputs: ${[...byKey.keys()].join(', ') || 'none'}` });
    }
    if (value === undefined || value === null) continue;
    if (param.argument === undefined && param.option === undefined) {
      if (key === 'limit') limit = limitValue(value);
      else cursor = textValue(key, value);
      continue;
    }
    if (param.option?.tier !== undefined && !within(param.option.tier, tier)) {
      throw new UsageError(`"${key}" (${param.option.flag}) makes ${tool.name} a ${param.option.tier} call`, { hint: `the server must be started with ${flagFor(param.option.tier)} to allow it` });
    }
    const values = valuesOf(param, value);
    if (param.argument !== undefined) {
      args[param.argument.index] = values;
    } else if (param.option!.boolean) {
      if (value !== true && value !== false) throw new UsageError(`"${key}" takes true or false`);
      if (value) options.push(param.option!.flag);
    } else if (param.option!.variadic) {
      options.push(param.option!.flag, ...values);
    } else {
      for (const text of values) options.push(`${param.option!.flag}=${text}`);
    }
  }
  // An optional argument left out leaves no gap: only the last ones may be optional.
  return { words: { options, args: args.flat() }, limit, cursor };
}

function valuesOf(param: Param, value: unknown): string[] {
  const many = param.argument?.variadic || param.option?.repeatable || param.option?.variadic;
  if (param.option?.boolean) return [];
  if (many) {
    if (!Array.isArray(value)) throw new UsageError(`"${param.key}" takes an array`);
    return value.map((item) => textValue(param.key, item));
  }
  return [textValue(param.key, value)];
}

function textValue(key: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new UsageError(`"${key}" takes ${typeof value === 'boolean' ? 'a value, not true or false' : 'a string or a number'}`);
}

function limitValue(value: unknown): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > LIST_LIMIT_MAX) {
    throw new UsageError(`"limit" takes a whole number from 1 to ${LIST_LIMIT_MAX}`, { hint: 'go on with nextCursor for more' });
  }
  return number;
}

/** The answer of a run: what it printed, and under --json its data as structured content. */
function answer(ran: Ran): ToolAnswer {
  if (ran.code !== 0) return failed(ran);
  const data = parsed(ran.stdout);
  const structured = data === undefined ? undefined : isRecord(data) ? data : { data };
  return { content: [{ type: 'text', text: ran.stdout }], ...(structured === undefined ? {} : { structuredContent: structured }) };
}

/** A listing's answer: its items and where to go on from. */
function listAnswer(data: unknown[], nextCursor: string | null): ToolAnswer {
  const structured = { data, nextCursor };
  return { content: [{ type: 'text', text: `${formatJson(structured)}\n` }], structuredContent: structured };
}

/**
 * A paged list: pages of one size, as many as the limit holds, each a run of the command with
 * --cursor. The cursor handed back keeps the page size, since the API does not say that a cursor
 * outlives a change of size; a first call picks the largest size that divides the limit.
 */
async function pagedList(run: (extra: string[]) => Promise<Ran>, limit: number, given: string | undefined): Promise<ToolAnswer> {
  const start = given === undefined ? { cursor: '', perPage: pageSizeDividing(limit) } : decodeCursor(given, 'cursor');
  const pages = Math.max(1, Math.floor(limit / start.perPage));
  const data: unknown[] = [];
  let cursor: string | null = start.cursor;
  for (let page = 0; page < pages && cursor !== null; page += 1) {
    const ran = await run([`--cursor=${cursor}`, `--per-page=${start.perPage}`]);
    if (ran.code !== 0) return failed(ran);
    const envelope = parsed(ran.stdout) as { data: unknown[]; pagination: { nextCursor: string | null } };
    data.push(...envelope.data);
    cursor = envelope.pagination.nextCursor || null;
  }
  return listAnswer(data, cursor === null ? null : encodeCursor({ cursor, perPage: start.perPage }));
}

/** The largest page size the API takes that makes up the limit in whole pages. */
export function pageSizeDividing(limit: number): number {
  if (limit % 10 !== 0 || limit < PER_PAGE_MIN) throw new UsageError(`"limit" of a paged list is a multiple of 10, not ${limit}`);
  for (let size = PER_PAGE_MAX; size > PER_PAGE_MIN; size -= 1) if (limit % size === 0) return size;
  return PER_PAGE_MIN;
}

/** A list the command prints whole: cut to the limit, the cursor holding where the next answer starts. */
function arrayList(ran: Ran, limit: number, given: string | undefined): ToolAnswer {
  const items = parsed(ran.stdout);
  if (!Array.isArray(items)) return answer(ran);
  const offset = given === undefined ? 0 : decodeCursor(given, 'offset').offset;
  const end = offset + limit;
  return listAnswer(items.slice(offset, end), end < items.length ? encodeCursor({ offset: end }) : null);
}

type PageCursor = { cursor: string; perPage: number };
type OffsetCursor = { offset: number };

function encodeCursor(cursor: PageCursor | OffsetCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(text: string, kind: 'cursor'): PageCursor;
function decodeCursor(text: string, kind: 'offset'): OffsetCursor;
function decodeCursor(text: string, kind: 'cursor' | 'offset'): PageCursor | OffsetCursor {
  let value: Record<string, unknown> | undefined;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    value = undefined;
  }
  const fits =
    kind === 'cursor'
      ? typeof value?.cursor === 'string' && Number.isInteger(value.perPage) && (value.perPage as number) >= PER_PAGE_MIN && (value.perPage as number) <= PER_PAGE_MAX
      : Number.isInteger(value?.offset) && (value!.offset as number) >= 0;
  if (!fits) throw new UsageError('"cursor" is not a nextCursor this tool gave', { hint: 'pass nextCursor of the previous answer as it was, or leave cursor out to start from the beginning' });
  return value as PageCursor | OffsetCursor;
}

/** A run that failed: its errors as --json prints them on stderr, and the exit code. */
export function failed(ran: Ran): ToolAnswer {
  const errors = ran.stderr
    .split('\n')
    .map(parsed)
    .filter((line): line is { error: Record<string, unknown> } => isRecord(line) && isRecord(line.error))
    .map((line) => line.error);
  const first: Record<string, unknown> = errors[0] ?? { code: 'error', message: ran.stderr.trim() || `exit code ${ran.code}`, hint: null };
  const error: Record<string, unknown> = { ...first, exitCode: ran.code };
  const output = parsed(ran.stdout);
  const lines = [`Error: ${String(error.message)}`];
  if (typeof error.hint === 'string') lines.push(`Hint: ${error.hint}`);
  for (const more of errors.slice(1)) lines.push(`Error: ${String(more.message)}`);
  lines.push(`Exit code: ${ran.code} (${EXIT_CODES.find(({ code }) => code === ran.code)?.meaning ?? 'failure'})`);
  if (ran.stdout.trim() !== '') lines.push('', ran.stdout);
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { error, ...(errors.length > 1 ? { errors } : {}), ...(output === undefined ? {} : { output }) },
  };
}

/** A call refused before its command ran: an input that does not fit the tool. */
export function refused(error: LoopsctlError): ToolAnswer {
  return failed({ code: error.exitCode, stdout: '', stderr: `${formatJson(errorPayload(error), 0)}\n` });
}

function parsed(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
