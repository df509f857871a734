/**
 * The registry of areas: a write that can plan runs through apply's `plannable`, and a group's
 * commands are still made on first use, so that a start builds the declarations of its own group
 * alone.
 */
import { describe, expect, it } from 'vitest';
import { withPlans } from '../../../src/areas/registry.js';
import { handler } from '../../../src/core/capabilities.js';
import { command, group, PLAN_OPTION, type CommandSpec } from '../../../src/core/declare.js';

describe('the registry', () => {
  it("makes no group's commands until they are asked for, then wraps each that can plan, once", async () => {
    const inner = handler(['out'], async () => {});
    let made = 0;
    const write = (name: string, options: CommandSpec['options']) =>
      command({ name, summary: name, examples: [], remote: true, tier: 'write', options, load: async () => inner });
    const area = group({
      name: 'area',
      summary: 'area',
      examples: [],
      commands: () => {
        made += 1;
        return [
          write('planned', [PLAN_OPTION]),
          group({ name: 'nested', summary: 'nested', examples: [], commands: [write('deep', [PLAN_OPTION])] }),
          write('plain', []),
        ];
      },
    });
    withPlans(area, []);
    expect(made).toBe(0);
    const [planned, nested, plain] = area.commands as [CommandSpec, { commands: CommandSpec[] }, CommandSpec];
    expect(made).toBe(1);
    expect(area.commands[0]).toBe(planned);
    expect(made).toBe(1);
    // A plannable handler takes the plan's options and what it needs to write a plan file beside the command's own.
    const wrapped = await planned.load([]);
    expect(wrapped).not.toBe(inner);
    expect(wrapped.uses).toEqual(expect.arrayContaining(['out']));
    expect(await nested.commands[0]!.load([])).not.toBe(inner);
    expect(await plain.load([])).toBe(inner);
  });
});
