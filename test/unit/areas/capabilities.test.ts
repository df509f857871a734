/**
 * Every command of the tree declares what it uses, and the declaration agrees with the rest of
 * the command's declaration; docs/development.md's tables of capabilities are what the tree says.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { behaviours } from '../../../src/areas/behaviours.js';
import { specs } from '../../../src/areas/registry.js';
import { CAPABILITIES, type Capability } from '../../../src/core/capabilities.js';
import { walkSpecs, type CommandSpec } from '../../../src/core/declare.js';
import { loadHandler } from '../../../src/core/invoke.js';

const ORDER = Object.keys(CAPABILITIES) as Capability[];

/** Every command, with what its handler uses as it runs (a plannable one's included). */
async function everyCommand(): Promise<{ path: string[]; spec: CommandSpec; uses: readonly Capability[] }[]> {
  return Promise.all(
    walkSpecs(specs).map(async ({ path, spec }) => ({ path, spec, uses: (await loadHandler(spec, path, async () => specs, behaviours)).uses })),
  );
}

/** The section of docs/development.md between the markers of this name. */
function docSection(name: string): string {
  const text = readFileSync(new URL('../../../docs/development.md', import.meta.url), 'utf8');
  const start = `<!-- ${name}: checked by test/unit/areas/capabilities.test.ts -->\n`;
  const from = text.indexOf(start);
  const to = text.indexOf(`<!-- /${name} -->`);
  expect(from, `docs/development.md has the markers of ${name}`).toBeGreaterThan(-1);
  return text.slice(from + start.length, to);
}

describe('what each command uses', () => {
  it('is declared by every command of the tree, in capabilities that exist', async () => {
    const commands = await everyCommand();
    expect(commands.length).toBeGreaterThan(80);
    for (const { path, uses } of commands) {
      expect(Array.isArray(uses), path.join(' ')).toBe(true);
      for (const use of uses) expect(ORDER, `${path.join(' ')} uses ${use}`).toContain(use);
    }
  });

  it('reaches the API exactly where the command says it is remote', async () => {
    for (const { path, spec, uses } of await everyCommand()) {
      const network = uses.includes('client') || uses.includes('commands');
      expect(network, `${path.join(' ')} (remote: ${spec.remote}) uses ${uses.join(', ')}`).toBe(spec.remote);
    }
  });

  it('includes the file system where an argument or option names a local file', async () => {
    for (const { path, spec, uses } of await everyCommand()) {
      const namesFile = [...(spec.args ?? []), ...(spec.options ?? [])].some((input) => input.file !== undefined);
      if (namesFile) expect(uses, path.join(' ')).toContain('files');
    }
  });

  it('asks the person only in a command that can be asked to go ahead, that logs in, or that approves an agent’s change', async () => {
    for (const { path, spec, uses } of await everyCommand()) {
      if (!uses.includes('prompts')) continue;
      const asks = (spec.options ?? []).some((option) => /--yes\b/.test(option.flags)) || ['auth login', 'approve'].includes(path.join(' '));
      expect(asks, path.join(' ')).toBe(true);
    }
  });
});

describe('docs/development.md', () => {
  it('lists every capability with what it hands out', () => {
    const rows = ORDER.map((name) => {
      const { about, context, runtime } = CAPABILITIES[name];
      const members = [...context, ...runtime.map((member) => `runtime.${member}`)].map((member) => `\`${member}\``).join(', ');
      return `| \`${name}\` | ${about} | ${members} |`;
    });
    expect(docSection('capabilities')).toBe(`| capability | the command | what it is handed |\n| --- | --- | --- |\n${rows.join('\n')}\n`);
  });

  it('says which areas use which capability, as their commands declare it', async () => {
    const byArea = new Map<string, { count: number; uses: Map<Capability, number> }>();
    for (const { path, uses } of await everyCommand()) {
      const area = byArea.get(path[0]!) ?? { count: 0, uses: new Map() };
      area.count += 1;
      for (const use of uses) area.uses.set(use, (area.uses.get(use) ?? 0) + 1);
      byArea.set(path[0]!, area);
    }
    const shown = ORDER.filter((name) => name !== 'out');
    const rows = [...byArea].map(([area, { count, uses }]) => `| ${area} | ${count} | ${shown.map((name) => uses.get(name) ?? '').join(' | ')} |`);
    const head = `| area | commands | ${shown.join(' | ')} |\n|${' --- |'.repeat(shown.length + 2)}`;
    expect(docSection('capabilities by area')).toBe(`${head}\n${rows.join('\n')}\n`);
  });
});
