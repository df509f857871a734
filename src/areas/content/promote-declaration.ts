/** `loopsctl content promote`'s declaration: its arguments, options, help and examples (what it does is promote-command.ts). */
import { command } from '../../core/declare.js';
import { CONTENT_PLAN_OPTIONS, DIRECTORY } from './declared-options.js';

export const promoteCommand = command({
  name: 'promote',
  summary: "Make one environment's records match another's, read from its account: staging's content to production",
  args: [DIRECTORY],
  options: [
    { flags: '--from <name>', description: "the environment of environments.json whose account's records are promoted", required: true },
    { flags: '--to <name>', description: 'the environment of environments.json whose records are made to match them', required: true },
    { flags: '--only <kinds>', description: 'only these kinds, comma-separated: transactional, components, themes, workflows, audience (campaigns never)' },
    ...CONTENT_PLAN_OPTIONS,
    {
      flags: '--live',
      description: 'change what reaches people now: workflows that are not drafts and the emails they send, components and themes live emails use',
      tier: 'destructive',
    },
    {
      flags: '--force',
      description: "replace --to's records changed in its account since they were last in step, or never pulled from it",
    },
    { flags: '--yes', description: 'promote without asking (needed when stdin is not a terminal, unless --plan)' },
  ],
  help: `Reads the records of --from's account, not the files: each of its values
written out becomes its {env.NAME} placeholder again, as \`content pull --env\`
writes it, and each placeholder is filled with --to's value. Then --to's
account is made to match, as \`content push --env\` pushes: records matched by
the ids the tree's state keeps for it, one it lacks created (campaigns are
never promoted), the leak check run on what would be sent (a value of --from's
left in it refuses the promotion, with nothing sent), each update guarded by
the revision it was read at. A record --to's account changed since it was last
in step with the tree, or holds without ever having been pulled or pushed from
it, is a conflict, listed and not sent (exit 5), unless --force. --plan prints the change and, with --out, writes
it with its review for \`loopsctl apply\`; the change is journalled, and
\`loopsctl undo\` puts --to's records back. The tree's state learns --to's
ids; its files are left as they are. A record whose write reaches people
now is skipped unless --live, as a push skips it: exit 5. Without --plan it
asks on a terminal, and needs --yes otherwise. Exit 2 when --from or --to is not an environment of
environments.json, or both name one.`,
  examples: [
    'loopsctl content promote --from staging --to production --plan',
    'loopsctl content promote --from staging --to production --plan --out promote.json',
    'loopsctl content promote --from staging --to production --only transactional,components --yes',
  ],
  remote: true,
  // A push's tier: its writes judged by the gate as a push's are, a live record's held back unless --live.
  tier: 'write',
  // It reads another environment's account with that profile's key, and asks before it applies: a person's command, never an agent's tool.
  interactive: true,
  load: async (_tree, { kinds }) => (await import('./promote-command.js')).promoteWith(kinds),
});
