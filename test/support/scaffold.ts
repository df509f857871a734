/**
 * The copy of the project the scaffold tests add a fake resource to, a widget, with just the files
 * docs/development.md's "Adding a resource" names (test/e2e/scaffold.test.ts runs its commands,
 * scaffold-docs.test.ts and scaffold-rows.test.ts the unit checks on it).
 */

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RUN_DIR, RUN_SOCKETS } from './temp.js';

export const root = join(import.meta.dirname, '../..');

/** The widget's folder, as the section says to write it. */
export const FOLDER: Record<string, string> = {
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
export const REGISTRY = 'src/platform/whole-row-registry.ts';
export const LINE = "export { WIDGET } from './widgets/resource.js';\n";

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
export const ATTACK_LINES = "  createWidget: CONFIGURES('a widget reaches no one'),\n  updateWidget: CONFIGURES('a widget reaches no one'),\n";

/** What names the rows, the registries or the docs in a unit test: such a test is a check a new resource must pass. */
const READS_THE_ROWS = /(registry|operations|operation-row|whole-rows|record-kinds|configuration-writes|directory)\.js'|docs\//;

/** A copy of the project in `directory`, its node_modules the project's, with the widget's folder and registry line. */
export function copyWithWidget(directory: string): string {
  const copy = join(directory, 'loopsctl');
  cpSync(join(root, 'src'), join(copy, 'src'), { recursive: true });
  for (const path of PROJECT) if (existsSync(join(root, path))) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(FOLDER)) {
    mkdirSync(join(copy, path, '..'), { recursive: true });
    writeFileSync(join(copy, path), text);
  }
  writeFileSync(join(copy, REGISTRY), readFileSync(join(copy, REGISTRY), 'utf8') + LINE);
  return copy;
}

/** The unit tests under `dir` that read the rows, the registries or the docs. */
export function unitChecks(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(dir, name))
    .filter((file) => READS_THE_ROWS.test(readFileSync(file, 'utf8')))
    .sort();
}

/** Those of the unit checks that read the docs, or those that read only the rows and registries. */
export function readingDocs(file: string, docs: boolean): boolean {
  return /docs\//.test(readFileSync(file, 'utf8')) === docs;
}

/**
 * The copy given what the section's two commands make (`npm run docs`, and the contract `npm run
 * contract` derives from a description with the widget's operations) and its writes declared to
 * the attack suite, then the unit checks of one half run on it in a vitest of their own: those
 * that read the docs, or those that read the rows. Returns the checks run, and how the run ended.
 */
export function checkCopy(copy: string, docs: boolean): { checks: string[]; status: number | null; output: string } {
  const made = spawnSync(process.execPath, ['src/build/docs.mjs'], { cwd: copy, encoding: 'utf8' });
  if (made.status !== 0) return { checks: [], status: made.status, output: made.stderr };
  withWidgetContract(join(copy, 'test/contract/loops-1.22.1.json'));
  // Every write the contract gains is declared to the attack suite with what it reaches.
  const attacks = join(copy, 'test/attack/operations.ts');
  const declared = 'export const OPERATIONS: Record<string, Reach> = {\n';
  const text = readFileSync(attacks, 'utf8');
  if (!text.includes(declared)) return { checks: [], status: null, output: `${attacks} declares no OPERATIONS` };
  writeFileSync(attacks, text.replace(declared, `${declared}${ATTACK_LINES}`));
  const checks = unitChecks(join(copy, 'test/unit'))
    .filter((file) => readingDocs(file, docs))
    .map((file) => relative(copy, file));
  // A run of its own: its temporary and socket directories are made, and removed, by its own set-up.
  const childEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== RUN_DIR && name !== RUN_SOCKETS && !name.startsWith('VITEST')));
  const vitest = join(root, 'node_modules/vitest/vitest.mjs');
  const ran = spawnSync(process.execPath, [vitest, 'run', ...checks], { cwd: copy, encoding: 'utf8', env: childEnv, maxBuffer: 64 * 1024 * 1024 });
  return { checks, status: ran.status, output: `${ran.stdout}\n${ran.stderr}` };
}

/**
 * The contract with the widget's operations, as `npm run contract` derives it from a description
 * that has them: a campaign group's paths, the nearest record of the same four operations, under
 * the widget's names.
 */
export function withWidgetContract(file: string): void {
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
