/**
 * What every record of a content tree shares, emails and workflows alike: its files as a map, their
 * JSON and digest, its directory's name, and the state file that records, per account, which record
 * each directory is and what it held when last in step. A kind's own files are in its folder
 * (record-files.ts, workflow-files.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LocalFileError } from '../../../base/errors.js';
import { LockTimeoutError, takeFileLock, UNREADABLE_LOCK_STALE_MS } from '../../../base/lock.js';
import { jsonFaultAt } from '../../../base/parse-faults.js';
import { z } from '../../../base/shapes.js';
import { readTreeFile, type TreeDirectory, type TreeEntry, treeDirectory, treeEntries } from '../../../base/tree-files.js';
import { writeTreeFile } from '../../../base/tree-writes.js';
import { slugOf } from '../../../platform/words.js';
import { type EmailDirectory, KINDS } from './lmx-files.js';

/** Whether an entry of a directory of the tree is shown: not hidden (the state's lock, the preview's values). */
const shown = ({ name }: TreeEntry) => !name.startsWith('.');

/** The entries of a directory of the tree that are shown, sorted; a link on the way there is refused. */
export function shownEntries(root: string, path: string): TreeEntry[] {
  return treeEntries(root, path).filter(shown);
}

/** A directory of the tree whose files are read by name (treeDirectory), with its shown entries; undefined when it is not there. */
export function shownDirectory(root: string, path: string): TreeDirectory | undefined {
  const directory = treeDirectory(root, path);
  return directory === undefined ? undefined : { entries: directory.entries.filter(shown), read: directory.read };
}

export { DEFAULT_DIRECTORY, type EmailDirectory, KINDS } from './lmx-files.js';

/** A record's files, by name (`draft.lmx`), in the order they are written and compared. */
export type Files = Map<string, string>;

/**
 * The files of a transactional email that are what is live, kept for review: push never sends
 * them (publishing is `--publish`, from the draft), so they take no part in what counts as a change.
 */
export const REFERENCE_FILES = new Set(['published.json', 'published.lmx']);

/** JSON as written to a record's files: keys as given, two spaces, a final line break. */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * A directory name for a record: a slug of its name, then its id, so names may repeat. The id comes
 * from the API and is percent-encoded, so that no id (`x/../../..`) can name a directory elsewhere.
 */
export function recordPath(kind: EmailDirectory | 'workflows', name: string, id: string): string {
  return `${kind}/${slugOf(name)}--${encodeURIComponent(id)}`;
}

/** A digest of the files that a push sends, whatever order they were read in. */
export function digestOf(files: Files): string {
  const hash = createHash('sha256');
  for (const name of [...files.keys()].filter((file) => !REFERENCE_FILES.has(file)).sort()) {
    hash.update(`${name}\0${files.get(name)!}\0`);
  }
  return hash.digest('hex');
}

/** A record file's JSON, checked, or an error that names the file (and the line and column where its JSON breaks). */
export function parseJson<S extends z.ZodMiniType>(file: string, text: string, schema: S, hint?: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw jsonError(file, text, hint);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new LocalFileError(`${file}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`, { hint });
  }
  return result.data;
}

/**
 * JSON that does not parse, said as an editor shows it (`file:3:5`) rather than as an offset into
 * the text; an empty file, and the markers a merge leaves, named as what they are.
 */
function jsonError(file: string, text: string, hint: string | undefined): LocalFileError {
  const conflict = /^(<{7}|={7}|>{7})( |$)/m.exec(text);
  if (conflict !== null) {
    const line = text.slice(0, conflict.index).split('\n').length;
    return new LocalFileError(`${file}:${line}: holds the markers of a merge conflict (${conflict[1]}), so it is not valid JSON`, { hint });
  }
  if (text.trim() === '') return new LocalFileError(`${file} is empty, so it is not valid JSON`, { hint });
  const { line, column, early } = jsonFaultAt(text);
  return new LocalFileError(`${file}:${line}:${column}: not valid JSON${early ? ' (it ends too early)' : ''}`, { hint });
}

/** What a directory knows of one record in one account. */
const syncedRecord = z.looseObject({
  id: z.string(),
  /** digestOf the record's files when they and the account last held the same content. */
  digest: z.string(),
  /** The email messages' content revisions at that time, by file prefix (`draft`, `email`). */
  revisions: z.optional(z.record(z.string(), z.nullable(z.string()))),
  /** A transactional email's: the digest of its published files as last written here, to tell an edit to them. */
  published: z.optional(z.string()),
});
export type SyncedRecord = z.infer<typeof syncedRecord>;

/**
 * A record a push began to write and did not see through: the account may hold its files without
 * Guardian having checked them (a failure after the write, a put-back that failed, a Ctrl-C).
 */
const pendingRecord = z.looseObject({
  /** digestOf the files being written. */
  digest: z.string(),
  /** Whether Guardian was to check what was written. */
  check: z.boolean(),
});

/** The layout of the state file this loopsctl writes; a newer loopsctl may write a higher one. */
const STATE_FORMAT = 1;

const stateSchema = z.looseObject({
  format: z.literal(STATE_FORMAT),
  /** The kinds the directory holds: a record of these kinds only in the account is a difference. */
  kinds: z.array(z.enum([...KINDS, 'workflows'])),
  /** By account (its team name, or more where two accounts share one: account.ts), then by record path. */
  accounts: z.record(z.string(), z.record(z.string(), syncedRecord)),
  /** By account, then by record path: the writes a push began and did not finish. */
  pending: z.optional(z.record(z.string(), z.record(z.string(), pendingRecord))),
  /**
   * By account, where its records were seen: its team, the API's address, the profiles that
   * reached it, and the environment of environments.json it is (account.ts). An account without
   * it is keyed by its team name alone, as older states are.
   */
  where: z.optional(
    z.record(z.string(), z.looseObject({ team: z.string(), baseUrl: z.string(), profiles: z.array(z.string()), environment: z.optional(z.string()) })),
  ),
  /** By account, then by path: the segments, groups and single files of audience/ (audience-state.ts reads it). */
  audience: z.optional(z.record(z.string(), z.unknown())),
});
export type ContentState = z.infer<typeof stateSchema>;

export const STATE_FILE = 'loopsctl-state.json';

/** What a push says of a record it created for one the account had and lost: the id it has now, which the state file keeps. */
export function newIdNote(synced: { id: string } | undefined, id: string): string | undefined {
  return synced === undefined || synced.id === id ? undefined : `its new id ${id} kept in ${STATE_FILE}`;
}
/** A state file is a line or two per record: this is hundreds of thousands of records, and far from what memory holds. */
const MAX_STATE_BYTES = 64 * 1024 * 1024;

/**
 * The state of a directory, or undefined when it has none. `shown` is the directory as the user
 * named it, for the commands a hint gives (`git checkout loops/loopsctl-state.json`).
 */
export function readState(root: string, shown = root): ContentState | undefined {
  const file = join(root, STATE_FILE);
  const bytes = readTreeFile(root, STATE_FILE, MAX_STATE_BYTES);
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8');
  const restore = `restore it from git (\`git checkout ${join(shown, STATE_FILE)}\`)`;
  const hint = /^<{7}( |$)/m.test(text)
    ? `resolve the merge conflict: keep the records of both sides, each path once, in valid JSON; or ${restore}`
    : `${restore}, or mend it by hand: it records which record each directory is`;
  const value = parseJson(file, text, z.unknown(), hint);
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > STATE_FORMAT) {
    throw new LocalFileError(`${file} was written by a newer loopsctl (state format ${format}; this one reads format ${STATE_FORMAT})`, {
      hint: 'upgrade loopsctl: everyone who pulls or pushes this directory needs a version that reads its state file',
    });
  }
  const result = stateSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new LocalFileError(`${file} is not a loopsctl state file: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`, {
      hint: restore,
    });
  }
  return result.data;
}

/**
 * Writes the state, each account's records in the order of their paths: the file lives in git, and
 * the same records written in another order (the API's, then a later run's) would be a change to
 * review and a merge conflict for nothing.
 */
export function writeState(root: string, state: ContentState): void {
  makeRoot(root);
  const byPath = <T>(records: Record<string, T>) => Object.fromEntries(Object.entries(records).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const accounts = Object.fromEntries(Object.entries(state.accounts).map(([team, records]) => [team, byPath(records)]));
  const pending = state.pending === undefined ? undefined : Object.fromEntries(Object.entries(state.pending).map(([team, records]) => [team, byPath(records)]));
  writeTreeFile(root, STATE_FILE, jsonFile({ ...state, accounts, ...(pending === undefined ? {} : { pending }) }));
}

/** Makes the content directory (and those above it) where it is not yet; a file there is refused, naming it. */
function makeRoot(root: string): void {
  try {
    mkdirSync(root, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
    throw new LocalFileError(`${root} is not a directory`, { hint: 'name a content directory: one that a pull made, or none yet' });
  }
}

/** The lock file of a run that writes the state, hidden beside it (`.loopsctl-run.lock`), which readRecords passes over. */
const RUN_LOCK = '.loopsctl-run';

/**
 * Holds the directory for one pull or push: two at once would each write the state file from what
 * they read, and the later would drop the records the other added. Returns what releases it.
 */
export function lockDirectory(root: string): () => void {
  makeRoot(root);
  try {
    // No wait: a run can last minutes. A lock whose process is gone is taken over at once.
    return takeFileLock(join(root, RUN_LOCK), { waitMs: 0, staleMs: 24 * 60 * 60 * 1000 });
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    if (error.holderPid === undefined) {
      // A lock that names no process is one being taken this instant, or one left empty or foreign (a crash, a commit).
      throw new LocalFileError(`${root} is in use by another loopsctl run, or holds a lock file that names no process: ${error.lockFile}`, {
        hint: `if no other loopsctl run is under way on it, delete ${error.lockFile} and keep it out of git (a lock that names no process is taken over once ${UNREADABLE_LOCK_STALE_MS / 1000} s old)`,
      });
    }
    throw new LocalFileError(`${root} is in use by another loopsctl run (process ${error.holderPid})`, {
      hint: "wait for it to finish; two runs at once would each rewrite the state file without the other's records",
    });
  }
}
