/**
 * The audience half of a tree against the sandbox: segments, groups, contact properties, lists and
 * event patterns pulled as files, diffed and planned in the words of the other kinds, pushed as
 * far as the API can write them, and what it cannot, said.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState, STATE_FILE } from '../../../../src/areas/content/files.js';
import { seedId } from '../../../../src/emulator/module.js';
import { seedState } from '../../../../src/emulator/state.js';
import { tempDir } from '../../../support/main.js';
import { sandboxEachTest, type Recorded } from '../../../support/recording.js';

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
    empty.requests.length = 0;
    const push = await empty.loopsctl(['content', 'push', root, '--yes', '--no-check']);
    expect(push.code, push.stderr).toBe(0);
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
    const left = push.stderr.slice(push.stderr.indexOf('Left to do by hand:')).trim().split('\n');
    expect(left).toEqual([
      'Left to do by hand:',
      expect.stringMatching(
        /^ {2}1\. create the segment "Engaged newsletter readers" in the app: its filter's conditions\[2\] names a campaign by its id in another account/,
      ),
      '  2. publish the transactional emails pushed as drafts (`loopsctl content push --publish`, or in the app)',
      '  3. review and publish the workflows made as drafts, in the app (the API cannot start one)',
      '  4. set up the sending domain in the app (Settings, Domain): the API neither reads nor sets it',
    ]);

    // Pulled back, the audience reads as it did but for ids, and for the segment left to the app.
    const back = contentDir();
    const again = await empty.loopsctl(['content', 'pull', back, ...AUDIENCE]);
    expect(again.code, again.stderr).toBe(0);
    const { 'segments/Engaged newsletter readers': engaged, ...expected } = byName(root);
    expect(engaged).toBeDefined();
    expect(byName(back)).toEqual(expected);
    // The account's default groups were matched by name, never made twice.
    expect(empty.server.state().transactionalGroups.filter((group: { name: string }) => group.name === 'General')).toHaveLength(1);
    const diff = await empty.loopsctl(['content', 'diff', root, ...AUDIENCE]);
    expect(diff.stdout).toBe(
      `# segments/${readdirSync(join(root, 'segments')).find((name) => name.startsWith('engaged'))}: not in the account\n${diff.stdout.slice(diff.stdout.indexOf('\n') + 1)}`,
    );
    expect(diff.stderr).toContain('1 record differs');
  }, 240_000);
});
