/**
 * The unit checks a new resource must pass, on the copy with the widget (test/support/scaffold.ts):
 * once the copy has what the section's two commands make (`npm run docs`, and the contract `npm run
 * contract` derives from a description with the widget's operations), the unit tests that read
 * the rows, the registries or the docs run on it, in a vitest of their own: a fact the section
 * does not name fails one of them.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/main.js';
import { ATTACK_LINES, copyWithWidget, root, unitChecks, withWidgetContract } from '../support/scaffold.js';
import { RUN_DIR, RUN_SOCKETS } from '../support/temp.js';

let copy: string;

beforeAll(() => {
  copy = copyWithWidget(tempDir('loopsctl-scaffold-'));
});

describe('the unit checks, on the copy with the widget', () => {
  it('pass once `npm run docs` and `npm run contract` have made what they make, and nothing else is changed', () => {
    const docs = spawnSync(process.execPath, ['src/build/docs.mjs'], { cwd: copy, encoding: 'utf8' });
    expect(docs.status, docs.stderr).toBe(0);
    withWidgetContract(join(copy, 'test/contract/loops-1.22.1.json'));
    // Every write the contract gains is declared to the attack suite with what it reaches.
    const attacks = join(copy, 'test/attack/operations.ts');
    const declared = 'export const OPERATIONS: Record<string, Reach> = {\n';
    expect(readFileSync(attacks, 'utf8')).toContain(declared);
    writeFileSync(attacks, readFileSync(attacks, 'utf8').replace(declared, `${declared}${ATTACK_LINES}`));
    const checks = unitChecks(join(copy, 'test/unit')).map((file) => relative(copy, file));
    // The five that once failed on facts the section did not name: a row without `kind`, the
    // contract, the attack suite's declarations, the capabilities by area, the completion scripts' sizes.
    expect(checks).toEqual(
      expect.arrayContaining([
        'test/unit/platform/record-kinds.test.ts',
        'test/unit/platform/configuration-writes.test.ts',
        'test/unit/core/gate-routing.test.ts',
        'test/unit/build/reference.test.ts',
        'test/unit/build/docs-facts.test.ts',
      ]),
    );
    // A run of its own: its temporary and socket directories are made, and removed, by its own set-up.
    const childEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== RUN_DIR && name !== RUN_SOCKETS && !name.startsWith('VITEST')));
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const ran = spawnSync(process.execPath, [vitest, 'run', ...checks], { cwd: copy, encoding: 'utf8', env: childEnv, maxBuffer: 64 * 1024 * 1024 });
    expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  });
});
