/**
 * What an apply that did not make all of its plan leaves, each named for the bug it guards against:
 * an apply failing part-way keeping no after-state of what it did make, so that undo cannot take it
 * back; and an apply exiting 0 when Guardian refused an email and put its message back. A transactional email's draft,
 * which the platform checks when it is published, is written as the plan shows it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlanFile, planDigest } from '../../../../src/areas/change/plan-file.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

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

/** A tree of the sandbox's records of `kind` pulled, one record's email given a button with no link (Guardian's error), and planned. */
async function plannedButtonWithoutLink(sandbox: RecordingSandbox, env: Record<string, string>, kind: string, record: (names: string[]) => string) {
  const root = join(tempDir('loopsctl-part-tree-'), 'loops');
  expect((await sandbox.loopsctl(['content', 'pull', root, '--only', kind], { env })).code).toBe(0);
  const name = record(readdirSync(join(root, kind)).sort());
  const file = join(root, kind, name, kind === 'transactional' ? 'draft.lmx' : 'email.lmx');
  const before = readFileSync(file, 'utf8');
  writeFileSync(file, `${before}<Button>Pay</Button>\n`);
  const plan = join(tempDir('loopsctl-part-'), 'change.json');
  const made = await sandbox.loopsctl(['content', 'push', root, '--only', kind, '--plan', '--out', plan], { env });
  expect(made.code, made.stderr).toBe(0);
  return { root, name, file, before, plan };
}

describe('an apply whose email Guardian refused', () => {
  it("exits 1, a campaign's email put back as it was and named so", async () => {
    const sandbox = await sandboxes();
    const env = { LOOPSCTL_CONFIG_DIR: tempDir('loopsctl-part-config-') };
    const { root, name, file, before, plan } = await plannedButtonWithoutLink(
      sandbox,
      env,
      'campaigns',
      (names) => names.find((each) => each.startsWith('spring-sale--'))!,
    );
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(1);
    expect(apply.stderr).toContain('Applied 0 records of 1 in ');
    expect(apply.stderr).toContain('to Acme Sandbox; 1 refused by Guardian, put back as it was.');
    expect(apply.stdout).toMatch(new RegExp(`refused\\s+campaigns/${name}\\s+Guardian: Missing button link; put back as it was`));
    writeFileSync(file, before);
    expect((await sandbox.loopsctl(['content', 'diff', root, '--only', 'campaigns'], { env })).stdout).toBe('');
  });
});

describe("an apply of a transactional email's draft that Guardian finds errors in", () => {
  it('writes the draft the plan shows the error in, and the platform refuses to publish it', async () => {
    const sandbox = await sandboxes();
    const env = { LOOPSCTL_CONFIG_DIR: tempDir('loopsctl-part-config-') };
    const { root, name, plan } = await plannedButtonWithoutLink(sandbox, env, 'transactional', (names) => names[0]!);
    const apply = await sandbox.loopsctl(['apply', plan], { env });
    expect(apply.code, apply.stderr).toBe(0);
    // The impact printed before anything was sent names the error in the draft as planned.
    expect(apply.stdout).toMatch(new RegExp(`transactional/${name}: Guardian on the email as planned: 1 error: Missing button link`));
    expect(apply.stderr).toContain('Applied 1 record of 1 in ');
    expect(sandbox.requests.filter((request) => request.path.endsWith('/guardian') && request.method === 'GET').length).toBe(1);
    expect((await sandbox.loopsctl(['content', 'diff', root, '--only', 'transactional'], { env })).stdout).toBe('');
    // "Errors must be resolved before the email can be published" (the API's reference of Guardian's check).
    const id = name.split('--').at(-1)!;
    const published = await sandbox.loopsctl(['transactional', 'publish', id], { env });
    expect(published.code, published.stderr).toBe(5);
    expect(published.stderr).toContain('Draft failed validation');
  });
});
