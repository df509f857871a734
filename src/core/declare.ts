/**
 * How a command is declared: its name, arguments, options, examples, whether it calls the API and
 * what it may change there (its tier), which flags go together, and its behaviour, loaded only
 * when the command runs. Declarations are plain data, cheap to build,
 * so `--help`, completion scripts and `loopsctl commands --json` come from them without loading
 * the HTTP stack, zod or the sandbox.
 */
import { InvalidArgumentError } from 'commander';
import type { CommandContext } from './context.js';
import type { IdList } from './id-lists.js';
import { EMAIL_REQUIREMENT, isEmailAddress } from './email.js';

export interface ArgumentSpec {
  name: string;
  description: string;
  /** Default true. */
  required?: boolean;
  variadic?: boolean;
  /** The list its ids come from, for shell completion (LOOPSCTL_COMPLETE_IDS=1). */
  completes?: IdList;
}

export interface OptionSpec {
  /** As commander takes them: '-f, --field <key=value>', '--yes', '--no-pager'. */
  flags: string;
  description: string;
  default?: unknown;
  choices?: readonly string[];
  /** Parses (and checks) a value; throw InvalidArgumentError to reject it. */
  parse?: (value: string, previous: unknown) => unknown;
  /** The option must be given. */
  required?: boolean;
  /** Repeatable: every value is collected in an array. */
  repeatable?: boolean;
  /** Giving it raises the command to this tier (`campaigns update --schedule` sends). */
  tier?: Tier;
}

/**
 * What a command that calls the API may do to the account, from least to most: read it; create
 * and update; delete, publish or send (what cannot be taken back). `loopsctl mcp` exposes a tier
 * and those below it.
 */
export const TIERS = ['read', 'write', 'destructive'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * A set of flags a constraint is about: long flags ('--cursor'), a global one included ('--json'),
 * or an argument written as '<id>'. The hint replaces the one a refusal would give.
 */
export interface FlagSet {
  flags: string[];
  hint?: string;
}

/** Flags that go together or not, checked before a command loads: the one place they are stated. */
export interface FlagConstraints {
  /** At most one flag of each set may be given. */
  exclusive?: FlagSet[];
  /** At least one flag of each set must be given (exactly one when the set is also exclusive). */
  oneRequired?: FlagSet[];
}

/** A command's behaviour: it gets the run's context, the arguments in order, and its options. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler<A = any, O = any> = (context: CommandContext, args: A, options: O) => Promise<number | void>;

interface CommandBase {
  kind: 'command';
  name: string;
  aliases?: string[];
  summary: string;
  /** More help, after the options. */
  help?: string;
  args?: ArgumentSpec[];
  options?: OptionSpec[];
  examples: string[];
  constraints?: FlagConstraints;
  /** For a command that checks something: when it exits 1 (what the check found). */
  mismatch?: string;
  /** Talks with the person (a prompt, a server until Ctrl-C): its output is never paged. */
  interactive?: boolean;
  /**
   * Works for a long time and prints one short summary at the end (an import): never paged, so
   * its progress line stays on the terminal and Ctrl-C ends it at once.
   */
  unpaged?: boolean;
  /** Reads or writes stored keys: --sandbox is refused even when the command calls the API. */
  storesKeys?: boolean;
  /** Runs when its group is named without a subcommand (`loopsctl sandbox` serves). */
  isDefault?: boolean;
  /** Left out of help and of `loopsctl commands`: a command for loopsctl's own scripts. */
  hidden?: boolean;
  load: () => Promise<Handler>;
}

/**
 * remote: the command calls the API. Only then do --sandbox, --base-url, --profile, --timeout and
 * --retries mean something; on a local command --sandbox is refused, so that it can never touch
 * stored keys. A remote command must say its tier.
 */
export type CommandSpec = CommandBase & ({ remote: true; tier: Tier } | { remote: false; tier?: undefined });

export interface GroupSpec {
  kind: 'group';
  name: string;
  aliases?: string[];
  summary: string;
  help?: string;
  examples: string[];
  commands: Spec[];
}

export type Spec = CommandSpec | GroupSpec;

/** A declaration without its kind; distributed, so that a remote one still needs its tier. */
type Declared<T> = T extends unknown ? Omit<T, 'kind'> : never;

export function command(spec: Declared<CommandSpec>): CommandSpec {
  return { kind: 'command', ...spec } as CommandSpec;
}

/**
 * A group; its commands may be given as a function, which makes them on first use: `--help` and a
 * run of another group's command never build the objects of this group's commands.
 */
export function group(spec: Omit<GroupSpec, 'kind' | 'commands'> & { commands: Spec[] | (() => Spec[]) }): GroupSpec {
  const { commands, ...rest } = spec;
  if (typeof commands !== 'function') return { kind: 'group', ...rest, commands };
  let made: Spec[] | undefined;
  return {
    kind: 'group',
    ...rest,
    get commands() {
      made ??= commands();
      return made;
    },
  };
}

/**
 * A value an option does not take, said in words: what the option must be (`a whole number from 10
 * to 50`), and what to do instead where that is worth saying. The option's name is added where the
 * command tree is built.
 */
export class InvalidValue extends InvalidArgumentError {
  constructor(
    readonly requirement: string,
    readonly hint?: string,
  ) {
    super(`must be ${requirement}.`);
  }
}

/** A parser of whole numbers, which says its range so that a schema can be made from it. */
export type IntegerParser = ((value: string) => number) & { integer: { min: number; max: number } };

/** A whole number from min to max; `hint` says what to do with a value out of range. */
export function integerIn(min: number, max: number, hint?: string): IntegerParser {
  const requirement = max === Number.MAX_SAFE_INTEGER ? `a whole number, ${min} or more` : `a whole number from ${min} to ${max}`;
  const parse = (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) throw new InvalidValue(requirement, hint);
    return number;
  };
  return Object.assign(parse, { integer: { min, max } });
}

/** An email address, checked as everywhere else (src/core/email.ts); `blank` lets "" through, where it clears a field. */
export function emailAddress(blank: 'clears' | 'refused' = 'refused') {
  return (value: string): string => {
    if ((blank === 'clears' && value === '') || isEmailAddress(value)) return value;
    throw new InvalidValue(blank === 'clears' ? `${EMAIL_REQUIREMENT} or "" to clear it` : EMAIL_REQUIREMENT);
  };
}

/** One of the choices, in any letter case; the value is the choice as declared. */
export function choiceIgnoringCase(choices: readonly string[]) {
  return (value: string): string => {
    const choice = choices.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (choice === undefined) throw new InvalidArgumentError(`expected one of ${choices.join(', ')}.`);
    return choice;
  };
}

/** Every command below a spec, with the words that reach it. */
export function walkSpecs(specs: Spec[], path: string[] = []): { path: string[]; spec: CommandSpec }[] {
  return specs.flatMap((spec) =>
    spec.kind === 'command' ? [{ path: [...path, spec.name], spec }] : walkSpecs(spec.commands, [...path, spec.name]),
  );
}
