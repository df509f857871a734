/**
 * What an apply that did not make all of its plan leaves, each named for the bug it guards against:
 * an apply failing part-way keeping no after-state of what it did make, so that undo cannot take it
 * back; and an apply exiting 0 when Guardian refused an email and put its message back.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planDigest, type PlanFile } from '../../../../src/areas/change/plan-file.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest, type RecordingSandbox } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');
const SECURITY = seedId('transactional-group/Security');
const sandboxes = sandboxEachTest();

async function planned(sandbox: RecordingSandbox, env: Record<string, string>, args: string[]): Promise<PlanFile> {
  const file = join(tempDir('loopsctl-part-'), 'change.json');
  const made = await sandbox.loopsctl([...args, '--plan', '--out', file], { env });
  expect(made.code, made.stderr).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8')) as PlanFile;
}

const description = async (sandbox: RecordingSandbox, id: string) =>
  (await sandbox.loopsctl(['groups', 'get', id, '--json'])).json<{ description?: string | null }>().description;

describe('an apply failing part-way', () => {
  it('keeps where it left what it made, so that undo takes it back', async () => {
    const sandbox = await sandboxes();
    const env = { LOOPSCTL_CONFIG_DIR: tempDir('loopsctl-part-config-') };
    const was = await description(sandbox, BILLING);
    const first = await planned(sandbox, env, ['groups', 'update', BILLING, '--description', 'Receipts']);
    const second = await planned(sandbox, env, ['groups', 'update', SECURITY, '--description', 'Sign-ins']);
    // The second record's write is one the API refuses (400): the apply fails there, after the first was made.
    const refusedCall = { ...second.units[0]!.calls[0]!, body: { description: 'Sign-ins', unknownField: true } };
    const { digest: _digest, ...body } = { ...first, units: [first.units[0]!, { ...second.units[0]!, calls: [refusedCall] }] };
    const plan = join(tempDir('loopsctl-part-'), 'change.json');
    writeFileSync(plan, JSON.stringify({ ...body, digest: planDigest(body as PlanFile) }));
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(5);
    expect(apply.stderr).toBe('Error: unknown field in the request body: unknownField\n');
    expect(await description(sandbox, BILLING)).toBe('Receipts');
    const undo = await sandbox.loopsctl(['undo', plan, '--yes'], { env });
    expect(undo.code, `${undo.stdout}${undo.stderr}`).toBe(0);
    expect(await description(sandbox, BILLING)).toBe(was);
  });
});

describe('an apply whose email Guardian refused', () => {
  it('exits 1, the email put back as it was and named so', async () => {
    const sandbox = await sandboxes();
    const env = { LOOPSCTL_CONFIG_DIR: tempDir('loopsctl-part-config-') };
    const root = join(tempDir('loopsctl-part-tree-'), 'loops');
    expect((await sandbox.loopsctl(['content', 'pull', root, '--only', 'transactional'], { env })).code).toBe(0);
    const email = readdirSync(join(root, 'transactional')).sort()[0]!;
    const draft = join(root, 'transactional', email, 'draft.lmx');
    const before = readFileSync(draft, 'utf8');
    // A button with no link: Guardian's error.
    writeFileSync(draft, `${before}<Button>Pay</Button>\n`);
    const plan = join(tempDir('loopsctl-part-'), 'change.json');
    const made = await sandbox.loopsctl(['content', 'push', root, '--only', 'transactional', '--plan', '--out', plan], { env });
    expect(made.code, made.stderr).toBe(0);
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toContain('Applied 0 records of 1 in ');
    expect(apply.stderr).toContain('to Acme Sandbox; 1 refused by Guardian, put back as it was.');
    expect(apply.stdout).toMatch(new RegExp(`refused\\s+transactional/${email}\\s+Guardian: Missing button link; put back as it was`));
    writeFileSync(draft, before);
    expect((await sandbox.loopsctl(['content', 'diff', root, '--only', 'transactional'], { env })).stdout).toBe('');
  });
});
