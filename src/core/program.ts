/**
 * Builds the commander tree from the declarations: the global options, every group and command
 * with its arguments, options and examples. Nothing here loads a command's behaviour; the action
 * of each command hands its parsed input to `run`, which does.
 */
import { Command, type CommanderError, Help, Option } from 'commander';
import { UsageError } from '../base/errors.js';
import { exitCodeRows } from '../base/exit-codes.js';
import { closeMatches } from '../base/suggest.js';
import { VERSION } from '../base/version.js';
import { joinProseLines, wrapLines, wrapText } from '../render/wrap.js';
import {
  ALLOW_WRITES_OPTION,
  type CommandSpec,
  DRY_RUN_OPTION,
  InvalidValue,
  integerIn,
  longFlag,
  type OptionSpec,
  pickedArgument,
  type Spec,
} from './declare.js';
import type { Runtime } from './runtime.js';

/** Where help and commander's messages go. */
type Streams = Pick<Runtime, 'stdout' | 'stderr'>;

export type Run = (spec: CommandSpec, args: unknown[], options: Record<string, unknown>, command: Command) => Promise<void>;

export const ENVIRONMENT: [string, string][] = [
  ['LOOPS_API_KEY', 'API key to use (overrides stored profiles unless --profile is given)'],
  ['LOOPSCTL_PROFILE', 'stored profile to use when neither --profile nor LOOPS_API_KEY is set'],
  ['LOOPS_BASE_URL', 'API base URL (default https://app.loops.so/api)'],
  ['LOOPSCTL_CONFIG_DIR', "directory of the config file that keeps stored keys (and the sandbox's data)"],
  ['LOOPSCTL_EXPECTED_TEAM', 'the team the key must belong to before any write, like --expect-team'],
  ['LOOPSCTL_RATE', 'at most this many requests per second, like --rate'],
  ['LOOPSCTL_MAX_BODY_BYTES', 'largest answer loopsctl reads (default 32 MiB)'],
  ['LOOPSCTL_PAGER, PAGER', 'pager for long output on a terminal (empty: none; default less -FRX)'],
  ['LOOPSCTL_COMPLETE_IDS', '1: shell completion also offers ids, from the API'],
  ['NO_COLOR, FORCE_COLOR', 'turn colour off, or on when stdout is not a terminal'],
];

const ROOT_EXAMPLES = [
  'loopsctl --sandbox workflow list',
  'loopsctl auth login',
  'loopsctl --sandbox transactional list',
  'loopsctl --sandbox themes list --json',
];

function exampleText(lines: string[], width: number): string {
  return lines.length === 0 ? '' : `\nExamples:\n${lines.map((line) => exampleLines(line, width)).join('\n')}\n`;
}

/** Where an example's continuation lines start: under its first word, past the prompt. */
const EXAMPLE_INDENT = '      ';

/**
 * An example command within the width: broken between its words, each line but the last ended with
 * ` \` as a shell continues a command, so that it still runs when copied whole; a quoted word is
 * never broken, and a word longer than the width stands on a line of its own.
 */
export function exampleLines(command: string, width: number): string {
  const first = `  $ ${command}`;
  if (first.length <= width) return first;
  // Shell words: a space inside quotes does not end one.
  const words = command.match(/(?:[^\s'"]+|'[^']*'|"(?:\\.|[^"\\])*")+/g) ?? [command];
  const lines: string[] = [];
  let line = `  $ ${words[0]}`;
  for (const word of words.slice(1)) {
    if (`${line} ${word} \\`.length <= width) line += ` ${word}`;
    else {
      lines.push(`${line} \\`);
      line = `${EXAMPLE_INDENT}${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * Whether the words ask for JSON (--json, --jsonl, --jq, or -o json in each way it can be written), for
 * what must know it before or without parsing them: an error met early, the update notice.
 */
export function asksForJson(argv: string[]): boolean {
  return argv.some(
    (word, index) =>
      /^--(json|jsonl|jq)(=|$)/.test(word) ||
      ((word === '-o' || word === '--output') && argv[index + 1] === 'json') ||
      word === '-ojson' ||
      word === '--output=json',
  );
}

/** The options every command takes, declared as commands' own options are. */
export const GLOBAL_OPTIONS: OptionSpec[] = [
  { flags: '--json', description: 'print the API data as JSON on stdout (errors as JSON on stderr)' },
  { flags: '-o, --output <format>', description: '-o json is --json (as the Loops CLI writes it); -o text, the default, is text', choices: ['json', 'text'] },
  { flags: '--jq <expression>', description: 'filter JSON output with a jq expression; strings print raw (implies --json; per item with --jsonl)' },
  { flags: '--profile <name>', description: 'use the key stored under this profile' },
  { flags: '--base-url <url>', description: 'API base URL' },
  { flags: '--proxy <url>', description: 'send requests through this HTTP proxy (instead of HTTPS_PROXY, HTTP_PROXY; NO_PROXY still applies)' },
  { flags: '--expect-team <name>', description: 'refuse any write unless the key belongs to this team (checked once, before the first write)' },
  { flags: '--sandbox', description: 'run against a built-in local sandbox with seed data (no key needed; see `loopsctl sandbox`)' },
  { flags: '--timeout <seconds>', description: 'give up on an attempt after this long', default: 30, parse: integerIn(1, 3600) },
  { flags: '--retries <n>', description: 'retry a failed request up to n times, where that is safe (0: never)', default: 3, parse: integerIn(0, 10) },
  { flags: '--rate <n>', description: 'at most n requests per second (default: what the API states, else 10)', parse: integerIn(1, 1000) },
  { flags: '--debug', description: 'log each request to stderr (the key redacted), and the stack trace of an internal error' },
  { flags: '--no-color', description: 'no colour in text output' },
  { flags: '--no-pager', description: 'never page long output on a terminal' },
];

/** Sections of `loopsctl --help` that `loopsctl help <topic>` prints alone, as `gh help exit-codes` does. */
export const HELP_TOPIC_SUMMARIES: Record<string, string> = {
  environment: 'the environment variables loopsctl reads',
  'exit-codes': 'what each exit status means',
};
const HELP_TOPICS: Record<string, (width: number) => string> = {
  environment: (width) => `Environment:\n${twoColumns(ENVIRONMENT, width)}\n`,
  'exit-codes': (width) => `Exit codes:\n${twoColumns(exitCodeRows(), width)}\n`,
};

/**
 * The whole command tree, or, given the words of a run, only the groups those words name in full:
 * the others are declared by name and summary alone, which is all the help that lists them shows. A
 * run can only reach a group whose name or alias it contains, so nothing it can reach is left out.
 * When the run's first word names a command or group, that one alone is declared (and within a group,
 * the command its next word names alone, see `declare`): commander takes that word for it before
 * anything else, so nothing else is reachable, and no help lists the others.
 */
export function buildProgram(specs: Spec[], runtime: Streams, run: Run, argv?: string[]): Command {
  const program = new Command('loopsctl')
    .description('Administer a Loops account from the command line.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help');
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option, []));
  program.addHelpText('after', () => {
    const width = helpWidth(runtime.stdout);
    return `\n${HELP_TOPICS.environment(width)}\n${HELP_TOPICS['exit-codes'](width)}${exampleText(ROOT_EXAMPLES, width)}`;
  });
  configure(program, runtime, []);
  // A run whose first word past the global options names a command or group (`loopsctl --sandbox
  // webhooks sign …`) reaches that one alone. Not even the names of the others are declared: each
  // is a commander Command, and the thirty of them made the start's young objects outgrow V8's
  // first young generation (1 MB), so that a garbage collection (about 0.8 ms) ran in every such start.
  const first = argv === undefined ? undefined : namedSpec(specs, argv);
  if (first !== undefined) {
    declare(program, first.spec, runtime, run, [], first.rest);
  } else {
    const words = argv === undefined ? undefined : new Set(argv);
    for (const spec of specs) {
      const named = words === undefined || [spec.name, ...(spec.aliases ?? [])].some((word) => words.has(word));
      if (spec.kind === 'group' && !named)
        program
          .command(spec.name)
          .description(spec.summary)
          .aliases(spec.aliases ?? []);
      else declare(program, spec, runtime, run, []);
    }
  }
  asGroup(program, runtime, []);
  return program;
}

/**
 * The index of a run's first word that is neither a global option nor such an option's value, as
 * commander reads them; undefined when none is, or when a word it would have to know more of comes
 * first (an option that is not global, `-ojson`, `--`).
 */
export function firstOperandIndex(argv: string[]): number | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (!word.startsWith('-')) return index;
    const flag = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    const option = GLOBAL_OPTIONS.find(({ flags }) => flags.split(/[ ,]+/).includes(flag));
    if (option === undefined) return undefined;
    if (flag === word && /<[^>]+>$/.test(option.flags)) index += 1;
  }
  return undefined;
}

/** The declaration the first operand of these words names (by name or alias), with the words after it. */
function namedSpec(specs: Spec[], argv: string[]): { spec: Spec; rest: string[] } | undefined {
  const index = firstOperandIndex(argv);
  if (index === undefined) return undefined;
  const word = argv[index]!;
  const spec = specs.find((candidate) => candidate.name === word || candidate.aliases?.includes(word) === true);
  return spec === undefined ? undefined : { spec, rest: argv.slice(index + 1) };
}

/** Rows of a name and its meaning, the meanings wrapped to the width in a column of their own. */
function twoColumns(rows: [string, string][], width: number): string {
  const indent = Math.min(2 + Math.max(...rows.map(([name]) => name.length)) + 2, 28);
  return rows
    .map(([name, meaning]) => {
      const lines = wrapLines(meaning, Math.max(20, width - indent));
      const first = `  ${name}`.padEnd(indent);
      // A name too long for the column puts its meaning on the next line.
      const head = first.length > indent ? [`  ${name}`, ...lines] : [`${first}${lines[0] ?? ''}`, ...lines.slice(1)];
      return head.map((line, index) => (index === 0 ? line : `${' '.repeat(indent)}${line}`)).join('\n');
    })
    .join('\n');
}

/**
 * Help is laid out for 80 columns, and for a narrower terminal's width: longer lines read worse
 * (clap stops at 100), and so the pages the build writes at 80 serve every terminal that wide
 * (bin/loopsctl.js prints them without the program).
 */
const HELP_COLUMNS = 80;

function helpWidth(stream: Runtime['stdout']): number {
  return stream.isTTY && stream.columns ? Math.min(stream.columns, HELP_COLUMNS) : HELP_COLUMNS;
}

/** Settings every command needs, since commander copies only some of them to subcommands. */
function configure(command: Command, runtime: Streams, path: string[]): void {
  command
    .configureOutput({
      writeOut: (text) => runtime.stdout.write(text),
      writeErr: (text) => runtime.stderr.write(text),
      getOutHelpWidth: () => helpWidth(runtime.stdout),
      getErrHelpWidth: () => helpWidth(runtime.stderr),
      // Help has no colour, so there is none to keep; commander would otherwise ask process.stdout.
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      outputError: () => {},
    })
    .configureHelp({ boxWrap: wrapText, formatItem, minWidthToWrap: MIN_DESCRIPTION_WIDTH })
    .showSuggestionAfterError()
    .exitOverride((error) => {
      // `contacts fnd --email …`: the group meets the flag first, but the mistyped command is what to fix.
      const [word] = command.args;
      const unknownCommand = error.code === 'commander.unknownOption' && command.commands.length > 0 && word !== undefined && !word.startsWith('-');
      if (unknownCommand && !command.commands.some((child) => child.name() === word || child.aliases().includes(word))) {
        (command as unknown as { unknownCommand(): never }).unknownCommand();
      }
      // `open bogus`: the group hands a word naming none of its commands to its default command,
      // which takes no such argument; the word is what to fix, not the default command's arguments.
      const { parent } = command;
      const [given] = parent?.args ?? [];
      const reachedByDefault =
        error.code === 'commander.excessArguments' &&
        parent !== null &&
        (parent as unknown as { _defaultCommandName: string | null })._defaultCommandName === command.name() &&
        given !== undefined &&
        !given.startsWith('-') &&
        given !== command.name() &&
        !command.aliases().includes(given);
      if (reachedByDefault) (parent as unknown as { unknownCommand(): never }).unknownCommand();
      throw usageError(error, path);
    });
}

/**
 * Declares a command, or a group with its commands; `rest`, the words of a run after the group's
 * name, narrows a group to the command they name first, as buildProgram narrows the tree.
 */
function declare(parent: Command, spec: Spec, runtime: Streams, run: Run, parentPath: string[], rest?: string[]): void {
  const path = [...parentPath, spec.name];
  const hidden = spec.kind === 'command' && spec.hidden === true;
  const isDefault = spec.kind === 'command' && spec.isDefault === true;
  const command = parent
    .command(spec.name, { hidden, isDefault })
    .description(spec.summary)
    .aliases(spec.aliases ?? []);
  configure(command, runtime, path);
  if (spec.kind === 'group') {
    const named = rest === undefined ? undefined : namedSpec(spec.commands, rest);
    if (named !== undefined) declare(command, named.spec, runtime, run, path, named.rest);
    else for (const child of spec.commands) declare(command, child, runtime, run, path);
    asGroup(command, runtime, path);
  } else {
    // A record that can be picked on a terminal may be left out: runCommand picks it, or refuses as commander would.
    const picked = pickedArgument(spec);
    const usage: string[] = ['[options]'];
    for (const argument of spec.args ?? []) {
      const name = `${argument.name}${argument.variadic ? '...' : ''}`;
      const shown = argument.required === false ? `[${name}]` : `<${name}>`;
      usage.push(shown);
      command.argument(argument === picked ? `[${name}]` : shown, argument.description);
    }
    if (picked !== undefined) command.usage(usage.join(' '));
    for (const option of spec.options ?? []) command.addOption(toOption(option, path));
    command.action(async (...received: unknown[]) => {
      const self = received.at(-1) as Command;
      await run(spec, self.processedArgs, self.opts(), self);
    });
  }
  command.addHelpText('after', () => inheritedOptions(helpWidth(runtime.stdout)));
  const { help } = spec;
  if (help !== undefined) command.addHelpText('after', () => `\n${wrapText(joinProseLines(help.trim()), helpWidth(runtime.stdout))}`);
  command.addHelpText('after', () => exampleText(spec.examples, helpWidth(runtime.stdout)));
}

/**
 * What a group (or loopsctl itself) does when named without a command, as gh does: its help on
 * stdout, exit 0. A script that asked for JSON gets a usage error it can read instead. A word that
 * names no command of the group is an unknown command. `help [command...]` shows a command's help,
 * and says so when the words name none.
 */
function asGroup(group: Command, runtime: Streams, path: string[]): void {
  const usage = `loopsctl ${[...path, '--help'].join(' ')}`;
  group.allowExcessArguments().action((_options: unknown, self: Command) => {
    if (self.args.length > 0) (self as unknown as { unknownCommand(): never }).unknownCommand();
    const { json, jq } = self.optsWithGlobals<{ json?: boolean; jq?: string }>();
    if (json === true || jq !== undefined) {
      throw new UsageError(`\`${['loopsctl', ...path].join(' ')}\` needs a command`, { hint: `see the commands with \`${usage}\`` });
    }
    self.outputHelp();
  });
  const topics = path.length === 0 ? Object.keys(HELP_TOPICS) : [];
  const help = group
    .command('help')
    .argument('[command...]')
    .description(topics.length === 0 ? 'show help for a command' : `show help for a command, or a topic: ${topics.join(', ')}`)
    .helpOption(false);
  configure(help, runtime, [...path, 'help']);
  help.action((words: string[]) => {
    if (words.length === 1 && topics.includes(words[0]!)) {
      runtime.stdout.write(HELP_TOPICS[words[0]!]!(helpWidth(runtime.stdout)));
      return;
    }
    let target = group;
    for (const word of words) {
      const next = target.commands.find((child) => child.name() === word || child.aliases().includes(word));
      if (next === undefined) {
        const named = ['loopsctl', ...path, ...words.slice(0, words.indexOf(word))].join(' ');
        const close = closeMatches(word, [
          ...target.commands.filter((child) => child.name() !== 'help').map((child) => child.name()),
          ...(target === group ? topics : []),
        ]);
        const see = `see the commands with \`${named} --help\``;
        throw new UsageError(`unknown command '${word}' for \`${named}\``, { hint: close.length > 0 ? `did you mean ${close.join(', ')}? Or ${see}` : see });
      }
      target = next;
    }
    target.outputHelp();
  });
}

/**
 * The options every command takes are described once, in `loopsctl --help`; a command's help names
 * them, as gh's INHERITED FLAGS does.
 */
function inheritedOptions(width: number): string {
  // Long names only: `-o, --output` would read as two options in a list separated by commas.
  const flags = GLOBAL_OPTIONS.map(({ flags }) => flags.replace(/ <.*>$/, '').replace(/^-\w, /, '')).join(', ');
  return `\nGlobal options (described in \`loopsctl --help\`):\n${wrapText(`  ${flags}`, width)}`;
}

/** Below this many columns beside its term, an item's description goes on the lines under it. */
const MIN_DESCRIPTION_WIDTH = 30;

/**
 * An item of help (an option, argument or command) as commander lays it out, except that a
 * description squeezed by a wide term column goes under its term, wrapped, instead of running past
 * the terminal's edge unwrapped.
 */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  if (description === '' || width - termWidth - 4 >= MIN_DESCRIPTION_WIDTH) return Help.prototype.formatItem.call(this, term, termWidth, description, helper);
  const indent = ' '.repeat(6);
  return `  ${term}\n${wrapLines(description, Math.max(width - indent.length, 20))
    .map((line) => indent + line)
    .join('\n')}`;
}

function toOption(spec: OptionSpec, path: string[]): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices !== undefined) option.choices(spec.choices);
  if (spec.required) option.makeOptionMandatory();
  const parse = spec.parse === undefined ? undefined : inWords(option.long ?? option.flags, spec.parse, path);
  if (spec.repeatable) {
    option.argParser((value: string, previous: unknown) => [
      ...((previous as unknown[] | undefined) ?? []),
      parse === undefined ? value : parse(value, undefined),
    ]);
  } else if (parse !== undefined) {
    option.argParser(parse);
  }
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}

/** A value the option does not take, as a usage error that names the option: "--limit must be …, not 0". */
export function inWords(flag: string, parse: NonNullable<OptionSpec['parse']>, path: string[]): NonNullable<OptionSpec['parse']> {
  return (value, previous) => {
    try {
      return parse(value, previous);
    } catch (error) {
      if (!(error instanceof InvalidValue)) throw error;
      const shown = error.secret ? 'the value given' : /^[\w.:/@+-]+$/.test(value) ? value : JSON.stringify(value);
      throw new UsageError(`${flag} must be ${error.requirement}, not ${shown}`, { hint: error.hint ?? `see \`loopsctl ${[...path, '--help'].join(' ')}\`` });
    }
  };
}

/** The flags every write takes (WRITE_OPTIONS), which a command that only reads or works locally refuses by name. */
const WRITE_FLAGS = [DRY_RUN_OPTION, ALLOW_WRITES_OPTION].map(longFlag);

/**
 * Commander's errors as ours: help and the version end the run successfully, anything else is a
 * usage error that points to the help of the command it happened in.
 */
function usageError(error: CommanderError, path: string[]): CommanderError | UsageError {
  if (error.exitCode === 0 || error.code === 'commander.help' || error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return error;
  const [first, ...rest] = error.message.replace(/^error: /, '').split('\n');
  const writeOnly = WRITE_FLAGS.find((flag) => error.code === 'commander.unknownOption' && first!.includes(`'${flag}'`));
  if (writeOnly !== undefined) {
    return new UsageError(`${writeOnly} applies to commands that change the account, and \`loopsctl ${path.join(' ')}\` does not`, {
      hint: `leave ${writeOnly} out`,
    });
  }
  const suggestion = /\(Did you mean (.+)\?\)/.exec(rest.join(' '))?.[1];
  const help = `loopsctl ${[...path, '--help'].join(' ')}`;
  const hint = suggestion === undefined ? `see \`${help}\`` : `did you mean ${suggestion}? See \`${help}\``;
  return new UsageError(first!, { hint });
}
