/**
 * One run of loopsctl: the command tree from the declarations, the command's behaviour loaded and
 * run with a context made from the runtime, and the one top-level handler that turns any failure
 * into a message on stderr and an exit code. Tests call `main(argv, runtime)` in-process.
 */
import { CommanderError, type Command } from 'commander';
import { ExitCode, InternalError, LoopsctlError, UsageError } from './api/errors.js';
import { specs } from './areas/registry.js';
import type { CommandSpec } from './core/declare.js';
import type { GlobalOptions } from './core/context.js';
import { buildProgram } from './core/program.js';
import type { Runtime } from './core/runtime.js';
import { formatJson } from './render/output.js';
import { sanitize } from './render/sanitize.js';

export async function main(argv: string[], runtime: Runtime): Promise<number> {
  let exitCode: number = ExitCode.ok;
  let globals: Partial<GlobalOptions> = {};
  const program = buildProgram(specs, runtime, async (spec, args, options, command) => {
    globals = command.optsWithGlobals<GlobalOptions>();
    refuseMisplacedSandbox(spec, command);
    const { CommandContext } = await import('./core/context.js');
    const context = new CommandContext(runtime, globals as GlobalOptions, spec);
    try {
      const handler = await spec.load();
      exitCode = (await handler(context, args, options)) ?? ExitCode.ok;
    } finally {
      await context.close();
    }
  }, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (thrown) {
    const error = normalize(thrown);
    if (typeof error === 'number') return error;
    // The global flags as parsed where parsing got that far, else as written.
    const json = globals.json ?? (argv.includes('--json') || argv.includes('--jsonl'));
    report(runtime, error, json, globals.debug ?? argv.includes('--debug'));
    return error.exitCode;
  }
}

/** --sandbox stands for the API: on a command that does not call it, or that stores keys, it is a mistake. */
function refuseMisplacedSandbox(spec: CommandSpec, command: Command): void {
  if (command.getOptionValueSourceWithGlobals('sandbox') === undefined) return;
  if (!spec.remote) throw new UsageError(`--sandbox does not apply to \`${command.name()}\`, which does not call the API`);
  if (spec.storesKeys) {
    throw new UsageError(`--sandbox cannot be used with \`${command.name()}\`: it would change stored keys`, {
      hint: 'the sandbox needs no stored key; run commands with --sandbox directly',
    });
  }
}

/** Maps anything thrown to one of ours; commander's own errors that remain are help and the version. */
function normalize(error: unknown): LoopsctlError | number {
  if (error instanceof LoopsctlError) return error;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok;
    return ExitCode.usage;
  }
  return new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
}

function errorPayload(error: LoopsctlError) {
  return { error: { code: error.code, status: error.status ?? null, message: error.message, exitCode: error.exitCode, hint: error.hint ?? null } };
}

/** Messages quote the API, so they are sanitized like any other text from it. */
function report(runtime: Runtime, error: LoopsctlError, json: boolean, debug: boolean): void {
  const { stderr } = runtime;
  if (json) {
    stderr.write(`${formatJson(errorPayload(error), 0)}\n`);
  } else {
    stderr.write(`Error: ${sanitize(error.message)}\n`);
    if (error.hint) stderr.write(`Hint: ${sanitize(error.hint)}\n`);
    if (error instanceof InternalError) stderr.write('This is a bug in loopsctl; please report it with the output of --debug.\n');
  }
  if (debug) {
    const stack = String((error.cause as Error | undefined)?.stack ?? error.stack);
    stderr.write(`${stack.split('\n').map(sanitize).join('\n')}\n`);
  }
}
