/**
 * A tool call is a run of its command in the server's process, through the runtime's invoke path
 * (src/core/invoke.ts): the input is checked against the tool's schema, given to the command as
 * typed values (content inline, paths only under the root), and the answer is the value the
 * command wrote under --json, with the text it printed, bounded in size. A failure is a tool error
 * with loopsctl's message, hint and exit code, in the tool's input words, and free of control
 * characters.
 */
import { Buffer } from 'node:buffer';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonKeepingIntegers } from '../../api/json-scan.js';
import { LoopsctlError, UsageError, withDetails } from '../../base/errors.js';
import { EXIT_CODES } from '../../base/exit-codes.js';
import { isJsonObject } from '../../base/json-object.js';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../../base/paging.js';
import { escapeUnsafeInJson, sanitize, sanitizeKeepingLines } from '../../base/sanitize.js';
import type { BoundCall } from '../../core/bound-calls.js';
import { YES_NEEDED } from '../../core/gate.js';
import type { CommandInput, InputValue } from '../../core/invoke.js';
import type { Invoked, Invoker } from '../../core/invoker.js';
import { errorPayload } from '../../core/report.js';
import { pathUnder } from '../../core/root.js';
import type { Tier } from '../../core/tier.js';
import { formatJson } from '../../render/output.js';
import { INLINE_BASE64_MAX, INLINE_TEXT_MAX, type JsonSchema, type Param } from './inputs.js';
import { asks, flagFor, flagsAsInputs, needsApproval, paramsAt, type Tool, within } from './tools.js';

/** What the protocol's tools/call answers. */
export interface ToolAnswer {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** How the server's calls run: one invoker for its life, its tier and root. */
export interface Caller {
  invoker: Invoker;
  tier: Tier;
  root?: string;
  /** Where a call that needs a person's approval goes instead of running (approval.ts). */
  approval?: (tool: Tool, input: Record<string, unknown>, signal?: AbortSignal, why?: string) => Promise<ToolAnswer>;
}

/**
 * The most text one answer carries: a list stops before it and goes on by cursor; anything else
 * larger is refused with a hint.
 */
export const ANSWER_MAX_CHARS = 1024 * 1024;
/** What a list's items may take of it, leaving room for the envelope and the cursor. */
const LIST_ITEMS_MAX_CHARS = ANSWER_MAX_CHARS - 1024;

/**
 * The call run, or, when it needs a person's approval and has none yet (`approved` false), handed
 * to the server's approval. An approved call is run with the yes its command would ask for.
 */
export async function callTool(
  caller: Caller,
  tool: Tool,
  input: Record<string, unknown>,
  signal?: AbortSignal,
  approved = false,
  /** Files of the server's own (a proposed workflow's tree): the directory, and the command's inputs naming them. */
  own?: { root: string; input: CommandInput },
  /**
   * The calls a person approved, which the run sends and no other (src/core/bound-calls.ts), and the
   * records that were live when they were asked, which their yes covers and no other (src/core/gate.ts).
   */
  yes?: { calls: BoundCall[]; liveAtYes: readonly string[] },
): Promise<ToolAnswer> {
  try {
    const call = callOf(caller, tool, input);
    if (own !== undefined) {
      Object.assign(call.input, own.input);
      call.files.root = own.root;
    }
    if (!approved && caller.approval !== undefined && needsApproval(tool, call.input)) return await caller.approval(tool, input, signal);
    if (approved && asks(tool)) call.input.yes = true;
    const invoke = (extra: CommandInput = {}) =>
      caller.invoker.invoke(
        tool.path,
        { ...call.input, ...extra },
        { signal, files: call.files, text: call.text, approved, ...(yes === undefined ? {} : { bound: yes.calls, liveAtYes: yes.liveAtYes }) },
      );
    if (tool.list === 'pages') return await pagedList(tool, invoke, call.limit, call.cursor);
    const ran = await invoke();
    if (ran.error !== undefined) {
      // The gate found, in what the call sends, a write that needs a person's yes (a live workflow, a schedule…): asked for as any other.
      if (!approved && ran.error.code === YES_NEEDED) {
        if (caller.approval !== undefined && within('destructive', caller.tier)) return await caller.approval(tool, input, signal, ran.error.message);
        return failed(tool, withDetails(ran.error, { hint: `the server must be started with ${flagFor('destructive')}, and a person approves it` }), ran);
      }
      return failed(tool, ran.error, ran);
    }
    if (call.text) {
      const view = sanitizeKeepingLines(ran.stdout);
      return bounded(tool, { text: view }, view);
    }
    const data = producedValue(ran);
    if (tool.list === 'array' && Array.isArray(data)) return arrayList(tool, data, call.limit, call.cursor);
    if (data === undefined) {
      const shown = sanitizeKeepingLines(ran.stdout);
      return bounded(tool, { text: shown }, shown);
    }
    return bounded(tool, isJsonObject(data) ? data : { data }, ran.stdout);
  } catch (error) {
    if (error instanceof LoopsctlError) return failed(tool, error);
    throw error;
  }
}

interface Call {
  input: CommandInput;
  files: { inline: Map<string, Buffer>; root?: string };
  text: boolean;
  limit: number;
  cursor?: string;
}

/** The command's input from the tool's, checked against the tool's schema at the server's tier. */
export function callOf(caller: Caller, tool: Tool, input: Record<string, unknown>): Call {
  const all = new Map(tool.params.map((param) => [param.key, param]));
  const offered = new Map(paramsAt(tool, caller.tier).map((param) => [param.key, param]));
  const call: Call = { input: {}, files: { inline: new Map(), root: caller.root }, text: false, limit: 100, cursor: undefined };
  for (const [key, value] of Object.entries(input)) {
    const param = offered.get(key);
    if (param === undefined) {
      const above = all.get(key);
      if (above?.tier !== undefined) {
        throw new UsageError(`"${key}" makes ${tool.name} a ${above.tier} call, which this server does not allow`, {
          hint: `the person running the server can allow it with ${flagFor(above.tier)}`,
        });
      }
      throw new UsageError(`${tool.name} has no input "${key}"`, { hint: `its inputs: ${[...offered.keys()].join(', ') || 'none'}` });
    }
    if (value === undefined || value === null) continue;
    checkValue(key, param.schema, value);
    const { target } = param;
    if (target.kind === 'limit') call.limit = value as number;
    else if (target.kind === 'cursor') call.cursor = value as string;
    else if (param.file !== undefined) call.input[target.name] = fileValue(caller, param, value, call.files.inline);
    else {
      call.input[target.name] = value as InputValue;
      if (param.text === true) call.text = true;
    }
  }
  for (const param of offered.values()) {
    if (param.required && input[param.key] === undefined)
      throw new UsageError(`${tool.name} needs the input "${param.key}"`, { hint: `${param.key}: ${String(param.schema.description)}` });
  }
  if (tool.tier !== 'read' && !within(tool.tier, caller.tier))
    throw new UsageError(`${tool.name} is a ${tool.tier} command`, { hint: `the server must be started with ${flagFor(tool.tier)}` });
  return call;
}

/** What an id looks like, as opposed to a path: no separator, no dot. */
const ID_SHAPE = /^[A-Za-z0-9_-]+$/;

/** Inline content is kept under its input's name for the command to read; a path is resolved under the root. */
function fileValue(caller: Caller, param: Param, value: unknown, inline: Map<string, Buffer>): string | string[] {
  const encoding = param.file!.inline?.encoding;
  if (Array.isArray(value)) {
    const files = value as { filename: string; contentType?: string; data: string }[];
    const total = files.reduce((sum, file) => sum + file.data.length, 0);
    if (total > INLINE_BASE64_MAX)
      throw new UsageError(`"${param.key}" holds ${total} base64 characters, more than ${INLINE_BASE64_MAX}`, { hint: 'send fewer or smaller files' });
    return files.map((file) => {
      if (inline.has(file.filename)) throw new UsageError(`"${param.key}" names ${file.filename} twice`);
      inline.set(file.filename, base64Of(param.key, file.data));
      return file.contentType === undefined ? file.filename : `${file.filename};type=${file.contentType}`;
    });
  }
  if (encoding === undefined) {
    const path = value as string;
    // An id (letters, digits, - and _) that names no file under the root goes to the command as an id.
    if (param.file!.orId === true && ID_SHAPE.test(path) && !existsSync(join(caller.root!, path))) return path;
    return pathUnder(caller.root!, path, `"${param.key}"`);
  }
  // A JSON object given as an object goes to the command as the text its file would hold.
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length > INLINE_TEXT_MAX)
    throw new UsageError(`"${param.key}" is longer than ${INLINE_TEXT_MAX} characters as JSON (${text.length})`, { hint: 'give less' });
  inline.set(param.key, encoding === 'base64' ? base64Of(param.key, text) : Buffer.from(text, 'utf8'));
  return param.key;
}

function base64Of(key: string, text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text.replace(/\s/g, ''))) throw new UsageError(`"${key}" is not base64`);
  return Buffer.from(text, 'base64');
}

/** A tool's whole input against its object schema: no unknown input, every required one, each of its type. */
export function checkInput(schema: JsonSchema, input: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, JsonSchema>;
  for (const [key, value] of Object.entries(input)) {
    if (properties[key] === undefined) throw new UsageError(`no input "${key}"`, { hint: `the inputs: ${Object.keys(properties).join(', ')}` });
    if (value !== undefined) checkValue(key, properties[key], value);
  }
  for (const key of (schema.required as string[] | undefined) ?? []) if (input[key] === undefined) throw new UsageError(`the input "${key}" is required`);
}

/** The value against its schema: the types the tool declares, strictly (a number for an id is refused, never turned into text). */
function checkValue(key: string, schema: JsonSchema, value: unknown): void {
  const wrong = (what: string) => new UsageError(`"${key}" must be ${what}, not ${describe(value)}`);
  if (Array.isArray(schema.type)) {
    // A JSON object taken as itself or as its text (vars, props): the command reads either as text.
    if (isJsonObject(value)) return;
    if (typeof value !== 'string') throw wrong('an object, or its JSON text');
    return checkValue(key, { ...schema, type: 'string' }, value);
  }
  const type = schema.type as string;
  if (type === 'array') {
    if (!Array.isArray(value)) throw wrong('an array');
    for (const item of value) checkValue(key, schema.items as JsonSchema, item);
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) throw wrong(`at least ${schema.minItems} item`);
    return;
  }
  if (type === 'object') {
    if (!isJsonObject(value)) throw wrong('an object');
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    // An object of any fields (run_command's arguments) is checked by the tool it is for.
    if (properties === undefined) return;
    for (const [name, item] of Object.entries(value)) {
      if (properties[name] === undefined)
        throw new UsageError(`"${key}" has no field "${name}"`, { hint: `its fields: ${Object.keys(properties).join(', ')}` });
      checkValue(`${key}.${name}`, properties[name], item);
    }
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (value[name] === undefined) throw new UsageError(`"${key}" needs the field "${name}"`);
    return;
  }
  if (type === 'boolean' && typeof value !== 'boolean') throw wrong('true or false');
  if (type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong('a whole number');
    if ((typeof schema.minimum === 'number' && value < schema.minimum) || (typeof schema.maximum === 'number' && value > schema.maximum)) {
      throw wrong(`a whole number from ${String(schema.minimum)} to ${String(schema.maximum)}`);
    }
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw wrong('a string');
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) throw wrong('a string that is not empty');
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength)
      throw new UsageError(`"${key}" is longer than ${schema.maxLength} characters (${value.length})`, { hint: 'give less' });
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) throw wrong(`a string matching ${schema.pattern}`);
    const choices = schema.enum as string[] | undefined;
    if (choices !== undefined && !choices.includes(value)) throw wrong(`one of ${choices.join(', ')}`);
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/**
 * A paged list: pages of the API read from the cursor on, until the limit or the size bound is
 * reached. The cursor handed back says where the next answer starts: the API's cursor of the page,
 * its size, and how many of its items were already answered.
 */
async function pagedList(tool: Tool, invoke: (extra: CommandInput) => Promise<Invoked>, limit: number, given: string | undefined): Promise<ToolAnswer> {
  const start: PageCursor =
    given === undefined ? { cursor: '', perPage: Math.min(Math.max(limit, PER_PAGE_MIN), PER_PAGE_MAX), skip: 0 } : decodeCursor(given, 'cursor');
  const data: unknown[] = [];
  let size = 0;
  let at: PageCursor | null = start;
  while (at !== null && data.length < limit) {
    // A cursor, even the empty one of the first page, makes the command print one page with its pagination.
    const ran = await invoke({ 'per-page': at.perPage, cursor: at.cursor });
    if (ran.error !== undefined) return failed(tool, ran.error, ran);
    const envelope = producedValue(ran) as { data: unknown[]; pagination: { nextCursor: string | null } };
    const items = envelope.data.slice(at.skip);
    let taken = 0;
    for (const item of items) {
      const itemSize = JSON.stringify(item).length + 1;
      if (data.length >= limit || (data.length > 0 && size + itemSize > LIST_ITEMS_MAX_CHARS)) break;
      data.push(item);
      size += itemSize;
      taken += 1;
    }
    const next = envelope.pagination.nextCursor || null;
    if (taken < items.length) at = { ...at, skip: at.skip + taken };
    else at = next === null ? null : { cursor: next, perPage: at.perPage, skip: 0 };
    if (taken < items.length) break;
  }
  return listAnswer(tool, data, at === null ? null : encodeCursor(at));
}

/** A list the command prints whole: cut to the limit and the size bound, the cursor holding where the next answer starts. */
function arrayList(tool: Tool, items: unknown[], limit: number, given: string | undefined): ToolAnswer {
  const offset = given === undefined ? 0 : decodeCursor(given, 'offset').offset;
  const data: unknown[] = [];
  let size = 0;
  for (const item of items.slice(offset, offset + limit)) {
    size += JSON.stringify(item).length + 1;
    if (data.length > 0 && size > LIST_ITEMS_MAX_CHARS) break;
    data.push(item);
  }
  const end = offset + data.length;
  return listAnswer(tool, data, end < items.length ? encodeCursor({ offset: end }) : null);
}

/** A list's answer, as compact JSON: the items were counted so, and an agent needs no indentation. */
function listAnswer(tool: Tool, data: unknown[], nextCursor: string | null): ToolAnswer {
  const structured = { data, nextCursor };
  return bounded(tool, structured, formatJson(structured, 0));
}

/** An answer within the bound, or a tool error that says how to ask for less. */
function bounded(tool: Tool, structured: Record<string, unknown>, text = `${formatJson(structured)}\n`): ToolAnswer {
  if (text.length > ANSWER_MAX_CHARS) {
    return failed(
      tool,
      new UsageError(`the answer of ${tool.name} is ${text.length} characters, more than the ${ANSWER_MAX_CHARS} an answer holds`, {
        hint: tool.list === undefined ? 'ask for one record, or a smaller part of it' : 'pass a smaller "limit"',
      }),
    );
  }
  // The text is the JSON (or a view already cleaned): the API's strings reach no log or terminal raw.
  return { content: [{ type: 'text', text: escapeUnsafeInJson(text) }], structuredContent: structured };
}

type PageCursor = { cursor: string; perPage: number; skip: number };
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
  const whole = (number: unknown, min: number, max = Number.MAX_SAFE_INTEGER) =>
    Number.isInteger(number) && (number as number) >= min && (number as number) <= max;
  const fits =
    kind === 'cursor'
      ? typeof value?.cursor === 'string' && whole(value.perPage, PER_PAGE_MIN, PER_PAGE_MAX) && whole(value.skip, 0, PER_PAGE_MAX - 1)
      : whole(value?.offset, 0);
  if (!fits)
    throw new UsageError('"cursor" is not a nextCursor this tool gave', {
      hint: 'pass nextCursor of the previous answer as it was, or leave cursor out to start from the beginning',
    });
  return value as PageCursor | OffsetCursor;
}

/**
 * A failed call: loopsctl's --json error with its exit code as a field, the text said in the
 * tool's input words ("yes", not --yes), and any control character the API's text held escaped.
 */
export function failed(tool: Tool | undefined, error: LoopsctlError, ran?: Invoked): ToolAnswer {
  const payload = errorPayload(error).error;
  const words = (text: string) => sanitize(tool === undefined ? text : inputWords(text, tool));
  const shown = { ...payload, message: words(payload.message), hint: payload.hint === null ? null : words(payload.hint) };
  const lines = [`Error: ${shown.message}`];
  if (shown.hint !== null) lines.push(`Hint: ${shown.hint}`);
  lines.push(`Exit code: ${shown.exitCode} (${EXIT_CODES.find(({ code }) => code === shown.exitCode)?.meaning ?? 'failure'})`);
  const output = ran === undefined ? undefined : producedValue(ran);
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }],
    structuredContent: { error: shown, ...(output === undefined ? {} : { output }) },
  };
}

/** Flags named as the tool's inputs; `loopsctl ... --help` as describe_command. */
function inputWords(text: string, tool: Tool): string {
  const help = text.replace(/`loopsctl ([\w -]+) --help`/g, (_all, words: string) => `describe_command {"command": "${words.trim()}"}`);
  return flagsAsInputs(help, tool.params);
}

/**
 * The value a command answered with: what it wrote as JSON, the API's data as the client parsed
 * it (an integer past 2^53 exact, as a marked string that formatJson writes as its digits), else
 * the JSON it printed read back so; undefined when it printed none.
 */
export function producedValue(ran: Pick<Invoked, 'stdout' | 'written'>): unknown {
  const [only, ...more] = ran.written;
  if (only !== undefined && more.length === 0) return 'value' in only ? only.value : parsed(only.text);
  return parsed(ran.stdout);
}

/** JSON text read as the API client reads an answer (integers past 2^53 kept exact), or undefined when it is none. */
export function parsed(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return parseJsonKeepingIntegers(text);
  } catch {
    return undefined;
  }
}
