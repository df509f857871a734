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
