/**
 * What a tool takes and what it says of itself, as served: a JSON object input (`vars`, `props`)
 * taken as an object as well as its text, and a tool's hints at the tier it is served at.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { type McpRun, startMcp } from '../../../support/mcp.js';

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

async function serve(args: string[], config = tempDir()) {
  const mcp = await startMcp(args, { env: { LOOPSCTL_CONFIG_DIR: config } });
  running.push(mcp);
  return mcp;
}

type Answer = { isError?: boolean; content: { text: string }[]; structuredContent?: any };

describe('a JSON object input', () => {
  it('is taken as an object, or as its JSON text, and nothing else', async () => {
    const config = tempDir();
    const mcp = await serve(['--sandbox', '--allow-destructive'], config);
    const vars = { firstName: 'Ada', resetUrl: 'https://example.com/r/1', expiresInMinutes: 30 };
    const send = (given: unknown, key: string) =>
      mcp.client.callTool({
        name: 'transactional_send',
        arguments: { transactionalId: 'c1h3243uwicgpgajrgexlzdl5', to: 'ada@example.com', vars: given, 'idempotency-key': key },
      }) as Promise<Answer>;
    const asObject = await send(vars, 'vars-object');
    expect(asObject.isError, asObject.content[0]!.text).toBeFalsy();
    const asText = await send(JSON.stringify(vars), 'vars-text');
    expect(asText.isError, asText.content[0]!.text).toBeFalsy();
    const sent = (await run(['sandbox', 'outbox', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<
      { idempotencyKey?: string; dataVariables?: Record<string, unknown> }[]
    >();
    for (const key of ['vars-object', 'vars-text']) expect(sent.find((message) => message.idempotencyKey === key)?.dataVariables).toEqual(vars);
    const wrong = await send(['Ada'], 'vars-array');
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent.error.message).toBe('"vars" must be an object, or its JSON text, not an array');
  });

  it('says so in its schema', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const { tools } = await mcp.client.listTools();
    const input = (tool: string, key: string) => (tools.find(({ name }) => name === tool)!.inputSchema.properties as Record<string, { type: unknown }>)[key];
    for (const [tool, key] of [
      ['transactional_send', 'vars'],
      ['email_messages_preview', 'vars'],
      ['contacts_create', 'props'],
      ['events_send', 'props'],
    ])
      expect(input(tool, key)?.type, `${tool} ${key}`).toEqual(['object', 'string']);
  });
});

describe("a tool's hints", () => {
  it('describe it as served: a campaign tool is destructive where its schedule input is offered', async () => {
    const hints = async (args: string[]) => {
      const { tools } = await (await serve(['--sandbox', ...args])).client.listTools();
      return Object.fromEntries(tools.filter(({ name }) => name.startsWith('campaigns_')).map(({ name, annotations }) => [name, annotations!.destructiveHint]));
    };
    expect(await hints(['--allow-writes'])).toMatchObject({ campaigns_create: false, campaigns_update: false });
    expect(await hints(['--allow-destructive'])).toMatchObject({ campaigns_create: true, campaigns_update: true });
  });
});
