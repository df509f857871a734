/**
 * The meta-tools: search_commands and describe_command, from the same declarations as the tools,
 * and run_command, which runs a described command within the server's tier. With these three an
 * agent with a small tool budget can do all that the tier allows (`loopsctl mcp --tools meta`).
 */
import { ProtectedError, UsageError } from '../../base/errors.js';
import { type Caller, callTool, failed, type ToolAnswer } from './calls.js';
import type { JsonSchema } from './inputs.js';
import { type Annotations, constraintText, description, findTool, flagFor, inputSchema, type Selection, type Settings, type Tool, within } from './tools.js';

export interface MetaTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: Annotations;
  call: (input: Record<string, unknown>, signal?: AbortSignal) => Promise<ToolAnswer>;
}

// The three tools side by side, sharing the look-ups and the availability they answer by: one piece.
export function metaTools(all: Tool[], selection: Selection, caller: Caller, settings: Settings): MetaTool[] {
  const finding: Annotations = { title: '', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  // run_command does what the commands it reaches do: the most any of them may.
  const reached = selection.reachable;
  const running: Annotations = {
    title: 'Run a loopsctl command',
    readOnlyHint: reached.every((tool) => tool.tier === 'read' && !tool.writesFiles),
    destructiveHint: reached.some((tool) => tool.tier === 'destructive' || tool.writesFiles),
    idempotentHint: false,
    openWorldHint: !settings.sandbox,
  };
  const reachable = new Set(selection.reachable);
  /** Why a command cannot be run here, or undefined when it can. */
  const unavailable = (tool: Tool): string | undefined => {
    if (reachable.has(tool)) return undefined;
    if (!within(tool.tier, selection.tier)) return `a ${tool.tier} command, and the server was started without ${flagFor(tool.tier)}`;
    return 'not among the commands the server was started with (--tools)';
  };
  const summary = (tool: Tool) => ({
    command: tool.path.join(' '),
    tool: tool.name,
    summary: tool.spec.summary,
    tier: tool.tier,
    available: unavailable(tool) === undefined,
  });
  const lookUp = (name: unknown): Tool => {
    if (typeof name !== 'string' || name.trim() === '') throw new UsageError('"command" takes the command, such as "themes list" or themes_list');
    const tool = findTool(all, name);
    if (tool === undefined) throw new UsageError(`no command is named "${name}"`, { hint: 'find it with search_commands' });
    return tool;
  };
  return [
    {
      name: 'search_commands',
      description:
        'Find loopsctl commands for a task: matches the words of the query against command names, summaries and options. Answers {commands: [{command, tool, summary, tier, available}]}; describe_command tells how to call one, run_command runs it. An empty query lists every command.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'words of the task, such as "send transactional email" or "theme colours"' },
          limit: { type: 'integer', minimum: 1, maximum: 200, default: 20, description: 'at most this many commands' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { ...finding, title: 'Find loopsctl commands' },
      call: async (input) => {
        const query = typeof input.query === 'string' ? input.query : '';
        const limit = typeof input.limit === 'number' && input.limit >= 1 ? Math.floor(input.limit) : 20;
        const found = search(all, query).slice(0, limit).map(summary);
        return structured({ commands: found });
      },
    },
    {
      name: 'describe_command',
      description:
        'How to call one loopsctl command: its summary, help, tier, whether this server may run it, the JSON schema of its inputs (arguments and options by name), which inputs exclude or need each other, and examples.',
      inputSchema: {
        type: 'object',
        properties: { command: { type: 'string', description: 'the command, such as "themes list", or its tool name themes_list' } },
        required: ['command'],
        additionalProperties: false,
      },
      annotations: { ...finding, title: 'Describe a loopsctl command' },
      call: async (input) => {
        try {
          const tool = lookUp(input.command);
          const why = unavailable(tool);
          return structured({
            ...summary(tool),
            ...(why === undefined ? {} : { unavailableBecause: why }),
            description: description(tool, selection.tier),
            constraints: constraintText(tool, selection.tier) || null,
            inputSchema: inputSchema(tool, selection.tier),
            examples: tool.spec.examples,
          });
        } catch (error) {
          if (error instanceof UsageError) return failed(undefined, error);
          throw error;
        }
      },
    },
    {
      name: 'run_command',
      description:
        'Run a loopsctl command that describe_command described, with its inputs as "arguments", within what the server allows. Answers as the command\'s own tool would: its JSON output, or an error with message, hint and exitCode.',
      inputSchema: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'the command, such as "themes get", or its tool name themes_get' },
          arguments: { type: 'object', description: "the command's inputs, as describe_command gives their schema", additionalProperties: true },
        },
        required: ['command'],
        additionalProperties: false,
      },
      annotations: running,
      call: async (input, signal) => {
        try {
          const tool = lookUp(input.command);
          const why = unavailable(tool);
          if (why !== undefined) {
            // Above the server's tier, it is a write the server's start forbade, as a read-only profile does (exit 11).
            const Refusal = within(tool.tier, selection.tier) ? UsageError : ProtectedError;
            throw new Refusal(`${tool.path.join(' ')} cannot be run here: ${why}`, { hint: 'ask the person who started the server' });
          }
          const args = input.arguments ?? {};
          if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError('"arguments" takes an object of the command\'s inputs');
          return await callTool(caller, tool, args as Record<string, unknown>, signal);
        } catch (error) {
          if (error instanceof UsageError || error instanceof ProtectedError) return failed(undefined, error);
          throw error;
        }
      },
    },
  ];
}

/** Commands ranked by how well the query's words match: in the command's words, then its summary, then the rest. */
export function search(all: Tool[], query: string): Tool[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
  if (words.length === 0) return all;
  const scored = all.map((tool) => {
    const name = [...tool.path, ...(tool.spec.aliases ?? [])].join(' ').toLowerCase();
    const summaryText = tool.spec.summary.toLowerCase();
    const rest = [
      tool.spec.help ?? '',
      ...(tool.spec.options ?? []).map((option) => `${option.flags} ${option.description}`),
      ...(tool.spec.args ?? []).map((arg) => arg.description),
    ]
      .join(' ')
      .toLowerCase();
    let score = 0;
    for (const word of words) {
      const stem = word.length > 4 ? word.replace(/(es|s)$/, '') : word;
      if (name.includes(stem)) score += 4;
      if (summaryText.includes(stem)) score += 2;
      if (rest.includes(stem)) score += 1;
    }
    return { tool, score };
  });
  return scored
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ tool }) => tool);
}

function structured(value: Record<string, unknown>): ToolAnswer {
  return { content: [{ type: 'text', text: `${JSON.stringify(value, null, 2)}\n` }], structuredContent: value };
}
