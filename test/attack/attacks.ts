/**
 * The attacks, generated from the declarations: each command's operation that reaches people
 * (roads.ts, operations.ts), against each target it can aim at, live and a draft; what a person's
 * yes is on it; and the request it makes, as its run under --dry-run holds it (for `api`, which
 * sends any request as written).
 */
import type { CommandSpec } from '../../src/core/declare.js';
import type { Arena, Target } from './arena.js';
import { OPERATIONS, operationOf } from './operations.js';
import { argvOf, COMMANDS, type Place, placeOf, recordOf, type Words, writeCommands, yesOf } from './roads.js';

export interface CommandAttack {
  command: string;
  spec: CommandSpec;
  operation: string;
  words: Words;
  /** `always`: a yes is needed whatever the target; `live`: only when the target is live. */
  reach: 'always' | 'live';
  /** What the person's yes is at a terminal: the command's tier, an option among its words, or --live. */
  yes: ReturnType<typeof yesOf>;
  /** The targets it is made against: one of each kind, live and a draft, for `live`; none for `always`. */
  targets: (Target | undefined)[];
}

export function commandAttacks(): CommandAttack[] {
  const commands = writeCommands();
  return Object.entries(COMMANDS).flatMap(([command, entry]) =>
    Object.entries(entry).flatMap(([operation, words]) => {
      if (words === 'example') return [];
      const spec = commands.get(command)!;
      const declared = OPERATIONS[operation]!;
      const sample = words(placeOf(SAMPLE, '/root'));
      const yes = yesOf(spec, sample);
      // An option that raises the command to the destructive tier (a schedule) makes its operation one that needs a yes.
      const reach = yes === 'words' || declared.reach === 'always' ? 'always' : 'live';
      const targets =
        reach === 'live' && declared.reach === 'live' ? declared.targets.flatMap((kind) => [true, false].map((live) => ({ kind, live }))) : [undefined];
      return [{ command, spec, operation, words, reach, yes, targets } satisfies CommandAttack];
    }),
  );
}

/** Ids that name nothing, for what does not depend on them (the yes a command's words carry). */
const SAMPLE = {
  workflow: 'w',
  trigger: 't',
  filter: 'f',
  experiment: 'x',
  control: 'c',
  variant: 'v',
  send: 's',
  exit: 'e',
  workflowEmail: 'm',
  campaign: 'c',
  campaignEmail: 'm',
  transactional: 't',
  message: 'm',
  list: 'l',
  component: 'p',
  theme: 'h',
};

/** Where an attack's words find the target's ids and its files. */
export function placeFor(arena: Arena, target: Target | undefined): Place {
  return placeOf(arena.ids(target), arena.root);
}

/** The name of an attempt, for the assertion that fails. */
export function named(attack: CommandAttack, target: Target | undefined, road: string): string {
  return `${road} ${attack.command} (${attack.operation}${target === undefined ? '' : `, ${target.live ? 'live' : 'draft'} ${target.kind}`})`;
}

/**
 * The request the attack's command sends to the target, as the sandbox received it from a run with
 * the person's yes (the sandbox's state is then set again): a --dry-run would not do, since some
 * commands' own --dry-run asks the API what would happen instead of holding the request.
 */
export async function sentRequest(arena: Arena, attack: CommandAttack, target: Target | undefined): Promise<{ method: string; path: string; body?: unknown }> {
  arena.set(target);
  const ran = await arena.cli(argvOf(attack.command, attack.spec, attack.words(placeFor(arena, target)), attack.yes === '--live'));
  const record = recordOf(attack.operation, arena.ids(target));
  const request = ran.sent.find((each) => operationOf(each.method, each.path) === attack.operation && (record === undefined || each.path.includes(record)));
  if (request === undefined) throw new Error(`${attack.command} sent no ${attack.operation}: ${ran.message}`);
  arena.set(target);
  return { method: request.method, path: request.path, body: request.body };
}
