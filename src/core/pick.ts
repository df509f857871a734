/**
 * The picker: on a terminal, a record id left out (or --pick) is chosen from the records of its
 * list, shown with the list command's own columns and filtered as one types. Which argument can be
 * picked, and from which list, comes from the declarations (declare.ts: pickedArgument; the list
 * command's behaviour carries its resource and view, list-run.ts), so every command that takes one
 * record of a listable kind gets it. Off a terminal (a script, a pipe into stdin, a tool call of
 * `loopsctl mcp`) nothing is asked: a missing id is the usual usage error.
 *
 * The terminal work is @inquirer/search's, loaded only when the picker opens.
 */
import { Writable } from 'node:stream';
import { InterruptedError, UsageError } from '../base/errors.js';
import { sanitize } from '../base/sanitize.js';
import { Output } from '../render/output.js';
import { styleFor } from '../render/style.js';
import { TableLayout } from '../render/table.js';
import type { Listing } from './capabilities.js';
import type { CommandContext } from './context.js';
import { type ArgumentSpec, argumentGiven, type Behaviours, type CommandSpec, pickedArgument, type Spec, walkSpecs } from './declare.js';
import { type IdList, LIST_COMMANDS } from './id-lists.js';

/** More than a person scrolls through; typing narrows them. */
export const PICK_LIMIT = 1000;
/** Rows shown at once, as a terminal of 24 lines holds them with the question and the header. */
const PAGE_SIZE = 15;

/** What of an invocation (invoke.ts) the picker reads. */
interface Picking {
  spec: CommandSpec;
  path: string[];
  args: unknown[];
  options: Record<string, unknown>;
}

/** The invocation's arguments with the picked id in place, or the usage error a script gets. */
export async function pickArgument(context: CommandContext, tree: Spec[], invocation: Picking, behaviours: Behaviours): Promise<unknown[]> {
  const { spec, path, args, options } = invocation;
  const argument = pickedArgument(spec)!;
  const index = spec.args!.indexOf(argument);
  const listWords = LIST_COMMANDS[argument.completes].join(' ');
  if (options.pick === true && argumentGiven(args[index])) {
    throw new UsageError(`--pick chooses the ${argument.name} from a list, and one was given`, { hint: `leave out either the ${argument.name} or --pick` });
  }
  const { stdin } = context.runtime;
  if (stdin.isTTY !== true || context.runtime.stderr.isTTY !== true) {
    if (options.pick === true)
      throw new UsageError('--pick needs a terminal to choose on', { hint: `give the ${argument.name}: see \`loopsctl ${listWords}\`` });
    // An id that an option can stand in for (`workflow show --file`): the command says what it wants.
    if (argument.required === false) return args;
    throw new UsageError(`missing required argument '${argument.name}'`, {
      hint: `see \`loopsctl ${[...path, '--help'].join(' ')}\`, and the ids with \`loopsctl ${listWords}\``,
    });
  }
  const id = await pickRecord(context, tree, argument, behaviours);
  const picked = [...args];
  picked[index] = argument.variadic ? [id] : id;
  return picked;
}

interface Choice {
  /** The row as the list command shows it, fitted to the terminal. */
  name: string;
  value: string;
  /** What typing is matched against: the row's whole text. */
  text: string;
}

async function pickRecord(context: CommandContext, tree: Spec[], argument: ArgumentSpec & { completes: IdList }, behaviours: Behaviours): Promise<string> {
  const listing = await listingOf(tree, LIST_COMMANDS[argument.completes], behaviours);
  const { runtime } = context;
  const items: unknown[] = [];
  const client = await context.client();
  for await (const page of client.pages(listing.resource, { limit: PICK_LIMIT })) items.push(...page.data);
  if (items.length === 0) {
    throw new UsageError(`there are no ${listing.view.noun} to choose the ${argument.name} from`, { hint: `give the ${argument.name} of one that exists` });
  }
  const { header, choices } = rowsOf(listing, items, runtime.stderr);
  const { default: search, Separator } = await import('@inquirer/search');
  const more = items.length === PICK_LIMIT ? ` (the first ${PICK_LIMIT})` : '';
  try {
    return await search(
      {
        message: `Choose the ${argument.name}: type to filter ${listing.view.noun}${more}, Enter to choose`,
        pageSize: PAGE_SIZE,
        source: async (term) => {
          const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
          const kept = choices.filter((choice) => words.every((word) => choice.text.includes(word)));
          // Once chosen, the question is followed by the id alone, escaped as the rows are: an id
          // is the API's text, and one holding ESC ] 52 would set the clipboard.
          return [new Separator(header), ...kept.map(({ name, value }) => ({ name, value, short: sanitize(value) }))];
        },
      },
      { input: runtime.stdin, output: drawingOn(runtime.stderr), signal: runtime.signal },
    );
  } catch (error) {
    // Ctrl-C, or the run's signal: the same interruption as anywhere else.
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError'))
      throw new InterruptedError('interrupted', { cause: error });
    throw error;
  }
}

/**
 * What the prompt draws on: stderr, which the prompt ends when it closes (it pipes its output
 * there) and which the run goes on writing to, so the end stops here.
 */
function drawingOn(stderr: CommandContext['runtime']['stderr']): Writable {
  const screen = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stderr.write(chunk);
      done();
    },
  });
  return Object.assign(screen, { isTTY: true, columns: stderr.columns, rows: (stderr as { rows?: number }).rows });
}

/** The list command's resource and view, from its behaviour. */
async function listingOf(tree: Spec[], words: readonly string[], behaviours: Behaviours): Promise<Listing<unknown>> {
  const found = walkSpecs(tree).find(({ path }) => path.join(' ') === words.join(' '));
  const listing = found === undefined ? undefined : (await found.spec.load(async () => tree, behaviours)).listing;
  if (listing === undefined) throw new Error(`\`${words.join(' ')}\` lists no records to pick from`);
  return listing;
}

/**
 * The rows as the list command lays them out on this terminal, a little narrower for the picker's
 * marker; where no table fits (a narrow terminal shows blocks), the id and the name.
 */
function rowsOf(listing: Listing<unknown>, items: unknown[], stderr: CommandContext['runtime']['stderr']): { header: string; choices: Choice[] } {
  const out = new Output({ json: false, color: false, stdout: stderr, columns: Math.max(20, (stderr.columns ?? 80) - 2) });
  const style = styleFor(out);
  const rows = items.map((item) => listing.view.row(item, style));
  const layout = new TableLayout(out, listing.view.columns, rows);
  const table = !layout.blocks;
  const lines = table ? layout.render(rows).replace(/\n$/, '').split('\n') : [];
  const ids = items.map((item) => String((item as { id?: unknown }).id ?? ''));
  const shown = table
    ? lines.slice(lines.length - rows.length)
    : items.map((item, index) => `${sanitize(ids[index]!)}  ${sanitize(String((item as { name?: unknown }).name ?? ''))}`);
  // The separator is indented by one column, the rows by two (the marker of the one chosen).
  const header = (table ? lines.slice(0, lines.length - rows.length) : ['ID  NAME']).map((line) => ` ${line}`).join('\n');
  return {
    header,
    choices: shown.map((name, index) => ({ name, value: ids[index]!, text: `${name} ${ids[index]}`.toLowerCase() })),
  };
}
