/**
 * What `content pull`, `diff` and `push` share, for emails and workflows alike: the scope a run is
 * about (--only), and the state file it needs.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import { type ContentState, DEFAULT_DIRECTORY, type EmailDirectory, KINDS, readState, STATE_FILE } from './files.js';
import { WORKFLOWS } from './lmx-files.js';
import { holdsRecords } from './record-files.js';

/** The --only word for the audience half of a tree (audience/): segments, groups, contact properties, lists, event patterns. */
export const AUDIENCE = 'audience';

export interface Scope {
  root: string;
  kinds: EmailDirectory[];
  /** Whether the run covers the workflows (`workflows/`), which are not records of the content API. */
  workflows: boolean;
  /** Whether the run covers what the records stand on: segments, groups, contact properties, lists, event patterns (audience/). */
  audience: boolean;
  /**
   * Record directories --only named one by one (`transactional/welcome--c1`): their kinds are
   * narrowed to them, and each is looked at whether or not its files changed since the last pull.
   */
  named: ReadonlySet<string>;
}

/** What --only takes: the content kinds, workflows, and the audience they stand on. */
export const ONLY_CHOICES = [...KINDS, WORKFLOWS, AUDIENCE] as const;

const ONLY_HINT = `choose from ${ONLY_CHOICES.join(', ')}, or name record directories (transactional/welcome--<id>)`;

/** A record directory --only names, as pull and diff print it (`transactional/welcome--c1`), checked to be one of the tree's. */
function namedRecord(root: string, word: string): string {
  const path = word.replace(/\/+$/, '');
  const [kind, folder, ...rest] = path.split('/');
  // The audience's records are files of their own, not directories --only can name one by one.
  if (
    !(ONLY_CHOICES as readonly string[]).includes(kind!) ||
    kind === AUDIENCE ||
    folder === undefined ||
    rest.length > 0 ||
    folder === '' ||
    folder === '.' ||
    folder === '..'
  )
    throw new UsageError(`--only: "${word}" is neither a kind nor a record directory`, { hint: ONLY_HINT });
  if (!existsSync(join(root, path, kind === WORKFLOWS ? 'workflow.yaml' : '')))
    throw new UsageError(`--only: ${path} is not a record directory of ${root}`, { hint: 'name it as `content diff` prints it: <kind>/<name>--<id>' });
  return path;
}

/** The directory and the kinds a run is about: --only narrows them to kinds, or (where `records` allows) to record directories. */
export function scopeOf(directory: string | undefined, only: string | undefined, records = false): Scope {
  const root = resolve(directory ?? DEFAULT_DIRECTORY);
  const words =
    only === undefined
      ? [...ONLY_CHOICES]
      : only
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean);
  const named = new Set<string>();
  const kinds = new Set<string>();
  for (const word of words) {
    if ((ONLY_CHOICES as readonly string[]).includes(word)) kinds.add(word);
    else if (records && word.includes('/')) named.add(namedRecord(root, word));
    else throw new UsageError(`--only: unknown kind "${word}"`, { hint: records ? ONLY_HINT : `choose from ${ONLY_CHOICES.join(', ')}` });
  }
  // A kind named whole covers its records: a directory of it named as well narrows nothing.
  for (const path of named) if (kinds.has(path.slice(0, path.indexOf('/')))) named.delete(path);
  for (const path of named) kinds.add(path.slice(0, path.indexOf('/')));
  if (kinds.size === 0) throw new UsageError('--only needs at least one kind', { hint: ONLY_HINT });
  const chosen = ONLY_CHOICES.filter((kind) => kinds.has(kind));
  return {
    root,
    kinds: chosen.filter((kind): kind is EmailDirectory => kind !== WORKFLOWS && kind !== AUDIENCE),
    workflows: kinds.has(WORKFLOWS),
    audience: kinds.has(AUDIENCE),
    named,
  };
}

/** Whether a record path is of a kind the run covers, and among the directories named where its kind was narrowed to some. */
export function scopeCovers(scope: Scope, path: string): boolean {
  const kind = path.slice(0, path.indexOf('/'));
  const covered = (scope.kinds as string[]).includes(kind) || (scope.workflows && kind === WORKFLOWS);
  return covered && (scope.named.has(path) || !narrowed(scope, kind));
}

/** Whether --only narrowed a kind to some of its directories. */
export function narrowed(scope: Scope, kind: string): boolean {
  return [...scope.named].some((named) => named.startsWith(`${kind}/`));
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

/** The command a push runs for, as its plan file and the journal name it: `content push`, or `content promote`, which runs one. */
export function commandOf(context: { running?: { words: string[] } }): string {
  return context.running?.words.join(' ') ?? 'content push';
}
