/**
 * `loopsctl mcp` as an agent meets it, driven by the protocol SDK's own client against the
 * sandbox: in-process through main() (test/support/mcp.ts), one server for each set of flags
 * shared by the file's tests, and once as the built binary, a child process spoken to over stdio.
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { closedAfter } from '../../../support/closing.js';
import { run, tempDir } from '../../../support/main.js';
import { type McpRun, mcpClient, startMcp } from '../../../support/mcp.js';
import { BIN } from '../../../support/run-cli.js';

const kept = closedAfter(afterAll);
const servers = new Map<string, Promise<McpRun & { config: string }>>();
afterAll(async () => {
  for (const started of servers.values()) await (await started).close();
});

/**
 * `loopsctl mcp <args>` in-process, one server for each set of flags, shared by the tests: none
 * changes what another reads (a server of the read tier can change nothing at all). Its sandbox's
 * state is a file in a config dir of its own.
 */
function served(args: string[]): Promise<McpRun & { config: string }> {
  const key = JSON.stringify(args);
  if (!servers.has(key)) {
    const config = tempDir('loopsctl-mcp-');
    servers.set(
      key,
      startMcp(args, { env: { LOOPSCTL_CONFIG_DIR: config } }).then((mcp) => ({ ...mcp, config })),
    );
  }
  return servers.get(key)!;
}

const connect = async (args: string[]): Promise<Client> => (await served(args)).client;

/** `loopsctl mcp` started as an agent starts it, the built binary as a child process, and a client connected to it over stdio. */
async function spawned(args: string[], config: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: config, LOOPSCTL_CONFIG_DIR: config, XDG_CACHE_HOME: join(config, 'cache') },
    stderr: 'ignore',
  });
  // Its person approves what the server asks them (MCP elicitation): test/e2e/areas/mcp/approval.test.ts tests the rest.
  const client = mcpClient();
  await client.connect(transport);
  return kept(client);
}

interface Listed {
  path: string[];
  remote: boolean;
  tier: 'read' | 'write' | 'destructive' | null;
}

/** The declarations, as `commands --json` gives them. */
async function declared(): Promise<Listed[]> {
  const result = await run(['commands', '--json']);
  return result.json<{ commands: Listed[] }>().commands;
}

const META = ['describe_command', 'run_command', 'search_commands'];
/** The server's own tools, beside the commands': the apply of an approved change, and the workflow proposals. */
const OWN = ['approved_apply', 'workflow_apply', 'workflow_propose'];
/**
 * Remote commands that are no tool: the key keeper, the server itself, undo, which asks the person
 * before it applies, and content promote, which asks too and reads another account than the server's.
 */
const NOT_TOOLS = ['auth login', 'content promote', 'mcp', 'undo'];
/** Commands that call no API and are tools all the same, at the read tier: they read only what loopsctl keeps of the account (readTool). */
const READ_TOOLS = ['metrics history', 'metrics alerts'];
const nameOf = (path: string[]) => path.join('_').replace(/-/g, '_');

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  return (await client.callTool({ name, arguments: args })) as Answer;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map(({ name }) => name).sort();
}

describe('loopsctl mcp', () => {
  it('offers check and types as read-only tools: the check report as data, the types module as text', async () => {
    const client = await connect(['--sandbox']);
    const tools = (await client.listTools()).tools.filter(({ name }) => name === 'check' || name === 'types');
    expect(tools.map(({ name, annotations }) => [name, annotations?.readOnlyHint])).toEqual([
      ['check', true],
      ['types', true],
    ]);
    expect(Object.keys(tools[1]!.inputSchema.properties ?? {})).not.toContain('out');
    const checked = await call(client, 'check', { only: 'wiring' });
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent.data.map((problem: { rule: string; name: string }) => problem.name)).toContain('Win-back (draft)');
    const typed = await call(client, 'types');
    expect(typed.structuredContent.module).toContain('export const transactionalEmails = withoutPrototype({');
  });

  it('has one tool per command that calls the API, and no tool without a command', async () => {
    const commands = await declared();
    const expected = commands
      .filter(({ remote, path }) => (remote || READ_TOOLS.includes(path.join(' '))) && !NOT_TOOLS.includes(path.join(' ')))
      .map(({ path }) => nameOf(path));
    // Commands that need a path (a content directory, an import's file) are tools only under a root.
    const client = await connect(['--sandbox', '--allow-destructive', '--root', tempDir()]);
    const names = await toolNames(client);
    expect(names.filter((name) => !META.includes(name) && !OWN.includes(name))).toEqual([...expected].sort());
    expect(OWN.every((name) => names.includes(name))).toBe(true);
    const rootless = await toolNames(await connect(['--sandbox', '--allow-destructive']));
    expect(names.filter((name) => !rootless.includes(name))).toEqual([
      'apply',
      'contacts_import',
      'content_check',
      'content_convert',
      'content_diff',
      'content_pull',
      'content_push',
      'content_render',
      'content_review',
      'events_import',
    ]);
    expect(META.every((name) => names.includes(name))).toBe(true);
  });

  it('offers reads only by default, adds writes with --allow-writes, and the rest with --allow-destructive', async () => {
    const tiers = new Map(
      (await declared())
        .filter(({ remote, path }) => remote || READ_TOOLS.includes(path.join(' ')))
        .map(({ path, tier, remote }) => [nameOf(path), remote ? tier : 'read']),
    );
    await expect((await connect(['--sandbox'])).callTool({ name: 'themes_create', arguments: { name: 'x' } })).rejects.toThrow(
      'the server was started without --allow-writes',
    );
    const tiersOf = async (args: string[]) =>
      new Set(
        (await toolNames(await connect(['--sandbox', ...args]))).filter((name) => !META.includes(name) && !OWN.includes(name)).map((name) => tiers.get(name)),
      );
    expect(await tiersOf([])).toEqual(new Set(['read']));
    expect(await tiersOf(['--allow-writes'])).toEqual(new Set(['read', 'write']));
    expect(await tiersOf(['--allow-destructive'])).toEqual(new Set(['read', 'write', 'destructive']));
  });

  it('leaves out an option that would raise a command above the tier, and refuses it in a call', async () => {
    const writes = await connect(['--sandbox', '--allow-writes']);
    const update = (await writes.listTools()).tools.find(({ name }) => name === 'campaigns_update')!;
    expect(Object.keys(update.inputSchema.properties!)).toContain('name');
    expect(Object.keys(update.inputSchema.properties!)).not.toContain('schedule');
    const refused = await call(writes, 'campaigns_update', { id: 'cb9tvk4yur8c4puvh4crvzir7', schedule: 'now' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({
      exitCode: 2,
      message: '"schedule" makes campaigns_update a destructive call, which this server does not allow',
      hint: expect.stringContaining('--allow-destructive'),
    });
    const destructive = await connect(['--sandbox', '--allow-destructive']);
    const full = (await destructive.listTools()).tools.find(({ name }) => name === 'campaigns_update')!;
    expect(Object.keys(full.inputSchema.properties!)).toContain('schedule');
  });

  it('narrows to the tools named with --tools, and refuses to start with one above the tier', async () => {
    expect(await toolNames(await connect(['--sandbox', '--tools', 'themes_get,lists']))).toEqual(['lists_list', 'themes_get']);
    const refused = await run(['mcp', '--sandbox', '--tools', 'themes_create'], { input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Error: --tools: themes_create is a write command\nHint: start the server with --allow-writes to offer it\n');
    const unknown = await run(['mcp', '--sandbox', '--tools', 'themes_lst'], { input: '' });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean themes_list');
  });

  it('with --tools meta, three tools find, describe and run every command of the tier, and no other', async () => {
    const client = await connect(['--sandbox', '--allow-writes', '--tools', 'meta']);
    expect(await toolNames(client)).toEqual(META);
    const found = await call(client, 'search_commands', { query: 'create theme' });
    expect(found.structuredContent.commands[0]).toMatchObject({ command: 'themes create', tool: 'themes_create', tier: 'write', available: true });
    const described = await call(client, 'describe_command', { command: 'themes create' });
    expect(described.structuredContent.inputSchema.required).toEqual(['name']);
    expect(described.structuredContent.examples.length).toBeGreaterThan(0);
    const send = await call(client, 'describe_command', { command: 'transactional_send' });
    expect(send.structuredContent).toMatchObject({ tier: 'destructive', available: false, unavailableBecause: expect.stringContaining('--allow-destructive') });

    const created = await call(client, 'run_command', { command: 'themes create', arguments: { name: 'Run by name' } });
    expect(created.isError, created.content[0]!.text).toBeFalsy();
    const id = created.structuredContent.id as string;
    const got = await call(client, 'run_command', { command: 'themes_get', arguments: { id } });
    expect(got.structuredContent.name).toBe('Run by name');
    const refused = await call(client, 'run_command', { command: 'transactional send', arguments: { transactionalId: 'x', to: 'a@example.com' } });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          exitCode: 11,
          message: 'transactional send cannot be run here: a destructive command, and the server was started without --allow-destructive',
        },
      },
    });
  });

  it('as the built binary over stdio, reads, writes and sends against the sandbox; a send repeated with its key goes out once', async () => {
    const config = tempDir('loopsctl-mcp-');
    const client = await spawned(['--sandbox', '--allow-destructive'], config);
    const read = await call(client, 'transactional_get', { id: 'c1h3243uwicgpgajrgexlzdl5' });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent.name).toBe('Password reset');
    // The text is the command's --json output as it printed it.
    expect(read.content[0]!.text).toBe(
      (await run(['--sandbox', 'transactional', 'get', 'c1h3243uwicgpgajrgexlzdl5', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).stdout,
    );

    const written = await call(client, 'groups_create', { name: 'Made by an agent', description: 'through loopsctl mcp' });
    expect(written.isError, written.content[0]!.text).toBeFalsy();
    const listed = await run(['--sandbox', 'groups', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    expect(listed.json<{ name: string }[]>().map(({ name }) => name)).toContain('Made by an agent');

    const send = {
      transactionalId: 'c1h3243uwicgpgajrgexlzdl5',
      to: 'ada@example.com',
      var: ['firstName=Ada', 'resetUrl=https://example.com/r/1', 'expiresInMinutes:=30'],
      'idempotency-key': 'agent-send-1',
    };
    const first = await call(client, 'transactional_send', send);
    expect(first.structuredContent).toMatchObject({ success: true, idempotencyKey: 'agent-send-1' });
    const again = await call(client, 'transactional_send', send);
    expect(again.isError).toBe(true);
    expect(again.structuredContent.error).toMatchObject({ exitCode: 5, status: 409, message: 'Idempotency key has already been used.' });
    const outbox = await run(['sandbox', 'outbox', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    expect(outbox.json<{ idempotencyKey: string }[]>().filter(({ idempotencyKey }) => idempotencyKey === 'agent-send-1')).toHaveLength(1);

    // Without a key, each call is a send of its own, under a key of its own.
    const { 'idempotency-key': _, ...unkeyed } = send;
    const keys = [
      (await call(client, 'transactional_send', unkeyed)).structuredContent.idempotencyKey,
      (await call(client, 'transactional_send', unkeyed)).structuredContent.idempotencyKey,
    ];
    expect(new Set(keys).size).toBe(2);
  });

  it('answers a failure as a tool error with the message, hint and exit code', async () => {
    const client = await connect(['--sandbox']);
    const missing = await call(client, 'themes_get', { id: 'c0000000000000000000notfnd' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toMatchObject({
      code: 'not_found',
      exitCode: 4,
      message: 'theme c0000000000000000000notfnd not found',
      hint: expect.stringContaining('themes list'),
    });
    expect(missing.content[0]!.text).toMatch(/^Error: .*\nHint: .*\nExit code: 4 /);
    const usage = await call(client, 'contacts_find', { email: 'ada@example.com', 'user-id': 'usr_ada' });
    expect(usage.structuredContent.error).toMatchObject({ exitCode: 2, message: '"email" and "user-id" cannot be used together' });
    const unknown = await call(client, 'themes_get', { id: 'x', colour: 'red' });
    expect(unknown.structuredContent.error).toMatchObject({ exitCode: 2, message: expect.stringContaining('"colour"') });
  });

  it('bounds a long list and continues it by cursor, paged or whole', async () => {
    const { client, config } = await served(['--sandbox']);
    const all = (await run(['--sandbox', 'themes', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<{ id: string }[]>();
    expect(all.length).toBeGreaterThan(20);
    const first = await call(client, 'themes_list', { limit: 20 });
    expect(first.structuredContent.data).toHaveLength(20);
    expect(first.structuredContent.nextCursor).toEqual(expect.any(String));
    const rest = await call(client, 'themes_list', { limit: 20, cursor: first.structuredContent.nextCursor });
    expect(rest.structuredContent.nextCursor).toBeNull();
    expect([...first.structuredContent.data, ...rest.structuredContent.data].map(({ id }: { id: string }) => id)).toEqual(all.map(({ id }) => id));
    // Unbounded, a list still stops at 100 items.
    const defaultLimit = (await client.listTools()).tools.find(({ name }) => name === 'themes_list')!.inputSchema.properties!.limit as { default: number };
    expect(defaultLimit.default).toBe(100);

    const properties = (await run(['--sandbox', 'contact-properties', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<unknown[]>();
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(client, 'contact_properties_list', { limit: 5, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.structuredContent.data.length).toBeLessThanOrEqual(5);
      seen.push(...page.structuredContent.data);
      cursor = page.structuredContent.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(properties);

    const bad = await call(client, 'themes_list', { cursor: 'not-a-cursor' });
    expect(bad.structuredContent.error).toMatchObject({ exitCode: 2, message: '"cursor" is not a nextCursor this tool gave' });
  });

  it('tells the account context as a resource', async () => {
    const client = await connect(['--sandbox', '--allow-writes']);
    const { resources } = await client.listResources();
    expect(resources.map(({ uri }) => uri)).toEqual(['loopsctl://context']);
    const { contents } = await client.readResource({ uri: 'loopsctl://context' });
    const context = JSON.parse((contents[0] as { text: string }).text);
    expect(context).toMatchObject({ sandbox: true, team: 'Acme Sandbox', keySource: 'sandbox', tier: 'write' });
    expect(context.tools).toContain('themes_create');
  });
});
