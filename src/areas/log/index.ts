/** `loopsctl log`: the journal of the changes loopsctl made to accounts' configuration. */
import { command, type Spec } from '../../core/declare.js';
import { JSON_OR_JSONL, JSONL_OPTION } from '../../core/list.js';

export const spec: Spec = command({
  name: 'log',
  summary: 'The changes loopsctl made to accounts: who, when, which records, with what outcome',
  help: `Every write loopsctl makes to an account's configuration (emails, components, themes,
campaigns and their schedules, workflows and their nodes, groups, segments, contact
properties, transactional publishes) is kept as one line of the journal of changes, whichever
command made it, from a terminal or as a tool of \`loopsctl mcp\`: the time, the profile, the
account (its team when the run knew it, and the base URL), who (the user, or the MCP client),
the command, the call (method and path), the ids and revisions of the answer, and the outcome
(done; refused: the API said no and nothing changed; unknown: no answer came). Contacts, events
and sends are not configuration, and are not kept; neither are the writes --dry-run holds.

The journal is in journal/ under the config directory, oldest lines in the rotated files. Oldest
first; --json prints the entries as they are kept.`,
  options: [
    { flags: '--team <name>', description: 'only the changes to this team (as the run recorded it)' },
    { flags: '--record <id-or-name>', description: 'only the changes to the record with this id (or any id of the call) or name' },
    { flags: '--since <date>', description: 'only changes at or after this date or time (2026-11-01, 2026-11-01T09:00:00Z, or 7d, 12h, 30m ago)' },
    { flags: '--until <date>', description: 'only changes before this date or time (a date alone: up to its end)' },
    { flags: '--limit <n>', description: 'only the last n changes' },
    JSONL_OPTION,
  ],
  examples: [
    'loopsctl log',
    'loopsctl log --profile prod --since 7d',
    'loopsctl log --record cltm5y6g0tpd5kz8nbp117x0v --json',
    'loopsctl log --since 2026-11-01 --until 2026-11-30 --jq \'.[] | select(.outcome != "done")\'',
  ],
  remote: false,
  constraints: { exclusive: [JSON_OR_JSONL] },
  load: async () => (await import('./commands.js')).log,
});
