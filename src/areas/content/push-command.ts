/**
 * `content push`: what the records stand on (content/audience/push.ts), then the tree's components,
 * themes and emails (content/emails/push.ts), then its workflows (content/workflows/push.ts), whose
 * emails may embed the components; under one lock on the directory, into one report (one --json
 * document) and, with --plan --out, one plan file whose units follow that order.
 */

import { MismatchError, UsageError } from '../../base/errors.js';
import { ExitCode } from '../../base/exit-codes.js';
import { type Handler, handler, type Uses } from '../../core/capabilities.js';
import { explained } from '../../core/explain.js';
import { refuseAnotherTeam } from '../../core/team.js';
import { countOf } from '../../render/numbers.js';
import { whereOf, witnessOf } from '../change/account.js';
import { impactOf } from '../change/impact/impact.js';
import type { ImpactRecord } from '../change/impact/records.js';
import { printImpact } from '../change/impact/render.js';
import type { PlanKinds } from '../change/kinds.js';
import { makePlan, type PlannedUnit, writePlan } from '../change/plan-file.js';
import { leftToDo, noteLeftToDo, pushAudienceFirst } from './audience/push.js';
import { type EmailPush, type PushOptions, pushEmails } from './emails/push.js';
import { sentFiles } from './env-checks.js';
import { type Account, remember, resolveAccount } from './shared/account.js';
import { checkRecord } from './shared/check.js';
import { checkEnvFiles } from './shared/env-check.js';
import { type ChosenEnvironment, chooseEnvironment, environmentAccount } from './shared/environment-choice.js';
import type { Environment } from './shared/environments.js';
import { DEFAULT_DIRECTORY, lockDirectory } from './shared/files.js';
import { namesStandIn } from './shared/lmx-names.js';
import { readRecords } from './shared/record-files.js';
import { renderChecks } from './shared/render.js';
import { CONTENT, commandOf, requireState, type Scope, scopeCovers, scopeOf } from './shared/scope.js';
import { readWorkflows } from './shared/workflow-files.js';
import { pushWorkflows } from './workflows/push.js';

/** What a push uses: `content promote`, which runs one, uses the same. */
export const PUSH_USES = ['out', 'client', 'key', 'prompts', 'files', 'clock', 'config', 'globals'] as const;

/** `content push` and the change cycle's kinds handed in: what a plan's impact and witness ask. */
export const pushWith = (kinds: () => Promise<PlanKinds>): Handler<[string | undefined], PushOptions> =>
  handler(PUSH_USES, pushing(kinds), { readsOnce: true, chooseAccount: environmentAccount(([directory]) => scopeOf(directory, undefined).root) });

/** A push's run, for the tree in `directory`: `content push`'s, and `content promote`'s on a tree of its own. */
export const pushing =
  (kinds: () => Promise<PlanKinds>) =>
  async (context: Uses<(typeof PUSH_USES)[number]>, [directory]: [string | undefined], given: PushOptions): Promise<number> => {
    // A dry run writes nothing: the tree's state is left as the account is.
    const options = { ...given, dryRun: context.writes.dryRun };
    if (options.out !== undefined && !options.plan)
      throw new UsageError('--out writes a plan: give --plan with it', { hint: 'loopsctl content push --plan --out change.json' });
    if (options.expires !== undefined && options.out === undefined)
      throw new UsageError('--expires is the expiry of a plan file: give --plan --out <file> with it');
    if (options.code !== undefined && !options.plan)
      throw new UsageError("--code shows the plan's impact on the app: give --plan with it", { hint: 'loopsctl content push --plan --code src' });
    const scope = scopeOf(directory, options.only, true);
    const shown = options.shown ?? directory ?? DEFAULT_DIRECTORY;
    // Says what to do when nothing was pulled here, before anything is locked.
    requireState(scope.root, shown);
    // The environment pushed to: its profile is the run's account, and its values fill the files.
    const chosen = await chooseEnvironment(context, scope.root, options.env);
    if (chosen !== undefined) await refuseEnvProblems(context, chosen, scope, shown, options.from);
    const values = chosen?.environment.values;
    const release = lockDirectory(scope.root);
    try {
      const state = requireState(scope.root, shown);
      const client = await context.client();
      // The account the key reaches, told apart from another of the same team name by the ids the state recorded.
      const account = await explained(
        whereOf(context, client).then((where) => resolveAccount(client, state, where, chosen?.environment.name)),
        CONTENT,
      );
      // A plan is held to the team the run expects now, as a write is: its apply knows neither --expect-team nor the environment.
      if (options.plan) await refuseAnotherTeam(account.team, await context.expectedTeam(), () => context.credentials());
      // A clone: an account this tree was never in step with is left a list of what only the app can do.
      const fresh = state.accounts[account.key] === undefined;
      // What the records stand on goes first: the emails and workflows after it find what they name.
      const audience = await pushAudienceFirst(context, client, scope, state, account.key, options);
      if (audience?.blocked && !options.plan) return audience.code;
      // Then the components and themes, then the emails that embed them.
      let emails: EmailPush | undefined;
      if (scope.kinds.length > 0) {
        const plannedGroups = options.plan ? audience?.newGroups : undefined;
        emails = await pushEmails(context, shown, scope, account, { ...options, plannedGroups, values });
      }
      // Workflows last, their emails free to embed the components just made; pushed once the tree holds some:
      // a team without the workflow API pushes its content alone.
      let workflows: Awaited<ReturnType<typeof pushWorkflows>> | undefined;
      if (scope.workflows && !audience?.blocked && (state.kinds.includes('workflows') || readWorkflows(scope.root).length > 0)) {
        const plannedSegments = options.plan ? audience?.newSegments : undefined;
        // Read again: the emails' push saved the ids of the components and themes it made. Where the account was reached is kept with it.
        const now = requireState(scope.root, shown);
        remember(now, account.key, account);
        const making = emails?.making;
        workflows = await explained(pushWorkflows(context, client, scope, now, account.key, { ...options, plannedSegments, making, values }, account), CONTENT);
      }
      // A clone leaves the tree's campaigns to the app, and what the API cannot set of the workflows it wrote.
      const byHand = {
        campaigns: scope.kinds.includes('campaigns')
          ? readRecords(scope.root, ['campaigns'])
              .filter((local) => scopeCovers(scope, local.path))
              .map((local) => local.path)
          : [],
        workflows: workflows?.leftInApp ?? [],
        publish: publishCommand(chosen, options.from),
      };
      // --json prints one document: the records' with the workflows' and the audience's beside them.
      const extra = {
        ...(workflows === undefined ? {} : { workflows: workflows.json }),
        ...(audience === undefined ? {} : { audience: { ...audience.json, leftToDo: leftToDo(audience, fresh && !options.plan, byHand) } }),
      };
      // One plan file holds the halves' calls in the order they are pushed; a record held back (exit 5) holds it back.
      const planned = [...(audience?.units ?? []), ...(emails?.units ?? []), ...(workflows?.units ?? [])];
      if (options.out !== undefined) refuseStandIns(planned);
      const code = Math.max(emails?.code ?? ExitCode.ok, workflows?.code ?? ExitCode.ok, audience?.code ?? ExitCode.ok);
      const held = emails?.held === true || workflows?.code === ExitCode.rejected || audience?.held === true;
      const planKinds = options.plan ? await kinds() : undefined;
      const impact = planKinds === undefined ? undefined : await explained(impactOf(client, planKinds, planned, { code: options.code }), CONTENT);
      const withImpact = impact === undefined ? {} : { impact };
      if (context.out.json) {
        if (emails !== undefined) await context.out.writeJson({ ...emails.json, ...extra, ...withImpact });
        else if (workflows !== undefined || audience !== undefined)
          await context.out.writeJson({ ...(audience === undefined ? workflows!.json : extra), ...withImpact });
      }
      if (impact !== undefined) await printImpact(context, impact);
      if (options.out !== undefined)
        await writePlanFile(
          context,
          options,
          { ...account, ...(await witnessOf(client, planKinds!.witness, planned)) },
          planned,
          held,
          impact,
          { root: scope.root, shown },
          chosen?.environment,
        );
      if (!options.plan) noteLeftToDo(context, leftToDo(audience, fresh, byHand));
      return code;
    } finally {
      release();
    }
  };

/**
 * The command that publishes the drafts a push left, for the account pushed to: a push's own
 * --publish, for the same environment; a promotion's (which pushes no tree of the person's) each
 * email's publish by id, with the target's profile.
 */
function publishCommand(chosen: ChosenEnvironment | undefined, from: string | undefined): string {
  if (chosen !== undefined && from !== undefined) return `\`loopsctl transactional publish <id> --profile ${chosen.environment.profile}\` for each`;
  return `\`loopsctl content push${chosen === undefined ? '' : ` --env ${chosen.environment.name}`} --publish\``;
}

/**
 * The files a push to an environment would send, held to its values before anything is sent: every
 * `{env.NAME}` defined there, no `{env.` left that opens none, and no other environment's value
 * written out. One problem stops the push, and its plan, with nothing sent (exit 1).
 */
async function refuseEnvProblems(
  context: Uses<'out'>,
  { environment, environments }: ChosenEnvironment,
  scope: Scope,
  shown: string,
  from: string | undefined,
): Promise<void> {
  const files = sentFiles(scope.root, shown, scope, (path) => scopeCovers(scope, path));
  const failing = checkEnvFiles(files, environments, environment);
  if (failing.length === 0) return;
  if (context.out.json) await context.out.writeJson(failing.map(checkRecord));
  else await context.out.write(renderChecks(context.out, failing));
  const problems = failing.reduce((sum, file) => sum + file.errors.length, 0);
  throw new MismatchError(`${countOf(problems, 'problem')} with ${environment.name}'s values in ${countOf(failing.length, 'file')}; nothing was sent`, {
    hint:
      from === undefined
        ? `fix the files (\`loopsctl content check --env ${environment.name}\` shows every problem), then push again`
        : // A promotion's content is the source account's: it is mended there, then promoted again.
          `mend ${from}'s content: \`loopsctl content pull --env ${from}\`, write each value as its {env.NAME}, \`loopsctl content push --env ${from}\`, then promote again`,
  });
}

/**
 * An email or workflow that names a segment or group the same plan makes: its id is the account's
 * to give once it is made, and a plan file holds only ids. Refused before anything is written.
 */
function refuseStandIns(units: readonly PlannedUnit[]): void {
  const naming = units.filter((unit) => namesStandIn(unit.calls)).map((unit) => unit.record);
  if (naming.length === 0) return;
  throw new UsageError(
    `${naming.join(', ')}: names a segment or group this plan makes, and a plan file cannot hold an id before the account gives it; nothing was written`,
    { hint: 'push the audience first (`loopsctl content push --only audience`, or apply a plan of it), then plan the rest with --out' },
  );
}

/**
 * The plan as a file for `loopsctl apply`, unless something was held back (a conflict, a live
 * workflow): a plan applied later must be the whole change, not the part that happened to be free.
 */
async function writePlanFile(
  context: Uses<'out' | 'files' | 'clock' | 'client' | 'key'>,
  options: PushOptions,
  account: Account & { witness?: string },
  units: PlannedUnit[],
  held: boolean,
  impact: ImpactRecord[] | undefined,
  tree: { root: string; shown: string },
  environment: Environment | undefined,
): Promise<void> {
  const file = options.out!;
  if (held) {
    context.out.note(`No plan written to ${file}: settle what was skipped first (each line says why), then plan again.`);
    return;
  }
  // What is approved is what recipients will see: the review of the emails goes into the plan, its page beside it.
  const [{ reviewForPush }, { summaryOf }] = await Promise.all([import('./review/for-plan.js'), import('./review/words.js')]);
  const review = await explained(reviewForPush(context, tree.root, tree.shown, options.only, file, impact, environment), CONTENT);
  const plan = makePlan(commandOf(context), account, options.check, units, context.runtime.now(), options.expires, impact, review);
  await writePlan(context, file, plan);
  const calls = units.reduce((sum, unit) => sum + unit.calls.length, 0);
  context.out.note(
    `Wrote the plan to ${file}: ${countOf(calls, 'call')} to ${account.key}, to apply before ${plan.expiresAt} with \`loopsctl apply ${file}\`.`,
  );
  context.out.note(`${summaryOf(review)} Review them in ${review.page} (digest ${review.digest}).`);
}
