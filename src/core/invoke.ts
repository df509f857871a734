/**
 * How a command runs: the one path that `main()` and the tool calls of `loopsctl mcp` (invoker.ts)
 * share, from the declaration's constraints to the command's behaviour, so that a check added
 * here applies to both; and a command's invocation from typed input, as commander would make it
 * from argv.
 */
import { ExitCode, InternalError, LoopsctlError, NotFoundError, UsageError, withDetails } from '../base/errors.js';
import { refusedWrite } from '../base/write-whole.js';
import { type Handler, viewOf } from './capabilities.js';
import { attributeName, checkConstraints, type OptionGiven } from './constraints.js';
import type { CommandContext } from './context.js';
import { argumentGiven, type Behaviours, type CommandSpec, longFlag, pickedArgument, plans, type Spec } from './declare.js';
import { inWords } from './program.js';

export interface Invocation {
  spec: CommandSpec;
  /** The words that name the command: ['themes', 'list']. */
  path: string[];
  args: unknown[];
  /** By attribute name, as commander gives them: parsed, defaults applied. */
  options: Record<string, unknown>;
  optionGiven: OptionGiven;
}

/**
 * Checks the declaration's constraints, then loads the command's behaviour, with those it
 * declares, and runs it; a failure comes back with the hints that the run's context and the tree can add.
 * `tree` holds the declarations of the command's own group at least; `whole`, the whole tree, for
 * what reads beyond it (the picker's list, completion, `commands`), where a start loads it only then.
 */
export async function runCommand(
  context: CommandContext,
  tree: Spec[],
  behaviours: Behaviours,
  invocation: Invocation,
  whole: () => Promise<Spec[]> = async () => tree,
): Promise<number> {
  const { spec, path, options, optionGiven } = invocation;
  let exitCode: number = ExitCode.ok;
  try {
    refuseNul([...invocation.args, ...Object.values(options)]);
    // A record id left out on a terminal, or --pick: chosen from its list before anything else runs.
    const args = wantsPick(invocation) ? await (await import('./pick.js')).pickArgument(context, await whole(), invocation, behaviours) : invocation.args;
    checkConstraints(spec, path, args, optionGiven);
    context.running = { words: path, files: filesNamed({ ...invocation, args }) };
    const [handler] = await Promise.all([loadHandler(spec, path, whole, behaviours), context.out.loadPalette()]);
    // The account a plan or a change names, before anything picks the run's key.
    const account = await handler.account?.(viewOf(context, handler.uses), args);
    if (account !== undefined) await context.takeAccountOf(account);
    await handler.chooseAccount?.(viewOf(context, handler.uses), args, options);
    await context.refuseReadOnly(path.join(' '));
    // A plan sends nothing that changes the account: what it read stays true for the rest of its run.
    context.readsOnce = handler.readsOnce === true || context.writes.plan === true;
    // The handler is handed only what it declared it uses.
    exitCode = (await handler(viewOf(context, handler.uses), args, options)) ?? ExitCode.ok;
  } catch (error) {
    // A write held by --dry-run ends the command where it stands.
    if (!heldWrites(context)) throw withListHint(await context.withKeyHint(context.failureOf(error)), tree, path);
  }
  if (!heldWrites(context)) return exitCode;
  await (await import('../render/dry-run.js')).presentHeld(context.out, context.held);
  return ExitCode.ok;
}

/** The command's handler as it runs: with the behaviours its declaration asks for applied. */
export async function loadHandler(spec: CommandSpec, path: string[], tree: () => Promise<Spec[]>, behaviours: Behaviours): Promise<Handler> {
  const handler = await spec.load(tree, behaviours);
  return plans(spec) ? behaviours.plan(path.join(' '), handler) : handler;
}

/**
 * No name, path or text that loopsctl takes can hold a NUL: the system refuses it in a path (with
 * an error of its own, not the person's), and a process's own arguments never hold one, but a
 * tool call of `loopsctl mcp` can.
 */
function refuseNul(values: unknown[]): void {
  const texts = values.flatMap((value) => (Array.isArray(value) ? value : [value]));
  if (texts.some((text) => typeof text === 'string' && text.includes('\u0000')))
    throw new UsageError('a value holds a NUL character (\\0), which no name, path or text can hold', { hint: 'give the value without it' });
}

/** Whether the invocation leaves its record to be picked (pick.ts): its id left out, or --pick. */
function wantsPick(invocation: Invocation): boolean {
  const argument = pickedArgument(invocation.spec);
  if (argument === undefined) return false;
  if (invocation.options.pick === true) return true;
  if (argumentGiven(invocation.args[invocation.spec.args!.indexOf(argument)])) return false;
  return argument.required !== false || (argument.orOption !== undefined && invocation.options[attributeName(argument.orOption)] === undefined);
}

/** The local files an invocation names (a plan, a content tree, a file of styles), as given. */
function filesNamed({ spec, args, options }: Invocation): string[] {
  const fromArgs = (spec.args ?? []).flatMap((argument, index) => (argument.file === undefined ? [] : [args[index]].flat()));
  const fromOptions = (spec.options ?? []).flatMap((option) => (option.file === undefined ? [] : [options[attributeName(longFlag(option))]].flat()));
  return [...fromArgs, ...fromOptions].filter((value): value is string => typeof value === 'string');
}

function heldWrites(context: CommandContext): boolean {
  return context.held.length > 0 && context.sandboxFailure === undefined;
}

/** A record that is not found is best looked for in the list of its group, where there is one. */
function withListHint(error: unknown, tree: Spec[], path: string[]): unknown {
  if (!(error instanceof NotFoundError) || error.hint !== undefined || path.length < 2) return error;
  // A listing names no record, so a 404 means the path the requests go to is wrong.
  if (path.at(-1) === 'list') {
    return withDetails(error, {
      hint: 'the API has no such path: check the base URL (--base-url, LOOPS_BASE_URL), whose path goes before /v1; the Loops API is at https://app.loops.so/api',
    });
  }
  let siblings = tree;
  for (const word of path.slice(0, -1)) siblings = siblings.flatMap((spec) => (spec.kind === 'group' && spec.name === word ? spec.commands : []));
  if (!siblings.some((sibling) => sibling.name === 'list')) return error;
  return withDetails(error, { hint: `see the ids with \`loopsctl ${path.slice(0, -1).join(' ')} list\`` });
}

/** A value given in the process: text, a whole number, a switch, or several of the first two for a repeatable input. */
export type InputValue = string | number | boolean | (string | number)[];

/**
 * A command's input as a caller in the process gives it: its arguments by name, and its options by
 * long flag without the dashes (`idempotency-key`). Values are checked and parsed as on the
 * command line, by the declaration's parsers, choices and defaults.
 */
export type CommandInput = Record<string, InputValue | undefined>;

/** The invocation of a command with this input, or a usage error that says what does not fit. */
export function invocationOf(spec: CommandSpec, path: string[], input: CommandInput): Invocation {
  const declared = spec.options ?? [];
  const argumentNames = new Set((spec.args ?? []).map(({ name }) => name));
  const optionNames = new Set(declared.map((option) => longFlag(option).slice(2)));
  for (const key of Object.keys(input)) {
    if (!argumentNames.has(key) && !optionNames.has(key)) throw new UsageError(`\`${path.join(' ')}\` has no input "${key}"`);
  }
  const args = (spec.args ?? []).map((argument) => {
    const value = input[argument.name];
    if (value === undefined) {
      if (argument.required !== false) throw new UsageError(`missing required argument '${argument.name}'`);
      return argument.variadic ? [] : undefined;
    }
    const values = Array.isArray(value) ? value.map(String) : [textOf(argument.name, value)];
    if (!argument.variadic && values.length !== 1) throw new UsageError(`"${argument.name}" takes one value`);
    return argument.variadic ? values : values[0];
  });
  const options: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const option of declared) {
    const flag = longFlag(option);
    const key = attributeName(flag);
    const negated = flag.startsWith('--no-');
    const value = input[flag.slice(2)];
    const isSwitch = !/[<[]/.test(option.flags);
    if (value === undefined || value === false) {
      if (option.default !== undefined) options[key] = option.default;
      else if (negated) options[key] = true;
      if (option.required && value === undefined) throw new UsageError(`required option '${option.flags}' not specified`);
      continue;
    }
    given.add(flag);
    if (isSwitch) {
      if (value !== true) throw new UsageError(`"${flag.slice(2)}" takes true or false`);
      options[key] = !negated;
      continue;
    }
    const many = option.repeatable === true || /\.\.\.[>\]]/.test(option.flags);
    const texts = Array.isArray(value) ? value.map(String) : [textOf(flag.slice(2), value)];
    if (!many && texts.length !== 1) throw new UsageError(`"${flag.slice(2)}" takes one value`);
    const parse = option.parse === undefined ? undefined : inWords(flag, option.parse, path);
    const parsed = texts.map((text) => {
      if (option.choices !== undefined && !option.choices.includes(text)) {
        throw new UsageError(`${flag} must be one of ${option.choices.join(', ')}, not ${JSON.stringify(text)}`);
      }
      return parse === undefined ? text : parse(text, undefined);
    });
    options[key] = many ? parsed : parsed[0];
  }
  return { spec, path, args, options, optionGiven: (flag) => given.has(flag) };
}

function textOf(name: string, value: InputValue): string {
  if (typeof value === 'boolean') throw new UsageError(`"${name}" takes a value, not true or false`);
  return String(value);
}

/** Anything thrown, as one of loopsctl's errors: what is not one is a bug in loopsctl. */
export function asLoopsctlError(error: unknown): LoopsctlError {
  if (error instanceof LoopsctlError) return error;
  // The system's refusal of a local write (a full disk): the machine's, not a bug (exit 2, never 70).
  const refused = refusedWrite(error);
  if (refused !== undefined) return refused;
  return new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
}
