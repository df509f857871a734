/** The tools of `loopsctl mcp` as made from declarations: their schemas, tiers and the words a call runs. */
import { describe, expect, it } from 'vitest';
import { specs } from '../../src/areas/registry.js';
import { Pacer } from '../../src/api/pacer.js';
import { commandWords, pageSizeDividing, runCaptured } from '../../src/areas/mcp/calls.js';
import { search } from '../../src/areas/mcp/meta.js';
import { description, findTool, inputSchema, select, toolsFrom, type Tool } from '../../src/areas/mcp/tools.js';
import { command, group, integerIn } from '../../src/core/declare.js';
import { tempDir } from '../support/main.js';

const all = toolsFrom(specs);
const tool = (name: string): Tool => all.find((candidate) => candidate.name === name)!;

describe('a tool made from a declaration', () => {
  it('takes the types, choices, ranges, defaults and requirements of its arguments and options', () => {
    const declared = group({
      name: 'things',
      summary: 'things',
      examples: [],
      commands: [
        command({
          name: 'make',
          summary: 'Make a thing',
          args: [{ name: 'id', description: 'its id' }, { name: 'more', description: 'others', variadic: true, required: false }],
          options: [
            { flags: '--size <n>', description: 'how big', parse: integerIn(1, 9), default: 3 },
            { flags: '--kind <kind>', description: 'which kind', choices: ['a', 'b'], required: true },
            { flags: '--tag <tag>', description: 'a tag', repeatable: true },
            { flags: '--dry-run', description: 'do nothing' },
            { flags: '--send', description: 'send it', tier: 'destructive' },
          ],
          examples: ['loopsctl things make x --kind a'],
          remote: true,
          tier: 'write',
          load: async () => async () => {},
        }),
      ],
    });
    const [made] = toolsFrom([declared]);
    expect(made).toMatchObject({ name: 'things_make', tier: 'write', list: undefined });
    expect(inputSchema(made!, 'write')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'its id' },
        more: { type: 'array', items: { type: 'string' }, description: 'others' },
        size: { type: 'integer', minimum: 1, maximum: 9, description: 'how big', default: 3 },
        kind: { type: 'string', enum: ['a', 'b'], description: 'which kind' },
        tag: { type: 'array', items: { type: 'string' }, description: 'a tag' },
        'dry-run': { type: 'boolean', description: 'do nothing' },
      },
      required: ['id', 'kind'],
      additionalProperties: false,
    });
    expect(Object.keys((inputSchema(made!, 'destructive').properties as object))).toContain('send');
    expect(description(made!)).toContain('$ loopsctl things make x --kind a');
  });

  it('turns an input into the words of the command, options before -- and the arguments after it', () => {
    const send = tool('transactional_send');
    const { words } = commandWords(send, { transactionalId: '-odd', to: 'ada@example.com', var: ['a=1', 'b:=2'], 'add-to-audience': true, 'idempotency-key': 'k' }, 'destructive');
    expect(words).toEqual({ options: ['--to=ada@example.com', '--var=a=1', '--var=b:=2', '--add-to-audience', '--idempotency-key=k'], args: ['-odd'] });
    expect(commandWords(tool('workflow_nodes_add'), { id: 'w', type: 'TimerAction', between: ['n1', 'n2'] }, 'write').words.options).toEqual(['--type=TimerAction', '--between', 'n1', 'n2']);
    expect(() => commandWords(send, { to: true }, 'destructive')).toThrow('"to" takes a value');
    expect(() => commandWords(send, { cc: 'x' }, 'destructive')).toThrow('has no input "cc"');
  });

  it('states the constraints on its inputs, and none on what is no input (--json, --lmx)', () => {
    expect(description(tool('contacts_find'))).toContain('At most one of "email", "user-id". At least one of "email", "user-id" is required.');
    expect(description(tool('event_patterns_get'))).toContain('At most one of "id", "name".');
    expect(description(tool('components_get'))).not.toContain('At most one');
    expect(description(tool('themes_list'))).not.toContain('At most one');
  });

  it('bounds lists: the API’s pages by a whole number of one page size, other lists by cutting', () => {
    expect(tool('themes_list').list).toBe('pages');
    expect(tool('lists_list').list).toBe('array');
    expect(Object.keys(inputSchema(tool('themes_list'), 'read').properties as object)).toEqual(['limit', 'cursor']);
    expect([10, 30, 70, 100, 110, 1000].map(pageSizeDividing)).toEqual([10, 30, 35, 50, 22, 50]);
    expect(() => pageSizeDividing(25)).toThrow('multiple of 10');
    expect(() => commandWords(tool('themes_list'), { limit: 5000 }, 'read')).toThrow('from 1 to 1000');
    expect(commandWords(tool('themes_list'), { limit: 30, cursor: 'c' }, 'read')).toMatchObject({ limit: 30, cursor: 'c', words: { options: [], args: [] } });
  });
});

describe('choosing the tools', () => {
  it('offers the tier and those below it, and --tools narrows by tool or group', () => {
    expect(select(all, 'read', undefined).tools.every(({ tier }) => tier === 'read')).toBe(true);
    expect(select(all, 'read', ['themes']).tools.map(({ name }) => name)).toEqual(['themes_list', 'themes_get']);
    const meta = select(all, 'write', ['meta']);
    expect(meta).toMatchObject({ tools: [], meta: true });
    expect(meta.reachable.some(({ name }) => name === 'themes_create')).toBe(true);
    expect(() => select(all, 'write', ['transactional_send'])).toThrow('is a destructive command');
    expect(() => select(all, 'read', [])).toThrow('--tools names no tool');
  });

  it('finds a command by tool name, words or alias, and searches by the words of a task', () => {
    expect(findTool(all, 'email messages get')?.name).toBe('email_messages_get');
    expect(findTool(all, 'themes ls')?.name).toBe('themes_list');
    expect(search(all, 'send a transactional email')[0]!.name).toBe('transactional_send');
  });
});

describe('the runs of calls', () => {
  it('keep to the one pace the server shares, as the requests of one run do', async () => {
    const pacer = new Pacer();
    let turns = 0;
    const turn = pacer.turn.bind(pacer);
    pacer.turn = (signal) => {
      turns += 1;
      return turn(signal);
    };
    const base = { env: { LOOPSCTL_CONFIG_DIR: tempDir() }, now: () => new Date(), signal: new AbortController().signal, platform: process.platform, pacer };
    const listed = await runCaptured(['--sandbox', 'themes', 'list', '--limit', '20', '--per-page', '10', '--json'], base);
    expect(listed.code, listed.stderr).toBe(0);
    expect(turns).toBe(2);
    const id = (JSON.parse(listed.stdout) as { id: string }[])[0]!.id;
    expect((await runCaptured(['--sandbox', 'themes', 'get', id, '--json'], base)).code).toBe(0);
    expect(turns).toBe(3);
  });
});
