/**
 * The change of loopsctl's that preceded a rate's move: from the journal of changes, the latest
 * run that changed the email (a line whose ids name its record or node) between the end of the
 * baseline and the end of the day the move began, by the account's clock (accountAt); its lines,
 * who made it, and the before-image `loopsctl undo` takes it back by, when it kept one.
 */
import { imageIds, readImage } from '../../config/before-images.js';
import { accountTime, type JournalEntry, readEntries } from '../../config/change-journal-files.js';
import type { KeptEmail } from './store.js';

/** How long before a run's first write its before-image may have been kept (it is read first). */
const IMAGE_LEAD_MS = 10 * 60_000;

export interface PrecedingChange {
  /** The run's id, as `loopsctl log --json` gives it, and the account's time of its last write to the email. */
  run: string;
  at: string;
  who: string;
  via: JournalEntry['via'];
  command: string;
  /** Each write to the email: its operation and the kind of record. */
  writes: { operation: string; kind: string; name?: string }[];
  /** The id `loopsctl undo` takes; absent when the change kept no before-image (a write outside a plan or a push). */
  undoId?: string;
}

function names(entry: JournalEntry, email: KeptEmail): boolean {
  const ids = Object.values(entry.ids ?? {});
  return ids.includes(email.recordId) || (email.nodeId !== null && ids.includes(email.nodeId));
}

/** The change, or undefined: "no change of loopsctl's before it". */
export function precedingChange(
  configDir: string,
  email: KeptEmail,
  after: number,
  before: number,
  entries = readEntries(configDir),
): PrecedingChange | undefined {
  const matching = entries.filter((entry) => entry.outcome === 'done' && names(entry, email));
  const inWindow = matching.filter((entry) => {
    const at = accountTime(entry);
    return at > after && at < before;
  });
  const last = inWindow.at(-1);
  if (last === undefined) return undefined;
  const run = matching.filter((entry) => entry.run === last.run);
  const undoId = imageOf(configDir, run[0]!, email);
  return {
    run: last.run,
    at: new Date(accountTime(last)).toISOString(),
    who: last.who,
    via: last.via,
    command: last.command,
    writes: run.map((entry) => ({ operation: entry.operation, kind: entry.kind, ...(entry.name === undefined ? {} : { name: entry.name }) })),
    ...(undoId === undefined ? {} : { undoId }),
  };
}

/** The before-image kept just before the run's first write, of a record the email is part of. */
function imageOf(configDir: string, first: JournalEntry, email: KeptEmail): string | undefined {
  const firstAt = Date.parse(first.at);
  // An image's id starts with when it was kept (machine time, to the second): only those just before the run are read.
  const candidates = imageIds(configDir).filter((id) => {
    const at = Date.parse(id.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z.*$/, '$1-$2-$3T$4:$5:$6Z'));
    return at <= firstAt && at >= firstAt - IMAGE_LEAD_MS;
  });
  for (const id of candidates.reverse()) {
    const image = readImage(configDir, id) as { records?: { id?: unknown }[] } | undefined;
    if (image?.records?.some((record) => record.id === email.recordId || record.id === email.nodeId)) return id;
  }
  return undefined;
}
