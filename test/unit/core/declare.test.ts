/** Declarations: a group's commands, given as a function, are made once and only when needed. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { handler } from '../../../src/core/capabilities.js';
import { ALLOW_WRITES_OPTION, command, DRY_RUN_OPTION, group, runTier } from '../../../src/core/declare.js';
import { buildProgram } from '../../../src/core/program.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const streams = { stdout: quiet, stderr: quiet };

function countedGroup(name: string) {
  let made = 0;
  const spec = group({
    name,
    summary: `the ${name} group`,
    examples: [],
    commands: () => {
      made += 1;
      return ['list', 'get'].map((verb) =>
        command({ name: verb, summary: `${verb} them`, examples: [], remote: false, load: async () => handler([], async () => {}) }),
      );
    },
  });
  return { spec, made: () => made };
}

describe('a group with its commands as a function', () => {
  it('makes them on first use, once', () => {
    const { spec, made } = countedGroup('things');
    expect(made()).toBe(0);
    expect(spec.commands.map((child) => child.name)).toEqual(['list', 'get']);
    expect(spec.commands).toBe(spec.commands);
    expect(made()).toBe(1);
  });

  it('is listed by the program without them, and declared in full when a run names it elsewhere than first', () => {
    const things = countedGroup('things');
    const others = countedGroup('others');
    const program = buildProgram([things.spec, others.spec], streams, async () => {}, ['--profile', 'p', '--', 'things']);
    expect(program.commands.map((child) => child.name())).toEqual(['things', 'others', 'help']);
    expect(things.made()).toBe(1);
    expect(others.made()).toBe(0);
    expect(program.commands[0]!.commands.map((child) => child.name())).toEqual(['list', 'get', 'help']);
  });

  it('is declared alone, with the command the next word names alone, when a run names it first', () => {
    const things = countedGroup('things');
    const others = countedGroup('others');
    const program = buildProgram([things.spec, others.spec], streams, async () => {}, ['--json', 'things', '--profile', 'get', 'get']);
    expect(program.commands.map((child) => child.name())).toEqual(['things', 'help']);
    expect(others.made()).toBe(0);
    expect(program.commands[0]!.commands.map((child) => child.name())).toEqual(['get', 'help']);
    // A next word that names none of its commands (a mistyped one) leaves the group whole, for the suggestions.
    const mistyped = buildProgram([countedGroup('things').spec], streams, async () => {}, ['things', 'lst']);
    expect(mistyped.commands[0]!.commands.map((child) => child.name())).toEqual(['list', 'get', 'help']);
  });
});

describe('a remote command', () => {
  it('cannot be declared without its tier (the type checker refuses it)', () => {
    // @ts-expect-error: a remote command must say what it may do to the account.
    const untiered = command({ name: 'get', summary: 'get one', examples: [], remote: true, load: async () => handler([], async () => {}) });
    const tiered = command({ name: 'get', summary: 'get one', examples: [], remote: true, tier: 'read', load: async () => handler([], async () => {}) });
    expect([untiered.kind, tiered.tier]).toEqual(['command', 'read']);
  });
});

describe('a command that may change the account', () => {
  const load = async () => handler([], async () => {});
  it('takes --dry-run and --allow-writes, unless it declares its own; a read or a local command takes neither', () => {
    expect(command({ name: 'create', summary: 's', examples: [], remote: true, tier: 'write', load }).options).toEqual([DRY_RUN_OPTION, ALLOW_WRITES_OPTION]);
    const own = { flags: '--dry-run', description: 'its own preview' };
    expect(command({ name: 'delete', summary: 's', examples: [], remote: true, tier: 'destructive', options: [own], load }).options).toEqual([
      own,
      ALLOW_WRITES_OPTION,
    ]);
    expect(command({ name: 'list', summary: 's', examples: [], remote: true, tier: 'read', load }).options).toBeUndefined();
    expect(command({ name: 'sign', summary: 's', examples: [], remote: false, load }).options).toBeUndefined();
  });

  it('runs at its tier, lowered by its options where it says so, raised by an option given that raises it', () => {
    const schedule = { flags: '--schedule <when>', description: 'send', tier: 'destructive' as const };
    const update = command({ name: 'update', summary: 's', examples: [], remote: true, tier: 'write', options: [schedule], load });
    expect(runTier(update, {})).toBe('write');
    expect(runTier(update, { schedule: 'now' })).toBe('destructive');
    const api = command({
      name: 'api',
      summary: 's',
      examples: [],
      remote: true,
      tier: 'destructive',
      tierOf: (options) => (options.method === 'GET' ? 'read' : 'destructive'),
      load,
    });
    expect(runTier(api, { method: 'GET' })).toBe('read');
    expect(runTier(api, { method: 'POST' })).toBe('destructive');
    expect(runTier(command({ name: 'sign', summary: 's', examples: [], remote: false, load }), {})).toBeUndefined();
  });
});
