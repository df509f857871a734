/**
 * The flag constraints of a declaration (declare.ts), checked before the command loads: flags that
 * cannot be given together, and sets of which one must be given. The declaration is their one
 * source, so `commands --json` and `loopsctl mcp` state what is refused here.
 */
import { UsageError } from '../base/errors.js';
import type { CommandSpec, FlagSet } from './declare.js';

/** Whether an option was given on this run, by its long flag; a default value is not given. */
export type OptionGiven = (flag: string) => boolean;

/** Refuses the run when a constraint of the command is broken; `args` are its arguments in order. */
export function checkConstraints(spec: CommandSpec, path: string[], args: unknown[], optionGiven: OptionGiven): void {
  const { exclusive = [], oneRequired = [] } = spec.constraints ?? {};
  const given = (flag: string) => isGiven(spec, flag, args, optionGiven);
  const help = `see \`loopsctl ${path.join(' ')} --help\``;
  for (const set of exclusive) {
    const [first, second] = set.flags.filter(given);
    if (second === undefined) continue;
    throw new UsageError(`${first} and ${second} cannot be used together`, { hint: set.hint ?? help });
  }
  for (const set of oneRequired) {
    if (set.flags.some(given)) continue;
    const exactlyOne = exclusive.some((other) => sameFlags(other, set));
    const which = `${exactlyOne ? 'exactly' : 'at least'} one of ${listed(set.flags)}`;
    const message = path.at(-1) === 'update' && !exactlyOne ? `nothing to update: give ${which}` : `give ${which}`;
    throw new UsageError(message, { hint: set.hint ?? help });
  }
}

/** A flag or argument given on this run. */
function isGiven(spec: CommandSpec, flag: string, args: unknown[], optionGiven: OptionGiven): boolean {
  const argument = /^<(.+)>$/.exec(flag)?.[1];
  if (argument !== undefined) {
    const index = (spec.args ?? []).findIndex(({ name }) => name === argument);
    if (index < 0) throw new Error(`${flag} names no argument of the command`);
    return args[index] !== undefined;
  }
  return optionGiven(flag);
}

/** The name commander keeps a flag's value under: --per-page is perPage, --no-pager is pager. */
export function attributeName(flag: string): string {
  return flag.replace(/^--(no-)?/, '').replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function sameFlags(a: FlagSet, b: FlagSet): boolean {
  return a.flags.length === b.flags.length && a.flags.every((flag) => b.flags.includes(flag));
}

/** "--a, --b or --c" */
function listed(flags: string[]): string {
  return flags.length === 1 ? flags[0]! : `${flags.slice(0, -1).join(', ')} or ${flags.at(-1)}`;
}
