/**
 * A plan holds only what it says. Its digest detects an edit, not an author: anyone who can write
 * the file can write a new one. So `apply` checks each unit against the rules `--plan` wrote it by,
 * from its calls, and refuses a plan holding anything else, sending nothing: a contact's delete and
 * a transactional send labelled as a component and a theme, a write labelled as another record, a
 * content push's rename that also schedules, a plan nested deeper than any loopsctl writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type PlanFile, planDigest } from '../../../../src/areas/change/plan-file.js';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const BILLING = seedId('transactional-group/Billing');
const DRAFT_CAMPAIGN = seedId('campaign/November newsletter');
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

/** A plan loopsctl wrote (a group's update), its units replaced, and its digest written anew as anyone could. */
async function forged(sandbox: RecordingSandbox, units: unknown[]): Promise<string> {
  const plan = join(tempDir('loopsctl-forged-'), 'change.json');
  const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--description', 'Receipts', '--plan', '--out', plan]);
  expect(made.code, made.stderr).toBe(0);
  const { digest: _digest, ...body } = JSON.parse(readFileSync(plan, 'utf8')) as PlanFile;
  const rewritten = { ...body, units };
  writeFileSync(plan, JSON.stringify({ ...rewritten, digest: planDigest(rewritten as PlanFile) }));
  return plan;
}

async function refused(sandbox: RecordingSandbox, plan: string, says: string) {
  sandbox.requests.length = 0;
  const apply = await sandbox.loopsctl(['apply', plan]);
  expect(apply.code, apply.stderr).toBe(2);
  expect(apply.stderr).toContain('holds what no plan of loopsctl holds');
  expect(apply.stderr).toContain(says);
  expect(writes(sandbox.requests)).toEqual([]);
}

describe('a plan that holds what it does not say', () => {
  it('is refused when it holds a contact delete and a transactional send labelled as a component and a theme', async () => {
    const sandbox = await sandboxes();
    const request = (path: string, body: unknown, operation: string) => ({ op: 'request', operation, method: 'POST', path, body });
    await refused(
      sandbox,
      await forged(sandbox, [
        {
          record: 'components/receipt-footer',
          kind: 'component',
          id: 'c1',
          calls: [request('/v1/contacts/delete', { email: 'ada@example.com' }, 'updateComponent')],
        },
      ]),
      'POST /v1/contacts/delete is not a configuration write',
    );
    await refused(
      sandbox,
      await forged(sandbox, [
        { record: 'themes/winter', kind: 'theme', calls: [request('/v1/transactional', { transactionalId: 't', email: 'ada@example.com' }, 'createTheme')] },
      ]),
      'POST /v1/transactional is not a configuration write',
    );
  });

  it('is refused when a write is labelled as another record or kind than the one its call changes', async () => {
    const sandbox = await sandboxes();
    const call = { op: 'request', operation: 'updateTransactionalGroup', method: 'POST', path: `/v1/transactional-groups/${BILLING}`, body: { name: 'x' } };
    await refused(
      sandbox,
      await forged(sandbox, [{ record: 'components/receipt-footer', kind: 'transactional group', id: BILLING, calls: [call] }]),
      `changes transactional group ${BILLING}, and the unit names components/receipt-footer`,
    );
    await refused(
      sandbox,
      await forged(sandbox, [{ record: `transactional group ${BILLING}`, kind: 'component', id: BILLING, calls: [call] }]),
      'and the unit names',
    );
  });

  it("is refused when a content push's rename also schedules, or its unit holds another kind's call", async () => {
    const sandbox = await sandboxes();
    const schedule = { op: 'updateCampaign', id: DRAFT_CAMPAIGN, body: { name: 'Renamed', scheduling: { method: 'now' } } };
    // A body of a field no push sends is not of the shape of its call: none loopsctl wrote.
    const scheduled = await forged(sandbox, [{ record: 'campaigns/november', kind: 'campaign', id: DRAFT_CAMPAIGN, calls: [schedule] }]);
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', scheduled]);
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stderr).toContain('is not a plan loopsctl wrote: units.0.calls.0.body: sends scheduling, which a content push never sends');
    expect(writes(sandbox.requests)).toEqual([]);
    await refused(
      sandbox,
      await forged(sandbox, [{ record: 'themes/winter', kind: 'theme', id: DRAFT_CAMPAIGN, calls: [{ ...schedule, body: { name: 'Renamed' } }] }]),
      'a theme unit holds updateCampaign',
    );
  });

  it('is refused, with exit 2 and not 70, when it is nested 5,000 deep', async () => {
    const sandbox = await sandboxes();
    const plan = join(tempDir('loopsctl-forged-'), 'change.json');
    const made = await sandbox.loopsctl(['groups', 'update', BILLING, '--description', 'Receipts', '--plan', '--out', plan]);
    expect(made.code, made.stderr).toBe(0);
    const text = readFileSync(plan, 'utf8');
    writeFileSync(plan, text.replace('"description": "Receipts"', `"description": ${'['.repeat(5000)}${']'.repeat(5000)}`));
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', plan]);
    expect(apply.code, apply.stderr).toBe(2);
    expect(apply.stderr).toContain('it is nested deeper than 64 levels');
    expect(writes(sandbox.requests)).toEqual([]);
  });
});
