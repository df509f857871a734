/** The commands that work on the sandbox's state file without a server: outbox --clear and reset. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../../support/main.js';
import { addRow, queryState, setMember, stateFileIn, stateIn } from '../../../support/state-file.js';

describe('loopsctl sandbox outbox --clear', () => {
  it('says how many entries it cleared, and that it cleared none from an empty outbox', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    for (const name of ['trial_started', 'signed_up', 'upgraded']) {
      const sent = await run(['--sandbox', 'events', 'send', name, '--email', 'ada@example.com'], { env });
      expect(sent.code, sent.stderr).toBe(0);
    }
    const cleared = await run(['sandbox', 'outbox', '--clear'], { env });
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain('event trial_started for ada@example.com');
    expect(cleared.stderr).toContain('Cleared 3 entries from the outbox.');
    expect(stateIn(configDir).outbox).toEqual([]);

    const again = await run(['sandbox', 'outbox', '--clear'], { env });
    expect(again.stderr).toContain('The outbox is empty.');
    expect(again.stderr).toContain('Cleared 0 entries from the outbox.');
  });
});

describe('loopsctl sandbox reset', () => {
  it('replaces a damaged state file with the demo data, so --sandbox commands work again', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    writeFileSync(stateFileIn(configDir), '{"version": 2, "teamName": "Acme Sandbox", "sequence": 0, "themes": "not a list"');
    const broken = await run(['--sandbox', 'themes', 'list', '--limit', '1'], { env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('could not be read');

    const reset = await run(['sandbox', 'reset'], { env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toBe('');
    expect(reset.stderr).toContain(`Reset ${stateFileIn(configDir)} to the demo team's data.`);
    const themes = await run(['--sandbox', 'themes', 'list', '--json'], { env });
    expect(themes.code).toBe(0);
    expect(themes.json()).toHaveLength(26);
  });

  it.each([
    ['a database missing a table', ['DROP TABLE row_slices']],
    ['a database with a column gone', ['DROP INDEX rows_by_key1', 'ALTER TABLE rows DROP COLUMN key1']],
    ['a database whose writes another program refuses', ["CREATE TRIGGER kept BEFORE DELETE ON members BEGIN SELECT RAISE(ABORT, 'kept'); END"]],
  ])('starts over %s, whose own refusal sent the reader to reset', async (_what, damage) => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    expect((await run(['sandbox', 'reset'], { env })).code).toBe(0);
    for (const sql of damage) queryState(stateFileIn(configDir), sql);
    const reset = await run(['sandbox', 'reset'], { env });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain(`Reset ${stateFileIn(configDir)} to the demo team's data.`);
    const themes = await run(['--sandbox', 'themes', 'list', '--json'], { env });
    expect(themes.code, themes.stderr).toBe(0);
    expect(themes.json()).toHaveLength(26);
  });

  it('names the file to remove when it cannot start the state over, rather than itself', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const file = stateFileIn(configDir);
    // A directory where the state file goes: no database is made over it.
    mkdirSync(join(file, 'inside'), { recursive: true });
    const reset = await run(['sandbox', 'reset'], { env });
    expect(reset.code).toBe(2);
    expect(reset.stderr).toContain(`Error: the sandbox state file ${file} could not be started over: `);
    expect(reset.stderr).toContain(`Hint: remove ${file} yourself`);
    expect(reset.stderr).not.toContain('Hint: start over');
  });

  it('starts a new team with --seed empty, and a later reset keeps to the seed the data started from', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const empty = await run(['sandbox', 'reset', '--seed', 'empty', '--json'], { env });
    expect(empty.json()).toEqual({ stateFile: stateFileIn(configDir), seed: 'empty' });
    const listed = async (what: string) => (await run(['--sandbox', what, 'list', '--json'], { env })).json() as { name: string }[];
    expect(await listed('workflow')).toEqual([]);
    expect(await listed('campaigns')).toEqual([]);
    // What every team has: its default theme, the default transactional group, the Unsorted campaign group.
    expect(await listed('themes')).toHaveLength(1);
    expect((await listed('groups')).map((group) => group.name)).toEqual(['General']);
    expect((await listed('campaign-groups')).map((group) => group.name)).toEqual(['Unsorted']);

    const created = await run(['--sandbox', 'transactional', 'create', '--name', 'Welcome'], { env });
    expect(created.code, created.stderr).toBe(0);
    expect(await listed('transactional')).toHaveLength(1);
    expect((await run(['sandbox', 'reset', '--json'], { env })).json()).toMatchObject({ seed: 'empty' });
    expect(await listed('transactional')).toEqual([]);
    expect((await run(['sandbox', 'reset', '--seed', 'demo', '--json'], { env })).json()).toMatchObject({ seed: 'demo' });
    expect(await listed('transactional')).toHaveLength(5);
  });

  it('keeps to the seed the data started from when one of its areas is damaged, and to the demo data for a seed it does not know', async () => {
    const configDir = tempDir();
    const env = { LOOPSCTL_CONFIG_DIR: configDir };
    const file = stateFileIn(configDir);
    expect((await run(['sandbox', 'reset', '--seed', 'empty'], { env })).code).toBe(0);
    // A contact made of the wrong shape by hand: every command that reads it says to reset.
    addRow(file, 'contacts', 'cdamaged', ['ada@example.com', null], '{"id": "cdamaged", "email": 1}');
    const damaged = await run(['--sandbox', 'contacts', 'find', '--email', 'ada@example.com'], { env });
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('could not be read: contacts (the row at 1).email:');
    expect(damaged.stderr).toContain('loopsctl sandbox reset');
    expect((await run(['sandbox', 'reset', '--json'], { env })).json()).toMatchObject({ seed: 'empty' });
    expect(stateIn(configDir)).toMatchObject({ seed: 'empty', contacts: [] });

    // A seed edited into one loopsctl has not: the demo data, recorded as such.
    setMember(file, 'seed', '"Empty"');
    expect((await run(['sandbox', 'reset', '--json'], { env })).json()).toMatchObject({ seed: 'demo' });
    expect(stateIn(configDir)).toMatchObject({ seed: 'demo' });
  });

  it('refuses a seed it does not know', async () => {
    const result = await run(['sandbox', 'reset', '--seed', 'full']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Error: option '--seed <data>' argument 'full' is invalid. Allowed choices are demo, empty.\n");
  });
});
