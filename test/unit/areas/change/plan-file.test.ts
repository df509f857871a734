/**
 * A plan's witness (the record a plan that only creates names, to know its account by) is a theme's
 * path and nothing else. Named for the bug it guards against: a plan's witness allowed to be any
 * path, which `apply` would read with the key wherever the plan said.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePlan, readPlanUnder } from '../../../../src/areas/change/plan-file.js';
import { PLAN_KINDS } from '../../../../src/areas/plan-kinds.js';
import { tempDir } from '../../../support/temp.js';

const created = {
  record: 'transactional group "Receipts"',
  kind: 'transactional group' as const,
  calls: [{ op: 'request', operation: 'createTransactionalGroup', method: 'POST', path: '/v1/transactional-groups', body: { name: 'Receipts' } }],
};

function written(witness: string): { root: string; file: string } {
  const root = tempDir();
  const plan = makePlan(
    'groups create',
    { team: 'Acme', baseUrl: 'https://app.loops.so/api', profile: 'default', witness },
    false,
    [created],
    new Date('2026-11-25T12:00:00Z'),
  );
  writeFileSync(join(root, 'change.json'), JSON.stringify(plan));
  return { root, file: 'change.json' };
}

describe("a plan's witness allowed to be any path", () => {
  it('is refused: only a theme, by its path, witnesses an account', async () => {
    const theme = written('/v1/themes/ctheme1');
    expect((await readPlanUnder(theme.root, theme.file, PLAN_KINDS)).account.witness).toBe('/v1/themes/ctheme1');
    for (const witness of [
      '/v1/contacts/find?email=ada@example.com',
      '/v1/themes/../contacts',
      '/v1/transactional-emails/t1',
      'https://evil.example/v1/themes/x',
    ]) {
      const forged = written(witness);
      await expect(readPlanUnder(forged.root, forged.file, PLAN_KINDS), witness).rejects.toThrow('is not a plan loopsctl wrote: account.witness');
    }
  });
});
