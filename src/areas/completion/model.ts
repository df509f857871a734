/**
 * The command tree as completion scripts need it: names, aliases, flags, whether a flag takes a
 * value and which values it accepts. Read from commander, so the scripts follow every command
 * and flag without a second list to keep in step.
 */
import type { Command } from 'commander';

export interface CompletionOption {
  /** `--json`, `-h`, ... */
  names: string[];
  takesValue: boolean;
  /** Its value is a file (`<file>`, `<path>`, `<dir>`): the only values the shell may complete with file names. */
  takesFile: boolean;
  choices: string[];
  description: string;
}

export interface CompletionCommand {
  name: string;
  aliases: string[];
  description: string;
  /** The flags accepted here: the command's own, then the global ones. */
  options: CompletionOption[];
  commands: CompletionCommand[];
  /** The list whose ids its arguments take, completed when LOOPSCTL_COMPLETE_IDS=1. */
  ids?: string;
  /** Words `help` takes here besides the command names (`help exit-codes`): the program's topics. */
  topics?: { name: string; description: string }[];
}

/** The list each command's id arguments come from, by command path ("workflow show"). */
export type IdArguments = ReadonlyMap<string, string>;

function optionsOf(command: Command): CompletionOption[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .map((option) => ({
      names: [option.long, option.short].filter((name): name is string => name !== undefined),
      takesValue: option.required || option.optional,
      takesFile: /<(?:file|path|dir)\b/.test(option.flags),
      choices: option.argChoices ?? [],
      description: option.description,
    }));
}

function build(command: Command, globals: CompletionOption[], ids: IdArguments, path: string[]): CompletionCommand {
  const own = optionsOf(command);
  const ownNames = new Set(own.flatMap((option) => option.names));
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    options: [...own, ...globals.filter((option) => !option.names.some((name) => ownNames.has(name)))],
    commands: command
      .createHelp()
      .visibleCommands(command)
      .map((child) => build(child, globals, ids, [...path, child.name()])),
    ids: ids.get(path.join(' ')),
  };
}

/** The whole tree from the program down; the program's options (but --version) count everywhere. */
export function completionTree(program: Command, ids: IdArguments = new Map(), topics: Readonly<Record<string, string>> = {}): CompletionCommand {
  const globals = optionsOf(program).filter((option) => !option.names.includes('--version'));
  const root = build(program, globals, ids, []);
  return { ...root, options: optionsOf(program), topics: Object.entries(topics).map(([name, description]) => ({ name, description })) };
}

/** Every command with the path of names that reaches it, the root first with an empty path. */
export function walk(root: CompletionCommand): { path: string[]; command: CompletionCommand }[] {
  const found: { path: string[]; command: CompletionCommand }[] = [];
  const visit = (command: CompletionCommand, path: string[]) => {
    found.push({ path, command });
    for (const child of command.commands) visit(child, [...path, child.name]);
  };
  visit(root, []);
  return found;
}
