/**
 * Every command of the tree declares what it uses, and the declaration agrees with the rest of
 * the command's declaration. docs/development.md's tables of capabilities are made from the same
 * declarations by `npm run docs` (src/build/capability-tables.ts; test/unit/build/reference.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { commandUses } from '../../../src/build/capability-tables.js';
import { CAPABILITIES, type Capability } from '../../../src/core/capabilities.js';

const ORDER = Object.keys(CAPABILITIES) as Capability[];

/** Every command, with what its handler uses as it runs (a plannable one's included). */
const everyCommand = () => commandUses(specs);

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
