/** The text view of `loopsctl log`: a table of the changes, fitted to the terminal. */
import type { JournalEntry } from '../../config/change-journal-files.js';
import type { ListView } from '../../render/list.js';
import { accountOf } from './names.js';

/** The table; each record named as `names` has it (journalNames), the lines' own names or those the journal knows. */
export const journalView = (names: ReadonlyMap<JournalEntry, string>): ListView<JournalEntry> => ({
  noun: 'changes',
  columns: [
    // A change's time matters to the minute: where the table is tight it loses its seconds, never its time of day.
    { header: 'TIME', shrink: toTheMinute, drop: false },
    { header: 'WHO', truncate: true, drop: true, priority: -2 },
    { header: 'ACCOUNT', truncate: true, drop: true, priority: -1 },
    { header: 'COMMAND', truncate: true, drop: true, priority: -3 },
    { header: 'CALL', truncate: true },
    { header: 'RECORD', truncate: true },
    { header: 'OUTCOME' },
  ],
  row: (entry) => [
    entry.at,
    entry.who,
    accountOf(entry),
    entry.command,
    `${entry.method} ${entry.path}`,
    recordOf(entry, names.get(entry)),
    entry.status === undefined ? entry.outcome : `${entry.outcome} (${entry.status})`,
  ],
});

/** "2026-11-25T10:18:03.123Z" as "2026-11-25 10:18Z". */
function toTheMinute(text: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) ? `${text.slice(0, 10)} ${text.slice(11, 16)}Z` : text;
}

/** The record changed: its kind, name and id (--json has its revisions). */
function recordOf(entry: JournalEntry, named: string | undefined): string {
  const id = entry.ids?.id ?? Object.values(entry.ids ?? {}).at(-1);
  const name = named === undefined ? '' : ` "${named}"`;
  return `${entry.kind}${name}${id === undefined ? '' : ` ${id}`}`;
}
