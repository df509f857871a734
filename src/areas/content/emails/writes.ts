/** How `content push` writes a record: the writes it watched, the failures it explains, the files the account filled in. */
import { isDeepStrictEqual } from 'node:util';
import { InterruptedError, LocalFileError, LoopsctlError, ProtectedError, RejectedError, withDetails } from '../../../base/errors.js';
import { JOURNAL_REFUSED } from '../../../config/change-journal.js';
import type { ApiClient } from '../../../api/client.js';
import { REFERENCE_FILES, type Files } from '../files.js';
import type { RecordFiles } from './files.js';

/**
 * The JSON files of a record as the account holds them after a push, where they say all that the
 * local file said (every field of it, with the same value) and more or in another layout: the
 * defaults the account filled in, its two-space JSON. A file that differs in anything it said is
 * left out: the account did not take it as written, and the files keep what the person wrote.
 */
export function filledIn(local: Files, account: Files): Files {
  const filled: Files = new Map();
  for (const [name, text] of account) {
    const mine = local.get(name);
    if (REFERENCE_FILES.has(name) || !name.endsWith('.json') || mine === text) continue;
    if (mine === undefined || saysNoMoreThan(mine, text)) filled.set(name, text);
  }
  return filled;
}

function saysNoMoreThan(mine: string, theirs: string): boolean {
  try {
    const a: unknown = JSON.parse(mine);
    const b: unknown = JSON.parse(theirs);
    const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
    return isObject(a) && isObject(b) && Object.entries(a).every(([key, value]) => Object.hasOwn(b, key) && isDeepStrictEqual(value, b[key]));
  } catch {
    return false;
  }
}

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

/**
 * A failure while a record was being written, after a write was sent (a 5xx, a lost connection,
 * a refusal of a later write): the account may hold part of it, which the next push sees to.
 */
export function stoppedMidRecord(error: unknown, local: RecordFiles): unknown {
  if (!(error instanceof LoopsctlError) || error instanceof InterruptedError) return error;
  return withDetails(error, {
    message: error.message.startsWith(`${local.path}: `) ? error.message : `${local.path}: ${error.message}`,
    hint: `${error.hint === undefined ? '' : `${error.hint}; `}the next \`loopsctl content push\` checks what this one wrote of it`,
  });
}

/** A 409 on a message update: the account moved on since the read, or a campaign is no longer a draft. */
export function staleRevision(error: unknown, local: RecordFiles): unknown {
  if (error instanceof RejectedError && error.status === 409) {
    return new RejectedError(`${local.path}: ${error.message}`, {
      status: error.status,
      code: error.code,
      cause: error,
      hint: `${local.kind === 'campaigns' ? 'a campaign can be edited only while it is a draft; otherwise ' : ''}the record changed in the account while it was being pushed: run \`loopsctl content diff\` to see what moved`,
    });
  }
  return error;
}
