/**
 * The tools of `loopsctl mcp`, made from the command declarations and nothing else: one per
 * command that calls the API, its input schema from the command's arguments and options (types,
 * choices, defaults, ranges), its description from the summary, help, constraints and examples.
 * A command added to an area is a tool of the next server with no other change.
 */
import { UsageError } from '../../api/errors.js';
import { PER_PAGE_MIN } from '../../api/paging.js';
import { TIERS, walkSpecs, type CommandSpec, type FlagSet, type IntegerParser, type OptionSpec, type Spec, type Tier } from '../../core/declare.js';
import { suggestionHint } from '../../core/suggest.js';

/** A JSON schema, as the protocol carries it. */
export type JsonSchema = Record<string, unknown>;

/** One input of a tool: an argument of the command, one of its options, or the bounds of a list. */
export interface Param {
  key: string;
  schema: JsonSchema;
  required: boolean;
  /** The argument's place among the command's arguments. */
  argument?: { index: number; variadic: boolean };
  /** The option's long flag, and whether it is a switch; its tier when giving it raises the command's. */
  option?: { flag: string; boolean: boolean; variadic: boolean; repeatable: boolean; tier?: Tier };
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
}

/** The most items one call of a list answers with, and how many by default. */
export const LIST_LIMIT_MAX = 1000;
export const LIST_LIMIT_DEFAULT = 100;

/** The name of the command's tool: its words joined by _, as protocol tool names are usually written. */
export function toolName(path: string[]): string {
  return path.join('_').replace(/-/g, '_');
}

/**
 * Whether a command is a tool: it calls the API, and is neither hidden nor a conversation of its
 * own (a prompt, a server) nor a keeper of stored keys.
 */
export function isTool(spec: CommandSpec): boolean {
  return spec.remote && !spec.hidden && !spec.interactive && !spec.storesKeys;
}

export function toolsFrom(specs: Spec[]): Tool[] {
  const tools = walkSpecs(specs)
    .filter(({ spec }) => isTool(spec))
    .map(({ path, spec }) => toolOf(path, spec));
  const seen = new Set<string>();
  for (const { name } of tools) {
    // Two commands whose words differ only by - and _ would share a name.
    if (seen.has(name)) throw new Error(`two commands make the tool ${name}`);
    seen.add(name);
  }
  return tools;
}

function toolOf(path: string[], spec: CommandSpec): Tool {
  const options = spec.options ?? [];
  const paged = ['--cursor', '--per-page'].every((flag) => options.some((option) => longFlag(option) === flag));
  const list = paged ? 'pages' : path.at(-1) === 'list' ? 'array' : undefined;
  // The output is always --json: forms that exclude it (--jsonl, --lmx) are no input; a list's
  // own paging is replaced by the tool's limit and cursor.
  const excluded = new Set((spec.constraints?.exclusive ?? []).filter(({ flags }) => flags.includes('--json')).flatMap(({ flags }) => flags));
  if (paged) for (const flag of ['--per-page', '--limit', '--cursor']) excluded.add(flag);
  const params: Param[] = [
    ...(spec.args ?? []).map((argument, index): Param => {
      const item = { type: 'string', description: argument.description };
      const schema = argument.variadic ? { type: 'array', items: { type: 'string' }, description: argument.description, ...(argument.required === false ? {} : { minItems: 1 }) } : item;
      return { key: argument.name, schema, required: argument.required !== false, argument: { index, variadic: argument.variadic === true } };
    }),
    ...options.filter((option) => !excluded.has(longFlag(option))).map(optionParam),
  ];
  if (list !== undefined) params.push(...listParams(list));
  const keys = params.map(({ key }) => key);
  const twice = keys.find((key, index) => keys.indexOf(key) !== index);
  if (twice !== undefined) throw new Error(`${path.join(' ')}: two inputs are named ${twice}`);
  return { name: toolName(path), path, spec, tier: spec.remote ? spec.tier : 'read', list, params };
}

function optionParam(option: OptionSpec): Param {
  const flag = longFlag(option);
  const placeholder = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1];
  const variadic = placeholder?.endsWith('...') === true;
  const integer = (option.parse as Partial<IntegerParser> | undefined)?.integer;
  let value: JsonSchema = { type: 'string' };
  if (integer !== undefined) value = { type: 'integer', minimum: integer.min, maximum: integer.max };
  if (option.choices !== undefined) value = { type: 'string', enum: [...option.choices] };
  const many = option.repeatable === true || variadic;
  const schema: JsonSchema =
    placeholder === undefined ? { type: 'boolean' } : many ? { type: 'array', items: value } : { ...value };
  schema.description = option.tier === undefined ? option.description : `${option.description} (${option.tier})`;
  if (option.default !== undefined) schema.default = option.default;
  return {
    key: flag.slice(2),
    schema,
    required: option.required === true,
    option: { flag, boolean: placeholder === undefined, variadic, repeatable: option.repeatable === true, tier: option.tier },
  };
}

function listParams(list: 'pages' | 'array'): Param[] {
  // Whole pages of one size make up a call, so that the cursor it returns stays good (see calls.ts).
  const limit: JsonSchema =
    list === 'pages'
      ? { type: 'integer', minimum: PER_PAGE_MIN, maximum: LIST_LIMIT_MAX, multipleOf: 10, default: LIST_LIMIT_DEFAULT }
      : { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT };
  limit.description = 'at most this many items in this answer';
  return [
    { key: 'limit', schema: limit, required: false },
    { key: 'cursor', schema: { type: 'string', description: 'nextCursor of the previous answer, to continue the list' }, required: false },
  ];
}

export function longFlag(option: OptionSpec): string {
  return /--[\w-]+/.exec(option.flags)![0];
}

/** The tiers up to and including `tier`. */
export function within(tier: Tier, allowed: Tier): boolean {
  return TIERS.indexOf(tier) <= TIERS.indexOf(allowed);
}

/** The options a server started with --allow-writes or --allow-destructive needs for a tier. */
export function flagFor(tier: Tier): string {
  return tier === 'destructive' ? '--allow-destructive' : '--allow-writes';
}

/** The tool's input schema at a tier: options that would raise the command above it are left out. */
export function inputSchema(tool: Tool, tier: Tier): JsonSchema {
  const params = tool.params.filter(({ option }) => option?.tier === undefined || within(option.tier, tier));
  const required = params.filter((param) => param.required).map(({ key }) => key);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map(({ key, schema }) => [key, schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** What an agent reads to choose and call the tool. */
export function description(tool: Tool): string {
  const { spec } = tool;
  const parts = [`${spec.summary}.`.replace(/\.\.$/, '.'), `Runs \`loopsctl ${tool.path.join(' ')}\` (tier: ${tool.tier}) and answers with its --json output.`];
  if (tool.list !== undefined) parts.push('Answers {data, nextCursor}: pass nextCursor as cursor to continue; null means the list is complete.');
  const rules = constraintText(tool);
  if (rules !== '') parts.push(rules);
  if (spec.help !== undefined) parts.push(spec.help.trim().replace(/\s*\n\s*/g, ' '));
  parts.push(`Inputs are the command's arguments and options by name (--idempotency-key is "idempotency-key"). Examples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}`);
  return parts.join('\n');
}

/** The declaration's constraints in words, as far as they are about the tool's inputs (not --json). */
export function constraintText(tool: Tool): string {
  const { exclusive = [], oneRequired = [] } = tool.spec.constraints ?? {};
  const inputs = new Map(tool.params.flatMap((param) => (param.option !== undefined ? [[param.option.flag, param.key]] : param.argument !== undefined ? [[`<${param.key}>`, param.key]] : [])));
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

export const META = 'meta';

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
