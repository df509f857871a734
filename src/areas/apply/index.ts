/** `loopsctl apply`: a reviewed plan file played against the account it was made for, exactly as written. */
import { command, type Spec } from '../../core/declare.js';

export const spec: Spec = command({
  name: 'apply',
  summary: 'Apply a plan file written with `--plan --out` (content push, node edits, schedules…): exactly its calls, each guarded as planned',
  args: [{ name: 'plan', description: 'the plan file (change.json)', file: { writes: true } }],
  options: [
    {
      flags: '--live',
      description:
        "apply what needs a yes: edits of what reaches people now (a workflow that is not a draft, the emails it sends, a scheduled campaign's audience or email, a published email), a publish, a schedule, a delete",
      tier: 'destructive',
    },
  ],
  help: `Applied to the account the plan names (a plan made with --sandbox, to the
sandbox; one made with a stored profile, with its key) unless --sandbox,
--profile or --base-url names another.

Prints the plan's impact first, as it was when the plan was written (the
contacts waiting at a node it deletes, Guardian's findings...; --json: "impact").
Then plays the plan's calls in order, each email message and workflow edit with
the revision the plan was made against as expectedRevisionId: a change made in
the account since is refused by the platform (409), reported as a conflict, and
nothing after it is sent (exit 5). Components and themes take no revision: their
content is compared with what the plan saw just before each write; so is the
record of a campaign, group or transactional email a command's plan changes. A
record the plan creates is looked for in the account by its kind and name just
before its create: one there already (from an apply of another copy of the
plan, or made meanwhile) is a conflict too (exit 5), and is not created again.
With the plan's Guardian check (content push's default), a campaign's email
Guardian finds errors in once written is put back as it was (exit 1); a
transactional email's draft is written as the plan shows it, and the platform
refuses its publish while Guardian finds errors in it.

What each record held before is kept beside the journal of changes, for
\`loopsctl undo\`.

Refused before anything is sent: a plan edited since it was written (its digest
does not match) or expired (exit 2); a plan holding what no plan of loopsctl holds
(a call that is not a configuration write, or a record other than the one its
unit names) (exit 2); a plan whose calls, judged with the account's state now,
change what reaches people now (a workflow that is not a draft or an email it
sends, a scheduled campaign's audience or email, a transactional email's
published message), publish, schedule or delete, without --live (exit 11); a plan for another account, told by its team,
its base URL and the records it changes (for a plan that only creates, a theme of
the account it noted) (exit 11); a plan whose apply is under way in another run
(exit 2).

Beside the plan, <plan>.applied records how far an apply got: a second apply of
the same plan sends nothing; one that stopped resumes from the first record not
begun, and names a record begun and not finished rather than send it twice.
The content tree's state file is not changed: the next pull or push finds the
records in step. See docs/changes.md.`,
  examples: ['loopsctl apply change.json', 'loopsctl apply change.json --json'],
  remote: true,
  tier: 'write',
  load: async () => (await import('./commands.js')).apply,
});
