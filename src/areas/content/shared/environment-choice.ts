/**
 * Which environment of a tree a run is for: the one `--env` names, whose profile (and team) the run
 * then uses, or, without it, the one whose profile the run uses already. A tree without
 * environments.json has none, and its placeholders are not filled.
 */
import { UsageError } from '../../../base/errors.js';
import type { Uses } from '../../../core/capabilities.js';
import { ENVIRONMENTS_FILE, type Environment, type Environments, requireEnvironments } from './environments.js';

export interface ChosenEnvironment {
  environment: Environment;
  /** Every environment of the tree: the others' values are what a leak check looks for. */
  environments: Environments;
}

const known = (environments: Environments) => [...environments.keys()].join(', ');

/**
 * The environment a run is for, in the tree at `root`: `--env` (its profile and team taken for the
 * run), else the one whose profile the run uses; a tree with environments and a run that names
 * none of them is refused (exit 2), naming them. Undefined for a tree without environments.json.
 */
export async function chooseEnvironment(context: Uses<'key'>, root: string, name: string | undefined): Promise<ChosenEnvironment | undefined> {
  const environments = requireEnvironments(root);
  if (environments === undefined) {
    if (name !== undefined)
      throw new UsageError(`--env ${name}: ${root} has no ${ENVIRONMENTS_FILE}`, {
        hint: `name each environment's profile and values there: docs/content.md, "Environments"`,
      });
    return undefined;
  }
  if (name !== undefined) {
    const environment = environments.get(name);
    if (environment === undefined) throw new UsageError(`--env: unknown environment "${name}"; ${ENVIRONMENTS_FILE} names ${known(environments)}`);
    await context.takeEnvironment(name, environment.profile, environment.expectTeam);
    return { environment, environments };
  }
  const profile = await context.profileInUse();
  const environment = [...environments.values()].find((candidate) => candidate.profile === profile);
  if (environment === undefined)
    throw new UsageError(
      `${root} has environments (${known(environments)}), and ${profile === undefined ? 'the run uses no stored profile' : `profile "${profile}" is none of theirs`}: say which with --env`,
      { hint: `loopsctl content … --env ${environments.keys().next().value}` },
    );
  if (environment.expectTeam !== undefined) await context.takeEnvironment(environment.name, environment.profile, environment.expectTeam);
  return { environment, environments };
}

/**
 * A content command's `chooseAccount` (capabilities.ts): the environment of the tree at the root
 * its arguments name, taken before the run picks its key, so that every request of the run, the
 * read-only check's first, goes to that environment's account. The command reads it again for its values.
 */
export function environmentAccount<A>(rootOf: (args: A) => string): (context: Uses<'key'>, args: A, options: { env?: string }) => Promise<void> {
  return async (context, args, options) => {
    await chooseEnvironment(context, rootOf(args), options.env);
  };
}
