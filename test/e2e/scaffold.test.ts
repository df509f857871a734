/**
 * Adding a resource whose records are only listed, read, created and updated is a folder and one
 * registry line (docs/development.md, "Adding a resource"). A copy of the project is given a fake
 * resource, a widget, with just those files, and each of its commands runs in this process,
 * through the copy's own main and sandbox as every end-to-end test runs loopsctl: list, get,
 * create, update, an update's `--plan`, its `apply` and its `undo`, and a create's `--plan` applied
 * twice. Should any other registry need a line of its own, the copy has none, and a command here
 * fails. Then the copy is given what the section's two commands make (`npm run docs`, and the
 * contract `npm run contract` derives from a description with the widget's operations), and the
 * unit tests that read the rows, the registries or the docs run on it: a fact the section does
 * not name fails one of them. The section's list of files is held to the files this test writes.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../src/emulator/module.js';
import { type Program, run, tempDir } from '../support/main.js';
import { RUN_DIR, RUN_SOCKETS } from '../support/temp.js';

const root = join(import.meta.dirname, '../..');

/** The widget's folder, as the section says to write it. */
const FOLDER: Record<string, string> = {
  'src/platform/widgets/resource.ts': `/** A widget as a resource of the API, described whole by its row. */
import type { ResourceRow } from '../operation-row.js';

export const WIDGET = {
  noun: 'widget',
  list: { operation: 'listWidgets', ids: 'widgets', command: ['widgets', 'list'] },
  get: 'getWidget',
  operations: {
    listWidgets: { method: 'GET', path: '/v1/widgets' },
    getWidget: { method: 'GET', path: '/v1/widgets/{widgetId}' },
    createWidget: { method: 'POST', path: '/v1/widgets', writes: 'widget' },
    updateWidget: { method: 'POST', path: '/v1/widgets/{widgetId}', writes: 'widget' },
  },
  records: {
    area: { name: 'widgets', summary: 'Widgets: list, get, create, update', examples: ['loopsctl widgets list'] },
    plural: 'widgets',
    commands: {
      list: { summary: 'List widgets', examples: ['loopsctl widgets list'] },
      get: { summary: 'Show one widget', examples: ['loopsctl widgets get w1'] },
      create: { summary: 'Create a widget', examples: ['loopsctl widgets create --name Gear'] },
      update: { summary: 'Change a widget', examples: ['loopsctl widgets update w1 --shade-name red'] },
    },
    fields: {
      name: { create: 'widget name', update: 'new name', required: true, column: 'truncate' },
      shadeName: { create: 'its colour', update: 'new colour', value: 'colour', absent: 'grey', column: 'prose' },
    },
    load: async () => (await import('./records.js')).rules,
  },
} as const satisfies ResourceRow;
`,
  'src/platform/widgets/records.ts': `/** What of a widget needs zod. */
import { z } from '../../base/shapes.js';
import type { RecordRules } from '../operation-row.js';
import { timestamp } from '../schemas.js';

const widget = z.looseObject({ id: z.string(), name: z.string(), shadeName: z.string(), createdAt: timestamp, updatedAt: timestamp });

export const rules: RecordRules<z.infer<typeof widget>> = {
  schema: widget,
  seed: ({ id, time }) => [{ id: id('widget/Sprocket'), name: 'Sprocket', shadeName: 'brass', createdAt: time(5), updatedAt: time(6) }],
  refuse: (fields) => (fields.name?.trim() === '' ? 'name must not be empty' : undefined),
};
`,
};

/** The registry, and its one line for the widget. */
const REGISTRY = 'src/platform/whole-row-registry.ts';
const LINE = "export { WIDGET } from './widgets/resource.js';\n";

const SPROCKET = seedId('widget/Sprocket');

/** What of the project the unit checks read besides src/: the docs they hold, the files those name, the suite's own set-up. */
const PROJECT = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.test.json',
  'vitest.config.ts',
  'README.md',
  'install.sh',
  'bin',
  'docs',
  'man',
  'scripts',
  'skills',
  'test/unit',
  'test/support',
  'test/contract',
  'test/attack',
];

/** The section's line for the attack suite, one for each of the widget's writes. */
const ATTACK_LINES = "  createWidget: CONFIGURES('a widget reaches no one'),\n  updateWidget: CONFIGURES('a widget reaches no one'),\n";

/** What names the rows, the registries or the docs in a unit test: such a test is a check a new resource must pass. */
const READS_THE_ROWS = /(registry|operations|operation-row|whole-rows|record-kinds|configuration-writes|directory)\.js'|docs\//;

let program: Program;
let env: Record<string, string | undefined>;
let directory: string;
let copy: string;

beforeAll(async () => {
  directory = tempDir('loopsctl-scaffold-');
  copy = join(directory, 'loopsctl');
  cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
  for (const path of PROJECT) if (existsSync(join(root, path))) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(FOLDER)) {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  writeFileSync(join(copy, REGISTRY), readFileSync(join(copy, REGISTRY), 'utf8') + LINE);
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

describe('the unit checks, on the copy with the widget', () => {
  it('pass once `npm run docs` and `npm run contract` have made what they make, and nothing else is changed', () => {
    const docs = spawnSync(process.execPath, ['src/build/docs.mjs'], { cwd: copy, encoding: 'utf8' });
    expect(docs.status, docs.stderr).toBe(0);
    withWidgetContract(join(copy, 'test/contract/loops-1.22.1.json'));
    // Every write the contract gains is declared to the attack suite with what it reaches.
    const attacks = join(copy, 'test/attack/operations.ts');
    const declared = 'export const OPERATIONS: Record<string, Reach> = {\n';
    expect(readFileSync(attacks, 'utf8')).toContain(declared);
    writeFileSync(attacks, readFileSync(attacks, 'utf8').replace(declared, `${declared}${ATTACK_LINES}`));
    const checks = unitChecks(join(copy, 'test/unit')).map((file) => relative(copy, file));
    // The five that once failed on facts the section did not name: a row without `kind`, the
    // contract, the attack suite's declarations, the capabilities by area, the completion scripts' sizes.
    expect(checks).toEqual(
      expect.arrayContaining([
        'test/unit/platform/record-kinds.test.ts',
        'test/unit/platform/configuration-writes.test.ts',
        'test/unit/core/gate-routing.test.ts',
        'test/unit/build/reference.test.ts',
        'test/unit/build/docs-facts.test.ts',
      ]),
    );
    // A run of its own: its temporary and socket directories are made, and removed, by its own set-up.
    const childEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== RUN_DIR && name !== RUN_SOCKETS && !name.startsWith('VITEST')));
    const vitest = join(root, 'node_modules/vitest/vitest.mjs');
    const ran = spawnSync(process.execPath, [vitest, 'run', ...checks], { cwd: copy, encoding: 'utf8', env: childEnv, maxBuffer: 64 * 1024 * 1024 });
    expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  });
});

/** The unit tests under `dir` that read the rows, the registries or the docs. */
function unitChecks(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name))
    .filter((file) => READS_THE_ROWS.test(readFileSync(file, 'utf8')))
    .sort();
}

/**
 * The contract with the widget's operations, as `npm run contract` derives it from a description
 * that has them: a campaign group's paths, the nearest record of the same four operations, under
 * the widget's names.
 */
function withWidgetContract(file: string): void {
  const contract = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, unknown> };
  const renamed = (path: string) =>
    JSON.parse(
      JSON.stringify(contract.paths[path])
        .replaceAll('CampaignGroups', 'Widgets')
        .replaceAll('CampaignGroup', 'Widget')
        .replaceAll('campaignGroupId', 'widgetId'),
    ) as unknown;
  contract.paths['/v1/widgets'] = renamed('/v1/campaign-groups');
  contract.paths['/v1/widgets/{widgetId}'] = renamed('/v1/campaign-groups/{campaignGroupId}');
  writeFileSync(file, `${JSON.stringify(contract, null, 2)}\n`);
}

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
