/**
 * Pushes of the audience half that went wrong unnoticed: each test is named for the bug it guards
 * against. A plan file that silently lacked the audience writes (now it holds them, guarded); a push that paired a record with
 * the first of two of the account's records of its name, or planned a third; a segment and a group
 * that could not share a name.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedId } from '../../../../src/emulator/module.js';
import { tempDir } from '../../../support/main.js';
import { type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const sandboxes = sandboxEachTest();
const AUDIENCE = ['--only', 'audience'];
const slices = (state: unknown) => state as Record<string, any[]>;
const writes = (sandbox: RecordingSandbox) => sandbox.requests.filter((request) => request.method !== 'GET');

async function pulledAudience(sandbox: RecordingSandbox): Promise<string> {
  const root = join(tempDir('loopsctl-audience-'), 'loops');
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE]);
  expect(pull.code, pull.stderr).toBe(0);
  return root;
}

function writeRecord(root: string, directory: string, file: string, fields: Record<string, unknown>): void {
  mkdirSync(join(root, directory), { recursive: true });
  writeFileSync(join(root, directory, file), `${JSON.stringify(fields, null, 2)}\n`);
}

/** The first group the pull wrote, its description changed here: what a push updates, and where the account keeps it. */
function changeAGroup(root: string): { path: string; id: string; slice: string; update: string; was: unknown } {
  for (const [kind, path, slice, update] of [
    ['transactional', '/v1/transactional-groups', 'transactionalGroups', 'updateTransactionalGroup'],
    ['campaigns', '/v1/campaign-groups', 'campaignGroups', 'updateCampaignGroup'],
  ] as const) {
    const directory = join(root, 'groups', kind);
    const name = existsSync(directory) ? readdirSync(directory).find((entry) => entry.includes('--')) : undefined;
    if (name === undefined) continue;
    const file = join(directory, name, 'group.json');
    const fields = JSON.parse(readFileSync(file, 'utf8')) as { description?: unknown };
    writeFileSync(file, `${JSON.stringify({ ...fields, description: 'Changed here' }, null, 2)}\n`);
    return { path, id: name.slice(name.lastIndexOf('--') + 2), slice, update, was: fields.description };
  }
  throw new Error('the pull wrote no group');
}

const FRESH_SEGMENT = {
  name: 'Customers',
  description: 'Paying',
  filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] },
};

describe('audience pushes', () => {
  it('a plan file silently lacked the audience writes: it holds them, ahead of the rest, and `loopsctl apply` makes them, undoably', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    writeRecord(root, 'segments/customers', 'segment.json', FRESH_SEGMENT);
    writeRecord(root, 'groups/transactional/receipts', 'group.json', { name: 'Receipts' });
    const properties = join(root, 'contact-properties.json');
    const withTier = [...(JSON.parse(readFileSync(properties, 'utf8')) as object[]), { key: 'tier', label: 'Tier', type: 'string' }];
    writeFileSync(properties, `${JSON.stringify(withTier, null, 2)}\n`);
    const group = changeAGroup(root);
    const out = join(tempDir('loopsctl-plan-'), 'change.json');
    const planned = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan', '--out', out]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(writes(sandbox)).toEqual([]);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as { units: { kind: string; calls: { operation: string; read?: string }[] }[] };
    // Properties, then segments, then groups, as a push sends them; the update guarded by the group as read.
    const operations = plan.units.map((unit) => unit.calls[0]!.operation);
    expect(operations.slice(0, 2)).toEqual(['createContactProperty', 'createAudienceSegment']);
    expect(operations.slice(2).sort()).toEqual(['createTransactionalGroup', group.update].sort());
    expect(plan.units.find((unit) => unit.calls[0]!.operation === group.update)!.calls[0]!.read).toBe(`${group.path}/${group.id}`);
    // The change is kept under the config directory, which the undo reads.
    const env = { LOOPSCTL_CONFIG_DIR: join(tempDir('loopsctl-config-'), 'config') };
    const apply = await sandbox.loopsctl(['apply', out], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const state = slices(sandbox.server.state());
    expect(state.segments!.filter((segment: { name: string }) => segment.name === 'Customers')).toHaveLength(1);
    expect(state.transactionalGroups!.filter((made: { name: string }) => made.name === 'Receipts')).toHaveLength(1);
    expect(JSON.stringify(state)).toContain('"tier"');
    expect(state[group.slice]!.find((record: { id: string }) => record.id === group.id).description).toBe('Changed here');
    // The group's update is put back from the image the apply kept; what the API cannot delete is said, and left (exit 5).
    const id = /`loopsctl undo (\S+)` puts it back/.exec(apply.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(5);
    expect(undo.stderr).toContain('segment "Customers": not undone: the change created it, and the API cannot delete a segment');
    expect(slices(sandbox.server.state())[group.slice]!.find((record: { id: string }) => record.id === group.id).description).toBe(group.was);
    // The whole tree's plan holds the audience writes too: the group's update, again.
    const all = join(tempDir('loopsctl-plan-'), 'all.json');
    const whole = await sandbox.loopsctl(['content', 'push', root, '--plan', '--out', all]);
    expect(whole.code, whole.stderr).toBe(0);
    const again = JSON.parse(readFileSync(all, 'utf8')) as { units: { calls: { operation: string }[] }[] };
    expect(again.units.map((unit) => unit.calls[0]!.operation)).toEqual([group.update]);
  });

  it('a plan of a group update applied after the group changed in the account is a conflict, and sends nothing', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    const group = changeAGroup(root);
    const out = join(tempDir('loopsctl-plan-'), 'change.json');
    const planned = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan', '--out', out]);
    expect(planned.code, planned.stderr).toBe(0);
    sandbox.server.update((state) => {
      slices(state)[group.slice]!.find((record: { id: string }) => record.id === group.id).description = 'Changed in the app';
    });
    sandbox.requests.length = 0;
    const apply = await sandbox.loopsctl(['apply', out]);
    expect(apply.code, apply.stderr).toBe(5);
    expect(apply.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(apply.stdout).toContain(`${group.path}/${group.id} changed in the account since the plan was made`);
    expect(writes(sandbox)).toEqual([]);
    expect(slices(sandbox.server.state())[group.slice]!.find((record: { id: string }) => record.id === group.id).description).toBe('Changed in the app');
  });

  it('an email moved to a group the same plan makes: --out stops, naming the email, and writes no file', async () => {
    const sandbox = await sandboxes();
    const root = join(tempDir('loopsctl-audience-'), 'loops');
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'audience,transactional']);
    expect(pull.code, pull.stderr).toBe(0);
    writeRecord(root, 'groups/transactional/receipts', 'group.json', { name: 'Receipts' });
    const reset = seedId('transactional/Password reset');
    const meta = join(root, 'transactional', `password-reset--${reset}`, 'transactional.json');
    writeFileSync(meta, `${JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), group: 'Receipts' }, null, 2)}\n`);
    const out = join(tempDir('loopsctl-plan-'), 'change.json');
    const planned = await sandbox.loopsctl(['content', 'push', root, '--only', 'audience,transactional', '--plan', '--out', out]);
    expect(planned.code, planned.stdout).toBe(2);
    expect(planned.stderr).toContain(
      `transactional/password-reset--${reset}: names a segment or group this plan makes, and a plan file cannot hold an id before the account gives it; nothing was written`,
    );
    expect(existsSync(out)).toBe(false);
    // Without --out the plan is shown.
    const shown = await sandbox.loopsctl(['content', 'push', root, '--only', 'audience,transactional', '--plan']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(writes(sandbox)).toEqual([]);
  });

  it('a push pairs with the first of two same-named records: a file of that name pairs with neither, and changes neither', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    const twin = (id: string, description: string) => ({
      id,
      name: 'Twins',
      description,
      createdAt: '2024-09-01T00:00:00.000Z',
      updatedAt: '2024-09-01T00:00:00.000Z',
    });
    sandbox.server.update((state) => void slices(state).campaignGroups!.push(twin('cgroupfirst', 'One'), twin('cgroupsecond', 'Two')));
    // Written by hand: no id in its directory's name, none in the state.
    writeRecord(root, 'groups/campaigns/twins', 'group.json', { name: 'Twins', description: 'Two' });
    const plan = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan']);
    const block = plan.stdout.split(/^# /m).find((part) => part.startsWith('groups/campaigns/twins:'));
    expect(block, plan.stdout).toBeDefined();
    expect(block).not.toMatch(/unchanged|would update|cgroupfirst|cgroupsecond/);
    await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(writes(sandbox).filter((request) => /cgroupfirst|cgroupsecond/.test(request.path))).toEqual([]);
    const twins = slices(sandbox.server.state()).campaignGroups!.filter((group: { name: string }) => group.name === 'Twins');
    expect(
      twins.filter(({ id }: { id: string }) => id === 'cgroupfirst' || id === 'cgroupsecond').map(({ description }: { description: string }) => description),
    ).toEqual(['One', 'Two']);
  });

  it('a segment and a group cannot share a name: groups named as a segment of the account are created, and the next push has nothing to do', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    // The account has a segment "Customers"; the tree gains, by hand, a group of each kind of that name.
    writeRecord(root, 'segments/customers', 'segment.json', FRESH_SEGMENT);
    expect((await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes'])).code).toBe(0);
    writeRecord(root, 'groups/campaigns/customers', 'group.json', { name: 'Customers' });
    writeRecord(root, 'groups/transactional/customers', 'group.json', { name: 'Customers' });
    const grouped = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(grouped.code, grouped.stderr).toBe(0);
    const state = slices(sandbox.server.state());
    for (const slice of ['segments', 'campaignGroups', 'transactionalGroups'])
      expect(
        state[slice]!.filter((record: { name: string }) => record.name === 'Customers'),
        slice,
      ).toHaveLength(1);
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(sandbox)).toEqual([]);
  });

  it('a hand-written file that matches two records of the account planned a third create: it is refused as ambiguous, by plan and push', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    const at = '2024-09-01T00:00:00.000Z';
    const twin = (id: string, description: string) => ({ id, name: 'Twins', description, createdAt: at, updatedAt: at });
    sandbox.server.update((state) => {
      slices(state).segments!.push(
        { ...twin('segtwinone', 'One'), filter: FRESH_SEGMENT.filter },
        { ...twin('segtwintwo', 'Two'), filter: FRESH_SEGMENT.filter },
      );
      slices(state).transactionalGroups!.push(twin('tgrouptwinone', 'One'), twin('tgrouptwintwo', 'Two'));
    });
    // Written by hand: no id in the directories' names, none in the state.
    writeRecord(root, 'segments/twins', 'segment.json', { ...FRESH_SEGMENT, name: 'Twins', description: 'Two' });
    writeRecord(root, 'groups/transactional/twins', 'group.json', { name: 'Twins', description: 'Two' });
    const plan = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan']);
    expect(plan.code, plan.stderr).toBe(5);
    expect(plan.stderr).toContain('The push would leave: 2 audience records the API cannot make as the files say');
    expect(plan.stdout).toContain('several segments in the account are named "Twins", and these files are none of them');
    expect(plan.stdout).toContain('several groups in the account are named "Twins", and these files are none of them');
    expect(plan.stdout).not.toMatch(/would create/);
    const json = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan', '--json']);
    expect(json.code, json.stderr).toBe(5);
    expect(json.stderr).toBe('');
    const planned = (JSON.parse(json.stdout) as { audience: { plan: { path: string }[] } }).audience.plan;
    expect(planned.find((task) => task.path === 'segments/twins')).toMatchObject({ standing: 'ambiguous', action: 'skip', calls: [] });
    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(push.code, push.stderr).toBe(5);
    expect(push.stderr).toContain('Not pushed: 2 audience records the API cannot make as the files say');
    expect(writes(sandbox)).toEqual([]);
    const state = slices(sandbox.server.state());
    for (const slice of ['segments', 'transactionalGroups'])
      expect(
        state[slice]!.filter((record: { name: string }) => record.name === 'Twins').map(({ id }: { id: string }) => id),
        slice,
      ).toHaveLength(2);
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...AUDIENCE]);
    expect(diff.stdout).toContain('several records in the account have this name');
  });

  it('a hand-written segment.json without a final newline was pushed, then blocked the next pull: the two are the same file', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    // Written by hand as editors and JSON.stringify leave it: no final line break, or on one line.
    mkdirSync(join(root, 'segments/customers'), { recursive: true });
    writeFileSync(join(root, 'segments/customers/segment.json'), JSON.stringify(FRESH_SEGMENT, null, 2));
    mkdirSync(join(root, 'groups/campaigns/announcements'), { recursive: true });
    writeFileSync(join(root, 'groups/campaigns/announcements/group.json'), JSON.stringify({ name: 'Announcements' }));
    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    expect(writes(sandbox).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/audience-segments', 'POST /v1/campaign-groups']);
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...AUDIENCE]);
    expect(diff.code, diff.stdout).toBe(0);
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE]);
    expect(pull.code, pull.stderr).toBe(0);
    // The other way: a pulled file whose final line break an editor took away is the same file too.
    const pulled = join(root, 'segments', readdirSync(join(root, 'segments')).find((name) => name.startsWith('paying-customers--'))!, 'segment.json');
    writeFileSync(pulled, readFileSync(pulled, 'utf8').trimEnd());
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(sandbox)).toEqual([]);
    expect((await sandbox.loopsctl(['content', 'diff', root, ...AUDIENCE])).code).toBe(0);
    expect((await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE])).code).toBe(0);
  });
});
