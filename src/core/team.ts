/** The team a key belongs to, in the words of the checks and messages that name it (the team check of a run's first write, `auth status`, `log`, `loopsctl mcp`). */
import { ProtectedError } from '../base/errors.js';

/** ` --profile <name>` when the run named its profile with --profile: the commands a message gives take the same. */
export function profileFlag(credentials: { chosenBy: string; profile?: string }): string {
  return credentials.chosenBy === '--profile' ? ` --profile ${credentials.profile}` : '';
}

/**
 * What to do when a profile's key belongs to another team than the one it recorded: store the
 * right key, or, when the team itself changed (a rename), record the new one, which only the
 * person can do (`--record-team` is no tool input of `loopsctl mcp`).
 */
export function profileTeamRemedy(flag: string, recorded: string, actual: string): string {
  return `store the key of ${quoted(recorded)} with \`loopsctl auth login${flag}\`, or, if ${quoted(actual)} is now this profile's team, record it with \`loopsctl auth status${flag} --record-team\``;
}

/** A team's name as the person may write it: the same letters, whatever the case, spacing or Unicode form. */
export function sameTeam(actual: string, expected: string): boolean {
  const plain = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
  return plain(actual) === plain(expected);
}

/** A team's name in a message: quoted, with odd characters escaped. */
export function quoted(name: string): string {
  return JSON.stringify(name);
}

/**
 * The refusal of a key of another team than the one expected (--expect-team, an environment's
 * team, the profile's recorded one): the team check of a run's first write, and of a plan, whose
 * apply knows neither the flag nor the environment it was made with.
 */
export async function refuseAnotherTeam(
  team: string,
  expected: { name: string; by: string } | undefined,
  credentials: () => Promise<{ chosenBy: string; profile?: string }>,
): Promise<void> {
  if (expected === undefined || sameTeam(team, expected.name)) return;
  const remedy = expected.by.startsWith('profile')
    ? profileTeamRemedy(profileFlag(await credentials()), expected.name, team)
    : `use a key of ${quoted(expected.name)}, or name ${quoted(team)} in ${expected.by} if that is the team to change`;
  throw new ProtectedError(`the key belongs to team ${quoted(team)}, not ${quoted(expected.name)} (expected by ${expected.by}); nothing was sent: ${remedy}`, {
    code: 'wrong_team',
  });
}
