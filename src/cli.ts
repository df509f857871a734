/**
 * The entry point: global options, the command groups (loaded lazily), and the one top-level
 * handler that turns any failure into a message on stderr and an exit code.
 */
import { Command, CommanderError, Option } from 'commander';
import { ExitCode, InternalError, LoopsctlError, UsageError } from './api/errors.js';
import { commandGroups, findGroup } from './commands/index.js';
import { examples, integerIn } from './commands/declare.js';
import { formatJson } from './render/output.js';
import { sanitize } from './render/sanitize.js';
import { VERSION } from './version.js';

const HELP_FOOTER = `
Environment:
  LOOPS_API_KEY          API key to use (overrides stored profiles unless --profile is given)
  LOOPSCTL_PROFILE       stored profile to use when neither --profile nor LOOPS_API_KEY is set
  LOOPS_BASE_URL         API base URL (default https://app.loops.so/api)
  LOOPSCTL_CONFIG_DIR    directory of the config file that keeps stored keys (and the sandbox's data)
  NO_COLOR, FORCE_COLOR  turn colour off, or on when stdout is not a terminal

Exit codes:
  0   success
  1   a check found a mismatch (ips check, webhooks verify)
  2   usage error: unknown command or flag, a missing or invalid argument; nothing was sent
  3   no API key, or the API answered 401
  4   not found (404)
  5   the API rejected the request (400, 405, 409, 422, other 4xx)
  6   rate limited (429 after retries)
  7   network: could not connect, or timed out
  8   server error (5xx after retries)
  9   invalid response: not JSON, or not the documented shape
  70  internal error (a bug in loopsctl)

Examples:
  $ loopsctl --sandbox workflow list
  $ loopsctl auth login
  $ loopsctl workflow list
  $ loopsctl transactional metrics cll42l54f20i1la0lfooe3z12 --json
`;

function buildProgram(): Command {
  const program = new Command('loopsctl')
    .description('Administer a Loops account from the command line.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--json', 'print the API data as JSON on stdout (errors as JSON on stderr)')
    .option('--profile <name>', 'use the key stored under this profile')
    .option('--base-url <url>', 'API base URL')
    .option('--sandbox', 'run against a built-in local sandbox with seed data (no key needed; see `loopsctl sandbox`)')
    .addOption(new Option('--timeout <seconds>', 'give up on an attempt after this long').default(30).argParser(integerIn(1, 3600)))
    .addOption(new Option('--retries <n>', 'retry a failed request up to n times, where that is safe (0: never)').default(3).argParser(integerIn(0, 10)))
    .option('--debug', 'log each request to stderr (the key redacted), and stack traces')
    .option('--no-color', 'no colour in text output')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .addHelpText('after', HELP_FOOTER);
  program.addHelpCommand('help [command]', 'show help for a command');
  return program;
}

/** The first word of argv that is not an option or an option's value: the invoked group. */
function invokedWord(program: Command, argv: string[]): string | undefined {
  const takesValue = new Set(program.options.filter((option) => option.required || option.optional).flatMap((option) => [option.long, option.short]));
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (word === '--') return argv[index + 1];
    if (!word.startsWith('-')) return word === 'help' ? (argv[index + 1] ?? word) : word;
    if (!word.includes('=') && takesValue.has(word)) index += 1;
  }
  return undefined;
}

/** Declares every group, and loads the one invoked; returns whether one was loaded. */
async function registerGroups(program: Command, argv: string[]): Promise<boolean> {
  const invoked = findGroup(invokedWord(program, argv));
  for (const group of commandGroups) {
    const command = program.command(group.name).description(group.summary).aliases(group.aliases ?? []);
    if (group !== invoked) continue;
    examples(command, group.examples);
    (await group.load()).register(command);
  }
  return invoked !== undefined;
}

function errorPayload(error: LoopsctlError) {
  return { error: { code: error.code, status: error.status ?? null, message: error.message, exitCode: error.exitCode } };
}

/** Maps anything thrown to one of ours; commander's own errors are usage errors or help. */
function normalize(error: unknown): LoopsctlError | number {
  if (error instanceof LoopsctlError) return error;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok;
    if (error.code === 'commander.help' || error.code === 'commander.helpDisplayed') return ExitCode.usage;
    const message = error.message.replace(/^error: /, '');
    return new UsageError(message, { hint: 'see `loopsctl --help`, or `loopsctl <command> --help`' });
  }
  return new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
}

/** Messages quote the API, so they are sanitized like any other text from it. */
function report(error: LoopsctlError, json: boolean, debug: boolean): void {
  if (json) {
    process.stderr.write(`${formatJson(errorPayload(error), 0)}\n`);
  } else {
    process.stderr.write(`Error: ${sanitize(error.message)}\n`);
    if (error.hint) process.stderr.write(`Hint: ${sanitize(error.hint)}\n`);
    if (error instanceof InternalError) process.stderr.write('This is a bug in loopsctl; please report it with the output of --debug.\n');
  }
  if (debug) {
    const stack = String((error.cause as Error | undefined)?.stack ?? error.stack);
    process.stderr.write(`${stack.split('\n').map(sanitize).join('\n')}\n`);
  }
}


/**
 * `loopsctl ... | head -1`: once the reader has gone, nothing more can be shown, so the run ends
 * quietly and successfully, as other Unix tools do.
 */
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.ok);
    throw error;
  });
}

/** Ctrl-C ends requests in flight and waits between retries; a second Ctrl-C ends at once. */
function interruptOnCtrlC(): void {
  process.once('SIGINT', () => {
    void import('./commands/context.js').then((context) => context.interruptRequests());
  });
}

export async function main(argv: string[]): Promise<number> {
  endQuietlyWhenStdoutCloses();
  interruptOnCtrlC();
  const program = buildProgram();
  const json = argv.includes('--json') || argv.includes('--jsonl');
  const debug = argv.includes('--debug');
  let loaded = false;
  try {
    loaded = await registerGroups(program, argv);
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (thrown) {
    const error = normalize(thrown);
    if (typeof error === 'number') return error;
    report(error, json, debug);
    return error.exitCode;
  } finally {
    // Only a loaded group can have opened connections; --help and --version skip the HTTP stack.
    if (loaded) await (await import('./commands/context.js')).closeTransports();
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
