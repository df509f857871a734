/**
 * What `loopsctl log` can tell of a change beyond its line: the name of the record a message id
 * belongs to, and the sandbox by its name. A line keeps the name the run knew (the answer's, the
 * request's, or the email's where the command knew it); a write that named none (an email
 * message's update after the email was created, in the same run or another) takes it from the
 * other lines of the journal: the name of the record whose id or email message it names.
 */
import type { JournalEntry } from '../../config/change-journal-files.js';

/** The ids a named line gives its name to: its record's own, and those of the record's email messages (`draftEmailMessageId`). */
function namedIds(entry: JournalEntry): string[] {
  return Object.entries(entry.ids ?? {})
    .filter(([key]) => key === 'id' || /EmailMessageId$/.test(key))
    .map(([, id]) => id);
}

/**
 * Each line's name: its own, else that of the first of its ids another line named (the latest
 * name of that id), else none. The lines are oldest first, as the journal reads.
 */
export function journalNames(entries: readonly JournalEntry[]): Map<JournalEntry, string> {
  const byId = new Map<string, string>();
  for (const entry of entries) if (entry.name !== undefined) for (const id of namedIds(entry)) byId.set(id, entry.name);
  const names = new Map<JournalEntry, string>();
  for (const entry of entries) {
    const name = entry.name ?? Object.values(entry.ids ?? {}).flatMap((id) => byId.get(id) ?? [])[0];
    if (name !== undefined) names.set(entry, name);
  }
  return names;
}

/**
 * The account as a person knows it: its profile and team, else its base URL; the sandbox of
 * `--sandbox`, whose address is under `.invalid` (a name no network resolves, RFC 2606), as `sandbox`.
 */
export function accountOf(entry: JournalEntry): string {
  const where = entry.team ?? (isInProcessSandbox(entry.baseUrl) ? 'sandbox' : entry.baseUrl);
  return entry.profile === undefined ? where : `${entry.profile}: ${where}`;
}

function isInProcessSandbox(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('.invalid');
  } catch {
    return false;
  }
}
