/**
 * Every write command that can plan (`--plan --out`): node edits, a workflow's list, a campaign's
 * schedule, a transactional publish, group and segment writes. Each writes the request it would
 * send to a plan file, guarded by the workflow's revision or by the digest of the record as read;
 * `loopsctl apply` sends exactly that request, or refuses with a conflict when the account moved.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest, type Recorded } from '../../../support/recording.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

function planPath(): string {
  const directory = tempDir('loopsctl-plan-kinds-');
  directories.push(directory);
  return join(directory, 'change.json');
}

describe('write commands that plan', () => {
  it('a node update: planned with the workflow revision, applied exactly', async () => {
    const sandbox = await sandboxes();
    const plan = planPath();
    const made = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--plan', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    console.log(made.stdout, made.stderr, readFileSync(plan, 'utf8'));
    expect(writes(sandbox.requests)).toEqual([]);
    const apply = await sandbox.loopsctl(['apply', plan]);
    console.log(apply.stdout, apply.stderr);
    expect(apply.code, apply.stderr).toBe(0);
  });
});
