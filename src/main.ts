/**
 * One run of loopsctl: the command tree from the declarations, the command's behaviour loaded and
 * run with a context made from the runtime, and the one top-level handler that turns any failure
 * into a message on stderr and an exit code. Tests call `main(argv, runtime)` in-process.
 */
import { type Command, CommanderError } from 'commander';
import { behaviours } from './areas/behaviours.js';
import { type Area, allSpecs, areas } from './areas/directory.js';
import { ExitCode, InterruptedError, LoopsctlError, OutputError, UsageError } from './base/errors.js';
import { attributeName } from './core/constraints.js';
import { CommandContext, type GlobalOptions, type RunWrites } from './core/context.js';
import { type CommandSpec, DRY_RUN_OPTION, group, plans, runTier, type Spec } from './core/declare.js';
import { asLoopsctlError, runCommand } from './core/invoke.js';
import { asksForJson, buildProgram, firstOperandIndex } from './core/program.js';
import { reportError } from './core/report.js';
import type { Runtime } from './core/runtime.js';

export async function main(argv: string[], runtime: Runtime): Promise<number> {
  let exitCode: number = ExitCode.ok;
  let globals: Partial<GlobalOptions> = {};
  const specs = await declarationsFor(argv);
  const program = buildProgram(
    specs,
    runtime,
    async (spec, args, options, command) => {
      globals = command.optsWithGlobals<GlobalOptions>();
      const given = (flag: string) => !['default', undefined].includes(command.getOptionValueSourceWithGlobals(attributeName(flag)));
      if (globals.output === 'text' && given('--json')) throw new UsageError('-o text and --json cannot be used together', { hint: 'choose one output form' });
      if (globals.output === 'json') globals.json = true;
      refuseMisplacedSandbox(spec, command);
      const writes = writesOf(spec, options, command);
      // A bad --jq expression is found before any request.
      const jq = globals.jq === undefined ? undefined : await compileJq(globals.jq, runtime);
      // Like gh: long output on a terminal goes through a pager, unless the command talks with the
      // person or ends with one summary line (an import). Off a terminal there is nothing to page, and
      // nothing of the pager's is loaded. Ctrl-C ends the pager at once.
      const pages = runtime.stdout.isTTY === true && !spec.interactive && !spec.unpaged;
      const pager = pages
        ? await (await import('./render/pager.js')).startPager({
            stdout: runtime.stdout,
            stderr: runtime.stderr,
            env: runtime.env,
            enabled: globals.pager !== false,
            interrupted: runtime.signal,
          })
        : undefined;
      const paged: Runtime =
        pager === undefined || pager.stream === runtime.stdout
          ? runtime
          : { ...runtime, stdout: pager.stream, signal: AbortSignal.any([runtime.signal, pager.signal]), paged: true };
      const context = new CommandContext(paged, globals as GlobalOptions, jq, writes);
      // -o json is --json, for the flags that go together too (--json with --jsonl).
      const optionGiven = (flag: string) => given(flag) || (flag === '--json' && globals.output === 'json');
      try {
        exitCode = await runCommand(context, specs, behaviours, { spec, path: commandPath(command).split(' '), args, options, optionGiven }, allSpecs);
      } catch (error) {
        // The person quit the pager: they have read enough, which is no failure. A Ctrl-C, which
        // also ended the pager, is.
        if (pager?.closed !== true || runtime.signal.aborted) throw error;
      } finally {
        await context.close();
        await pager?.close();
      }
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return afterOutput(runtime, exitCode) ?? exitCode;
  } catch (thrown) {
    const error = normalize(thrown);
    if (typeof error === 'number') return error;
    // Work that ended because stdout closed: the closing decides, not the interruption it caused.
    if (error instanceof InterruptedError && runtime.stdoutClosed?.aborted) return afterOutput(runtime, ExitCode.ok)!;
    // The global flags as parsed where parsing got that far, else as written.
    const json = globals.json ?? (globals.jq !== undefined || asksForJson(argv));
    reportError(runtime.stderr, error, { json, debug: globals.debug ?? argv.includes('--debug') });
    return afterOutput(runtime, error.exitCode) ?? error.exitCode;
  }
}

/**
 * The declarations a run can reach, as buildProgram declares them: the area its first word names,
 * alone; else the areas its words name and the top-level commands, with the other groups by name
 * and summary, all that buildProgram declares of a group no word names. A group's declarations are
 * read only when a run names it: a start reads no other area's.
 */
async function declarationsFor(argv: string[]): Promise<Spec[]> {
  const index = firstOperandIndex(argv);
  const first = index === undefined ? undefined : areas.find((area) => namedBy(area, new Set([argv[index]!])));
  if (first !== undefined) return [await first.declared()];
  const words = new Set(argv);
  return Promise.all(areas.map((area) => (area.kind === 'command' || namedBy(area, words) ? area.declared() : byName(area))));
}

function namedBy(area: Area, words: Set<string>): boolean {
  return [area.name, ...(area.aliases ?? [])].some((word) => words.has(word));
}

/** A group no word of the run names: its name, aliases and summary, and none of its commands, which the run cannot reach. */
function byName({ name, aliases, summary }: Area): Spec {
  return group({
    name,
    aliases,
    summary,
    examples: [],
    commands: () => {
      throw new Error(`the commands of ${name} were not loaded: no word of the run names it`);
    },
  });
}

/** The --jq filter, run in a worker that Ctrl-C ends; what jq says on its own goes to stderr. */
async function compileJq(expression: string, runtime: Runtime) {
  const { JqFilter, jqLimits } = await import('./render/jq.js');
  return JqFilter.compile(expression, { signal: runtime.signal, limits: jqLimits(runtime.env), message: (line) => runtime.stderr.write(`jq: ${line}\n`) });
}

/**
 * The exit code once stdout closed early, or undefined when it did not: a reader that went away
 * (EPIPE) takes nothing from the command's own code, a verdict included; any other write error
 * (a full disk) is reported as output that could not be written.
 */
function afterOutput(runtime: Runtime, code: number): number | undefined {
  const closed = runtime.stdoutClosed;
  if (closed?.aborted !== true) return undefined;
  const reason = closed.reason as NodeJS.ErrnoException | undefined;
  if (reason?.code === 'EPIPE') return code;
  const failure = new OutputError(`could not write the output: ${reason?.message ?? 'stdout closed'}`, {
    cause: reason,
    hint: 'check the disk or the file stdout goes to',
  });
  reportError(runtime.stderr, failure, { json: false });
  return failure.exitCode;
}

/**
 * What the run may do to the account. The --dry-run every write takes holds its writes at the
 * transport; a command that declares a --dry-run of its own does its own preview.
 */
function writesOf(spec: CommandSpec, options: Record<string, unknown>, command: Command): RunWrites {
  const tier = runTier(spec, options);
  const generic = spec.options?.includes(DRY_RUN_OPTION) === true;
  if (generic && options.dryRun === true && tier === 'read') {
    throw new UsageError(`--dry-run previews requests that change the account, and this run of \`${commandPath(command)}\` only reads`, {
      hint: 'leave --dry-run out: a read changes nothing',
    });
  }
  const plan = options.plan === true && plans(spec);
  return { tier, dryRun: generic && options.dryRun === true, plan, allowWrites: options.allowWrites === true };
}

/** --sandbox stands for the API: on a command that does not call it, or that stores keys, it is a mistake. */
function refuseMisplacedSandbox(spec: CommandSpec, command: Command): void {
  if (command.getOptionValueSourceWithGlobals('sandbox') === undefined) return;
  const name = commandPath(command);
  if (!spec.remote) throw new UsageError(`--sandbox does not apply to \`${name}\`, which does not call the API`);
  if (spec.storesKeys) {
    throw new UsageError(`--sandbox cannot be used with \`${name}\`: it would change stored keys`, {
      hint: 'the sandbox needs no stored key; run commands with --sandbox directly',
    });
  }
}

/** The words that name a command: "auth logout". */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** Maps anything thrown to one of ours; commander's own errors that remain are help and the version. */
function normalize(error: unknown): LoopsctlError | number {
  if (error instanceof LoopsctlError) return error;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok;
    return ExitCode.usage;
  }
  return asLoopsctlError(error);
}
