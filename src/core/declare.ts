/**
 * How a command is declared: its name, arguments, options, examples, whether it calls the API and
 * what it may change there (its tier), which flags go together, and its behaviour, loaded only
 * when the command runs. Declarations are plain data, cheap to build,
 * so `--help`, completion scripts and `loopsctl commands --json` come from them without loading
 * the HTTP stack, zod or the sandbox.
 */
import { InvalidArgumentError } from 'commander';
import { parseDurationMs } from '../base/duration.js';
import { EMAIL_REQUIREMENT, isEmailAddress } from '../base/email.js';
import type { ZodMiniType } from '../base/zod.js';
import type { Handler } from './capabilities.js';
import type { IdList } from './id-lists.js';
import { TIERS, type Tier } from './tier.js';

/**
 * A local file or directory a command reads (or, with `writes`, writes). `loopsctl mcp` never lets
 * an agent name one outside the directory the person started it with (`--root`); content that can
 * be given `inline` is taken in the call itself instead, under that input name, as text or as
 * base64 for bytes.
 */
export interface LocalFile {
  writes?: boolean;
  /**
   * The content given as an input of its own instead (an MCP tool's): its name, its encoding, and
   * what it holds, said without the file or stdin of the flag's description. `json` is a JSON
   * object, taken as an object or as its text.
   */
  inline?: { name: string; encoding: 'text' | 'json' | 'base64'; description: string };
  /** The value may also be an id that the command looks up instead of a file (`content render --theme`). */
  orId?: boolean;
}

export interface ArgumentSpec {
  name: string;
  description: string;
  file?: LocalFile;
  /** Default true. */
  required?: boolean;
  variadic?: boolean;
  /** The list its ids come from, for shell completion (LOOPSCTL_COMPLETE_IDS=1). */
  completes?: IdList;
  /**
   * The option that names the record instead, for an argument that is optional only because of it
   * (`workflow show [id]` or `--file`): with neither given, a person at a terminal picks the record
   * as for a required one (pick.ts), and a script gets the command's own usage error.
   */
  orOption?: string;
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
  /** Its value names a local file. */
  file?: LocalFile;
  /** Only the person running loopsctl may give it, never an agent's tool call (`--allow-writes`). */
  personOnly?: boolean;
  /**
   * It changes only the text a terminal or a pipe is given, never the --json output (`ips list
   * --plain`): an MCP tool, which answers the JSON, does not offer it.
   */
  textOnly?: boolean;
}

/**
 * A set of flags a constraint is about: long flags ('--cursor'), a global one included ('--json'),
 * or an argument written as '<id>'. The hint replaces the one a refusal would give.
 */
export interface FlagSet {
  flags: string[];
  hint?: string;
}

/** Flags that go together or not, checked before a command loads: the one place they are stated. */
interface FlagConstraints {
  /** At most one flag of each set may be given. */
  exclusive?: FlagSet[];
  /** At least one flag of each set must be given (exactly one when the set is also exclusive). */
  oneRequired?: FlagSet[];
}

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
  /**
   * A command that calls no API offered as a tool of `loopsctl mcp` all the same, at the read tier:
   * it reads only what loopsctl keeps for the account (`metrics history`, the metrics store).
   */
  readTool?: boolean;
  /** The tier of one run, where its options decide it below the declared one (`api`: a GET reads). */
  tierOf?: (options: Record<string, unknown>) => Tier;
  /**
   * The shape of what it prints under --json (of one item, for a list), which `loopsctl mcp`
   * declares as its tool's output schema; loaded only there.
   */
  output?: () => Promise<ZodMiniType>;
  /**
   * The command's behaviour. `tree` gives the whole command tree, for the few commands that read it
   * (completion, `commands`, `mcp`): handed in, as gh hands a command its parent, so that none of
   * them imports the registry that lists them, and loaded when asked for, since a start reads the
   * declarations of the area it names alone. `behaviours` are handed in the same way: what the
   * registries above the areas make, for a command whose area they read.
   */
  load: (tree: () => Promise<Spec[]>, behaviours: Behaviours) => Promise<Handler>;
}

/**
 * What a declaration may ask of the path that runs its command, beyond its own handler: each is
 * implemented above core (src/areas/behaviours.ts) and handed in by whoever runs commands, main
 * and `loopsctl mcp`, so that core imports no area. What only the areas can type (the change
 * cycle's kinds) they add to it where they implement it, as vitest's ProvidedContext is added to.
 */
export interface Behaviours {
  /** The handler of a command that declares --plan (`plans`), able to write its change to a plan file; `name` is its words. */
  plan: (name: string, handler: Handler) => Promise<Handler>;
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

/**
 * A command. One that may change the account (tier write or destructive) also takes the options
 * every write takes, so that each of them previews and overrides the same way.
 */
export function command(spec: Declared<CommandSpec>): CommandSpec {
  const declared = { kind: 'command', ...spec } as CommandSpec;
  const picked = pickedArgument(declared);
  const added = [
    ...(picked === undefined
      ? []
      : [{ ...PICK_OPTION, description: `choose the ${picked.name} from a list of ${picked.completes}, filtered as you type (on a terminal)` }]),
    ...(!declared.remote || declared.tier === 'read' ? [] : WRITE_OPTIONS),
  ];
  if (added.length === 0) return declared;
  const own = new Set((declared.options ?? []).map(longFlag));
  return { ...declared, options: [...(declared.options ?? []), ...added.filter((option) => !own.has(longFlag(option)))] };
}

/** --pick: the picker, where a command takes one record of a list; a person's choice, never a tool's input. */
export const PICK_OPTION: OptionSpec = {
  flags: '--pick',
  description: 'choose the record from a list, filtered as you type (on a terminal)',
  personOnly: true,
};

/** Whether an argument was given: a value, or at least one of a variadic's. */
export function argumentGiven(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : value !== undefined;
}

/**
 * The argument a person may pick from a list instead of typing its id: of a command that calls the
 * API, the one that names a list (`completes`) with no required argument after it, so that leaving it out leaves nothing after it
 * in its place (`workflow node delete <id> <nodeId>` has none).
 */
export function pickedArgument(spec: Pick<CommandSpec, 'args' | 'remote'>): (ArgumentSpec & { completes: IdList }) | undefined {
  // A local command (`open`) reaches no account: it has none to list.
  if (!spec.remote) return undefined;
  const args = spec.args ?? [];
  const index = args.findIndex((argument) => argument.completes !== undefined);
  if (index === -1 || args.slice(index + 1).some((argument) => argument.required !== false)) return undefined;
  return args[index] as ArgumentSpec & { completes: IdList };
}

/** Every write's preview: its requests printed, nothing sent (a command may declare a --dry-run of its own instead). */
export const DRY_RUN_OPTION: OptionSpec = {
  flags: '--dry-run',
  description: 'check everything that can be checked, print the requests it would send, and send nothing',
};

/** How long a plan file may wait for its apply: at most 30 days, after which the account has surely moved on. */
export function planExpiry(value: string): number {
  const ms = parseDurationMs(value, 30 * 86_400_000);
  if (ms === undefined) throw new InvalidValue('a duration such as 30m, 1h or 2d, at most 30d');
  return ms;
}

/**
 * A write that can be planned: its calls held as --dry-run holds them, written to a plan file with
 * the revision each was planned against, for `loopsctl apply` to send later (docs/changes.md). A
 * person's: an MCP tool that writes a file where the model says would be a destructive one.
 * Declaring it (with PLAN_OPTIONS) declares the behaviour: the path that loads a command's handler
 * runs one that `plans` as the change cycle's plannable (src/core/invoke.ts).
 */
export const PLAN_OPTION: OptionSpec = {
  flags: '--plan',
  description: 'send nothing: write the change to the file --out names, for `loopsctl apply`',
  personOnly: true,
};
export const PLAN_OPTIONS: OptionSpec[] = [
  PLAN_OPTION,
  { flags: '--out <file>', description: 'with --plan: the plan file to write (docs/changes.md)', file: { writes: true }, personOnly: true },
  {
    flags: '--expires <duration>',
    description: 'with --plan: how long the plan may wait for its apply (default 1h; at most 30d)',
    parse: planExpiry,
    personOnly: true,
  },
];

/** Whether the command declares --plan: its run can write its change to a plan file instead of sending it. */
export function plans(spec: CommandSpec): boolean {
  return spec.options?.includes(PLAN_OPTION) === true;
}

/**
 * --allow-private-links, the one flag of every command that fetches an address content or a person
 * named (src/api/fetcher.ts): loopback, private and reserved addresses are fetched only with it. A
 * person's: a tool call must not make this machine fetch its private network's addresses.
 */
export function allowPrivateLinksOption(description: string): OptionSpec {
  return { flags: '--allow-private-links', description, personOnly: true };
}

/** The override of a read-only profile, for one run. */
export const ALLOW_WRITES_OPTION: OptionSpec = { flags: '--allow-writes', description: 'write even though the profile is read-only', personOnly: true };

const WRITE_OPTIONS = [DRY_RUN_OPTION, ALLOW_WRITES_OPTION];

/** An option's long flag: '--dry-run' of '-n, --dry-run'. */
export function longFlag(option: OptionSpec): string {
  return /--[\w-]+/.exec(option.flags)![0];
}

/**
 * What one run may do to the account: the command's tier, lowered where its options say so
 * (`api -X GET`), raised by an option given that raises it (`--schedule`); undefined for a local command.
 */
export function runTier(spec: CommandSpec, options: Record<string, unknown>): Tier | undefined {
  if (!spec.remote) return undefined;
  const base = spec.tierOf?.(options) ?? spec.tier;
  const raised = (spec.options ?? []).filter((option) => option.tier !== undefined && options[optionKey(option)] !== undefined).map((option) => option.tier!);
  return [base, ...raised].reduce((highest, tier) => (TIERS.indexOf(tier) > TIERS.indexOf(highest) ? tier : highest));
}

/** Where commander puts an option's value: '--expected-revision-id <id>' in expectedRevisionId. */
function optionKey(option: OptionSpec): string {
  return longFlag(option)
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
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
    /** The value is a secret (a webhook's URL): the message never quotes it. */
    readonly secret = false,
  ) {
    super(`must be ${requirement}.`);
  }
}

/** A Slack incoming webhook: https only, for its URL is a secret (never quoted); plain http to this machine, a stand-in's. */
export function slackWebhook(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidValue('an https URL (a Slack incoming webhook)', undefined, true);
  }
  const loopback = ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new InvalidValue('an https URL (plain http only to 127.0.0.1, ::1 or localhost)', undefined, true);
  return url.href;
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

/** An email address, checked as everywhere else (src/base/email.ts); `blank` lets "" through, where it clears a field. */
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
  return specs.flatMap((spec) => (spec.kind === 'command' ? [{ path: [...path, spec.name], spec }] : walkSpecs(spec.commands, [...path, spec.name])));
}
