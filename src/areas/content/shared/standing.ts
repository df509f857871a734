/** How a record's local files stand against the account's, by the digest the state keeps: every half's pairs, emails and audience alike. */
import { digestOf } from './files.js';
import { heldAt, type NamedFiles } from './lmx-names.js';

/** How a pair stands. */
export type Standing = 'same' | 'local' | 'remote' | 'conflict' | 'missing' | 'only-remote' | 'ambiguous';

/** How any pair of files stands: the content kinds', and the audience half's (audience/plan.ts). */
export function standingOf(pair: { local?: NamedFiles; remote?: NamedFiles; synced?: { digest: string }; ambiguous?: boolean }): Standing {
  const { local, remote, synced } = pair;
  if (local === undefined) return 'only-remote';
  if (pair.ambiguous) return 'ambiguous';
  if (remote === undefined) return 'missing';
  const here = digestOf(local.files);
  const there = digestOf(remote.files);
  if (here === there) return 'same';
  // Never in step with this account: the account's content was never seen, so it is not replaced unasked.
  if (synced === undefined) return 'conflict';
  // A state an older pull kept holds the digest of the files with ids in their LMX.
  const changedHere = !heldAt(local, synced.digest);
  const changedThere = !heldAt(remote, synced.digest);
  if (changedHere && changedThere) return 'conflict';
  return changedHere ? 'local' : 'remote';
}
