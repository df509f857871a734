/**
 * Two accounts with one team name (every sandbox is "Acme Sandbox"): a tree pulled from one is
 * never taken for the other's, which the state tells apart by the ids it recorded.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readState } from '../../../../src/areas/content/shared/files.js';
import { seedState } from '../../../../src/emulator/state/index.js';
import { tempDir } from '../../../support/main.js';
import { type Recorded, sandboxEachTest } from '../../../support/recording.js';

const ONLY = ['--only', 'transactional,components,themes'];
const directories: string[] = [];
afterAll(() => directories.forEach((directory) => rmSync(directory, { recursive: true, force: true })));
const sandboxes = sandboxEachTest();
const writes = (requests: Recorded[]) => requests.filter((request) => request.method !== 'GET');

describe('a tree pulled from one account, pushed to another of the same team name', () => {
  it('creates what the second account lacks, keeps each account apart, and still knows the first', async () => {
    const first = await sandboxes();
    // With the groups the emails name, which a push of the emails alone finds by name in the account.
    const second = await sandboxes({
      initialState: (modules) => ({ ...seedState(modules, 'empty'), transactionalGroups: seedState(modules).transactionalGroups }),
    });
    expect(second.server.state().teamName).toBe(first.server.state().teamName);
    const directory = tempDir('loopsctl-accounts-');
    directories.push(directory);
    const root = join(directory, 'loops');
    const pull = await first.loopsctl(['content', 'pull', root, ...ONLY]);
    expect(pull.code, pull.stderr).toBe(0);
    const pulledRecords = ['transactional', 'components', 'themes'].flatMap((kind) => readdirSync(join(root, kind)));

    const told = await second.loopsctl(['content', 'diff', root, ...ONLY]);
    expect(told.code).toBe(1);
    expect(told.stderr).toMatch(/records differ between \S+ and Acme Sandbox \(LOOPS_API_KEY at 127\.0\.0\.1:\d+\)\./);
    const diff = await second.loopsctl(['content', 'diff', root, ...ONLY, '--json']);
    const missing = diff.json().records.filter((record: { standing: string }) => record.standing === 'missing');
    // The empty account has its default theme, of the same name: every other record is missing there.
    expect(missing.length).toBeGreaterThanOrEqual(pulledRecords.length - 1);

    // Without Guardian's check: the seed's payment-failed draft, whose button leads nowhere, would be put back.
    const push = await second.loopsctl(['content', 'push', root, ...ONLY, '--yes', '--no-check', '--json']);
    expect(push.code, push.stdout).toBe(0);
    const created = push.json().records.filter((record: { status: string }) => record.status === 'created');
    expect(created.map((record: { path: string }) => record.path).sort()).toEqual(missing.map((record: { path: string }) => record.path).sort());
    expect(push.json().account).toMatch(/^Acme Sandbox \(LOOPS_API_KEY at 127\.0\.0\.1:\d+\)$/);
    const state = readState(root)!;
    expect(Object.keys(state.accounts).sort()).toEqual(['Acme Sandbox', push.json().account]);
    expect(state.where?.['Acme Sandbox']).toMatchObject({ team: 'Acme Sandbox', baseUrl: first.env.LOOPS_BASE_URL, profiles: ['LOOPS_API_KEY'] });

    // Each account is known again: nothing more to send to either.
    second.requests.length = 0;
    first.requests.length = 0;
    const again = await second.loopsctl(['content', 'push', root, ...ONLY]);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(second.requests)).toEqual([]);
    const back = await first.loopsctl(['content', 'push', root, ...ONLY]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain('Pushed 0 records to Acme Sandbox;');
    expect(writes(first.requests)).toEqual([]);
  });
});
