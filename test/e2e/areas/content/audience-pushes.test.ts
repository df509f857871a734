/**
 * Pushes of the audience half that went wrong unnoticed: each test is named for the bug it guards
 * against. A plan file that silently lacked the audience writes; a push that paired a record with
 * the first of two of the account's records of its name, or planned a third; a segment and a group
 * that could not share a name.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest, type RecordingSandbox } from '../../../support/recording.js';

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

const FRESH_SEGMENT = {
  name: 'Customers',
  description: 'Paying',
  filter: { match: 'all', conditions: [{ type: 'property', key: 'plan', operator: 'equals', value: 'pro' }] },
};

describe('audience pushes', () => {
  it('a plan file silently lacks the audience writes: --out is refused, naming them, and writes no file', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    writeRecord(root, 'segments/customers', 'segment.json', FRESH_SEGMENT);
    const out = join(tempDir('loopsctl-plan-'), 'change.json');
    for (const only of [AUDIENCE, []]) {
      const planned = await sandbox.loopsctl(['content', 'push', root, ...only, '--plan', '--out', out]);
      expect(planned.code, planned.stderr).toBe(2);
      expect(planned.stderr).toMatch(/a plan file holds no writes of segments, groups or contact properties; nothing was written/);
      expect(existsSync(out)).toBe(false);
    }
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
