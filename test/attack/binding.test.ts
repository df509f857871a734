/**
 * The attack suite on what a person's yes binds (binding.ts): on each road that takes one, the yes
 * lets exactly the calls it was given for through, and a call changed since (another body, a path
 * spelled otherwise, another account, a record moved, a target gone live) is refused with nothing sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { arenaForFile } from './arena.js';
import { BINDING } from './binding.js';
import { FILES } from './roads.js';

const arena = arenaForFile();
beforeAll(() => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(arena().root, name), text);
});

const cases = Object.entries(BINDING).flatMap(([road, changes]) =>
  Object.entries(changes).flatMap(([change, walk]) => (typeof walk === 'string' ? [] : [[`${road}: ${change}`, walk] as const])),
);

describe("what a person's yes binds, on each road that takes one", () => {
  it.each(cases)('%s', async (_name, walk) => {
    const ground = arena();
    try {
      await walk(ground);
    } finally {
      ground.answer = 'decline';
      ground.set();
    }
  });
});
