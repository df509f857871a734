/** Every command that may change the account, run as its first example that writes shows it: for the tests that hold every write to a rule. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { specs } from '../../src/areas/registry.js';
import { type CommandSpec, walkSpecs } from '../../src/core/declare.js';
import { words } from './shell-words.js';

export interface WriteCommand {
  name: string;
  spec: CommandSpec;
  argv: string[];
  /** What its example pipes into it. */
  input?: string;
  /** The command whose output its example pipes into it. */
  before?: string[];
}

/** The commands, with the files their examples name found under `home` where a person would have them. */
export function writeCommands(home: string): WriteCommand[] {
  return walkSpecs(specs)
    .filter(({ spec }) => spec.remote && spec.tier !== 'read')
    .map(({ path, spec }) => {
      // `api`'s first example reads: its tier depends on the method.
      const line = spec.examples.find((example) => spec.tierOf === undefined || / -X (POST|PUT|DELETE) /.test(example))!;
      const all = words(line);
      let input: string | undefined;
      let before: string[] | undefined;
      const pipe = all.lastIndexOf('|');
      if (pipe >= 0 && all[0] === 'echo') input = all.slice(1, pipe).join(' ');
      else if (pipe >= 0) before = all.slice(1, pipe);
      const argv = all
        .slice(pipe + 2)
        .filter((word) => word !== '--sandbox')
        .map((word) => (existsSync(join(home, word)) ? join(home, word) : word));
      return { name: path.join(' '), spec, argv, input, before };
    });
}
