/**
 * docs/development.md's tables of capabilities, remade by `npm run docs` between their markers:
 * every capability with what the context hands it (src/core/capabilities.ts), and, by area, how
 * many of its commands declare each, as their handlers do once loaded. A new area changes the
 * second table, so it is written, not kept by hand.
 */
import { behaviours } from '../areas/behaviours.js';
import { CAPABILITIES, type Capability } from '../core/capabilities.js';
import { type CommandSpec, type Spec, walkSpecs } from '../core/declare.js';
import { loadHandler } from '../core/invoke.js';

export const DEVELOPMENT_PAGE = 'docs/development.md';
const TABLES = ['capabilities', 'capabilities by area'] as const;
const ORDER = Object.keys(CAPABILITIES) as Capability[];

/** A table's opening marker. */
export const tableStart = (name: (typeof TABLES)[number]) => `<!-- ${name}: made by \`npm run docs\` from the declarations -->`;
const tableEnd = (name: (typeof TABLES)[number]) => `<!-- /${name} -->`;

/** Every command of the tree, with what its handler uses as it runs (a plannable one's included). */
export async function commandUses(specs: Spec[]): Promise<{ path: string[]; spec: CommandSpec; uses: readonly Capability[] }[]> {
  return Promise.all(
    walkSpecs(specs).map(async ({ path, spec }) => ({ path, spec, uses: (await loadHandler(spec, path, async () => specs, behaviours)).uses })),
  );
}

/** The page with both tables made from the tree; a page that lost a table's markers is refused. */
export async function withCapabilityTables(page: string, specs: Spec[]): Promise<string> {
  const tables = { capabilities: capabilityTable(), 'capabilities by area': areaTable(await commandUses(specs)) };
  return TABLES.reduce((text, name) => {
    const start = text.indexOf(tableStart(name));
    const end = text.indexOf(tableEnd(name));
    if (start === -1 || end < start)
      throw new Error(`${DEVELOPMENT_PAGE} has lost the markers of its table of ${name}; restore them (${tableStart(name)} ... ${tableEnd(name)})`);
    return `${text.slice(0, start + tableStart(name).length)}\n${tables[name]}\n${text.slice(end)}`;
  }, page);
}

function capabilityTable(): string {
  const rows = ORDER.map((name) => {
    const { about, context, runtime } = CAPABILITIES[name];
    const members = [...context, ...runtime.map((member) => `runtime.${member}`)].map((member) => `\`${member}\``).join(', ');
    return `| \`${name}\` | ${about} | ${members} |`;
  });
  return ['| capability | the command | what it is handed |', '| --- | --- | --- |', ...rows].join('\n');
}

/** By area, in the tree's order: its commands, and how many declare each capability (every command declares `out`). */
function areaTable(commands: { path: string[]; uses: readonly Capability[] }[]): string {
  const byArea = new Map<string, { count: number; uses: Map<Capability, number> }>();
  for (const { path, uses } of commands) {
    const area = byArea.get(path[0]!) ?? { count: 0, uses: new Map() };
    area.count += 1;
    for (const use of uses) area.uses.set(use, (area.uses.get(use) ?? 0) + 1);
    byArea.set(path[0]!, area);
  }
  const shown = ORDER.filter((name) => name !== 'out');
  const rows = [...byArea].map(([area, { count, uses }]) => `| ${area} | ${count} | ${shown.map((name) => uses.get(name) ?? '').join(' | ')} |`);
  return [`| area | commands | ${shown.join(' | ')} |`, `|${' --- |'.repeat(shown.length + 2)}`, ...rows].join('\n');
}
