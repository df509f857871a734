/**
 * What an earlier loopsctl wrote: a plan file of another format (its units named a tree directory,
 * `transactional`, or a kind of write, `workflow node`, where this one names the record's noun) is
 * refused whole, exit 2, nothing sent, never read with its kinds misread; a change it applied is
 * undone by its id, the inverse made from its before-images in this loopsctl's words.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAN_FORMAT, type PlanFile, planDigest } from '../../../../src/areas/change/plan-file.js';
import { imagesDirectory } from '../../../../src/config/before-images.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const WIN_BACK = 'cw509z9tjxv56rte3vt30437u';
const SCORE = 'cu46uqyjwgaeml2epsiw5a711';
const PASSWORD_RESET = seedId('transactional/Password reset');
const ONLY = ['--only', 'transactional,workflows'];
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

function place(): { directory: string; plan: string; env: Record<string, string> } {
  const directory = tempDir('loopsctl-earlier-');
  directories.push(directory);
  return { directory, plan: join(directory, 'change.json'), env: { LOOPSCTL_CONFIG_DIR: join(directory, 'config') } };
}

/** A node's edit planned by this loopsctl, then written as another format would hold it: its digest made anew, as that loopsctl made it. */
async function planOfFormat(sandbox: RecordingSandbox, format: number, kind: string): Promise<{ plan: string; env: Record<string, string> }> {
  const { plan, env } = place();
  const made = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--plan', '--out', plan], { env });
  expect(made.code, made.stderr).toBe(0);
  const { digest: _digest, ...body } = JSON.parse(readFileSync(plan, 'utf8')) as PlanFile;
  const other = { ...body, format, units: body.units.map((unit) => ({ ...unit, kind })) };
  writeFileSync(plan, JSON.stringify({ ...other, digest: planDigest(other as unknown as PlanFile) }));
  return { plan, env };
}

/** Rewrites the before-images of a change as an earlier loopsctl kept them: each record's kind as `kindOf` says. */
function keptEarlier(env: Record<string, string>, id: string, kindOf: (kind: string) => string): void {
  const file = join(imagesDirectory(env.LOOPSCTL_CONFIG_DIR!), `${id}.json`);
  const images = JSON.parse(readFileSync(file, 'utf8')) as { records: { kind: string; unit: { kind: string } }[] };
  for (const record of images.records) {
    record.kind = kindOf(record.kind);
    record.unit.kind = kindOf(record.unit.kind);
  }
  writeFileSync(file, JSON.stringify(images));
}

async function applied(sandbox: RecordingSandbox, plan: string, env: Record<string, string>): Promise<string> {
  const apply = await sandbox.loopsctl(['apply', plan], { env });
  expect(apply.code, apply.stderr).toBe(0);
  return /`loopsctl undo (\S+)` puts it back/.exec(apply.stderr)![1]!;
}

describe('a plan file of another format', () => {
  it('written by an earlier loopsctl is refused by apply and undo, exit 2, nothing sent, saying to make the plan again', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = await planOfFormat(sandbox, PLAN_FORMAT - 1, 'workflow node');
    sandbox.requests.length = 0;
    for (const args of [
      ['apply', plan],
      ['undo', plan, '--yes'],
    ]) {
      const run = await sandbox.loopsctl(args, { env });
      expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`was written by an earlier loopsctl (plan format ${PLAN_FORMAT - 1}; this one reads ${PLAN_FORMAT}); nothing was sent`);
      expect(run.stderr).toContain('make the plan again with this loopsctl');
    }
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('written by a later loopsctl is refused too, whatever its units name', async () => {
    const sandbox = await sandboxes();
    const { plan, env } = await planOfFormat(sandbox, PLAN_FORMAT + 1, 'workflow');
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stderr).toContain(`was written by a later loopsctl (plan format ${PLAN_FORMAT + 1}; this one reads ${PLAN_FORMAT})`);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

describe('a change applied by an earlier loopsctl', () => {
  it('is undone by its id, its records kept under a tree directory or a kind of write: the account holds what it held before', async () => {
    const sandbox = await sandboxes();
    const { directory, plan, env } = place();
    const before = join(directory, 'before');
    expect((await sandbox.loopsctl(['content', 'pull', before, ...ONLY], { env })).code).toBe(0);

    // An email's draft, by a content push's plan: kept as `transactional`.
    const root = join(directory, 'edited');
    expect((await sandbox.loopsctl(['content', 'pull', root, ...ONLY], { env })).code).toBe(0);
    writeFileSync(join(root, 'transactional', `password-reset--${PASSWORD_RESET}`, 'draft.lmx'), '<Paragraph>Reset it here: {data.resetUrl}</Paragraph>\n');
    const pushed = await sandbox.loopsctl(['content', 'push', root, ...ONLY, '--plan', '--out', plan], { env });
    expect(pushed.code, pushed.stderr).toBe(0);
    const email = await applied(sandbox, plan, env);
    keptEarlier(env, email, (kind) => (kind === 'transactional email' ? 'transactional' : kind));

    // A node of a workflow, by a command's plan: kept as `workflow node`.
    const nodePlan = join(directory, 'node.json');
    const node = await sandbox.loopsctl(['workflow', 'nodes', 'update', WIN_BACK, SCORE, '--set', 'samplingRate:=30', '--plan', '--out', nodePlan], { env });
    expect(node.code, node.stderr).toBe(0);
    const workflow = await applied(sandbox, nodePlan, env);
    keptEarlier(env, workflow, (kind) => (kind === 'workflow' ? 'workflow node' : kind));

    expect((await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env })).code).toBe(1);
    for (const id of [workflow, email]) {
      const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
      expect(undo.code, undo.stderr).toBe(0);
    }
    const diff = await sandbox.loopsctl(['content', 'diff', before, ...ONLY], { env });
    expect(diff.code, diff.stdout).toBe(0);
  });
});
