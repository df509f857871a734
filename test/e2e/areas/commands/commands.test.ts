import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CommandTree } from '../../../../src/areas/commands/model.js';
import { specs } from '../../../../src/areas/registry.js';
import { VERSION } from '../../../../src/base/version.js';
import { pickedArgument, walkSpecs } from '../../../../src/core/declare.js';
import { buildProgram, GLOBAL_OPTIONS } from '../../../../src/core/program.js';
import type { Runtime } from '../../../../src/core/runtime.js';
import { TIERS } from '../../../../src/core/tier.js';
import { run } from '../../../support/main.js';

/** The program loopsctl builds from the declarations: what `--help` and parsing actually use. */
function program(): Command {
  const silent = { write: () => true } as unknown as Runtime['stdout'];
  return buildProgram(specs, { stdout: silent, stderr: silent } as unknown as Runtime, async () => {});
}

function find(root: Command, path: string[]): Command {
  return path.reduce((command, word) => command.commands.find((child) => child.name() === word)!, root);
}

describe('loopsctl commands --json', () => {
  it('lists every declared command, with the options, arguments and aliases commander was given', async () => {
    const result = await run(['commands', '--json']);
    expect(result.code).toBe(0);
    const tree = result.json<CommandTree>();
    const declared = walkSpecs(specs).filter(({ spec }) => !spec.hidden);
    expect(tree.commands.map((command) => command.path.join(' '))).toEqual(declared.map(({ path }) => path.join(' ')));

    const root = program();
    for (const command of tree.commands) {
      const parsed = find(root, command.path);
      expect(parsed, command.path.join(' ')).toBeDefined();
      expect(command.aliases).toEqual(parsed.aliases());
      expect(command.options.map((option) => option.flags)).toEqual(parsed.options.map((option) => option.flags));
      for (const option of command.options) {
        const declaredOption = parsed.options.find((candidate) => candidate.flags === option.flags)!;
        expect(option.type, option.flags).toBe(declaredOption.required || declaredOption.optional ? 'value' : 'boolean');
        expect(option.long).toBe(declaredOption.long ?? null);
        expect(option.short).toBe(declaredOption.short ?? null);
        expect(option.choices ?? undefined).toEqual(declaredOption.argChoices);
        expect(option.required).toBe(declaredOption.mandatory);
      }
      // An id a person may pick on a terminal is left to the picker by commander, and required all the same (a script must give it).
      const pickable = pickedArgument(declared.find(({ path }) => path.join(' ') === command.path.join(' '))!.spec);
      const picked = pickable?.required === false ? undefined : pickable?.name;
      expect(command.arguments.map((argument) => [argument.name, argument.required, argument.variadic])).toEqual(
        parsed.registeredArguments.map((argument) => [argument.name(), argument.required || argument.name() === picked, argument.variadic]),
      );
      expect(parsed.usage()).toBe(
        [
          '[options]',
          ...command.arguments.map(({ name, required, variadic }) => (required ? `<${name}${variadic ? '...' : ''}>` : `[${name}${variadic ? '...' : ''}]`)),
        ].join(' '),
      );
    }
  });

  it('gives the global options as the program declares them', async () => {
    const tree = (await run(['commands', '--json'])).json<CommandTree>();
    const globals = program().options.filter((option) => option.long !== '--version');
    expect(tree.globalOptions.map((option) => option.flags)).toEqual(globals.map((option) => option.flags));
    expect(tree.globalOptions.find((option) => option.long === '--timeout')).toMatchObject({ type: 'value', default: 30, valueName: 'seconds' });
  });

  it('says which commands call the API, with their examples and value types', async () => {
    const tree = (await run(['commands', '--json'])).json<CommandTree>();
    const byPath = (path: string) => tree.commands.find((command) => command.path.join(' ') === path)!;
    expect(byPath('themes list')).toMatchObject({ remote: true, aliases: ['ls'] });
    expect(byPath('completion bash').remote).toBe(false);
    expect(byPath('api').options.find((option) => option.long === '--field')).toMatchObject({ short: '-F', type: 'value', repeatable: true });
    expect(byPath('api').options.find((option) => option.long === '--method')!.choices).toEqual(['GET', 'POST', 'PUT', 'DELETE']);
    expect(byPath('api').options.find((option) => option.long === '--paginate')).toMatchObject({ type: 'boolean', default: null });
    expect(byPath('api').examples.length).toBeGreaterThan(0);
    expect(tree.groups.map((group) => group.path.join(' '))).toContain('themes');
    expect(tree.commands.some((command) => command.path[0]!.startsWith('__'))).toBe(false);
  });

  it("gives loopsctl's version, each remote command's tier, and the flag constraints it declares", async () => {
    const tree = (await run(['commands', '--json'])).json<CommandTree>();
    expect(tree.version).toBe(VERSION);
    const byPath = (path: string) => tree.commands.find((command) => command.path.join(' ') === path)!;
    for (const command of tree.commands) {
      expect(command.tier === null, command.path.join(' ')).toBe(!command.remote);
      if (command.tier !== null) expect(TIERS).toContain(command.tier);
    }
    expect(byPath('themes list').tier).toBe('read');
    expect(byPath('themes create').tier).toBe('write');
    expect(byPath('transactional send').tier).toBe('destructive');
    expect(byPath('contacts delete').tier).toBe('destructive');
    expect(byPath('campaigns update').options.find((option) => option.long === '--schedule')!.tier).toBe('destructive');
    expect(byPath('themes list').constraints.exclusive.map(({ flags }) => flags)).toEqual([
      ['--json', '--jsonl'],
      ['--cursor', '--limit'],
    ]);
    expect(byPath('contacts find').constraints).toMatchObject({
      exclusive: [{ flags: ['--email', '--user-id'] }],
      oneRequired: [{ flags: ['--email', '--user-id'] }],
    });
    expect(byPath('event-patterns get').constraints.oneRequired[0]!.flags).toEqual(['<id>', '--name']);
    expect(byPath('completion bash').constraints).toEqual({ exclusive: [], oneRequired: [] });
  });

  it('every flag a constraint names is one the command, or every command, takes', () => {
    const globals = new Set(GLOBAL_OPTIONS.map((option) => /--[\w-]+/.exec(option.flags)![0]));
    for (const { path, spec } of walkSpecs(specs)) {
      const own = new Set([...(spec.options ?? []).map((option) => /--[\w-]+/.exec(option.flags)![0]), ...(spec.args ?? []).map(({ name }) => `<${name}>`)]);
      const sets = [...(spec.constraints?.exclusive ?? []), ...(spec.constraints?.oneRequired ?? [])];
      for (const flag of sets.flatMap(({ flags }) => flags)) expect(own.has(flag) || globals.has(flag), `${path.join(' ')}: ${flag}`).toBe(true);
    }
  });

  it('refuses a run that breaks a constraint before anything is sent, naming the flags', async () => {
    const both = await run(['--sandbox', 'contacts', 'find', '--email', 'ada@example.com', '--user-id', 'usr_ada']);
    expect(both).toMatchObject({ code: 2, stderr: 'Error: --email and --user-id cannot be used together\nHint: for example `--email ada@example.com`\n' });
    const neither = await run(['--sandbox', 'contacts', 'delete', '--yes']);
    expect(neither).toMatchObject({ code: 2, stderr: expect.stringContaining('give exactly one of --email or --user-id') });
    const nothing = await run(['--sandbox', 'themes', 'update', 'c7crwqxfh61mqrdbvo6y02ssz']);
    expect(nothing).toMatchObject({ code: 2, stderr: expect.stringContaining('nothing to update: give at least one of --name, --styles-file or --style') });
    const global = await run(['--sandbox', 'lists', 'list', '--json', '--jsonl']);
    expect(global).toMatchObject({ code: 2, stderr: expect.stringContaining('--json and --jsonl cannot be used together') });
    // A default is not a flag given.
    expect((await run(['--sandbox', 'event-patterns', 'get', '--timeout', '5'])).stderr).toContain('give exactly one of <id> or --name');
  });

  it('without --json, lists the commands in 80 columns', async () => {
    const result = await run(['commands']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('loopsctl api <path> [options]\n');
    expect(result.stdout).toContain('loopsctl completion bash  (local)\n');
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
