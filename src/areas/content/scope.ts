/**
 * What `content pull`, `diff` and `push` share, for emails and workflows alike: the scope a run is
 * about (--only), and the state file it needs.
 */
import { join, resolve } from 'node:path';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { DEFAULT_DIRECTORY, KINDS, readState, STATE_FILE, type ContentState, type Kind } from './files.js';
import { holdsRecords } from './emails/files.js';
import { WORKFLOWS } from './lmx-files.js';

export interface Scope {
  root: string;
  kinds: Kind[];
  /** Whether the run covers the workflows (`workflows/`), which are not records of the content API. */
  workflows: boolean;
}

/** What --only takes: the content kinds, and workflows. */
export const ONLY_CHOICES = [...KINDS, WORKFLOWS] as const;

/** The directory and the kinds a run is about: --only narrows them. */
export function scopeOf(directory: string | undefined, only: string | undefined): Scope {
  const kinds =
    only === undefined
      ? [...ONLY_CHOICES]
      : only
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean);
  for (const kind of kinds) {
    if (!(ONLY_CHOICES as readonly string[]).includes(kind))
      throw new UsageError(`--only: unknown kind "${kind}"`, { hint: `choose from ${ONLY_CHOICES.join(', ')}` });
  }
  if (kinds.length === 0) throw new UsageError('--only needs at least one kind', { hint: `choose from ${ONLY_CHOICES.join(', ')}` });
  return {
    root: resolve(directory ?? DEFAULT_DIRECTORY),
    kinds: kinds.filter((kind): kind is Kind => kind !== WORKFLOWS),
    workflows: kinds.includes(WORKFLOWS),
  };
}

/** Whether a record path is of a kind the run covers. */
export function scopeCovers(scope: Scope, path: string): boolean {
  return scope.kinds.some((kind) => path.startsWith(`${kind}/`)) || (scope.workflows && path.startsWith(`${WORKFLOWS}/`));
}

export const CONTENT = { contentApi: true } as const;

export function requireState(root: string, shown: string): ContentState {
  const state = readState(root, shown);
  if (state !== undefined) return state;
  if (holdsRecords(root)) throw missingState(root, shown);
  throw new LocalFileError(`${root} holds no pulled content`, { hint: `pull it first: \`loopsctl content pull ${shown}\`` });
}

/** Record directories without the state file that says which record each is and what it held: the file was lost. */
export function missingState(root: string, shown: string): LocalFileError {
  const file = join(shown, STATE_FILE);
  return new LocalFileError(`${join(root, STATE_FILE)} is missing, though ${root} holds pulled records`, {
    hint: `restore it from git: \`git checkout ${file}\` (it records which record each directory is, and what it held when last in step with the account); to start afresh, move the record directories aside and pull again`,
  });
}
