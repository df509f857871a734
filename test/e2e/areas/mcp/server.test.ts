/**
 * `loopsctl mcp` run in-process through main(), driven by the protocol SDK's own client: the tools'
 * schemas and annotations, typed inputs, inline content and the root, tiers, bounded answers, and
 * the bad input an agent may send (wrong types, unknown inputs, huge strings, paths outside the
 * root, concurrent, cancelled and abandoned calls).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { json, startApiServer } from '../../../support/api-server.js';
import { run, tempDir } from '../../../support/main.js';
import { type McpRun, outputChecks, startMcp } from '../../../support/mcp.js';
import { setMember, stateFileIn } from '../../../support/state-file.js';

const running: McpRun[] = [];
afterEach(async () => {
  for (const mcp of running.splice(0)) await mcp.close();
});

type Answer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

async function serve(
  args: string[],
  config = tempDir(),
): Promise<McpRun & { config: string; call: (name: string, input?: Record<string, unknown>) => Promise<Answer> }> {
  const mcp = await startMcp(args, { env: { LOOPSCTL_CONFIG_DIR: config } });
  running.push(mcp);
  return { ...mcp, config, call: async (name, input = {}) => (await mcp.client.callTool({ name, arguments: input })) as Answer };
}

const outbox = async (config: string) =>
  (await run(['sandbox', 'outbox', '--json'], { env: { LOOPSCTL_CONFIG_DIR: config } })).json<{ to?: string; idempotencyKey?: string }[]>();

/** Control characters a terminal acts on: C0 but tab and line ends, DEL and C1. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('the tools as an agent sees them', () => {
  it('carry true annotations and schemas that compile; every read tool answers what its output schema says', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const { tools } = await mcp.client.listTools();
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ title: expect.any(String) });
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
        expect(typeof tool.annotations![hint], `${tool.name} ${hint}`).toBe('boolean');
      ajv.compile(tool.inputSchema);
      // The client compiled the output schema at the listing, to check each answer against it.
      if (tool.outputSchema !== undefined) expect(ajv.validateSchema(tool.outputSchema), `${tool.name} ${ajv.errorsText()}`).toBe(true);
      // Under --sandbox nothing leaves the machine.
      expect(tool.annotations!.openWorldHint).toBe(false);
      // A description names no flag: the inputs are the tool's own.
      expect(tool.description, tool.name).not.toMatch(/(?<![\w-])--[a-z]/);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('themes_list')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('themes_create')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // Its styles reach the live emails that use the theme: its `live` input is of the destructive tier.
    expect(byName.get('themes_update')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('transactional_send')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    // Output schemas made from the zod shapes of the API's records.
    const theme = (byName.get('themes_get')!.outputSchema as any).anyOf[0];
    expect(theme.required).toEqual(expect.arrayContaining(['id', 'name', 'styles']));
    const listed = (byName.get('themes_list')!.outputSchema as any).anyOf[0].properties.data.items;
    expect(listed).toEqual(theme);

    // Every read tool, called with the examples its description gives, answers within its output schema.
    const reads = tools.filter((tool) => tool.annotations!.readOnlyHint && tool.outputSchema !== undefined);
    expect(reads.length).toBeGreaterThan(20);
    let validated = 0;
    for (const tool of reads) {
      const validate = outputChecks.getValidator(tool.outputSchema!);
      const examples = (tool.description ?? '')
        .split('\n')
        .filter((line) => line.startsWith('  {'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const input of examples.length > 0 ? examples : [{}]) {
        // The SDK's client refuses an answer that does not fit the output schema.
        const answer = await mcp.call(tool.name, input);
        if (answer.isError) continue;
        const checked = validate(answer.structuredContent);
        expect(checked.valid, `${tool.name} ${checked.errorMessage}`).toBe(true);
        validated += 1;
      }
    }
    expect(validated).toBeGreaterThan(reads.length);
  });

  it('offer a presentation as an input whose answer is that text', async () => {
    const mcp = await serve(['--sandbox']);
    const drawn = await mcp.call('workflow_show', { id: 'cnm1gv0otq1z57mnend2pws3y', format: 'mermaid' });
    expect(drawn.isError, drawn.content[0]!.text).toBeFalsy();
    expect(drawn.structuredContent.text).toMatch(/^flowchart/);
    const dot = await mcp.call('workflow_show', { id: 'cnm1gv0otq1z57mnend2pws3y', format: 'dot' });
    expect(dot.structuredContent.text).toMatch(/^digraph/);
    const data = await mcp.call('workflow_show', { id: 'cnm1gv0otq1z57mnend2pws3y' });
    expect(data.structuredContent.id).toBe('cnm1gv0otq1z57mnend2pws3y');
  });

  it('answer resources/templates/list and prompts/list, and a tool that is not here once, in plain words', async () => {
    const mcp = await serve(['--sandbox']);
    expect(await mcp.client.listResourceTemplates()).toMatchObject({ resourceTemplates: [] });
    expect(await mcp.client.listPrompts()).toMatchObject({ prompts: [] });
    const refused = mcp.client.callTool({ name: 'themes_create', arguments: { name: 'x' } });
    await expect(refused).rejects.toThrow(/^MCP error -32602: no tool themes_create here: the server was started without --allow-writes$/);
  });
});

describe('typed inputs', () => {
  it('refuses a number for an id, an unknown input and a wrong type as tool errors with exit code 2, and sends nothing', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const number = await mcp.call('themes_get', { id: 5 });
    expect(number).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2, message: '"id" must be a string, not number 5' } } });
    const unknown = await mcp.call('themes_get', { id: 'x', colour: 'red' });
    expect(unknown.structuredContent.error).toMatchObject({ exitCode: 2, message: 'themes_get has no input "colour"' });
    const send = await mcp.call('transactional_send', { transactionalId: 'c1h3243uwicgpgajrgexlzdl5', to: 'ada@example.com', 'add-to-audience': 'yes' });
    expect(send.structuredContent.error).toMatchObject({ exitCode: 2, message: '"add-to-audience" must be true or false, not "yes"' });
    expect(await outbox(mcp.config)).toEqual([]);
  });

  it('takes any limit and continues by cursor', async () => {
    const mcp = await serve(['--sandbox']);
    const all = (await run(['--sandbox', 'themes', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: mcp.config } })).json<{ id: string }[]>();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await mcp.call('themes_list', { limit: 7, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.isError, page.content[0]!.text).toBeFalsy();
      expect(page.structuredContent.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.structuredContent.data.map(({ id }: { id: string }) => id));
      cursor = page.structuredContent.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(all.map(({ id }) => id));
    const two = await mcp.call('themes_list', { limit: 2 });
    expect(two.structuredContent.data).toHaveLength(2);
    // No link to a page of the sandbox: the cursor is all there is.
    expect(JSON.stringify(two)).not.toContain('127.0.0.1');
  });

  it('speaks of the inputs in hints, not of flags', async () => {
    const mcp = await serve(['--sandbox']);
    const both = await mcp.call('contacts_find', { email: 'ada@example.com', 'user-id': 'usr_ada' });
    expect(both.structuredContent.error).toMatchObject({ exitCode: 2, message: '"email" and "user-id" cannot be used together' });
  });

  it('describes content given inline without a file or stdin, and other inputs by their names', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const { tools } = await mcp.client.listTools();
    const inputs = (name: string) => tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, { description: string }>;
    let inline = 0;
    for (const tool of tools)
      for (const [key, input] of Object.entries(tool.inputSchema.properties as Record<string, Record<string, any>>)) {
        const content = input.maxLength === 262144 || input.contentEncoding === 'base64' || input.items?.properties?.data !== undefined;
        if (!content) continue;
        inline += 1;
        expect(input.description, `${tool.name} ${key}`).not.toMatch(/\bfiles?\b|stdin|(?<![\w-])--[a-z]|(^|\s)"?-"?(\s|$)/);
      }
    expect(inline).toBeGreaterThan(10);
    expect(inputs('transactional_send').vars!.description).toBe('data variables as a JSON object; "var" wins');
    expect(inputs('events_send')['contact-prop']!.description).toBe(
      "a contact property to set: name=value, read as the property's type, or name:=<json> (repeatable)",
    );
    expect(inputs('api').method!.description).toBe('HTTP method (default GET, or POST when fields or "body" are given without "paginate")');
  });

  it('leaves a command line that a hint quotes whole', async () => {
    const mcp = await serve(['--sandbox']);
    const missing = await mcp.call('contacts_find', { email: 'nobody@example.com' });
    expect(missing.structuredContent.error).toMatchObject({
      exitCode: 4,
      message: 'no contact with nobody@example.com',
      hint: 'create one with `loopsctl contacts create --email <email>`',
    });
    expect(missing.content[0]!.text).toContain('`loopsctl contacts create --email <email>`');
  });
});

describe('content inline, files only under the root', () => {
  it('offers no file tool without --root, and takes content inline', async () => {
    const mcp = await serve(['--sandbox', '--allow-writes']);
    const names = (await mcp.client.listTools()).tools.map(({ name }) => name);
    expect(names).not.toContain('content_pull');
    const component = (await mcp.client.listTools()).tools.find(({ name }) => name === 'components_create')!;
    expect(Object.keys(component.inputSchema.properties!)).toContain('lmx');
    expect(Object.keys(component.inputSchema.properties!)).not.toContain('lmx-file');
    const created = await mcp.call('components_create', { name: 'Agent footer', lmx: '<Paragraph>Sent by an agent</Paragraph>' });
    expect(created.isError, created.content[0]!.text).toBeFalsy();
    const got = await mcp.call('components_get', { id: created.structuredContent.id, lmx: true });
    expect(got.structuredContent.text).toContain('Sent by an agent');
  });

  it('says which inline content is not JSON once, without a file name', async () => {
    const mcp = await serve(['--sandbox', '--allow-writes']);
    const refused = await mcp.call('themes_create', { name: 'Broken', styles: '{not json' });
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2, hint: 'give the styles as a JSON object' } } });
    expect(refused.structuredContent.error.message).toMatch(/^the styles cannot be read as JSON: /);
  });

  it('refuses 1 MB of LMX before anything is sent', async () => {
    const mcp = await serve(['--sandbox', '--allow-writes']);
    const before = (await mcp.call('components_list', { limit: 1000 })).structuredContent.data.length;
    const huge = await mcp.call('components_create', { name: 'Huge', lmx: `<Paragraph>${'x'.repeat(1024 * 1024)}</Paragraph>` });
    expect(huge).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2, message: '"lmx" is longer than 262144 characters (1048599)' } } });
    expect((await mcp.call('components_list', { limit: 1000 })).structuredContent.data.length).toBe(before);
  });

  it('checks an allow-list given as text, and reads no file it is named', async () => {
    const mcp = await serve(['--sandbox']);
    const tool = (await mcp.client.listTools()).tools.find(({ name }) => name === 'ips_check')!;
    expect(Object.keys(tool.inputSchema.properties!)).toEqual(['allow-list']);
    // --plain and --cidr change only the text view; the tool answers the JSON, so they are no inputs.
    const list = (await mcp.client.listTools()).tools.find(({ name }) => name === 'ips_list')!;
    expect(Object.keys(list.inputSchema.properties!)).toEqual(['limit', 'cursor']);
    expect((await mcp.call('ips_list', { cidr: true })).structuredContent.error).toMatchObject({ exitCode: 2, message: 'ips_list has no input "cidr"' });
    const ips = (await mcp.call('ips_list', {})).structuredContent.data as string[];
    const matching = await mcp.call('ips_check', { 'allow-list': `${ips.join('\n')}\n` });
    expect(matching.isError, matching.content[0]!.text).toBeFalsy();
    const secret = join(tempDir(), '.npmrc');
    writeFileSync(secret, '//registry.example.com/:_authToken=DATABASE_PASSWORD_123\n');
    const named = await mcp.call('ips_check', { 'allow-list': secret });
    expect(named.isError).toBe(true);
    expect(JSON.stringify(named)).not.toContain('DATABASE_PASSWORD_123');
  });

  it('with --root, pulls content under it and refuses paths that lead outside', async () => {
    const root = tempDir();
    const outside = tempDir();
    symlinkSync(outside, join(root, 'elsewhere'));
    const mcp = await serve(['--sandbox', '--root', root]);
    const pull = (await mcp.client.listTools()).tools.find(({ name }) => name === 'content_pull')!;
    expect(pull.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const dir of ['../escape', outside, join(outside, 'loops'), 'elsewhere/loops']) {
      const refused = await mcp.call('content_pull', { dir });
      expect(refused, dir).toMatchObject({
        isError: true,
        structuredContent: { error: { exitCode: 2, message: `"dir" "${dir}" is outside the directory this server may use` } },
      });
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(join(root, '..', 'escape'))).toBe(false);
    const pulled = await mcp.call('content_pull', { dir: 'loops' });
    expect(pulled.isError, pulled.content[0]!.text).toBeFalsy();
    expect(readdirSync(join(root, 'loops'))).toContain('components');
  });

  it('renders under the root: only the file is asked for, a theme by path stays inside, a theme by id is looked up', async () => {
    const root = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, 'theme.json'), '{"name": "outside", "styles": {}}');
    const mcp = await serve(['--sandbox', '--allow-writes', '--root', root]);
    const render = (await mcp.client.listTools()).tools.find(({ name }) => name === 'content_render')!;
    expect(render.inputSchema.required).toEqual(['file']);
    expect((render.inputSchema.properties as Record<string, { description: string }>).theme.description).toMatch(
      /^a path under the server's root directory, or an id/,
    );
    expect((await mcp.call('content_pull', { dir: 'loops' })).isError).toBeFalsy();
    const email = join('loops', 'transactional', readdirSync(join(root, 'loops', 'transactional'))[0]!, 'draft.lmx');
    for (const theme of [join(outside, 'theme.json'), '../theme.json']) {
      const refused = await mcp.call('content_render', { file: email, theme });
      expect(refused, theme).toMatchObject({
        isError: true,
        structuredContent: { error: { exitCode: 2, message: expect.stringContaining('is outside the directory this server may use') } },
      });
    }
    const themeId = /--(\w+)$/.exec(readdirSync(join(root, 'loops', 'themes'))[0]!)![1]!;
    const rendered = await mcp.call('content_render', { file: email, theme: themeId });
    expect(rendered.isError, rendered.content[0]!.text).toBeFalsy();
    expect(rendered.content[0]!.text).toContain('<!DOCTYPE html');
    const unknown = await mcp.call('content_render', { file: email, theme: 'nosuchtheme' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.content[0]!.text).toContain('"theme" nosuchtheme: no such file, and no theme with this id in the pulled tree');
  });
});

describe('files under the root, never reached through a link', () => {
  const FOOTER = 'loops/components/footer--cmp1';
  const WELCOME = 'loops/transactional/welcome--cx1';

  /** A root holding a small pulled tree, and a secret file outside it. */
  function rootWithTree(): { root: string; secret: string; outside: string } {
    const root = tempDir();
    const outside = tempDir();
    const files: Record<string, string> = {
      [`${WELCOME}/transactional.json`]: '{"name":"Welcome"}\n',
      [`${WELCOME}/draft.lmx`]: '<H1>Welcome</H1>\n<Component componentId="cmp1" />\n',
      [`${FOOTER}/component.json`]: '{"name":"Footer"}\n',
      [`${FOOTER}/component.lmx`]: '<Paragraph>Acme Inc</Paragraph>\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const secret = join(outside, 'environ');
    writeFileSync(secret, '<Paragraph>LOOPS_API_KEY=test-key-not-real-but-secret</Paragraph>\n');
    return { root, secret, outside };
  }

  it("a read-tier content_render's out: a dangling link, or a link to a file inside, is refused and nothing is written", async () => {
    const { root, outside } = rootWithTree();
    const keys = join(outside, 'authorized_keys');
    symlinkSync(keys, join(root, 'preview.html'));
    writeFileSync(join(root, 'notes.txt'), 'mine\n');
    symlinkSync(join(root, 'notes.txt'), join(root, 'inner.html'));
    const mcp = await serve(['--sandbox', '--root', root]);
    for (const out of ['preview.html', 'inner.html']) {
      const refused = await mcp.call('content_render', { file: `${WELCOME}/draft.lmx`, out });
      expect(refused, out).toMatchObject({
        isError: true,
        structuredContent: { error: { exitCode: 2, message: expect.stringMatching(/symbolic link/) } },
      });
    }
    expect(existsSync(keys)).toBe(false);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('mine\n');
    const written = await mcp.call('content_render', { file: `${WELCOME}/draft.lmx`, out: 'welcome.html' });
    expect(written.isError, written.content[0]!.text).toBeFalsy();
    expect(readFileSync(join(root, 'welcome.html'), 'utf8')).toContain('Acme Inc');
  });

  it('content_render refuses a component of the tree that is a link, and answers nothing of what it points at', async () => {
    const { root, secret } = rootWithTree();
    rmSync(join(root, FOOTER, 'component.lmx'));
    symlinkSync(secret, join(root, FOOTER, 'component.lmx'));
    const mcp = await serve(['--sandbox', '--root', root]);
    const refused = await mcp.call('content_render', { file: `${WELCOME}/draft.lmx` });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { error: { exitCode: 2, message: expect.stringContaining('component.lmx is a symbolic link') } },
    });
    expect(JSON.stringify(refused)).not.toContain('test-key-not-real');
  });

  it('refuses an input that passes through a link under the root, even one that stays inside', async () => {
    const { root } = rootWithTree();
    symlinkSync(join(root, 'loops'), join(root, 'same'));
    const mcp = await serve(['--sandbox', '--root', root]);
    const refused = await mcp.call('content_render', { file: `same/transactional/welcome--cx1/draft.lmx` });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: { error: { exitCode: 2, message: expect.stringContaining('passes through a symbolic link (same)') } },
    });
  });
});

describe('tiers', () => {
  it('refuses a campaign schedule below the destructive tier, and sends nothing', async () => {
    const mcp = await serve(['--sandbox', '--allow-writes']);
    const tool = (await mcp.client.listTools()).tools.find(({ name }) => name === 'campaigns_update')!;
    expect(Object.keys(tool.inputSchema.properties!)).not.toContain('schedule');
    const refused = await mcp.call('campaigns_update', { id: 'cb9tvk4yur8c4puvh4crvzir7', schedule: 'now' });
    expect(refused).toMatchObject({
      isError: true,
      structuredContent: {
        error: {
          exitCode: 2,
          message: '"schedule" makes campaigns_update a destructive call, which this server does not allow',
          hint: expect.stringContaining('--allow-destructive'),
        },
      },
    });
    expect(await outbox(mcp.config)).toEqual([]);
  });

  it('holds the writes of a call given dry-run, and sends nothing', async () => {
    const mcp = await serve(['--sandbox', '--allow-writes']);
    const before = (await mcp.call('themes_list', { limit: 1000 })).structuredContent.data.length;
    const held = await mcp.call('themes_create', { name: 'Only a plan', 'dry-run': true });
    expect(held.isError, held.content[0]!.text).toBeFalsy();
    expect((await mcp.call('themes_list', { limit: 1000 })).structuredContent.data.length).toBe(before);
    const made = await mcp.call('themes_create', { name: 'Made' });
    expect(made.isError, made.content[0]!.text).toBeFalsy();
    expect((await mcp.call('themes_list', { limit: 1000 })).structuredContent.data.length).toBe(before + 1);
  });

  it('puts a contact’s creation, which can start workflows that email it, in the destructive tier', async () => {
    const writes = await serve(['--sandbox', '--allow-writes']);
    const names = (await writes.client.listTools()).tools.map(({ name }) => name);
    expect(names).not.toContain('contacts_create');
    expect(names).not.toContain('contacts_update');
  });

  it('keeps run_command to the tools --tools names, with meta', async () => {
    const mcp = await serve(['--sandbox', '--tools', 'themes_get,meta']);
    const theme = (await run(['--sandbox', 'themes', 'list', '--json'], { env: { LOOPSCTL_CONFIG_DIR: mcp.config } })).json<{ id: string }[]>()[0]!;
    const got = await mcp.call('run_command', { command: 'themes get', arguments: { id: theme.id } });
    expect(got.structuredContent.id).toBe(theme.id);
    const other = await mcp.call('run_command', { command: 'themes list', arguments: {} });
    expect(other).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2, message: expect.stringContaining('not among the commands') } } });
    const wrongType = await mcp.call('search_commands', { query: 3 });
    expect(wrongType).toMatchObject({ isError: true, structuredContent: { error: { exitCode: 2, message: '"query" must be a string, not number 3' } } });
  });
});

describe('the server', () => {
  it('keeps one sandbox for 50 read calls', async () => {
    let sandboxes = 0;
    const mcp = await startMcp(['--sandbox'], { onSandboxStart: () => void (sandboxes += 1) });
    running.push(mcp);
    for (let call = 0; call < 50; call += 1) expect((await mcp.client.callTool({ name: 'themes_list', arguments: { limit: 1 } })).isError).toBeFalsy();
    expect(sandboxes).toBe(1);
    // At the API's pace of 10 requests a second, 50 calls take 5 seconds however fast each is.
  });

  it('answers 20 concurrent calls, each send once', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const sends = Array.from({ length: 20 }, (_, index) =>
      mcp.call('transactional_send', {
        transactionalId: 'c1h3243uwicgpgajrgexlzdl5',
        to: `agent${index}@example.com`,
        var: ['firstName=A', 'resetUrl=https://example.com/r', 'expiresInMinutes:=5'],
        'idempotency-key': `concurrent-${index}`,
      }),
    );
    const answers = await Promise.all(sends);
    expect(answers.filter((answer) => answer.isError).map((answer) => answer.content[0]!.text)).toEqual([]);
    const sent = (await outbox(mcp.config)).filter(({ idempotencyKey }) => idempotencyKey?.startsWith('concurrent-'));
    expect(sent).toHaveLength(20);
  });

  it('stays up after a cancelled call, which is sent at most once', async () => {
    const mcp = await serve(['--sandbox', '--allow-destructive']);
    const cancel = new AbortController();
    const input = {
      transactionalId: 'c1h3243uwicgpgajrgexlzdl5',
      to: 'cancel@example.com',
      var: ['firstName=A', 'resetUrl=https://example.com/r', 'expiresInMinutes:=5'],
      'idempotency-key': 'cancelled-1',
    };
    const cancelled = mcp.client.callTool({ name: 'transactional_send', arguments: input }, undefined, { signal: cancel.signal });
    cancel.abort('the agent changed its mind');
    await expect(cancelled).rejects.toThrow();
    expect((await mcp.call('themes_list', { limit: 1 })).isError).toBeFalsy();
    expect((await outbox(mcp.config)).filter(({ idempotencyKey }) => idempotencyKey === 'cancelled-1').length).toBeLessThanOrEqual(1);
  });

  it('ends cleanly when the client goes away in the middle of a call', async () => {
    const config = tempDir();
    const mcp = await startMcp(['--sandbox', '--allow-destructive'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    const input = {
      transactionalId: 'c1h3243uwicgpgajrgexlzdl5',
      to: 'gone@example.com',
      var: ['firstName=A', 'resetUrl=https://example.com/r', 'expiresInMinutes:=5'],
      'idempotency-key': 'abandoned-1',
    };
    const pending = mcp.client.callTool({ name: 'transactional_send', arguments: input }).catch(() => 'closed');
    const result = await mcp.close();
    await pending;
    expect(result.code, result.stderr).toBe(0);
    expect((await outbox(config)).filter(({ idempotencyKey }) => idempotencyKey === 'abandoned-1').length).toBeLessThanOrEqual(1);
  });

  it('says on stderr at start its tier, team and root, and refuses to start without a key', async () => {
    const root = tempDir();
    const mcp = await serve(['--sandbox', '--allow-writes', '--root', root]);
    expect(mcp.stderr()).toMatch(
      new RegExp(
        `^loopsctl mcp: \\d+ tools, and search_commands, describe_command and run_command; reading, creating and updating; the sandbox, team "Acme Sandbox"; files under ${root}\\n$`,
      ),
    );
    const metaOnly = await serve(['--sandbox', '--tools', 'meta']);
    expect(metaOnly.stderr()).toContain('only search_commands, describe_command and run_command');
    const one = await serve(['--sandbox', '--tools', 'themes_list']);
    expect(one.stderr()).toMatch(/^loopsctl mcp: 1 tool; reading only; /);
    const keyless = await run(['mcp'], { env: { LOOPS_API_KEY: undefined }, input: '' });
    expect(keyless.code).toBe(3);
    expect(keyless.stderr).toContain('no API key');
  });

  it('refuses to start with a key the API refuses, which would fail every call, and starts when the API cannot be reached', async () => {
    const api = await startApiServer({ 'GET /v1/api-key': (_req, res) => json(res, 401, { message: 'Invalid API key' }) });
    try {
      const refused = await run(['mcp'], { env: { LOOPS_API_KEY: 'wrong-key', LOOPS_BASE_URL: api.url }, input: '' });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('Error: Invalid API key');
      expect(refused.stderr).toContain('LOOPS_API_KEY');
      expect(refused.stderr).not.toContain('loopsctl mcp:');
    } finally {
      await api.close();
    }
    // No answer at all is no verdict on the key: the server starts, and says the team is unknown.
    const mcp = await startMcp(['--retries', '0'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: 'http://127.0.0.1:9' } });
    running.push(mcp);
    expect(mcp.stderr()).toContain('team unknown');
    expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(20);
  });

  it('answers the handshake after one --timeout when the API does not answer, rather than after every retry', async () => {
    const waiting: ServerResponse[] = [];
    const api = await startApiServer({ 'GET /v1/api-key': (_req, res) => void waiting.push(res) });
    try {
      const mcp = await startMcp(['--timeout', '1'], { env: { LOOPS_API_KEY: 'test-key', LOOPS_BASE_URL: api.url } });
      running.push(mcp);
      expect(mcp.stderr()).toContain('team unknown (GET /v1/api-key: no answer within 1 s; the calls will ask again)');
      expect(api.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /v1/api-key']);
      expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(20);
      // The context resource asks once more, as briefly.
      const [resource] = (await mcp.client.readResource({ uri: 'loopsctl://context' })).contents;
      expect(JSON.parse((resource as { text: string }).text)).toMatchObject({
        team: null,
        error: { exitCode: 7, message: 'GET /v1/api-key: no answer within 1 s; the calls will ask again' },
      });
      expect(api.requests).toHaveLength(2);
      await running.pop()!.close();
    } finally {
      for (const res of waiting) json(res, 503, { message: 'gone' });
      await api.close();
    }
  });

  it('logs each call with its secrets and content masked', async () => {
    const log = join(tempDir(), 'calls.jsonl');
    const mcp = await serve(['--sandbox', '--allow-writes', '--log', log]);
    await mcp.call('components_create', { name: 'Logged', lmx: '<Paragraph>secret words</Paragraph>' });
    await mcp.call('themes_get', { id: 'c0000000000000000000notfnd' });
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      {
        tool: 'components_create',
        arguments: { name: 'Logged', lmx: expect.stringMatching(/^<\d+ characters>$/) },
        outcome: 'ok',
        ms: expect.any(Number),
        time: expect.any(String),
      },
      { tool: 'themes_get', outcome: { exitCode: 4, message: 'theme c0000000000000000000notfnd not found' } },
    ]);
    expect(readFileSync(log, 'utf8')).not.toContain('secret words');
  });

  it('refuses a log it cannot write at the start, and answers a call that ran when its line cannot be written', async () => {
    const missing = join(tempDir(), 'no-such-directory', 'calls.jsonl');
    const refused = await run(['mcp', '--sandbox', '--log', missing], { input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Error: --log ${missing} cannot be written: ENOENT`);
    expect(refused.stderr).not.toContain('loopsctl mcp:');

    const directory = join(tempDir(), 'logs');
    mkdirSync(directory);
    const mcp = await serve(['--sandbox', '--allow-destructive', '--log', join(directory, 'calls.jsonl')]);
    rmSync(directory, { recursive: true });
    // The send is made: its answer reaches the agent, which would otherwise send it again.
    const sent = await mcp.call('events_send', { eventName: 'logged_or_not', email: 'ada@example.com' });
    expect(sent.isError, sent.content[0]!.text).toBeFalsy();
    expect(sent.structuredContent).toMatchObject({ success: true });
    expect(mcp.stderr()).toContain(`a call could not be logged in ${join(directory, 'calls.jsonl')} (ENOENT`);
    expect((await mcp.call('themes_list', { limit: 1 })).isError).toBeFalsy();
    expect(mcp.stderr().match(/could not be logged/g)).toHaveLength(1);
  });

  it('escapes control characters of the API’s text in errors and in the context resource', async () => {
    const config = tempDir();
    // A team name with a C1 CSI, an OSC and a bell, as an account could hold it.
    await run(['--sandbox', 'themes', 'list'], { env: { LOOPSCTL_CONFIG_DIR: config } });
    setMember(stateFileIn(config), 'teamName', JSON.stringify('Acme\u009b2J\u001b]0;owned\u0007 Team'));
    const mcp = await serve(['--sandbox'], config);
    const answer = await mcp.call('contacts_find', { email: 'ada\u009b2J@example.com' });
    expect(answer.isError).toBe(true);
    expect(answer.structuredContent.error.message).toContain('ada\\x9b2J@example.com');
    expect(JSON.stringify(answer.structuredContent)).not.toMatch(CONTROL);
    expect(answer.content[0]!.text).not.toMatch(CONTROL);
    const { contents } = await mcp.client.readResource({ uri: 'loopsctl://context' });
    const text = (contents[0] as { text: string }).text;
    expect(JSON.parse(text).team).toBe('Acme\\x9b2J\\x1b]0;owned\\x07 Team');
    expect(text).not.toMatch(CONTROL);
    expect(mcp.stderr()).not.toMatch(CONTROL);
    // In data, the text carries them as JSON escapes: the same value, nothing a terminal acts on.
    const status = await mcp.call('auth_status', {});
    expect(status.content[0]!.text).not.toMatch(CONTROL);
    expect(JSON.parse(status.content[0]!.text).teamName).toBe('Acme\u009b2J\u001b]0;owned\u0007 Team');
  });
});
