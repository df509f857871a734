/** `loopsctl content`: an account's emails, components and themes as files, to review in git and push back. */
import { command, group, type OptionSpec } from '../../core/declare.js';
import type { Area } from '../area.js';

const DIRECTORY = { name: 'dir', description: 'the content directory (default ./loops)', required: false };
const ONLY: OptionSpec = { flags: '--only <kinds>', description: 'only these kinds, comma-separated: transactional, campaigns, components, themes' };

export const area: Area = {
  spec: group({
    name: 'content',
    summary: 'Email content as code: pull emails, components and themes into files, diff them, push back what changed',
    help: `A pull writes one directory per record (transactional/<name>--<id>/,
campaigns/, components/, themes/): the LMX body in its own .lmx file, the
subject, sender and other fields in a JSON file beside it, and
loopsctl-state.json, which records for each account the revision every record
was pulled at. Commit the directory; review changes in pull requests; push
sends only what changed, each update guarded by the revision it was based on.`,
    examples: ['loopsctl content pull', 'loopsctl content diff', 'loopsctl content push --plan'],
    commands: () => [
      command({
        name: 'pull',
        summary: "Write the account's emails, components and themes into a directory, one file per part",
        args: [DIRECTORY],
        options: [ONLY, { flags: '--force', description: 'overwrite files edited since the last pull (the account wins)' }],
        help: `Each transactional email keeps its draft (draft.json, draft.lmx) and, for
review, what is published (published.json, published.lmx); each campaign its
email (email.json, email.lmx); each component its LMX; each theme its styles.
Files edited since the last pull are never overwritten: the pull is refused
(exit 2) and names them, unless --force.`,
        examples: ['loopsctl content pull', 'loopsctl content pull loops --only transactional,components', 'loopsctl content pull --json'],
        remote: true,
        tier: 'read',
        load: async () => (await import('./commands.js')).pull,
      }),
      command({
        name: 'diff',
        summary: 'Show what differs between the files and the account, as unified diffs; exit 1 when anything does',
        args: [DIRECTORY],
        options: [ONLY],
        help: `Each record that differs gets a heading that says on which side it changed
(here, in the account, or both) and a unified diff from the account (a/) to the
files (b/). Exit 0 when both hold the same content, 1 when anything differs:
a gate for CI.`,
        examples: ['loopsctl content diff', 'loopsctl content diff --only components --json'],
        remote: true,
        tier: 'read',
        load: async () => (await import('./commands.js')).diff,
      }),
      command({
        name: 'push',
        summary: 'Send the records changed in the files, each guarded by the revision it was pulled at',
        args: [DIRECTORY],
        options: [
          ONLY,
          { flags: '--plan', description: 'print what would be sent, as diffs, and send nothing' },
          { flags: '--force', description: 'take the local side of a record changed in the account too' },
          { flags: '--no-check', description: 'skip the Guardian checks of each email message pushed' },
          { flags: '--publish', description: 'publish the transactional emails whose drafts were pushed and passed the checks', tier: 'destructive' },
          { flags: '--yes', description: 'create records the account lacks without asking' },
        ],
        help: `Only records changed since they were last pulled or pushed are sent; a pull
then a push with no edits sends nothing. A record that changed in the account
too is a conflict: listed, not overwritten (exit 5), unless --force. Every email
message pushed is checked by Guardian: one with errors is put back as it was
and reported (exit 1); warnings are listed. Publishing is separate: --publish.

Against another account (--profile production with a directory pulled from
staging), records are matched by name; transactional emails, components and
themes the account lacks are created (asked on a terminal, --yes otherwise).
Records the directory does not hold are never touched.`,
        examples: ['loopsctl content push --plan', 'loopsctl content push', 'loopsctl content push --only transactional --publish'],
        constraints: {
          exclusive: [
            { flags: ['--plan', '--publish'], hint: '--plan sends nothing' },
            { flags: ['--publish', '--no-check'], hint: 'only drafts that pass the Guardian checks are published' },
          ],
        },
        remote: true,
        tier: 'write',
        load: async () => (await import('./commands.js')).push,
      }),
    ],
  }),
};
