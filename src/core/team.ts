/** The team a key belongs to, in the words of the checks and messages that name it (the team check of a run's first write, `auth status`, `log`, `loopsctl mcp`). */

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
