/**
 * `loopsctl mcp`: a Model Context Protocol server on stdin and stdout, built on the protocol's
 * official SDK, which only this command loads. Its tools are the commands (tools.ts), each call a
 * run in this process through one invoker (calls.ts) that keeps one key, one client and, under
 * --sandbox, one sandbox for the server's life; what they may change is the tier the person
 * starting it chose, and the files they may touch are those under the root it named.
 */
import { appendFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AuthError, LocalFileError, NetworkError, ProtectedError, UsageError } from '../../base/errors.js';
import { sanitize } from '../../base/sanitize.js';
import { VERSION } from '../../base/version.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import type { Spec } from '../../core/declare.js';
import { type Invoked, Invoker } from '../../core/invoker.js';
import type { Runtime } from '../../core/runtime.js';
import { profileFlag, profileTeamRemedy, sameTeam } from '../../core/team.js';
import type { Tier } from '../../core/tier.js';
import { API_KEY } from '../../platform/auth/resource.js';
import { requestLine } from '../../platform/operation-row.js';
import { formatJson } from '../../render/output.js';
import { behaviours } from '../behaviours.js';
import type { Approving } from './approval.js';
import { type Caller, callTool, checkInput, failed, parsed, type ToolAnswer } from './calls.js';
import type { JsonSchema } from './inputs.js';
import { type MetaTool, metaTools } from './meta.js';
import { declaredOutputs, flagFor, listedTool, outputSchema, type Selection, type Settings, select, toolsFrom, within } from './tools.js';
import { ownTools, testProposal, testSchema } from './workflow-tools.js';

export interface McpOptions {
  allowWrites?: boolean;
  allowDestructive?: boolean;
  tools?: string[];
  root?: string;
  log?: string;
}

export const CONTEXT_URI = 'loopsctl://context';

/**
 * How long the server waits for the account's team (or --timeout, if shorter), at its start and
 * for the context resource: the client waits meanwhile, and gives up on a server that has not
 * answered in about 30 s. Retrying for minutes an API that does not answer would lose the client;
 * the calls ask again.
 */
const ACCOUNT_LOOKUP_MS = 10_000;

/** The client by the name it gave at initialization; undefined for the server's own calls before it. */
function clientName(server: Server | undefined): string | undefined {
  const client = server?.getClientVersion();
  return client === undefined ? undefined : `${client.name} (MCP)`;
}

/** A protocol error as the SDK sends it: its message once, without the "MCP error -32602:" that McpError puts before it. */
function protocolError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * The SDK's stdio transport, writing each message as formatJson does: an integer past 2^53 that the
 * API sent (a marked string in the values, see parseJsonKeepingIntegers) goes to the client as the
 * digits the API sent, which a client that reads JSON losslessly keeps; DEL and C1 escaped.
 */
class ExactStdioTransport extends StdioServerTransport {
  constructor(
    stdin: Readable,
    private readonly stdout: Writable,
  ) {
    super(stdin, stdout);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${formatJson(message, 0)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}

/** The server over the given command tree: its commands are the tools. */
export const serverOf = (tree: Spec[]): Handler<[], McpOptions> =>
  handler(['out', 'key', 'files', 'clock', 'globals', 'commands'], async (context, _args, options) => {
    const { runtime } = context;
    const server = await mcpServer(tree, context, options);
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
    });
    // The client ends the server by closing its stdin, or the person by Ctrl-C.
    const close = () => void server.close();
    runtime.stdin.once('end', close);
    runtime.signal.addEventListener('abort', close, { once: true });
    await server.connect(new ExactStdioTransport(runtime.stdin, runtime.stdout));
    await closed;
  });

/**
 * The server, ready to connect to a transport: the key is looked up (and the sandbox started) at
 * once, so that a server without one refuses to start instead of failing every call, and one line
 * on stderr says what it offers, on which account, with which files.
 */
export async function mcpServer(tree: Spec[], context: Uses<'out' | 'key' | 'files' | 'clock' | 'globals' | 'commands'>, options: McpOptions): Promise<Server> {
  const tier: Tier = options.allowDestructive ? 'destructive' : options.allowWrites ? 'write' : 'read';
  await refuseWritesOfReadOnly(context, tier);
  const root = options.root === undefined ? undefined : rootDirectory(options.root);
  const settings: Settings = { root, sandbox: context.globals.sandbox === true };
  const all = toolsFrom(tree, settings);
  const selection = select(all, tier, options.tools);
  // Its tools run commands in this process, which share the whole context (each handed only what it uses).
  // Its writes are journaled as the MCP client's, by the name the client gave at initialization.
  let served: Server | undefined;
  const invoker = new Invoker(tree, behaviours, context.whole, () => clientName(served));
  const caller: Caller = { invoker, tier, root };
  const byName = new Map(selection.tools.map((tool) => [tool.name, tool]));
  const log = options.log === undefined ? undefined : callLog(options.log, context.runtime);

  await context.credentials();
  const outputs = await declaredOutputs(selection.tools);
  const status = await accountStatus(context, caller);
  // A key the API refuses would fail every call: the server refuses to start, as without a key.
  if (status.error instanceof AuthError) throw status.error;
  const account = accountContext(context, caller, selection, status);
  await refuseWritesToAnotherTeam(context, tier, status);
  const where = settings.sandbox ? 'the sandbox' : 'the Loops account of the key in use';

  // A change above the write tier is made only on a person's yes, which the server asks for.
  const approving = await approvingOf(context, account, () => served);

  const meta = [...(selection.meta ? metaTools(all, selection, caller, settings) : []), ...ownTools(caller, approving, selection, settings)];
  const metaByName = new Map(meta.map((tool) => [tool.name, tool]));

  const server = new Server(
    { name: 'loopsctl', version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: instructionsOf(where, tier, root, selection.meta),
    },
  );

  served = server;
  // The tools are the server's for its life: described once, at the first listing.
  let listed: ReturnType<typeof listedTools> | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (listed ??= listedTools(selection, meta, settings, outputs)) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const input = request.params.arguments ?? {};
    const started = context.runtime.now().getTime();
    const answer = await answerCall(name, input, extra.signal);
    log?.({ tool: name, arguments: input, answer, ms: context.runtime.now().getTime() - started });
    return answer;
  });

  async function answerCall(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<ToolAnswer> {
    const metaTool = metaByName.get(name);
    if (metaTool !== undefined) {
      try {
        checkInput(metaTool.inputSchema, input);
      } catch (error) {
        if (error instanceof UsageError) return failed(undefined, error);
        throw error;
      }
      return metaTool.call(input, signal);
    }
    const tool = byName.get(name);
    if (tool === undefined) {
      const known = all.find((other) => other.name === name);
      const why = known === undefined ? '' : within(known.tier, tier) ? ': it is not among --tools' : `: the server was started without ${flagFor(known.tier)}`;
      throw protocolError(ErrorCode.InvalidParams, `no tool ${name} here${why}`);
    }
    // A proposed workflow is tested where a server may propose one.
    if (tool.name === 'workflow_test' && input.plan !== undefined && tier !== 'read') return testProposal(caller, approving, tool, input, signal);
    return callTool(caller, tool, input, signal);
  }

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: CONTEXT_URI,
        name: 'context',
        title: 'Account context',
        description: 'The team, profile and key source, sandbox or live, and what this server allows',
        mimeType: 'application/json',
      },
    ],
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [] }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    throw protocolError(ErrorCode.InvalidParams, `no prompt ${request.params.name} here`);
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== CONTEXT_URI) throw protocolError(ErrorCode.InvalidParams, `no resource at ${request.params.uri}`);
    const text = JSON.stringify(accountContext(context, caller, selection, await accountStatus(context, caller)), null, 2);
    return { contents: [{ uri: CONTEXT_URI, mimeType: 'application/json', text }] };
  });

  context.runtime.stderr.write(`${startupLine(selection, selection.meta, tier, where, account, root)}\n`);
  return server;
}

/** What the server tells the client it is, at the start of the session. */
function instructionsOf(where: string, tier: Tier, root: string | undefined, withMeta: boolean): string {
  return [
    `loopsctl's commands as tools, against ${where}. This server allows ${tierWords(tier)}.`,
    `Read ${CONTEXT_URI} for the team, profile and tier.`,
    'Lists answer {data, nextCursor}: pass nextCursor as cursor to continue. A failed call is a tool error whose structuredContent.error has message, hint and exitCode (2 usage, 3 auth, 4 not found, 5 rejected by the API).',
    'A send carries an idempotency key (a new one unless "idempotency-key" is given): calling again with the same key never sends twice.',
    ...(tier === 'read'
      ? []
      : [
          'A change above the write tier (a send, a publish, a schedule, a delete, a live workflow) is made only on the person\'s yes, which the server asks them for; a client that cannot ask is answered "pending approval" with an id: a person runs `loopsctl approve <id>` in a terminal, then call approved_apply (workflow_apply for a workflow) with the id. Never retry a change the person declined.',
        ]),
    root === undefined
      ? 'No tool reads or writes local files: content is given inline.'
      : 'Paths name files under the directory the server was started with, and nowhere else.',
    ...(withMeta ? ['search_commands and describe_command find and explain any command; run_command runs one.'] : []),
  ].join('\n');
}

/** The tools as tools/list gives them: the commands offered, then the meta tools. */
function listedTools(selection: Selection, meta: MetaTool[], settings: Settings, outputs: Map<string, JsonSchema>) {
  const { tier } = selection;
  return [
    ...selection.tools.map((tool) => ({
      ...listedTool(tool, tier, settings),
      ...(tool.name === 'workflow_test' && tier !== 'read' ? { inputSchema: testSchema(tool, tier) as { type: 'object' } } : {}),
      ...(tool.tier === 'read' ? { outputSchema: outputSchema(tool, outputs.get(tool.name)) as { type: 'object' } } : {}),
    })),
    ...meta.map((tool) => ({
      name: tool.name,
      title: tool.annotations.title,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      annotations: tool.annotations,
    })),
  ];
}

/** What the approvals know of the server: its account in words, and the account a change proposed here is bound to (its team, its profile, its base URL or the sandbox). */
async function approvingOf(
  context: Uses<'commands' | 'clock'>,
  account: { team: string | null; profile: string | null; sandbox: boolean },
  server: () => Server | undefined,
): Promise<Approving> {
  const baseUrl = account.sandbox ? null : await context.whole.baseUrl();
  const binding = JSON.stringify({ team: account.team, profile: account.profile, sandbox: account.sandbox, baseUrl });
  return { server, configDir: context.whole.configDir, account: accountWords(account), binding, now: () => context.runtime.now() };
}

/** The account in the words a person approves a change on: its team, and the profile or the sandbox. */
function accountWords(account: { team: string | null; profile: string | null; sandbox: boolean }): string {
  const team = account.team === null ? 'the account of the key in use' : `team ${JSON.stringify(account.team)}`;
  return account.sandbox ? `the sandbox (${team})` : `${team}${account.profile === null ? '' : ` (profile ${account.profile})`}`;
}

/** The line on stderr that says what the server offers, on which account, with which files. */
function startupLine(
  selection: Selection,
  withMeta: boolean,
  tier: Tier,
  where: string,
  account: { team: string | null; error?: unknown },
  root: string | undefined,
): string {
  const offered =
    selection.tools.length === 0
      ? 'only search_commands, describe_command and run_command'
      : `${selection.tools.length} ${selection.tools.length === 1 ? 'tool' : 'tools'}${withMeta ? ', and search_commands, describe_command and run_command' : ''}`;
  const team =
    account.team === null ? `team unknown (${String((account.error as { message?: string } | undefined)?.message ?? 'no answer')})` : `team "${account.team}"`;
  return `loopsctl mcp: ${offered}; ${tierWords(tier)}; ${where}, ${team}; ${root === undefined ? 'no local files' : `files under ${root}`}`;
}

/** The root the person named: an existing directory, with its links followed. */
function rootDirectory(given: string): string {
  const path = resolve(given);
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    directory = false;
  }
  if (!directory) throw new UsageError(`--root ${given} is not a directory`, { hint: 'give the directory the tools may read and write files under' });
  return path;
}

/**
 * A read-only profile serves reading tools only: asking for more is refused at the start, not
 * quietly narrowed, so that the person learns the server cannot do what they meant it to.
 */
async function refuseWritesOfReadOnly(context: Uses<'key'>, tier: Tier): Promise<void> {
  if (tier === 'read') return;
  const { readOnly, profile } = await context.credentials();
  if (!readOnly) return;
  throw new ProtectedError(`profile "${profile}" is read-only, so the server cannot offer tools that change the account (${flagFor(tier)})`, {
    code: 'read_only',
    hint: `start it without ${flagFor(tier)}, or lift the mark with \`loopsctl auth read-write ${profile}\``,
  });
}

/** `auth status`, waiting no longer than ACCOUNT_LOOKUP_MS or --timeout for the API: at the start, and for the context resource. */
async function accountStatus(context: Uses<'globals'>, caller: Caller): Promise<Invoked> {
  const bound = Math.min(context.globals.timeout * 1000, ACCOUNT_LOOKUP_MS);
  const waited = AbortSignal.timeout(bound);
  const status = await caller.invoker.invoke(['auth', 'status'], {}, { signal: waited });
  if (!waited.aborted || context.runtime.signal.aborted || status.error === undefined) return status;
  return { ...status, error: new NetworkError(`${requestLine(API_KEY.operations.testApiKey)}: no answer within ${bound / 1000} s; the calls will ask again`) };
}

/**
 * A key of another team than the one expected would have every write refused (exit 11): a server
 * that may change the account is refused at the start instead, as for a read-only profile. The
 * team expected is the one each write is checked against (--expect-team, LOOPSCTL_EXPECTED_TEAM,
 * else the profile's recorded team).
 */
async function refuseWritesToAnotherTeam(context: Uses<'key'>, tier: Tier, status: Invoked): Promise<void> {
  if (tier === 'read') return;
  // `auth status` prints the key's team even when it refuses a profile that records another.
  const team = (parsed(status.stdout) as { teamName?: unknown } | undefined)?.teamName;
  if (typeof team !== 'string') return;
  const expected = await context.expectedTeam();
  if (expected === undefined || sameTeam(team, expected.name)) return;
  const remedy = expected.by.startsWith('profile')
    ? profileTeamRemedy(profileFlag(await context.credentials()), expected.name, team)
    : `use a key of ${JSON.stringify(expected.name)}, or start the server without ${flagFor(tier)} to read ${JSON.stringify(team)}'s account`;
  throw new ProtectedError(
    `the key belongs to team ${JSON.stringify(team)}, not ${JSON.stringify(expected.name)} (expected by ${expected.by}), so the server cannot offer tools that change the account (${flagFor(tier)})`,
    { code: 'wrong_team', hint: remedy },
  );
}

function tierWords(tier: Tier): string {
  if (tier === 'read') return 'reading only';
  if (tier === 'write') return 'reading, creating and updating';
  return 'reading, creating, updating, deleting, publishing and sending';
}

/** The account the tools act on, as `auth status` tells it, with what this server allows; its text cleaned of control characters. */
function accountContext(context: Uses<'globals'>, caller: Caller, selection: Selection, status: Invoked) {
  const found = status.error === undefined ? (JSON.parse(status.stdout) as { teamName?: string; source?: string; profile?: string | null }) : undefined;
  const clean = (text: string | null | undefined) => (typeof text === 'string' ? sanitize(text) : null);
  return {
    loopsctl: VERSION,
    sandbox: context.globals.sandbox === true,
    team: clean(found?.teamName),
    profile: clean(found?.profile ?? context.globals.profile),
    keySource: clean(found?.source),
    ...(status.error === undefined ? {} : { error: failed(undefined, status.error).structuredContent!.error }),
    tier: caller.tier,
    root: caller.root ?? null,
    tools: selection.tools.map(({ name }) => name),
  };
}

/** Input names whose values are secrets or bulk content: the log says only how long they were. */
const MASKED = /key|secret|token|password|authorization|lmx|body|data|image|attachments|vars|props|payload|filter|styles|allow-list/i;

/**
 * One JSON line per call in the file the person named: the tool, its arguments with secrets masked,
 * the outcome and the time. A file that cannot be written is refused at the start; one that fails
 * later (a full disk) is said once on stderr, and never turns the answer of a call that ran (a
 * send made) into an error the agent would retry.
 */
function callLog(given: string, runtime: Pick<Runtime, 'now' | 'stderr'>) {
  const file = resolve(given);
  try {
    appendFileSync(file, '', { mode: 0o600 });
  } catch (error) {
    throw new LocalFileError(`--log ${given} cannot be written: ${(error as Error).message}`, {
      cause: error,
      hint: 'name a file in a directory that exists and that you can write in',
    });
  }
  let failed = false;
  return ({ tool, arguments: input, answer, ms }: { tool: string; arguments: Record<string, unknown>; answer: ToolAnswer; ms: number }) => {
    const shown = Object.fromEntries(
      Object.entries(input).map(([key, value]) => [key, MASKED.test(key) ? `<${JSON.stringify(value ?? null).length} characters>` : value]),
    );
    const error = answer.isError ? (answer.structuredContent?.error as { exitCode?: number; message?: string } | undefined) : undefined;
    const outcome = error === undefined ? 'ok' : { exitCode: error.exitCode, message: error.message };
    try {
      appendFileSync(file, `${JSON.stringify({ time: runtime.now().toISOString(), tool, arguments: shown, outcome, ms })}\n`, { mode: 0o600 });
    } catch (problem) {
      if (!failed)
        runtime.stderr.write(
          `loopsctl mcp: a call could not be logged in ${file} (${(problem as Error).message}); its answer was given, and later failures are not said again\n`,
        );
      failed = true;
    }
  };
}
