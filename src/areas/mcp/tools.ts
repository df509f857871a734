/**
 * The tools of `loopsctl mcp`, made from the command declarations and nothing else: one per
 * command that calls the API, its input schema from the command's arguments and options (types,
 * choices, ranges, defaults), its description from the summary, the help and the examples, with
 * only the inputs the tool takes, its annotations from the tier. A command added to an area is a
 * tool of the next server with no other change.
 */
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { UsageError } from '../../base/errors.js';
import { suggestionHint } from '../../base/suggest.js';
import { type CommandSpec, type FlagSet, longFlag, runTier, type Spec, walkSpecs } from '../../core/declare.js';
import { type CommandInput, invocationOf } from '../../core/invoke.js';
import { TIERS, type Tier } from '../../core/tier.js';
import { fileParam, type JsonSchema, listParams, optionParam, type Param, type Target } from './inputs.js';

/** The MCP annotations of a tool, true to what it does. */
export interface Annotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  /** The words that run the command: ['themes', 'list']. */
  path: string[];
  spec: CommandSpec;
  tier: Tier;
  /** A list, bounded by `limit` and continued by `cursor`: through the API's pages, or by cutting the array the command prints. */
  list?: 'pages' | 'array';
  params: Param[];
  /** It writes local files (under the root). */
  writesFiles: boolean;
}

/** What the server was started with that decides which tools and inputs there are. */
export interface Settings {
  /** The directory files may be read and written under; none: no path inputs, no tool that needs one. */
  root?: string;
  sandbox: boolean;
}

/** The name of the command's tool: its words joined by _, as protocol tool names are usually written. */
function toolName(path: string[]): string {
  return path.join('_').replace(/-/g, '_');
}

/**
 * Whether a command is a tool: it calls the API (or reads only what loopsctl keeps of the account,
 * `readTool`), and is neither hidden nor a conversation of its own (a prompt, a server) nor a
 * keeper of stored keys.
 */
export function isTool(spec: CommandSpec): boolean {
  return (spec.remote || spec.readTool === true) && !spec.hidden && !spec.interactive && !spec.storesKeys;
}

/** Every tool of the tree; a command that needs a path is one only when the server has a root. */
export function toolsFrom(specs: Spec[], settings: Settings = { sandbox: false }): Tool[] {
  const tools = walkSpecs(specs)
    .filter(({ spec }) => isTool(spec))
    .flatMap(({ path, spec }) => toolOf(path, spec, settings) ?? []);
  const seen = new Set<string>();
  for (const { name } of tools) {
    // Two commands whose words differ only by - and _ would share a name.
    if (seen.has(name)) throw new Error(`two commands make the tool ${name}`);
    seen.add(name);
  }
  return tools;
}

/**
 * Options that act on this machine (a browser) or that a tool's own answer replaces, and --yes:
 * the model has no input that approves; the server asks the person (approval.ts).
 */
const NOT_INPUTS = new Set(['--web', '--jsonl', '--yes']);

function toolOf(path: string[], spec: CommandSpec, settings: Settings): Tool | undefined {
  const options = spec.options ?? [];
  const paged = ['--cursor', '--per-page'].every((flag) => options.some((option) => longFlag(option) === flag));
  const list = paged ? 'pages' : path.at(-1) === 'list' ? 'array' : undefined;
  // An option that cannot go with --json gives the text view instead: an input whose answer is that text.
  const textual = new Set((spec.constraints?.exclusive ?? []).filter(({ flags }) => flags.includes('--json')).flatMap(({ flags }) => flags));
  const excluded = new Set(NOT_INPUTS);
  if (paged) for (const flag of ['--per-page', '--limit', '--cursor']) excluded.add(flag);
  const params: Param[] = [];
  for (const argument of spec.args ?? []) {
    const target: Target = { kind: 'argument', name: argument.name };
    if (argument.file !== undefined) {
      const param = fileParam(argument.name, argument.description, argument.file, target, argument.required !== false, settings.root);
      if (param === undefined) return undefined;
      params.push(param);
      continue;
    }
    const schema = argument.variadic
      ? { type: 'array', items: { type: 'string', minLength: 1 }, description: argument.description, ...(argument.required === false ? {} : { minItems: 1 }) }
      : { type: 'string', minLength: 1, description: argument.description };
    params.push({ key: argument.name, schema, required: argument.required !== false, target });
  }
  for (const option of options) {
    const flag = longFlag(option);
    // An agent never overrides what the person chose (--allow-writes past a read-only profile).
    // Nor is an option that changes only the text view an input: the tool answers the JSON.
    if (excluded.has(flag) || option.personOnly === true || option.textOnly === true) continue;
    const target = { kind: 'option' as const, name: flag.slice(2) };
    if (option.file !== undefined) {
      const param = fileParam(flag.slice(2), option.description, option.file, target, option.required === true, settings.root, option.repeatable === true);
      if (param === undefined && option.required === true) return undefined;
      if (param !== undefined) params.push(param);
      continue;
    }
    params.push({ ...optionParam(option, target), ...(textual.has(flag) ? { text: true } : {}) });
  }
  if (list !== undefined) params.push(...listParams());
  // An input's description names the other inputs it speaks of as inputs ("var" for --var).
  for (const param of params) if (typeof param.schema.description === 'string') param.schema.description = flagsAsInputs(param.schema.description, params);
  const keys = params.map(({ key }) => key);
  const twice = keys.find((key, index) => keys.indexOf(key) !== index);
  if (twice !== undefined) throw new Error(`${path.join(' ')}: two inputs are named ${twice}`);
  // An option only a person may give (types --out) writes nothing an agent asked for.
  const writesFiles = [...(spec.args ?? []), ...options.filter((option) => option.personOnly !== true)].some((input) => input.file?.writes === true);
  return { name: toolName(path), path, spec, tier: spec.remote ? spec.tier : 'read', list, params, writesFiles };
}

/** Whether the command asks the person before it goes ahead (on a terminal; --yes in a script). */
export function asks(tool: Tool): boolean {
  return (tool.spec.options ?? []).some((option) => longFlag(option) === '--yes');
}

/**
 * Whether a call needs a person's approval: what it does is above the write tier (a send, a
 * publish, a schedule, a delete, contacts discarded), as its inputs make it, or its command asks.
 */
export function needsApproval(tool: Tool, input: CommandInput): boolean {
  if (asks(tool)) return true;
  return runTier(tool.spec, invocationOf(tool.spec, tool.path, input).options) === 'destructive';
}

/** The tiers up to and including `tier`. */
export function within(tier: Tier, allowed: Tier): boolean {
  return TIERS.indexOf(tier) <= TIERS.indexOf(allowed);
}

/** The options a server started with --allow-writes or --allow-destructive needs for a tier. */
export function flagFor(tier: Tier): string {
  return tier === 'destructive' ? '--allow-destructive' : '--allow-writes';
}

/** The inputs a tool takes at a tier: those that would raise the command above it are left out. */
export function paramsAt(tool: Tool, tier: Tier): Param[] {
  return tool.params.filter((param) => param.tier === undefined || within(param.tier, tier));
}

/** The tool's input schema at a tier. */
export function inputSchema(tool: Tool, tier: Tier): JsonSchema {
  const params = paramsAt(tool, tier);
  const required = params.filter((param) => param.required).map(({ key }) => key);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map(({ key, schema }) => [key, schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * The output schemas the read tools' declarations give (the zod shape of what the command prints,
 * of one item for a list), as JSON schemas of the API's data as it comes (zod's input side).
 */
export async function declaredOutputs(tools: Tool[]): Promise<Map<string, JsonSchema>> {
  const made = await Promise.all(
    tools
      .flatMap((tool) => (tool.tier === 'read' && tool.spec.output !== undefined ? [tool] : []))
      .map(async (tool) => {
        // The SDK's own zod makes it, so that the one every command loads stays as small as it is.
        const schema = toJsonSchemaCompat(await tool.spec.output!(), { pipeStrategy: 'input' }) as JsonSchema;
        const { $schema: _, ...rest } = schema;
        return [tool.name, rest] as const;
      }),
  );
  return new Map(made);
}

/** The shape of a tool's answer: a list's page of items, the text view when asked for, else the command's JSON; or the error of a failed call. */
export function outputSchema(tool: Tool, declared?: JsonSchema): JsonSchema {
  const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  const data: JsonSchema =
    tool.list !== undefined
      ? {
          type: 'object',
          properties: {
            data: { type: 'array', ...(declared === undefined ? {} : { items: declared }) },
            nextCursor: { type: ['string', 'null'], description: 'pass as cursor to continue; null: the list is complete' },
          },
          required: ['data', 'nextCursor'],
        }
      : (declared ?? { type: 'object', description: "the command's JSON output (an array as {data: [...]})" });
  return { type: 'object', anyOf: [data, ...(tool.params.some((param) => param.text) ? [text] : []), ERROR_SCHEMA] };
}

/** A failed call's structured content: loopsctl's --json error, with the exit code. */
const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string' },
        status: { type: ['integer', 'null'] },
        message: { type: 'string' },
        exitCode: { type: 'integer' },
        hint: { type: ['string', 'null'] },
      },
      required: ['code', 'message', 'exitCode'],
    },
  },
  required: ['error'],
};

/**
 * The verbs whose second call with the same input changes nothing more: an update sets the same
 * values, a delete finds nothing left. A create or a send makes a new thing each time.
 */
const IDEMPOTENT_VERBS = new Set(['update', 'delete', 'remove', 'set-list', 'publish', 'draft', 'reroute']);

/**
 * The hints of a tool as a server of the tier serves it: an input offered there that raises its
 * tier (a campaign's `schedule`, which sends) makes it what that input makes it.
 */
export function annotations(tool: Tool, settings: Settings, tier: Tier): Annotations {
  const served = paramsAt(tool, tier).reduce<Tier>((most, param) => (param.tier === undefined || within(param.tier, most) ? most : param.tier), tool.tier);
  const readOnly = served === 'read' && !tool.writesFiles;
  return {
    title: `loopsctl ${tool.path.join(' ')}`,
    readOnlyHint: readOnly,
    // Writing a content tree replaces the files there, as a destructive command does in the account.
    destructiveHint: !readOnly && (served === 'destructive' || tool.writesFiles),
    idempotentHint: tool.tier === 'read' || IDEMPOTENT_VERBS.has(tool.path.at(-1)!),
    openWorldHint: !settings.sandbox,
  };
}

/** A command's tool as tools/list gives it at the server's tier (its output schema aside): docs/agents.md's table is made from it too. */
export function listedTool(tool: Tool, tier: Tier, settings: Settings) {
  const hints = annotations(tool, settings, tier);
  return {
    name: tool.name,
    title: hints.title,
    description: description(tool, tier),
    inputSchema: inputSchema(tool, tier) as { type: 'object' },
    annotations: hints,
  };
}

/** What an agent reads to choose and call the tool: nothing in it names an input the tool does not take. */
export function description(tool: Tool, tier: Tier): string {
  const { spec } = tool;
  const params = paramsAt(tool, tier);
  // A remark in brackets about a flag the tool does not take (another command's) goes.
  const byFlag = inputsByFlag(params);
  const summary = spec.summary.replace(/\s*\([^()]*\)/g, (remark) => ([...remark.matchAll(FLAG)].every(([flag]) => byFlag.has(flag)) ? remark : ''));
  // Any other flag it names is an input of the tools it belongs to, named as such.
  const parts = [`${summary.replace(FLAG, (flag) => `"${byFlag.get(flag) ?? flag.slice(2)}"`)}.`.replace(/\.\.$/, '.')];
  const help = spec.help === undefined ? '' : inInputWords(spec.help.trim().replace(/\s*\n\s*/g, ' '), params);
  if (help !== '') parts.push(help);
  if (tool.list !== undefined) parts.push('Answers {data, nextCursor}: pass nextCursor as cursor to continue; null means the list is complete.');
  if (params.some((param) => param.text))
    parts.push(
      `With ${params
        .filter((param) => param.text)
        .map(({ key }) => `"${key}"`)
        .join(' or ')}, answers {text}: the view it names.`,
    );
  const rules = constraintText(tool, tier);
  if (rules !== '') parts.push(rules);
  const examples = [...new Set(spec.examples.flatMap((line) => JSON.stringify(exampleInput(tool, params, line)) ?? []))];
  if (examples.length > 0) parts.push(`Examples:\n${examples.map((input) => `  ${input}`).join('\n')}`);
  return parts.join('\n');
}

/**
 * Prose of the declaration with its flags named as the tool's inputs ("yes" for --yes); a sentence
 * that names a flag the tool does not take (a CLI-only view) is left out.
 */
function inInputWords(text: string, params: Param[]): string {
  const byFlag = inputsByFlag(params);
  const sentences = text.split(/(?<=[.;:])\s+(?=[A-Z`(-])/);
  return sentences
    .filter((sentence) => [...sentence.matchAll(FLAG)].every(([flag]) => byFlag.has(flag)))
    .map((sentence) => flagsAsInputs(sentence, params))
    .join(' ');
}

const FLAG = /(?<![\w-])--[a-z][\w-]*/g;

function inputsByFlag(params: Param[]): Map<string, string> {
  return new Map(params.flatMap((param) => (param.target.kind === 'option' ? [[`--${param.target.name}`, param.key]] : [])));
}

/** A command line quoted in a text (`` `loopsctl contacts update --email ada@example.com` ``). */
const COMMAND_LINE = /(`loopsctl [^`]*`)/;

/**
 * The flags of a text that are the tool's inputs, named as inputs ("yes" for --yes). A command line
 * quoted in it stays as it is: its flags are another command's, and a flag turned into an input
 * name inside it would make it neither a command line nor a tool call.
 */
export function flagsAsInputs(text: string, params: Param[]): string {
  const byFlag = inputsByFlag(params);
  return text
    .split(COMMAND_LINE)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(FLAG, (flag) => (byFlag.has(flag) ? `"${byFlag.get(flag)}"` : flag))))
    .join('');
}

/** A CLI example as the tool's input, or undefined when it uses something the tool does not take. */
function exampleInput(tool: Tool, params: Param[], line: string): Record<string, unknown> | undefined {
  const words = shellWords(line);
  if (words === undefined || words[0] !== 'loopsctl') return undefined;
  let at = 1;
  for (const word of tool.path) {
    if (words[at] !== word && !(at === tool.path.length && (tool.spec.aliases ?? []).includes(words[at]!))) return undefined;
    at += 1;
  }
  const input: Record<string, unknown> = {};
  const argumentParams = params.filter((param) => param.target.kind === 'argument');
  let position = 0;
  for (; at < words.length; at += 1) {
    const word = words[at]!;
    if (word === '--json' || word === '--sandbox') continue;
    if (word.startsWith('--')) {
      const [flag, inlineValue] = word.split(/=(.*)/s) as [string, string | undefined];
      const param = params.find((candidate) => candidate.target.kind === 'option' && `--${candidate.target.name}` === flag);
      if (param === undefined || param.file !== undefined) return undefined;
      const type = param.schema.type;
      if (type === 'boolean') {
        input[param.key] = true;
        continue;
      }
      const raw = inlineValue ?? words[++at];
      if (raw === undefined) return undefined;
      const value = type === 'integer' || (param.schema.items as JsonSchema | undefined)?.type === 'integer' ? Number(raw) : raw;
      input[param.key] = type === 'array' ? [...((input[param.key] as unknown[]) ?? []), value] : value;
      continue;
    }
    // What the shell does with the output is no input: the example's input ends there.
    if (['>', '|'].includes(word)) break;
    if (word.startsWith('-') || word === '<') return undefined;
    const param = argumentParams[position];
    if (param === undefined || param.file !== undefined) return undefined;
    if (param.schema.type === 'array') input[param.key] = [...((input[param.key] as unknown[]) ?? []), word];
    else {
      input[param.key] = word;
      position += 1;
    }
  }
  return input;
}

/** The words of a shell line with simple quoting, or undefined for anything more (substitutions, variables). */
function shellWords(line: string): string[] | undefined {
  if (/[$`]/.test(line)) return undefined;
  const words: string[] = [];
  for (const match of line.matchAll(/'([^']*)'|"([^"\\]*)"|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/** The declaration's constraints in words, as far as they are about the tool's inputs (not --json). */
export function constraintText(tool: Tool, tier: Tier): string {
  const { exclusive = [], oneRequired = [] } = tool.spec.constraints ?? {};
  const params = paramsAt(tool, tier);
  const inputs = new Map(
    params.map((param) => [
      param.target.kind === 'argument' ? `<${param.target.name}>` : param.target.kind === 'option' ? `--${param.target.name}` : '',
      param.key,
    ]),
  );
  const names = (set: FlagSet) => set.flags.flatMap((flag) => (inputs.has(flag) ? [`"${inputs.get(flag)}"`] : []));
  const lines = [
    ...exclusive.filter((set) => names(set).length > 1).map((set) => `At most one of ${names(set).join(', ')}.`),
    ...oneRequired.filter((set) => names(set).length > 0).map((set) => `At least one of ${names(set).join(', ')} is required.`),
  ];
  return lines.join(' ');
}

/**
 * The tools a server offers and the commands its meta-tools reach: every tool within the tier,
 * or, with --tools, those named (a tool, or a group such as `themes` for all of its tools). `meta`
 * adds search_commands, describe_command and run_command; named alone, they reach the whole tier.
 */
export interface Selection {
  tier: Tier;
  tools: Tool[];
  reachable: Tool[];
  meta: boolean;
}

const META = 'meta';

export function select(all: Tool[], tier: Tier, names: string[] | undefined): Selection {
  const allowed = all.filter((tool) => within(tool.tier, tier));
  if (names === undefined) return { tier, tools: allowed, reachable: allowed, meta: true };
  if (names.length === 0) throw new UsageError('--tools names no tool', { hint: 'give tool names, groups or meta, comma-separated: --tools themes,meta' });
  const meta = names.includes(META);
  const picked = new Set<Tool>();
  for (const name of names.filter((entry) => entry !== META)) {
    const matching = all.filter((tool) => tool.name === name || tool.name.startsWith(`${name.replace(/-/g, '_')}_`));
    if (matching.length === 0) {
      throw new UsageError(`--tools: no tool is named ${name}`, { hint: suggestionHint(name, [META, ...all.map((tool) => tool.name)]) });
    }
    const above = matching.find((tool) => !within(tool.tier, tier));
    if (above !== undefined && matching.length === 1) {
      throw new UsageError(`--tools: ${above.name} is a ${above.tier} command`, { hint: `start the server with ${flagFor(above.tier)} to offer it` });
    }
    for (const tool of matching) if (within(tool.tier, tier)) picked.add(tool);
  }
  const tools = all.filter((tool) => picked.has(tool));
  return { tier, tools, reachable: tools.length === 0 && meta ? allowed : tools, meta };
}

/** The tool a name or the command's words name: `themes_list`, `themes list`, `email messages get` or the alias `themes ls`. */
export function findTool(all: Tool[], name: string): Tool | undefined {
  const wanted = name.trim().replace(/[\s-]+/g, '_');
  return (
    all.find((tool) => tool.name === wanted) ??
    all.find((tool) => (tool.spec.aliases ?? []).some((alias) => toolName([...tool.path.slice(0, -1), alias]) === wanted))
  );
}
