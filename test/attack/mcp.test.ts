/**
 * The attack suite through `loopsctl mcp`: every command's operation that reaches people, as its
 * tool and through `run_command`, on a server of the read tier (nothing is written: its tool is not
 * offered, run_command refuses it, live target or draft), of the write tier (no yes can be given:
 * a live target is refused, a draft let through) and of the destructive tier (the person is asked:
 * a refusal leaves the target as it was, an approval lets the call through).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Arena, Attempt, Target, Tier } from './arena.js';
import { arenaForFile, expectRefused, expectThrough, READ_TIER_REFUSAL } from './arena.js';
import { type CommandAttack, commandAttacks, named, placeFor } from './attacks.js';
import { FILES, inputOf, recordOf } from './roads.js';

const arena = arenaForFile();
beforeAll(() => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(arena().root, name), text);
});

/** The attack's call on a road of the server: its own tool, or run_command. */
function call(ground: Arena, attack: CommandAttack, target: Target | undefined, tier: Tier, road: 'tool' | 'run_command'): Promise<Attempt> {
  const input = inputOf(attack.spec, attack.words(placeFor(ground, target)), ground.root);
  return road === 'tool'
    ? ground.tool(tier, attack.command.replace(/[ -]/g, '_'), input)
    : ground.tool(tier, 'run_command', { command: attack.command, arguments: input });
}

describe('every command that reaches people, through loopsctl mcp', () => {
  it.each(commandAttacks().map((attack) => [`${attack.command} (${attack.operation})`, attack] as const))('%s', async (_name, attack) => {
    const ground = arena();
    for (const target of attack.targets) {
      const record = () => recordOf(attack.operation, ground.ids(target));
      for (const road of ['tool', 'run_command'] as const) {
        // The read tier writes nothing, whatever the target.
        ground.set(target);
        const unchanged = ground.state();
        expectRefused(
          ground,
          await call(ground, attack, target, 'read', road),
          unchanged,
          named(attack, target, `${road} on the read tier:`),
          READ_TIER_REFUSAL,
        );
        if (target !== undefined && !target.live) {
          // A draft: let through on the write tier, where the command is of it, with no one asked.
          if (attack.spec.tier !== 'write') continue;
          ground.set(target);
          const made = await call(ground, attack, target, 'write', road);
          expectThrough(made, attack.operation, record(), named(attack, target, `a draft, ${road} on the write tier:`));
          expect(ground.asked).toEqual([]);
          continue;
        }
        // The write tier gives no yes: refused, whatever the road.
        ground.set(target);
        let before = ground.state();
        expectRefused(ground, await call(ground, attack, target, 'write', road), before, named(attack, target, `${road} on the write tier:`));
        // The destructive tier asks the person: a refusal sends nothing, an approval lets the call through.
        ground.answer = 'decline';
        ground.set(target);
        before = ground.state();
        const declined = await call(ground, attack, target, 'destructive', road);
        expect(ground.asked.length, named(attack, target, `${road} on the destructive tier: the person was not asked`)).toBe(1);
        expectRefused(ground, declined, before, named(attack, target, `${road} on the destructive tier, declined:`));
        ground.answer = 'accept';
        ground.set(target);
        const approved = await call(ground, attack, target, 'destructive', road);
        expectThrough(approved, attack.operation, record(), named(attack, target, `${road} on the destructive tier, approved:`));
      }
    }
    ground.answer = 'decline';
    ground.set();
  });
});
