import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { walkSpecs } from '../../../src/core/declare.js';
import { buildProgram } from '../../../src/core/program.js';
import type { Runtime } from '../../../src/core/runtime.js';
import { specs } from '../../../src/areas/registry.js';
import type { CommandTree } from '../../../src/areas/commands/model.js';
import { run } from '../../support/main.js';

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
      expect(command.arguments.map((argument) => [argument.name, argument.required, argument.variadic])).toEqual(
        parsed.registeredArguments.map((argument) => [argument.name(), argument.required, argument.variadic]),
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

  it('without --json, lists the commands in 80 columns', async () => {
    const result = await run(['commands']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('loopsctl api <path> [options]\n');
    expect(result.stdout).toContain('loopsctl completion bash  (local)\n');
    expect(Math.max(...result.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });
});
