/**
 * The attack suite at a terminal: every command's operation that reaches people, run against a
 * live target without the person's yes (refused: nothing sent, the sandbox as it was, the refusal
 * saying a yes is needed), against a draft one (let through), and with the yes (let through).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { arenaForFile, expectRefused, expectThrough } from './arena.js';
import { commandAttacks, named, placeFor } from './attacks.js';
import { argvOf, FILES, recordOf } from './roads.js';

const arena = arenaForFile();
beforeAll(() => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(arena().root, name), text);
});

describe('every command that reaches people, at a terminal', () => {
  it.each(commandAttacks().map((attack) => [`${attack.command} (${attack.operation})`, attack] as const))('%s', async (_name, attack) => {
    const ground = arena();
    for (const target of attack.targets) {
      const words = (place: ReturnType<typeof placeFor>) => attack.words(place);
      const record = () => recordOf(attack.operation, ground.ids(target));
      // Without the yes, where a terminal run can lack it: a live target (or any, for a send) is left as it was.
      if (attack.yes === '--live' && (target === undefined || target.live)) {
        ground.set(target);
        const before = ground.state();
        const refused = await ground.cli(argvOf(attack.command, attack.spec, words(placeFor(ground, target)), false));
        expectRefused(ground, refused, before, named(attack, target, 'without the yes:'));
      }
      // A draft goes without a yes; the yes lets a live target's call through.
      if (target !== undefined && !target.live) {
        ground.set(target);
        const made = await ground.cli(argvOf(attack.command, attack.spec, words(placeFor(ground, target)), false));
        expectThrough(made, attack.operation, record(), named(attack, target, 'a draft:'));
        continue;
      }
      ground.set(target);
      const made = await ground.cli(argvOf(attack.command, attack.spec, words(placeFor(ground, target)), attack.yes === '--live'));
      expectThrough(made, attack.operation, record(), named(attack, target, 'with the yes:'));
    }
    ground.set();
  });
});
