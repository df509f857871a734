/** `loopsctl undo`: an applied change taken back, from what its records held before, through the plan-and-apply cycle. */
import { command, planExpiry, type Spec } from '../../core/declare.js';

export const spec: Spec = command({
  name: 'undo',
  summary: 'Take back a change loopsctl applied: the inverse plan from what its records held before, applied as any plan',
  args: [
    {
      name: 'change',
      description: 'the plan file applied (change.json), or the id `apply` printed for what it changed; none: the latest change',
      required: false,
      file: {},
    },
  ],
  options: [
    { flags: '--out <file>', description: 'write the inverse plan to this file, to review and `loopsctl apply` later', file: { writes: true } },
    { flags: '--expires <duration>', description: 'with --out: how long the plan may wait for its apply (default 1h; at most 30d)', parse: planExpiry },
    { flags: '--yes', description: 'apply without asking (needed when not on a terminal)' },
    {
      flags: '--live',
      description: "take back edits of what reaches people now: workflows that are not drafts and the emails they send, a scheduled campaign's audience",
      tier: 'destructive',
    },
  ],
  help: `Before a plan is applied (by \`loopsctl apply\`), what each record it changes held is
kept beside the journal of changes: an email's LMX and fields, a workflow's graph
and emails, a group's or a campaign's fields. undo reads it, makes the plan that
puts each record back (later changes first), shows it with its impact (the
contacts waiting at a node the change added, which it deletes...), and applies it
once you confirm (--yes when not on a terminal), or writes it with --out.

Each record is compared with where the apply left it (the workflow's or the
email's revision, the digest of the others) before anything is written: a record
changed again since refuses the whole undo (exit 5), each such record named, with
nothing sent; each call is guarded so too.

With no change named, the latest is undone: the newest kept that changed a record. An
apply refused before it changed anything (a copy of a plan applied already, stopped at
its conflict) keeps nothing, so it never stands for the change before it.

What the API cannot take back is named, with what to do instead: a record the
change created (the API deletes no email, component, theme, group or segment), a
publish, a workflow the edit script cannot rebuild. See docs/changes.md.`,
  examples: ['loopsctl undo change.json', 'loopsctl undo', 'loopsctl undo 20261125T101803Z-3f9a2c --out undo.json', 'loopsctl undo change.json --yes'],
  remote: true,
  tier: 'write',
  // It asks before it applies: a person's command, never an agent's tool.
  interactive: true,
  load: async () => (await import('./commands.js')).undo,
});
