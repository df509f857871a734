/**
 * Adding a resource whose records are only listed, read, created and updated is a folder and one
 * registry line (docs/development.md, "Adding a resource"). A copy of the project is given a fake
 * resource, a widget, with just those files, and each of its commands runs in this process,
 * through the copy's own main and sandbox as every end-to-end test runs loopsctl: list, get,
 * create, update, an update's `--plan`, its `apply` and its `undo`, and a create's `--plan` applied
 * twice. Should any other registry need a line of its own, the copy has none, and a command here
 * fails. The section's list of files is held to the files the copy is given (the unit checks on
 * the copy: scaffold-docs.test.ts and scaffold-rows.test.ts).
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../src/emulator/module.js';
import { type Program, run, tempDir } from '../support/main.js';
import { copyWithWidget, FOLDER, REGISTRY, root } from '../support/scaffold.js';

const SPROCKET = seedId('widget/Sprocket');

let program: Program;
let env: Record<string, string | undefined>;
let directory: string;

beforeAll(async () => {
  directory = tempDir('loopsctl-scaffold-');
  const copy = copyWithWidget(directory);
  const [{ main }, { startInProcessSandbox }] = await Promise.all([import(join(copy, 'src/main.ts')), import(join(copy, 'src/emulator/index.ts'))]);
  program = { main, startInProcessSandbox };
  env = { LOOPSCTL_CONFIG_DIR: join(directory, 'config'), LOOPS_API_KEY: undefined };
});

const loopsctl = (argv: string[]) => run(argv, { env, program });

describe('a resource added as a folder and one registry line', () => {
  it('lists, gets, creates and updates its records in the sandbox', async () => {
    const listed = await loopsctl(['--sandbox', 'widgets', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json<{ id: string; name: string }[]>()).toEqual([expect.objectContaining({ id: SPROCKET, name: 'Sprocket', shadeName: 'brass' })]);

    const got = await loopsctl(['--sandbox', 'widgets', 'get', SPROCKET, '--jq', '.shadeName']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout.trim()).toBe('brass');

    const created = await loopsctl(['--sandbox', 'widgets', 'create', '--name', 'Gear', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const gear = created.json<{ id: string; name: string; shadeName: string }>();
    expect(gear).toMatchObject({ name: 'Gear', shadeName: 'grey' });

    const updated = await loopsctl(['--sandbox', 'widgets', 'update', gear.id, '--shade-name', 'red', '--json']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.json()).toMatchObject({ id: gear.id, name: 'Gear', shadeName: 'red' });

    const refused = await loopsctl(['--sandbox', 'widgets', 'update', gear.id, '--name', ' ']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('name must not be empty');
    const table = await loopsctl(['--sandbox', 'widgets', 'list']);
    expect(table.stdout.split('\n')[0]).toBe('ID\tNAME\tSHADE NAME\tUPDATED');
  });

  it("plans an update, applies it, and undoes it, the record's fields put back", async () => {
    const plan = join(directory, 'update.json');
    const planned = await loopsctl(['--sandbox', 'widgets', 'update', SPROCKET, '--name', 'Cog', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    const unchanged = await loopsctl(['--sandbox', 'widgets', 'get', SPROCKET, '--json']);
    expect(unchanged.json<{ name: string }>().name).toBe('Sprocket');

    const applied = await loopsctl(['apply', plan]);
    expect(applied.code, applied.stderr).toBe(0);
    const renamed = await loopsctl(['--sandbox', 'widgets', 'get', SPROCKET, '--json']);
    expect(renamed.json<{ name: string }>().name).toBe('Cog');

    const undone = await loopsctl(['undo', plan, '--yes']);
    expect(undone.code, undone.stderr).toBe(0);
    const back = await loopsctl(['--sandbox', 'widgets', 'get', SPROCKET, '--json']);
    expect(back.json<{ name: string; shadeName: string }>()).toMatchObject({ name: 'Sprocket', shadeName: 'brass' });
  });

  it("plans a create and applies it; undo names what it cannot delete, and a second copy of the plan is refused by the widget's name", async () => {
    const plan = join(directory, 'create.json');
    const planned = await loopsctl(['--sandbox', 'widgets', 'create', '--name', 'Flange', '--plan', '--out', plan]);
    expect(planned.code, planned.stderr).toBe(0);
    const copy = join(directory, 'create-copy.json');
    cpSync(plan, copy);

    const applied = await loopsctl(['apply', plan]);
    expect(applied.code, applied.stderr).toBe(0);
    const undone = await loopsctl(['undo', plan, '--yes']);
    expect(undone.code).toBe(5);
    expect(undone.stderr).toContain('the change created it, and the API cannot delete a widget');

    const again = await loopsctl(['apply', copy]);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('stopped at a conflict, nothing after it was sent');
    expect(again.stdout).toContain('the account holds widget "Flange" already');
  });
});

describe('docs/development.md, "Adding a resource"', () => {
  it('lists the files this test writes to add one, and no others', () => {
    const guide = readFileSync(join(root, 'docs/development.md'), 'utf8');
    const section = /<!-- adding a resource: [^>]*-->\n([\s\S]*?)<!-- \/adding a resource -->/.exec(guide);
    expect(section, 'the section lists its files between its markers').not.toBeNull();
    const listed = [...section![1]!.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]!);
    const written = [...Object.keys(FOLDER), REGISTRY].map((path) => path.replace('/widgets/', '/<area>/'));
    expect(listed).toEqual(written);
  });
});
