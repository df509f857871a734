/**
 * A record's writes, watched: an apply and a content push mark a record begun from its first write,
 * and tell a failure that changed nothing from one after which the account may hold part of it.
 */
import type { ApiClient } from '../../api/client.js';
import { LocalFileError, LoopsctlError, ProtectedError } from '../../base/errors.js';
import { JOURNAL_REFUSED } from '../../config/change-journal-files.js';

/** The client a record is written through, and what it saw of the writes sent on it. */
interface WatchedWrites {
  client: ApiClient;
  /** Whether the account may hold part of what was sent, now that the record's writing failed with this error. */
  mayHaveWritten(error: unknown): boolean;
}

/**
 * The client, seen through: `first` runs just before the first request that changes the account
 * is sent. A record is pending (the next push checks what it wrote) from that moment only.
 */
export function watchWrites(client: ApiClient, first: () => void): WatchedWrites {
  let sent = 0;
  let answered = 0;
  const watched = Object.create(client) as ApiClient;
  watched.answer = async (req, schema) => {
    const writing = req.method !== 'GET';
    if (writing && sent++ === 0) first();
    const answer = await client.answer(req, schema);
    if (writing) answered += 1;
    return answer;
  };
  return {
    client: watched,
    mayHaveWritten(error) {
      if (sent === 0) return false;
      if (answered > 0) return true;
      // The only write was refused (a 4xx, a read-only profile, the team check, a journal that could not keep it): it changed nothing.
      const refused =
        error instanceof ProtectedError ||
        (error instanceof LocalFileError && error.code === JOURNAL_REFUSED) ||
        (error instanceof LoopsctlError && error.status !== undefined && error.status < 500);
      return !refused;
    },
  };
}
