/**
 * `content promote --from staging --to production`: the source account's records, not the tree's,
 * made the target's. The source is pulled into a tree of its own in the temp dir, its values mapped
 * back to `{env.NAME}` as `content pull --env` maps them, beside the real tree's state (the target's
 * ids); that tree is then pushed to the target as `content push --env` pushes: filled with the
 * target's values, leak-checked, planned, reviewed, approved and journalled as a push is. What the
 * push learns of the target (its ids, what it holds now) goes back into the real tree's state.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../base/errors.js';
import { type Handler, handler, viewOf } from '../../core/capabilities.js';
import type { PlanKinds } from '../change/kinds.js';
import type { PushOptions } from './emails/push.js';
import { pull } from './pull-command.js';
import { PUSH_USES, pushing } from './push-command.js';
import { chooseEnvironment } from './shared/environment-choice.js';
import { ENVIRONMENTS_FILE, type Environments, requireEnvironments } from './shared/environments.js';
import { DEFAULT_DIRECTORY, lockDirectory, readState, STATE_FILE, writeState } from './shared/files.js';
import { ONLY_CHOICES, requireState, scopeOf } from './shared/scope.js';

export interface PromoteOptions extends Omit<PushOptions, 'env' | 'check'> {
  from: string;
  to: string;
}

/** What a promotion covers unless --only narrows it: all a push does but the campaigns, which it never makes. */
const PROMOTED = ONLY_CHOICES.filter((kind) => kind !== 'campaigns');

/** The two environments, each one of environments.json, and not the same one; refused (exit 2) otherwise. */
function environmentsOf(root: string, options: PromoteOptions): Environments {
  const environments = requireEnvironments(root);
  if (environments === undefined)
    throw new UsageError(`promote moves records between environments, and ${root} has no ${ENVIRONMENTS_FILE}`, {
      hint: `name each environment's profile and values there: docs/content.md, "Environments"`,
    });
  const known = [...environments.keys()].join(', ');
  for (const [flag, name] of [
    ['--from', options.from],
    ['--to', options.to],
  ] as const)
    if (!environments.has(name)) throw new UsageError(`${flag}: unknown environment "${name}"; ${ENVIRONMENTS_FILE} names ${known}`);
  if (options.from === options.to) throw new UsageError(`--from and --to are both "${options.from}": promote from one environment to another`);
  return environments;
}

/** --only, narrowed to the kinds a promotion covers: naming the campaigns is refused, as promote never sends them. */
function onlyOf(only: string | undefined): string {
  if (only === undefined) return PROMOTED.join(',');
  const words = only.split(',').map((word) => word.trim());
  if (words.includes('campaigns'))
    throw new UsageError('--only: campaigns are not promoted; a campaign is sent once, from the account it is made in', {
      hint: `choose from ${PROMOTED.join(', ')}`,
    });
  return only;
}

export const promoteWith = (kinds: () => Promise<PlanKinds>): Handler<[string | undefined], PromoteOptions> => {
  const push = pushing(kinds);
  return handler(
    PUSH_USES,
    async (context, [directory], options) => {
      const shown = directory ?? DEFAULT_DIRECTORY;
      const root = scopeOf(directory, undefined).root;
      environmentsOf(root, options);
      const only = onlyOf(options.only);
      // The target's ids are the real tree's: without its state, the records could not be matched.
      requireState(root, shown);
      const release = lockDirectory(root);
      const tree = mkdtempSync(join(tmpdir(), 'loopsctl-promote-'));
      try {
        copyFileSync(join(root, ENVIRONMENTS_FILE), join(tree, ENVIRONMENTS_FILE));
        copyFileSync(join(root, STATE_FILE), join(tree, STATE_FILE));
        // The source's records as they are in its account, its values back to placeholders.
        const source = context.readerOfAnother();
        await pull(viewOf(source, pull.uses), [tree], { env: options.from, only, force: true });
        if (!options.plan) await context.confirm(`Make ${options.to}'s records match ${options.from}'s (${only.split(',').join(', ')})?`, options.yes);
        const code = await push(context, [tree], { ...options, env: options.to, only, yes: true, check: true, shown });
        // A plan or a dry run changed nothing in the target: the tree's state is left as it is.
        if (!options.plan && !context.writes.dryRun) carryBack(root, tree, options.to);
        return code;
      } finally {
        rmSync(tree, { recursive: true, force: true });
        release();
      }
    },
    {
      readsOnce: true,
      // The run is the target's: every write, the team check and the journal are of --to's account.
      chooseAccount: async (context, [directory], options) => {
        const root = scopeOf(directory, undefined).root;
        environmentsOf(root, options);
        await chooseEnvironment(context, root, options.to);
      },
    },
  );
};

/**
 * What the push wrote of the target's account (its ids and digests, where it is, a push stopped
 * half-way) into the real tree's state, so that the next promote, push or diff starts from it. The
 * source's part is left as the real tree had it: the real tree's files were not pulled.
 */
function carryBack(root: string, tree: string, target: string): void {
  const pushed = readState(tree)!;
  const state = readState(root)!;
  for (const [account, where] of Object.entries(pushed.where ?? {})) {
    if (where.environment !== target) continue;
    state.where = { ...state.where, [account]: where };
    state.accounts[account] = pushed.accounts[account] ?? {};
    const pending = { ...state.pending };
    delete pending[account];
    if (pushed.pending?.[account] !== undefined) pending[account] = pushed.pending[account];
    state.pending = Object.keys(pending).length > 0 ? pending : undefined;
    if (pushed.audience?.[account] !== undefined) state.audience = { ...state.audience, [account]: pushed.audience[account] };
  }
  writeState(root, state);
}
