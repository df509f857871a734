/**
 * The help pages the build writes for bin/loopsctl.js (src/build/help-pages.ts): every form of
 * words the index answers prints, through main() off a terminal, exactly its page, with nothing on
 * stderr and exit 0; and a form the program answers otherwise is not in the index.
 */
import { describe, expect, it } from 'vitest';
import { specs } from '../../../src/areas/registry.js';
import { type HelpPages, helpPages } from '../../../src/build/help-pages.js';
import { run } from '../../support/main.js';

const model: HelpPages = helpPages(specs);

/** Every spelling of words that leads to a node (names and aliases), with the node. */
function spellings(at = 0, words: string[] = []): [string[], number][] {
  return [[words, at], ...Object.entries(model.nodes[at]!.words).flatMap(([word, next]) => spellings(next, [...words, word]))];
}

/** The forms bin/loopsctl.js answers from a page, as it reads the index. */
function forms(words: string[], at: number): string[][] {
  return [[...words, '--help'], [...words, '-h'], ['help', ...words], ...(model.nodes[at]!.bare === true ? [words] : [])];
}

describe('the help pages', () => {
  const all = spellings();

  it('index every command, each with a page', () => {
    expect(new Set(all.map(([, at]) => at)).size).toBe(model.nodes.length);
    expect(model.pages).toHaveLength(model.nodes.length);
    expect(model.nodes.length).toBeGreaterThan(100);
    // Words the program takes for something else than help: a group's default command, a command's own run.
    expect(model.nodes[model.nodes[0]!.words.open!]!.bare).toBeUndefined();
    expect(model.nodes[model.nodes[model.nodes[0]!.words.contacts!]!.words.find!]!.bare).toBeUndefined();
  });

  it('name, as a file of its own, every spelling of a group that prints its help when named alone', () => {
    const alone = all.filter(([words, at]) => words.length > 0 && model.nodes[at]!.bare === true).map(([words, at]) => [words.join('+'), at]);
    expect(Object.entries(model.alone).sort()).toEqual(alone.sort());
    expect(Object.keys(model.alone)).toContain('workflow+nodes');
    // bin/loopsctl.js looks a spelling up only in these words, which name no other file.
    for (const words of Object.keys(model.alone)) expect(words).toMatch(/^[a-z][a-z0-9-]*(\+[a-z][a-z0-9-]*)*$/);
  });

  it('are what the program prints off a terminal, for every form of words that reaches one', async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const [words, at] of all) {
      for (const argv of forms(words, at)) {
        const result = await run(argv);
        compared += 1;
        const expected = { code: 0, stdout: model.pages[at], stderr: '' };
        if (result.code !== 0 || result.stdout !== expected.stdout || result.stderr !== '') mismatches.push(`loopsctl ${argv.join(' ')}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(400);
  });
});
