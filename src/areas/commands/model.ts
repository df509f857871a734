/**
 * The command tree as data, from the declarations themselves: what `loopsctl commands --json`
 * prints, so that a script or a completion engine can drive loopsctl without reading its help.
 */

import { VERSION } from '../../base/version.js';
import { type CommandSpec, type FlagSet, type OptionSpec, type Spec, walkSpecs } from '../../core/declare.js';
import type { IdList } from '../../core/id-lists.js';
import type { Tier } from '../../core/tier.js';

interface OptionInfo {
  /** As declared: '-f, --raw-field <key=value>'. */
  flags: string;
  /** '--raw-field' */
  long: string | null;
  /** '-f' */
  short: string | null;
  /** boolean: a switch; value: takes a value. */
  type: 'boolean' | 'value';
  /** The value's placeholder: 'key=value'. */
  valueName: string | null;
  description: string;
  default: unknown;
  required: boolean;
  choices: readonly string[] | null;
  repeatable: boolean;
  /** Giving it raises the command to this tier, or null. */
  tier: Tier | null;
}

interface ArgumentInfo {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  /** The list its ids come from (see `loopsctl completion`), or null. */
  completes: IdList | null;
}

export interface CommandInfo {
  /** The words that run it: ['themes', 'list']. */
  path: string[];
  /** Other names of the command itself (its last word). */
  aliases: string[];
  summary: string;
  arguments: ArgumentInfo[];
  options: OptionInfo[];
  /** Calls the API: --sandbox, --base-url, --profile, --timeout and --retries apply. */
  remote: boolean;
  /** What it may do to the account (read, write, destructive); null for a local command. */
  tier: Tier | null;
  /** Flags of which at most one may be given, and sets of which one must be (an argument as <name>). */
  constraints: { exclusive: FlagSet[]; oneRequired: FlagSet[] };
  examples: string[];
}

interface GroupInfo {
  path: string[];
  aliases: string[];
  summary: string;
}

export interface CommandTree {
  version: string;
  globalOptions: OptionInfo[];
  groups: GroupInfo[];
  commands: CommandInfo[];
}

export function commandTree(specs: Spec[], globalOptions: OptionSpec[]): CommandTree {
  return {
    version: VERSION,
    globalOptions: globalOptions.map(optionInfo),
    groups: walkGroups(specs),
    commands: walkSpecs(specs)
      .filter(({ spec }) => !spec.hidden)
      .map(({ path, spec }) => commandInfo(path, spec)),
  };
}

function commandInfo(path: string[], spec: CommandSpec): CommandInfo {
  return {
    path,
    aliases: spec.aliases ?? [],
    summary: spec.summary,
    arguments: (spec.args ?? []).map((argument) => ({
      name: argument.name,
      description: argument.description,
      required: argument.required !== false,
      variadic: argument.variadic === true,
      completes: argument.completes ?? null,
    })),
    options: (spec.options ?? []).map(optionInfo),
    remote: spec.remote,
    tier: spec.tier ?? null,
    constraints: { exclusive: spec.constraints?.exclusive ?? [], oneRequired: spec.constraints?.oneRequired ?? [] },
    examples: spec.examples,
  };
}

function optionInfo(spec: OptionSpec): OptionInfo {
  const long = /--[\w-]+/.exec(spec.flags)?.[0] ?? null;
  const short = /(?:^|[\s,])(-\w)\b/.exec(spec.flags)?.[1] ?? null;
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(spec.flags)?.[1] ?? null;
  return {
    flags: spec.flags,
    long,
    short,
    type: valueName === null ? 'boolean' : 'value',
    valueName,
    description: spec.description,
    default: spec.default ?? null,
    required: spec.required === true,
    choices: spec.choices ?? null,
    repeatable: spec.repeatable === true,
    tier: spec.tier ?? null,
  };
}

function walkGroups(specs: Spec[], path: string[] = []): GroupInfo[] {
  return specs.flatMap((spec) =>
    spec.kind === 'group'
      ? [{ path: [...path, spec.name], aliases: spec.aliases ?? [], summary: spec.summary }, ...walkGroups(spec.commands, [...path, spec.name])]
      : [],
  );
}
