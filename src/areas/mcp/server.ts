/**
 * `loopsctl mcp`: a Model Context Protocol server on stdin and stdout, built on the protocol's
 * official SDK, which only this command loads. Its tools are the commands (tools.ts), run as any
 * run of loopsctl is (calls.ts); what they may change is the tier the person starting it chose.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CommandContext } from '../../core/context.js';
import type { Handler, Tier } from '../../core/declare.js';
import { VERSION } from '../../version.js';
import { specs } from '../registry.js';
import { callTool, failed, runCaptured, type Caller } from './calls.js';
import { metaTools } from './meta.js';
import { description, flagFor, inputSchema, select, toolsFrom, within } from './tools.js';

interface McpOptions {
  allowWrites?: boolean;
  allowDestructive?: boolean;
  tools?: string[];
}

export const CONTEXT_URI = 'loopsctl://context';

export const serve: Handler<[], McpOptions> = async (context, _args, options) => {
  const tier: Tier = options.allowDestructive ? 'destructive' : options.allowWrites ? 'write' : 'read';
  const all = toolsFrom(specs);
  const selection = select(all, tier, options.tools);
  const { runtime } = context;
  // Every call keeps to one pace, as one run of loopsctl does: the API's limit is the account's.
  const shared = { env: runtime.env, now: runtime.now, signal: runtime.signal, command: runtime.command, platform: runtime.platform, pacer: await context.pacer() };
  const caller: Caller = { globals: globalWords(context), runtime: shared, tier };
  const meta = selection.meta ? metaTools(all, selection, caller) : [];
  const byName = new Map(selection.tools.map((tool) => [tool.name, tool]));
  const metaByName = new Map(meta.map((tool) => [tool.name, tool]));

  const account = context.globals.sandbox ? 'the sandbox' : 'the Loops account of the key in use';
  const server = new Server(
    { name: 'loopsctl', version: VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: [
        `loopsctl's commands as tools, against ${account}. This server allows ${tierWords(tier)}.`,
        `Read ${CONTEXT_URI} for the team, profile and tier.`,
        'Lists answer {data, nextCursor}: pass nextCursor as cursor to continue. A failed call is a tool error with message, hint and exitCode (2 usage, 3 auth, 4 not found, 5 rejected by the API).',
        'A send carries an idempotency key (a new one unless "idempotency-key" is given): calling again with the same key never sends twice.',
        ...(meta.length > 0 ? ['search_commands and describe_command find and explain any command; run_command runs one.'] : []),
      ].join('\n'),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...selection.tools.map((tool) => ({
        name: tool.name,
        title: `loopsctl ${tool.path.join(' ')}`,
        description: description(tool),
        inputSchema: inputSchema(tool, tier) as { type: 'object' },
        annotations: { readOnlyHint: tool.tier === 'read', destructiveHint: tool.tier === 'destructive', openWorldHint: !context.globals.sandbox },
      })),
      ...meta.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: 'object' }, annotations: { readOnlyHint: tool.name !== 'run_command' } })),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const input = request.params.arguments ?? {};
    const metaTool = metaByName.get(name);
    if (metaTool !== undefined) return metaTool.call(input, extra.signal);
    const tool = byName.get(name);
    if (tool === undefined) {
      const known = all.find((other) => other.name === name);
      const why = known === undefined ? '' : within(known.tier, tier) ? ': it is not among --tools' : `: the server was started without ${flagFor(known.tier)}`;
      throw new McpError(ErrorCode.InvalidParams, `no tool ${name} here${why}`);
    }
    return callTool(caller, tool, input, extra.signal);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [{ uri: CONTEXT_URI, name: 'context', title: 'Account context', description: 'The team, profile and key source, sandbox or live, and what this server allows', mimeType: 'application/json' }],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    if (request.params.uri !== CONTEXT_URI) throw new McpError(ErrorCode.InvalidParams, `no resource at ${request.params.uri}`);
    const text = JSON.stringify(await accountContext(context, caller, selection.tools.map(({ name }) => name), extra.signal), null, 2);
    return { contents: [{ uri: CONTEXT_URI, mimeType: 'application/json', text }] };
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const { stdin, stdout } = runtime;
  // The client ends the server by closing its stdin, or the person by Ctrl-C.
  const close = () => void server.close();
  stdin.once('end', close);
  runtime.signal.addEventListener('abort', close, { once: true });
  await server.connect(new StdioServerTransport(stdin, stdout));
  runtime.stderr.write(`loopsctl mcp: ${selection.tools.length} tools${meta.length > 0 ? ' and the meta-tools' : ''}, ${tierWords(tier)}, against ${account}\n`);
  await closed;
};

/** The global flags the server was started with that each command's run takes too. */
function globalWords(context: CommandContext): string[] {
  const { globals } = context;
  const words: string[] = [];
  if (globals.sandbox) words.push('--sandbox');
  if (globals.profile !== undefined) words.push(`--profile=${globals.profile}`);
  if (globals.baseUrl !== undefined) words.push(`--base-url=${globals.baseUrl}`);
  if (globals.rate !== undefined) words.push(`--rate=${globals.rate}`);
  words.push(`--timeout=${globals.timeout}`, `--retries=${globals.retries}`);
  return words;
}

function tierWords(tier: Tier): string {
  if (tier === 'read') return 'reading only';
  if (tier === 'write') return 'reading, creating and updating';
  return 'reading, creating, updating, deleting, publishing and sending';
}

/** The account the tools act on, as `auth status` tells it, with what this server allows. */
async function accountContext(context: CommandContext, caller: Caller, tools: string[], signal: AbortSignal) {
  const status = await runCaptured([...caller.globals, 'auth', 'status', '--json'], caller.runtime, signal);
  const found = status.code === 0 ? (JSON.parse(status.stdout) as { teamName?: string; source?: string; profile?: string | null }) : undefined;
  const failure = status.code === 0 ? undefined : failed(status).structuredContent?.error;
  return {
    loopsctl: VERSION,
    sandbox: context.globals.sandbox === true,
    team: found?.teamName ?? null,
    profile: found?.profile ?? context.globals.profile ?? null,
    keySource: found?.source ?? null,
    ...(failure === undefined ? {} : { error: failure }),
    tier: caller.tier,
    tools,
  };
}
