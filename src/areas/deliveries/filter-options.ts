/** The filters of `deliveries find`, `stats` and `replay`, declared apart so that declaring them loads nothing more. */
import { emailAddress, type OptionSpec } from '../../core/declare.js';

export const FILTER_OPTIONS: OptionSpec[] = [
  { flags: '--to <email>', description: "only deliveries about this recipient (the event's contactIdentity.email, in any case)", parse: emailAddress() },
  { flags: '--event <types>', description: 'only these event types, comma-separated; contact.* names a family' },
  { flags: '--email-id <id>', description: "only the events of this sent email (the payload's email.id)" },
  {
    flags: '--since <date>',
    description: "only events at or after this time, by the event's own time (2026-11-01, 2026-11-01T09:00:00Z, or 7d, 12h, 30m ago)",
  },
  { flags: '--until <date>', description: 'only events before this time (a date alone: up to its end)' },
];
