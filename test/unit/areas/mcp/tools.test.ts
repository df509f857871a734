/** The tools of `loopsctl mcp` as made from declarations: their schemas, tiers and the words a call runs. */
import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../../src/api/pacer.js';
import { behaviours } from '../../../../src/areas/behaviours.js';
import { callOf } from '../../../../src/areas/mcp/calls.js';
import { metaTools, search } from '../../../../src/areas/mcp/meta.js';
import { description, findTool, inputSchema, isTool, select, type Tool, toolsFrom } from '../../../../src/areas/mcp/tools.js';
import { specs } from '../../../../src/areas/registry.js';
import { CommandContext } from '../../../../src/core/context.js';
import { group, walkSpecs } from '../../../../src/core/declare.js';
import { Invoker } from '../../../../src/core/invoker.js';
import { startInProcessSandbox } from '../../../../src/emulator/index.js';
import { MAKE } from '../../../support/declared.js';
import { tempDir } from '../../../support/main.js';

const all = toolsFrom(specs);
const tool = (name: string): Tool => all.find((candidate) => candidate.name === name)!;

describe('a tool made from a declaration', () => {
  it('takes the types, choices, ranges, defaults and requirements of its arguments and options', () => {
    const declared = group({
      name: 'things',
      summary: 'things',
      examples: [],
      commands: [MAKE],
    });
    const [made] = toolsFrom([declared]);
    expect(made).toMatchObject({ name: 'things_make', tier: 'write', list: undefined });
    expect(inputSchema(made!, 'write')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1, description: 'its id' },
        more: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'others' },
        size: { type: 'integer', minimum: 1, maximum: 9, description: 'how big', default: 3 },
        kind: { type: 'string', enum: ['a', 'b'], description: 'which kind' },
        tag: { type: 'array', items: { type: 'string' }, description: 'a tag' },
        'dry-run': { type: 'boolean', description: 'do nothing' },
        'no-check': { type: 'boolean', description: 'skip the check' },
      },
      required: ['id', 'kind'],
      additionalProperties: false,
    });
    expect(Object.keys(inputSchema(made!, 'destructive').properties as object)).toContain('send');
    expect(description(made!, 'write')).toContain('{"id":"x","kind":"a"}');
  });

  it('turns an input into the command’s typed input, refusing what its schema does not take', () => {
    const send = tool('transactional_send');
    const caller = { invoker: undefined as never, tier: 'destructive' as const };
    const { input } = callOf(caller, send, {
      transactionalId: '-odd',
      to: 'ada@example.com',
      var: ['a=1', 'b:=2'],
      'add-to-audience': true,
      'idempotency-key': 'k',
    });
    expect(input).toEqual({ transactionalId: '-odd', to: 'ada@example.com', var: ['a=1', 'b:=2'], 'add-to-audience': true, 'idempotency-key': 'k' });
    expect(() => callOf(caller, send, { transactionalId: 'x', to: true })).toThrow('"to" must be a string, not boolean true');
    expect(() => callOf(caller, send, { transactionalId: 5, to: 'a@example.com' })).toThrow('"transactionalId" must be a string, not number 5');
    expect(() => callOf(caller, send, { transactionalId: 'x', to: 'a@example.com', cc: 'x' })).toThrow('has no input "cc"');
    expect(() => callOf(caller, send, { to: 'a@example.com' })).toThrow('needs the input "transactionalId"');
  });

  it('states the constraints on its inputs, and none on what is no input (--json, --lmx)', () => {
    expect(description(tool('contacts_find'), 'read')).toContain('At most one of "email", "user-id". At least one of "email", "user-id" is required.');
    expect(description(tool('event_patterns_get'), 'read')).toContain('At most one of "id", "name".');
    expect(description(tool('components_get'), 'read')).not.toContain('At most one');
    expect(description(tool('themes_list'), 'read')).not.toContain('At most one');
  });

  it('bounds lists by any limit up to 1000 and a cursor', () => {
    expect(tool('themes_list').list).toBe('pages');
    expect(tool('lists_list').list).toBe('array');
    expect(Object.keys(inputSchema(tool('themes_list'), 'read').properties as object)).toEqual(['limit', 'cursor']);
    const caller = { invoker: undefined as never, tier: 'read' as const };
    expect(callOf(caller, tool('themes_list'), { limit: 2, cursor: 'c' })).toMatchObject({ limit: 2, cursor: 'c', input: {} });
    expect(() => callOf(caller, tool('themes_list'), { limit: 5000 })).toThrow('from 1 to 1000');
    expect(() => callOf(caller, tool('themes_list'), { limit: '20' })).toThrow('"limit" must be a whole number');
  });
});

describe('local files', () => {
  it('are declared wherever a command that calls the API takes one, so that no tool reads or writes one unasked', () => {
    const undeclared = walkSpecs(specs)
      .filter(({ spec }) => isTool(spec))
      .flatMap(({ path, spec }) => [
        ...(spec.args ?? [])
          .filter((argument) => /^(file|dir|paths)$/.test(argument.name) && argument.file === undefined)
          .map(({ name }) => `${path.join(' ')} <${name}>`),
        ...(spec.options ?? [])
          .filter((option) => /<(file|path|dir)>/.test(option.flags) && option.file === undefined)
          .map(({ flags }) => `${path.join(' ')} ${flags}`),
      ]);
    expect(undeclared).toEqual([]);
  });

  it('are no input without a root: content is inline, and a command that needs a path is no tool', () => {
    const rootless = toolsFrom(specs, { sandbox: false });
    expect(rootless.map(({ name }) => name)).not.toContain('content_pull');
    const withRoot = toolsFrom(specs, { sandbox: false, root: '/somewhere' });
    expect(withRoot.find(({ name }) => name === 'content_pull')!.params.find(({ key }) => key === 'dir')).toMatchObject({
      required: true,
      file: { writes: true },
    });
    const paths = rootless.flatMap((made) => made.params.filter((param) => param.file !== undefined && param.file.inline === undefined));
    expect(paths).toEqual([]);
  });
});

describe('choosing the tools', () => {
  it('offers the tier and those below it, and --tools narrows by tool or group', () => {
    const reading = select(all, 'read', undefined).tools;
    expect(reading.length).toBeGreaterThan(10);
    expect(reading.filter(({ tier }) => tier !== 'read')).toEqual([]);
    expect(select(all, 'read', ['themes']).tools.map(({ name }) => name)).toEqual(['themes_list', 'themes_get']);
    const meta = select(all, 'write', ['meta']);
    expect(meta).toMatchObject({ tools: [], meta: true });
    expect(meta.reachable.some(({ name }) => name === 'themes_create')).toBe(true);
    expect(() => select(all, 'write', ['transactional_send'])).toThrow('is a destructive command');
    expect(() => select(all, 'read', [])).toThrow('--tools names no tool');
    expect(() => select(all, 'read', ['themes', 'themez'])).toThrow('--tools: no tool is named themez');
  });

  it('marks run_command read-only only when every command it reaches reads, and destructive when one may destroy', () => {
    const caller = { invoker: undefined as never, tier: 'read' as const };
    const hints = (tier: 'read' | 'write' | 'destructive', names?: string[]) => {
      const run = metaTools(all, select(all, tier, names), { ...caller, tier }, { sandbox: true }).find(({ name }) => name === 'run_command')!;
      return { readOnly: run.annotations.readOnlyHint, destructive: run.annotations.destructiveHint };
    };
    expect(hints('read')).toEqual({ readOnly: true, destructive: false });
    expect(hints('write', ['themes', 'meta'])).toEqual({ readOnly: false, destructive: false });
    expect(hints('destructive')).toEqual({ readOnly: false, destructive: true });
    expect(hints('destructive', ['themes', 'meta'])).toEqual({ readOnly: false, destructive: false });
  });

  it('takes an input given as null for one not given, as clients send them', () => {
    const caller = { invoker: undefined as never, tier: 'read' as const };
    const list = all.find(({ name }) => name === 'themes_list')!;
    expect(callOf(caller, list, { limit: null, cursor: null })).toMatchObject({ limit: 100, cursor: undefined });
  });

  it("refuses a call of a command above the server's tier, even one that reached it", () => {
    const destructive = all.find(({ name }) => name === 'contacts_delete')!;
    expect(() => callOf({ invoker: undefined as never, tier: 'write' }, destructive, {})).toThrow(
      expect.objectContaining({ message: 'contacts_delete is a destructive command', hint: 'the server must be started with --allow-destructive' }),
    );
  });

  it('finds a command by tool name, words or alias, and searches by the words of a task', () => {
    expect(findTool(all, 'email messages get')?.name).toBe('email_messages_get');
    expect(findTool(all, 'themes ls')?.name).toBe('themes_list');
    expect(search(all, 'send a transactional email')[0]!.name).toBe('transactional_send');
  });
});

describe('the runs of calls', () => {
  it('share one client and keep to one pace, as the requests of one run do', async () => {
    const pacer = new Pacer();
    let turns = 0;
    const turn = pacer.turn.bind(pacer);
    pacer.turn = (signal) => {
      turns += 1;
      return turn(signal);
    };
    const runtime = {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: { LOOPSCTL_CONFIG_DIR: tempDir() },
      now: () => new Date(),
      signal: new AbortController().signal,
      platform: process.platform,
      pacer,
      startSandbox: startInProcessSandbox,
    };
    const context = new CommandContext(runtime, { sandbox: true, color: false, timeout: 30, retries: 3 });
    const invoker = new Invoker(specs, behaviours, context);
    try {
      const listed = await invoker.invoke(['themes', 'list'], { limit: 20, 'per-page': 10 });
      expect(listed.error).toBeUndefined();
      expect(turns).toBe(2);
      const id = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
      const got = await invoker.invoke(['themes', 'get'], { id });
      expect(JSON.parse(got.stdout)).toMatchObject({ id });
      expect(turns).toBe(3);
      expect((await invoker.invoke(['themes', 'get'], {})).error?.message).toBe("missing required argument 'id'");
    } finally {
      await context.close();
    }
  });
});

describe('the inputs every write takes', () => {
  it('offer dry-run to an agent, never allow-writes: only the person starting the server overrides a read-only profile', () => {
    const create = findTool(all, 'themes_create')!;
    expect(create.params.map(({ key }) => key)).toContain('dry-run');
    expect(create.params.map(({ key }) => key)).not.toContain('allow-writes');
    expect(() => callOf({ invoker: undefined as never, tier: 'write' }, create, { name: 'X', 'allow-writes': true })).toThrow(
      'themes_create has no input "allow-writes"',
    );
  });
});
