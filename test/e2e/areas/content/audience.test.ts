/**
 * The audience half of a tree against the sandbox: segments, groups, contact properties, lists and
 * event patterns pulled as files, diffed and planned in the words of the other kinds, pushed as
 * far as the API can write them, and what it cannot, said.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState, STATE_FILE } from '../../../../src/areas/content/shared/files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, type RecordingSandbox, sandboxEachTest } from '../../../support/recording.js';

const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
function contentDir(): string {
  const directory = tempDir('loopsctl-audience-');
  directories.push(directory);
  return join(directory, 'loops');
}
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');
const AUDIENCE = ['--only', 'audience'];
/** The sandbox's state by slice, as the tests read and change it. */
const slices = (state: unknown) => state as Record<string, any[]>;
const DORMANT = seedId('segment/Dormant');

describe('content pull of the audience', () => {
  it('writes segments, groups, properties, lists and event patterns, ids in the state alone; a second pull changes nothing', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readdirSync(root).sort()).toEqual(['contact-properties.json', 'event-patterns.json', 'groups', 'lists.json', 'loopsctl-state.json', 'segments']);
    expect(readdirSync(join(root, 'groups')).sort()).toEqual(['campaigns', 'transactional']);
    const dormant = readdirSync(join(root, 'segments')).find((name) => name.endsWith(`--${DORMANT}`))!;
    expect(dormant).toBe(`dormant--${DORMANT}`);
    expect(JSON.parse(readFileSync(join(root, 'segments', dormant, 'segment.json'), 'utf8'))).toEqual({
      name: 'Dormant',
      description: 'No sign-in for the last 90 days',
      filter: { match: 'all', conditions: [{ type: 'property', key: 'lastSignInAt', operator: 'before', value: '2024-11-01T00:00:00.000Z' }] },
    });
    const properties = JSON.parse(readFileSync(join(root, 'contact-properties.json'), 'utf8'));
    expect(properties).toContainEqual({ key: 'seats', label: 'Seats', type: 'number' });
    expect(properties.map((property: { key: string }) => property.key)).toEqual(properties.map((property: { key: string }) => property.key).sort());
    const lists = readFileSync(join(root, 'lists.json'), 'utf8');
    expect(lists).not.toMatch(/"id"/);
    expect(readFileSync(join(root, 'event-patterns.json'), 'utf8')).toContain('"eventName": "trial_started"');
    const state = readState(root)!;
    const audience = (state.audience as Record<string, Record<string, { id?: string; ids?: Record<string, string> }>>)['Acme Sandbox']!;
    expect(audience[`segments/${dormant}`]?.id).toBe(DORMANT);
    expect(Object.keys(audience['lists.json']?.ids ?? {}).length).toBeGreaterThan(0);

    const written = readFileSync(join(root, STATE_FILE), 'utf8');
    sandbox.requests.length = 0;
    const again = await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().records.every((line: { status: string }) => line.status === 'unchanged')).toBe(true);
    expect(readFileSync(join(root, STATE_FILE), 'utf8')).toBe(written);
    expect(writes(sandbox.requests)).toEqual([]);
  });
});

/** The files of each segment and group of a tree, by kind and name, with the contact properties, lists and event patterns: a tree as it reads but for ids. */
function byName(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const kind of ['segments', 'groups/transactional', 'groups/campaigns']) {
    for (const entry of readdirSync(join(root, kind))) {
      const file = readdirSync(join(root, kind, entry))[0]!;
      const text = readFileSync(join(root, kind, entry, file), 'utf8');
      files[`${kind}/${JSON.parse(text).name}`] = text;
    }
  }
  for (const file of ['contact-properties.json', 'lists.json', 'event-patterns.json']) files[file] = readFileSync(join(root, file), 'utf8');
  return files;
}

/** The files of each record of a kind that a clone writes as they are, by the record's name: a transactional email's draft, a component, a theme. */
function recordsByName(root: string, kind: string, meta: string, files: string[]): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(join(root, kind))) {
    const name = JSON.parse(readFileSync(join(root, kind, entry, meta), 'utf8')).name;
    for (const file of [meta, ...files]) found[`${kind}/${name}/${file}`] = readFileSync(join(root, kind, entry, file), 'utf8');
  }
  return found;
}
const CLONED: [string, string, string[]][] = [
  ['transactional', 'transactional.json', ['draft.json', 'draft.lmx']],
  ['components', 'component.json', ['component.lmx']],
  ['themes', 'theme.json', []],
];

describe('a tree pulled from the seeded sandbox, pushed to an empty one', () => {
  it('stops, with nothing sent, for the lists and events only the app makes; then builds the rest in order and lists what is left', async () => {
    const seeded = await sandboxes();
    // An empty account whose app has had its mailing lists made (the step the first push asks for).
    const empty = await sandboxes({ initialState: (modules) => ({ ...seedState(modules, 'empty'), mailingLists: seedState(modules).mailingLists }) });
    const root = contentDir();
    const pull = await seeded.loopsctl(['content', 'pull', root]);
    expect(pull.code, pull.stderr).toBe(0);

    const stopped = await empty.loopsctl(['content', 'push', root, '--yes']);
    expect(stopped.code, stopped.stderr).toBe(5);
    expect(stopped.stdout).toContain('# in the app first: the push cannot go on before');
    expect(stopped.stdout).toMatch(/send the event "trial_started" once \(loopsctl events send "trial_started" --email <a contact's address>\)/);
    expect(stopped.stderr).toContain('Nothing was sent: 1 step to take in the app first (above), then push again.');
    expect(writes(empty.requests)).toEqual([]);

    const sent = await empty.loopsctl(['events', 'send', 'trial_started', '--email', 'ada@example.com']);
    expect(sent.code, sent.stderr).toBe(0);
    // Campaigns are made in each account's app: the plan says it skips them, as the push does, and never that it would create one.
    const plan = await empty.loopsctl(['content', 'push', root, '--plan', '--no-check']);
    const campaigns = readdirSync(join(root, 'campaigns'));
    expect(campaigns.length).toBeGreaterThan(0);
    for (const campaign of campaigns)
      expect(plan.stdout).toContain(`# campaigns/${campaign}: would skip (campaigns are made in the app of each account; not created)\n`);
    expect(plan.stdout).not.toMatch(/# campaigns\/\S+: would create/);
    empty.requests.length = 0;
    const push = await empty.loopsctl(['content', 'push', root, '--yes', '--no-check']);
    expect(push.code, push.stderr).toBe(0);
    for (const campaign of campaigns) expect(push.stdout).toMatch(new RegExp(`skipped\\s+campaigns/${campaign}\\s+campaigns are made in the app`));
    expect(writes(empty.requests).filter((request) => request.path.startsWith('/v1/campaigns'))).toEqual([]);
    // Properties, then segments, then groups, then what names them.
    const order = writes(empty.requests).map((request) => request.path.split('/').slice(0, 3).join('/'));
    const first = (path: string) => order.indexOf(path);
    const last = (path: string) => order.lastIndexOf(path);
    expect(order.filter((path) => path === '/v1/contacts')).toHaveLength(8);
    expect(last('/v1/contacts')).toBeLessThan(first('/v1/audience-segments'));
    expect(last('/v1/audience-segments')).toBeLessThan(first('/v1/transactional-groups'));
    expect(last('/v1/transactional-groups')).toBeLessThan(first('/v1/campaign-groups'));
    expect(last('/v1/campaign-groups')).toBeLessThan(first('/v1/workflows'));
    for (const path of ['/v1/transactional-emails', '/v1/components', '/v1/themes']) expect(last('/v1/campaign-groups')).toBeLessThan(first(path));
    // The components and themes an email may embed, before the emails.
    expect(last('/v1/components')).toBeLessThan(first('/v1/transactional-emails'));
    expect(last('/v1/themes')).toBeLessThan(first('/v1/transactional-emails'));
    const left = push.stderr.slice(push.stderr.indexOf('Left to do by hand:')).trim().split('\n');
    // The seed's events no workflow listens for (event-patterns.json) come first: only the app can send them.
    const seededEvents = 8;
    expect(left.slice(1, 1 + seededEvents).every((line, index) => line.startsWith(`  ${index + 1}. send the event `))).toBe(true);
    expect(left.filter((line) => line.includes('send the event "class" once'))).toHaveLength(1);
    // Each workflow's emoji, which the API cannot set, is one line of the list too.
    const workflows = readdirSync(join(root, 'workflows'));
    expect([left[0], ...left.slice(1 + seededEvents)]).toEqual([
      'Left to do by hand:',
      expect.stringMatching(
        /^ {2}9\. create the segment "Engaged newsletter readers" in the app: its filter's conditions\[2\] names a campaign by its id in another account/,
      ),
      `  10. make in the app the campaigns this account is to send (a push never creates one): ${campaigns.map((campaign) => `campaigns/${campaign}`).join(', ')}`,
      '  11. publish the transactional emails pushed as drafts (`loopsctl content push --publish`, or in the app)',
      ...workflows.map((workflow, index) => expect.stringMatching(new RegExp(`^ {2}${12 + index}\\. set in the app, in workflows/${workflow}: the emoji `))),
      `  ${12 + workflows.length}. review and publish the workflows made as drafts, in the app (the API cannot start one)`,
      `  ${13 + workflows.length}. set up the sending domain in the app (Settings, Domain): the API neither reads nor sets it`,
    ]);

    // Pulled back, the audience reads as it did but for ids, and for the segment left to the app.
    const back = contentDir();
    const again = await empty.loopsctl(['content', 'pull', back]);
    expect(again.code, again.stderr).toBe(0);
    // The emails' drafts, the components and the themes too.
    for (const [kind, meta, files] of CLONED) expect(recordsByName(back, kind, meta, files)).toEqual(recordsByName(root, kind, meta, files));
    // Each email in the group of its name, made by the push, not in the new account's default group.
    const groups = Object.fromEntries(
      readdirSync(join(back, 'transactional')).map((entry) => {
        const meta = JSON.parse(readFileSync(join(back, 'transactional', entry, 'transactional.json'), 'utf8'));
        return [meta.name, meta.group];
      }),
    );
    expect(groups).toMatchObject({ Welcome: 'Onboarding', 'Password reset': 'Security', 'Order receipt': 'Billing', 'Payment failed': 'Billing' });
    // But for the segment and the seed's events, which the list above leaves to the app.
    const { 'segments/Engaged newsletter readers': engaged, 'event-patterns.json': _seededEvents, ...expected } = byName(root);
    expect(engaged).toBeDefined();
    const { 'event-patterns.json': backEvents, ...pulledBack } = byName(back);
    expect(pulledBack).toEqual(expected);
    expect(JSON.parse(backEvents!).map((pattern: { eventName: string }) => pattern.eventName)).toEqual(['trial_started']);
    // The account's default groups were matched by name, never made twice.
    expect(slices(empty.server.state()).transactionalGroups!.filter((group: { name: string }) => group.name === 'General')).toHaveLength(1);
    const diff = await empty.loopsctl(['content', 'diff', root, ...AUDIENCE]);
    const headings = diff.stdout.split('\n').filter((line) => line.startsWith('# '));
    expect(headings).toEqual([
      expect.stringMatching(/^# event-patterns\.json: changed here/),
      `# segments/${readdirSync(join(root, 'segments')).find((name) => name.startsWith('engaged'))}: not in the account`,
    ]);
    expect(diff.stderr).toContain('2 records differ');

    // The same tree pushed again plans nothing for the workflows: an experiment's paths, which the API
    // lists variants first where the tree has its control first, are no difference.
    expect(
      readdirSync(join(root, 'workflows')).some((workflow) =>
        readFileSync(join(root, 'workflows', workflow, 'workflow.yaml'), 'utf8').includes('type: ExperimentBranchNode'),
      ),
    ).toBe(true);
    // What it says of them is only what the API cannot set, as after any push (the emoji).
    const secondPlan = await empty.loopsctl(['content', 'push', root, '--plan', '--no-check']);
    expect(secondPlan.code, secondPlan.stdout).toBe(0);
    expect(secondPlan.stdout).not.toContain('no edit script');
    expect(secondPlan.stdout).not.toMatch(/^ {2}\d+\. /m);
    empty.requests.length = 0;
    const second = await empty.loopsctl(['content', 'push', root, '--yes', '--no-check']);
    expect(second.code, second.stdout).toBe(0);
    expect(writes(empty.requests)).toEqual([]);
  }, 240_000);
});

/** A file of the tree, as JSON, changed by `edit` and written back. */
function editJson(file: string, edit: (value: any) => unknown): void {
  const value = JSON.parse(readFileSync(file, 'utf8'));
  writeFileSync(file, `${JSON.stringify(edit(value) ?? value, null, 2)}\n`);
}

async function pulledAudience(sandbox: RecordingSandbox): Promise<string> {
  const root = contentDir();
  const pull = await sandbox.loopsctl(['content', 'pull', root, ...AUDIENCE]);
  expect(pull.code, pull.stderr).toBe(0);
  return root;
}

describe('content push of a changed audience', () => {
  it('updates a group, and says what the API cannot do for a segment, a property, and a record removed, sending none of it', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    const dormant = join(root, 'segments', `dormant--${DORMANT}`);
    editJson(join(dormant, 'segment.json'), (segment) => {
      segment.filter.conditions[0].value = '2025-01-01T00:00:00.000Z';
    });
    editJson(join(root, 'contact-properties.json'), (properties) => {
      properties.find((property: { key: string }) => property.key === 'seats').type = 'string';
      return properties.filter((property: { key: string }) => property.key !== 'region');
    });
    const billing = readdirSync(join(root, 'groups/transactional')).find((name) => name.startsWith('billing--'))!;
    editJson(join(root, 'groups/transactional', billing, 'group.json'), (group) => {
      group.description = 'Invoices and receipts';
    });
    const trials = readdirSync(join(root, 'segments')).find((name) => name.startsWith('trials-in-europe--'))!;
    rmSync(join(root, 'segments', trials), { recursive: true });

    const diff = await sandbox.loopsctl(['content', 'diff', root, ...AUDIENCE]);
    expect(diff.code).toBe(1);
    expect(diff.stderr).toMatch(/^4 records differ between /);
    expect(diff.stdout).toContain(`# segments/dormant--${DORMANT}: changed here\n--- a/segments/dormant--${DORMANT}/segment.json`);
    expect(diff.stdout).toContain('# contact-properties.json: changed here\n--- a/contact-properties.json\n+++ b/contact-properties.json');
    expect(diff.stdout).toContain(`# segments/${trials}: only in the account`);

    const plan = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan']);
    expect(plan.code, plan.stderr).toBe(5);
    expect(plan.stderr).toBe('The push would leave: 3 audience records the API cannot make as the files say (each line says why and what to do).\n');
    expect(plan.stdout).toContain(
      `# groups/transactional/${billing}: would update\n  1. updateTransactionalGroup name="Billing" description="Invoices and receipts"`,
    );
    expect(plan.stdout).toMatch(
      new RegExp(
        `# segments/dormant--${DORMANT}: cannot be pushed\\n {2}! changed here: the API cannot change a segment: to change it, write it as a new segment under a new name`,
      ),
    );
    expect(plan.stdout).toContain(`"seats" is number in the account and string here: the API cannot change a property's type`);
    expect(plan.stdout).toContain(`"region" was removed here: the API cannot delete a contact property; delete it in the app`);
    expect(plan.stdout).toContain(`# segments/${trials}: cannot be pushed\n  ! removed here: the API cannot delete a segment; delete it in the app`);
    expect(writes(sandbox.requests)).toEqual([]);

    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE]);
    expect(push.code, push.stderr).toBe(5);
    expect(push.stderr).toContain('Not pushed: 3 audience records the API cannot make as the files say (each line says why and what to do).\n');
    expect(writes(sandbox.requests).map((request) => `${request.method} ${request.path}`)).toEqual([
      `POST /v1/transactional-groups/${seedId('transactional-group/Billing')}`,
    ]);
    expect(push.stdout).toMatch(/refused\s+segments\/dormant--/);
    // The group is in step; what the API could not do is still said.
    const again = await sandbox.loopsctl(['content', 'diff', root, ...AUDIENCE, '--json']);
    expect(
      again
        .json()
        .records.map((record: { path: string }) => record.path)
        .sort(),
    ).toEqual(['contact-properties.json', `segments/dormant--${DORMANT}`, `segments/${trials}`].sort());
  });

  it('restores a segment deleted in the account since the pull, and a clone target holding a group of the same name is matched, or a conflict when it differs', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    sandbox.server.update((state: any) => {
      state.segments = state.segments.filter((segment: { id: string }) => segment.id !== DORMANT);
    });
    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(push.code, push.stderr).toBe(0);
    expect(push.stdout).toMatch(/created\s+segments\/dormant--/);
    expect(slices(sandbox.server.state()).segments!.filter((segment: { name: string }) => segment.name === 'Dormant')).toHaveLength(1);

    const other = await sandboxes({
      initialState: (modules) => {
        // Another account: its own ids (every sandbox's seed has the same), and a group named as one of the tree's.
        const core = seedState(modules, 'empty');
        const state = slices(core);
        const elsewhere = <T extends { id: string }>(records: T[]) => records.map((record) => ({ ...record, id: `${record.id}x` }));
        const newsletters = slices(seedState(modules)).campaignGroups!.find((group: { name: string }) => group.name === 'Newsletters');
        return {
          ...core,
          transactionalGroups: elsewhere(state.transactionalGroups!),
          campaignGroups: [...elsewhere(state.campaignGroups!), { ...newsletters, id: 'cgroupelsewhere', description: 'Something else' }],
        };
      },
    });
    const plan = await other.loopsctl(['content', 'push', root, ...AUDIENCE, '--plan']);
    expect(plan.code).toBe(5);
    expect(plan.stderr).toContain('The push would leave: 1 audience record changed in the account too');
    expect(plan.stdout).toMatch(
      /# groups\/campaigns\/newsletters--\S+: would skip \(the account has a group of this name that these files were never pulled from/,
    );
    expect(plan.stdout).not.toContain('createCampaignGroup "Newsletters"');
  });
});

describe('bad input in the audience files', () => {
  const cases: [string, (root: string) => void, RegExp][] = [
    [
      'a segment filter naming a property the tree does not define',
      (root) =>
        editJson(join(root, 'segments', `dormant--${DORMANT}`, 'segment.json'), (segment) => {
          segment.filter.conditions[0].key = 'lastSeenAt';
        }),
      /segments\/dormant--\S+\/segment\.json: filter\.conditions\[0\]\.key: the contact property "lastSeenAt" is not in contact-properties\.json/,
    ],
    [
      'a property key the API refuses',
      (root) => editJson(join(root, 'contact-properties.json'), (properties) => [...properties, { key: 'Plan Name', label: 'Plan', type: 'string' }]),
      /contact-properties\.json: \[\d+\]\.key: "Plan Name" is not a key the API takes for a custom property/,
    ],
    [
      'two properties of one key with different types',
      (root) => editJson(join(root, 'contact-properties.json'), (properties) => [...properties, { key: 'seats', label: 'Seats', type: 'string' }]),
      /contact-properties\.json: \[\d+\]\.type: "seats" is defined twice, as number and as string/,
    ],
    [
      'a contact-properties.json that is not valid JSON',
      (root) => writeFileSync(join(root, 'contact-properties.json'), '[\n  {"key": "secretvalue", "type": }\n]\n'),
      /contact-properties\.json:2:34\b.*not valid JSON/,
    ],
    [
      'an operator the property type does not take',
      (root) =>
        editJson(join(root, 'segments', `dormant--${DORMANT}`, 'segment.json'), (segment) => {
          segment.filter.conditions[0] = { type: 'property', key: 'seats', operator: 'contains', value: '3' };
        }),
      /filter\.conditions\[0\]\.operator: "contains" does not apply to "seats", a number property/,
    ],
  ];
  it.each(cases)('%s: check names the file and field (exit 1), push sends nothing (exit 2)', async (_name, spoil, said) => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    spoil(root);
    const check = await sandbox.loopsctl(['content', 'check', root]);
    expect(check.code, check.stderr).toBe(1);
    expect(check.stderr).toMatch(/^Checked \d+ files: 1 error, 0 warnings in 1 file\.\n$/);
    expect(check.stdout.replaceAll(`${root}/`, '').replace(/:1:1 \S+ /, ': ')).toMatch(said);
    expect(check.stdout).not.toContain('secretvalue');
    const push = await sandbox.loopsctl(['content', 'push', root, ...AUDIENCE, '--yes']);
    expect(push.code, push.stdout).toBe(2);
    expect(push.stderr).toMatch(said);
    expect(push.stderr).not.toContain('secretvalue');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('--account adds what only the account can say: a property it types otherwise, a list or event pattern it lacks', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    editJson(join(root, 'contact-properties.json'), (properties) => {
      properties.find((property: { key: string }) => property.key === 'seats').type = 'string';
    });
    editJson(join(root, 'lists.json'), (lists) => [...lists, { name: 'VIP', description: null, isPublic: false }]);
    editJson(join(root, 'event-patterns.json'), (patterns) => [...patterns, { eventName: 'vip_joined', incomingWebhookPlatform: null }]);
    const offline = await sandbox.loopsctl(['content', 'check', root]);
    expect([offline.code, offline.stdout]).toEqual([0, '']);
    const checked = await sandbox.loopsctl(['content', 'check', root, '--account']);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/: 3 errors, 0 warnings in 3 files\.\n$/);
    const said = checked.stdout.replaceAll(`${root}/`, '');
    expect(said).toContain(
      `contact-properties.json:1:1 property-type seats: "seats" is a number property in the account, and string here: the API cannot change a property's type`,
    );
    expect(said).toContain('lists.json:1:1 reference the mailing list "VIP" is not in the account');
    expect(said).toContain('event-patterns.json:1:1 reference the event pattern "vip_joined" is not in the account');
    expect(writes(sandbox.requests)).toEqual([]);
  });

  it('names a JSON fault by line and column', async () => {
    const sandbox = await sandboxes();
    const root = await pulledAudience(sandbox);
    writeFileSync(join(root, 'contact-properties.json'), '[\n  {"key": "secretvalue", "type": }\n]\n');
    const check = await sandbox.loopsctl(['content', 'check', root]);
    expect(check.stdout).toContain(`${join(root, 'contact-properties.json')}:2:34 json not valid JSON`);
  });

  it('a workflow naming a segment the tree does not define is an error offline', async () => {
    const sandbox = await sandboxes();
    const root = contentDir();
    const pull = await sandbox.loopsctl(['content', 'pull', root, '--only', 'audience,workflows']);
    expect(pull.code, pull.stderr).toBe(0);
    const winBack = readdirSync(join(root, 'workflows')).find((name) => name.startsWith('win-back'))!;
    const file = join(root, 'workflows', winBack, 'workflow.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('segment: Dormant', 'segment: Sleepers'));
    // A contact's own field is a property of every account, which contact-properties.json need not list.
    const withFilter = readdirSync(join(root, 'workflows'))
      .map((name) => join(root, 'workflows', name, 'workflow.yaml'))
      .find((path) => readFileSync(path, 'utf8').includes('key: projectsCreated'))!;
    writeFileSync(withFilter, readFileSync(withFilter, 'utf8').replace('key: projectsCreated', 'key: firstName'));
    const check = await sandbox.loopsctl(['content', 'check', root]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('reference node "dormant": the segment "Sleepers" is not in this tree (segments/)');
    // The emails' own lines are shown beside their findings (a greeting by firstName among them): the findings name no firstName.
    expect(check.stdout.split('\n').filter((line) => line.includes('firstName') && !/^\d+ \|/.test(line))).toEqual([]);
    expect(check.stderr).toMatch(/: 1 error, /);
  });
});

describe("a transactional email's group", () => {
  const RESET = seedId('transactional/Password reset');
  const EMAILS = ['--only', 'audience,transactional'];
  async function pulledEmails(sandbox: RecordingSandbox, env: Record<string, string>): Promise<{ root: string; meta: string }> {
    const root = contentDir();
    const pull = await sandbox.loopsctl(['content', 'pull', root, ...EMAILS], { env });
    expect(pull.code, pull.stderr).toBe(0);
    return { root, meta: join(root, 'transactional', `password-reset--${RESET}`, 'transactional.json') };
  }
  const groupOf = (sandbox: RecordingSandbox) =>
    slices(sandbox.server.state()).transactionalEmails!.find((email: { record: { id: string } }) => email.record.id === RESET).record.transactionalGroupId;

  it('is named by its name; a move is diffed, planned, pushed and undone as the other fields are', async () => {
    const sandbox = await sandboxes();
    const env = { LOOPSCTL_CONFIG_DIR: join(dirname(contentDir()), 'config') };
    const { root, meta } = await pulledEmails(sandbox, env);
    expect(readFileSync(meta, 'utf8')).toBe('{\n  "name": "Password reset",\n  "group": "Security"\n}\n');
    editJson(meta, (email) => {
      email.group = 'Billing';
    });
    const diff = await sandbox.loopsctl(['content', 'diff', root, ...EMAILS], { env });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain(`# transactional/password-reset--${RESET}: changed here`);
    expect(diff.stdout).toContain('-  "group": "Security"\n+  "group": "Billing"');

    const planFile = join(dirname(root), 'change.json');
    const plan = await sandbox.loopsctl(['content', 'push', root, ...EMAILS, '--plan', '--out', planFile], { env });
    expect(plan.code, plan.stderr).toBe(0);
    const units = JSON.parse(readFileSync(planFile, 'utf8')).units;
    expect(units).toEqual([
      expect.objectContaining({
        record: `transactional/password-reset--${RESET}`,
        calls: [{ op: 'updateTransactionalEmail', id: RESET, body: { transactionalGroupId: seedId('transactional-group/Billing') } }],
      }),
    ]);
    expect(writes(sandbox.requests)).toEqual([]);

    const push = await sandbox.loopsctl(['content', 'push', root, ...EMAILS], { env });
    expect(push.code, push.stderr).toBe(0);
    expect(writes(sandbox.requests).map((request) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`)).toEqual([
      `POST /v1/transactional-emails/${RESET} {"transactionalGroupId":"${seedId('transactional-group/Billing')}"}`,
    ]);
    expect(groupOf(sandbox)).toBe(seedId('transactional-group/Billing'));
    expect((await sandbox.loopsctl(['content', 'diff', root, ...EMAILS], { env })).code).toBe(0);

    const id = /`loopsctl undo (\S+)` puts it back/.exec(push.stderr)![1]!;
    const undo = await sandbox.loopsctl(['undo', id, '--yes'], { env });
    expect(undo.code, undo.stderr).toBe(0);
    expect(groupOf(sandbox)).toBe(seedId('transactional-group/Security'));
  });

  it('naming a group the tree does not have: check names the file and field (exit 1), push sends nothing (exit 2)', async () => {
    const sandbox = await sandboxes();
    const { root, meta } = await pulledEmails(sandbox, {});
    editJson(meta, (email) => {
      email.group = 'Nowhere';
    });
    const said = `transactional/password-reset--${RESET}/transactional.json: group: the transactional group "Nowhere" is not`;
    const check = await sandbox.loopsctl(['content', 'check', root]);
    expect(check.code, check.stderr).toBe(1);
    expect(check.stderr).toMatch(/: 1 error, /);
    expect(check.stdout.replaceAll(`${root}/`, '').replace(/:1:1 \S+ /g, ': ')).toContain(`${said} in groups/transactional/`);
    for (const only of [EMAILS, ['--only', 'transactional']]) {
      // Without the groups in the run, the account is what the name is looked up in.
      const push = await sandbox.loopsctl(['content', 'push', root, ...only, '--yes']);
      expect(push.code, push.stdout).toBe(2);
      expect(push.stderr).toContain(said);
      expect(writes(sandbox.requests)).toEqual([]);
    }
  });
});
