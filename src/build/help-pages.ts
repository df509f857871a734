/**
 * The help of every command, written by the build (src/build/build.mjs) into dist/help/ so that
 * bin/loopsctl.js prints it without loading the program: commander, the declarations and their code
 * cache are most of what `--help` costs. The declarations are data, so their help is too.
 *
 * Each page is what commander prints for that command off a terminal (80 columns, the width help
 * has wherever stdout is not a terminal: the only place bin/loopsctl.js prints a page). The index
 * says which words reach which page: a command's name or alias at each level, as commander finds
 * them (the first command that has it), and whether the command named alone shows its help (a group
 * without a default command, and loopsctl itself), each such spelling also a file of its own. test/unit/build/help-pages.test.ts runs every
 * form the index answers through main() and compares.
 */
import type { Command } from 'commander';
import type { Spec } from '../core/declare.js';
import { buildProgram } from '../core/program.js';

/** A command's place in the index: its page is dist/help/<index>.txt. */
export interface HelpNode {
  /** The nodes its words lead to, by name and alias. */
  words: Record<string, number>;
  /** Whether naming it alone prints its help, as `--help` does: told by `alone`, not written into the index's file. */
  bare?: true;
}

export interface HelpPages {
  /** The index, loopsctl itself first; dist/help/index.json holds each node's words. */
  nodes: HelpNode[];
  /** Each node's page, in the same order. */
  pages: string[];
  /**
   * The page of each spelling of a group named alone (`contacts`, `contact`, `workflow+nodes`), the
   * words joined by `+`: dist/help/<words>.alone holds its number. So the words of a run that is
   * not help cost one file that is not there, not the index.
   */
  alone: Record<string, number>;
}

export function helpPages(specs: Spec[]): HelpPages {
  let written = '';
  // Off a terminal, as the runs that print a page are: help is then 80 columns wide.
  const write = (text: string): boolean => {
    written += text;
    return true;
  };
  const stream = { isTTY: false, write } as unknown as NodeJS.WriteStream;
  const program = buildProgram(specs, { stdout: stream, stderr: stream }, async () => {});
  const nodes: HelpNode[] = [];
  const pages: string[] = [];
  const add = (command: Command): number => {
    const index = nodes.length;
    const node: HelpNode = { words: {} };
    nodes.push(node);
    written = '';
    command.outputHelp();
    pages.push(written);
    const children = command.commands.filter((child) => child.name() !== 'help');
    const defaultCommand = (command as unknown as { _defaultCommandName: string | null })._defaultCommandName;
    if (children.length > 0 && defaultCommand === null) node.bare = true;
    for (const child of children) {
      const at = add(child);
      // commander takes the first command with the name or alias.
      for (const word of [child.name(), ...child.aliases()]) if (!Object.hasOwn(node.words, word)) node.words[word] = at;
    }
    return index;
  };
  add(program);
  const alone: Record<string, number> = {};
  const spell = (at: number, words: string[]): void => {
    if (words.length > 0 && nodes[at]!.bare === true) alone[words.join('+')] = at;
    for (const [word, next] of Object.entries(nodes[at]!.words)) spell(next, [...words, word]);
  };
  spell(0, []);
  return { nodes, pages, alone };
}
