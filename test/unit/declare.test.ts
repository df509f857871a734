/** Declarations: a group's commands, given as a function, are made once and only when needed. */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { command, group } from '../../src/core/declare.js';
import { buildProgram } from '../../src/core/program.js';

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
      return [command({ name: 'list', summary: 'list them', examples: [], remote: false, load: async () => async () => {} })];
    },
  });
  return { spec, made: () => made };
}

describe('a group with its commands as a function', () => {
  it('makes them on first use, once', () => {
    const { spec, made } = countedGroup('things');
    expect(made()).toBe(0);
    expect(spec.commands.map((child) => child.name)).toEqual(['list']);
    expect(spec.commands).toBe(spec.commands);
    expect(made()).toBe(1);
  });

  it('is listed by the program without them, and declared in full when a run names it', () => {
    const things = countedGroup('things');
    const others = countedGroup('others');
    const program = buildProgram([things.spec, others.spec], streams, async () => {}, ['things', 'list']);
    expect(program.commands.map((child) => child.name())).toEqual(['things', 'others']);
    expect(things.made()).toBe(1);
    expect(others.made()).toBe(0);
    expect(program.commands[0]!.commands.map((child) => child.name())).toEqual(['list']);
  });
});

describe('a remote command', () => {
  it('cannot be declared without its tier (the type checker refuses it)', () => {
    // @ts-expect-error: a remote command must say what it may do to the account.
    const untiered = command({ name: 'get', summary: 'get one', examples: [], remote: true, load: async () => async () => {} });
    const tiered = command({ name: 'get', summary: 'get one', examples: [], remote: true, tier: 'read', load: async () => async () => {} });
    expect([untiered.kind, tiered.tier]).toEqual(['command', 'read']);
  });
});
