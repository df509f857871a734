/** What `loopsctl log` does: reads the journal of changes, keeps the entries the filters name, and lists them. */
import { UsageError } from '../../base/errors.js';
import { instantOf } from '../../base/instant.js';
import { type JournalEntry, readEntries } from '../../config/change-journal-files.js';
import { type Handler, handler } from '../../core/capabilities.js';
import { writeArrayList } from '../../core/list-run.js';
import { sameTeam } from '../../core/team.js';
import { journalNames } from './names.js';
import { journalView } from './render.js';

interface LogOptions {
  team?: string;
  record?: string;
  since?: string;
  until?: string;
  limit?: string;
  jsonl?: boolean;
}

export const log: Handler<[], LogOptions> = handler(['out', 'config', 'globals', 'clock'], async (context, _args, options) => {
  const now = context.runtime.now();
  const since = options.since === undefined ? undefined : instantOf(options.since, '--since', now, 'start');
  const until = options.until === undefined ? undefined : instantOf(options.until, '--until', now, 'end');
  const limit = options.limit === undefined ? undefined : countOf(options.limit);
  const profile = context.globals.profile;
  const entries = readEntries(context.configDir);
  // A line without a name takes the one the journal knows for its ids: an email's message by the email's.
  const names = journalNames(entries);
  const kept = entries.filter((entry) => {
    const at = Date.parse(entry.at);
    if (since !== undefined && !(at >= since)) return false;
    if (until !== undefined && !(at < until)) return false;
    if (profile !== undefined && entry.profile !== profile) return false;
    if (options.team !== undefined && (entry.team === undefined || !sameTeam(entry.team, options.team))) return false;
    return options.record === undefined || namesRecord(entry, names.get(entry), options.record);
  });
  await writeArrayList(context, limit === undefined ? kept : kept.slice(-limit), journalView(names), options.jsonl);
});

/** Whether the entry's call or answer names the record: by any of its ids, or by its name (its own, or the one the journal knows). */
function namesRecord(entry: JournalEntry, name: string | undefined, record: string): boolean {
  return Object.values(entry.ids ?? {}).includes(record) || name === record;
}

function countOf(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) === 0) throw new UsageError(`--limit must be a whole number above 0, not ${JSON.stringify(text)}`);
  return Number(text);
}
