/**
 * The attack suite through `loopsctl api`, which sends any request as written: every request a
 * command makes to a live target (as the sandbox received it from the command), sent by `api` at a terminal
 * (a command of the destructive tier: it is the person's yes, and the call goes), and by the `api`
 * tool and `run_command` of `loopsctl mcp` (not offered on the write tier; asked on the destructive
 * one, where a refusal leaves the target as it was and an approval lets the call through).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { arenaForFile, expectRefused, expectThrough } from './arena.js';
import { commandAttacks, named, sentRequest } from './attacks.js';
import { FILES, recordOf } from './roads.js';

const arena = arenaForFile();
beforeAll(() => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(arena().root, name), text);
});

describe('every request that reaches people, sent by loopsctl api', () => {
  it.each(commandAttacks().map((attack) => [`${attack.operation} (as ${attack.command} sends it)`, attack] as const))('%s', async (_name, attack) => {
    const ground = arena();
    for (const target of attack.targets.filter((each) => each === undefined || each.live)) {
      const request = await sentRequest(ground, attack, target);
      const record = recordOf(attack.operation, ground.ids(target));
      const body = JSON.stringify(request.body ?? {});
      const what = (road: string) => named(attack, target, `api, ${road}:`);
      ground.set(target);
      const sent = await ground.cli(['api', request.path, '-X', request.method, '--input', '-'], body);
      expectThrough(sent, attack.operation, record, what('at a terminal'));
      const input = { path: request.path, method: request.method, body };
      for (const call of [
        (tier: 'write' | 'destructive') => ground.tool(tier, 'api', input),
        (tier: 'write' | 'destructive') => ground.tool(tier, 'run_command', { command: 'api', arguments: input }),
      ]) {
        ground.set(target);
        let before = ground.state();
        expectRefused(ground, await call('write'), before, what('on the write tier'));
        ground.answer = 'decline';
        ground.set(target);
        before = ground.state();
        const declined = await call('destructive');
        expect(ground.asked.length, what('the person was not asked')).toBe(1);
        expectRefused(ground, declined, before, what('declined'));
        ground.answer = 'accept';
        ground.set(target);
        expectThrough(await call('destructive'), attack.operation, record, what('approved'));
        ground.answer = 'decline';
      }
    }
    ground.set();
  });
});
