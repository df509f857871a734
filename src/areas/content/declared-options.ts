/** What several `content` commands declare alike: the content directory, and a change written as a plan file. */
import { type ArgumentSpec, type OptionSpec, planExpiry } from '../../core/declare.js';

/** The content directory: read by each command, written by a pull, a push and a promotion (its state file). */
export const DIRECTORY: ArgumentSpec = { name: 'dir', description: 'the content directory (default ./loops)', required: false, file: { writes: true } };

/** push's and promote's: the change shown as diffs, and with --out written as a plan for `loopsctl apply`. */
export const CONTENT_PLAN_OPTIONS: OptionSpec[] = [
  { flags: '--plan', description: 'print what would be sent, as diffs, and send nothing' },
  {
    flags: '--out <file>',
    description: 'with --plan: write the change to this file, to apply later with `loopsctl apply` (docs/changes.md)',
    file: { writes: true },
  },
  { flags: '--expires <duration>', description: 'with --out: how long the plan may wait for its apply (default 1h; at most 30d)', parse: planExpiry },
];
