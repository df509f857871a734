/**
 * An email's LMX as a file of a content tree, read without reading anything else of the tree: the
 * kinds of records and the kind of email a record's place names, and its source. `content check`
 * of .lmx files needs no more, so this imports neither zod nor the tree's JSON files (tree.ts,
 * files.ts, which take these from here), and such a check loads neither them nor the API client's bundle.
 */
import { existsSync, lstatSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { readTreeFile, readTreeFileAsync, TreeFileTooLargeError } from '../../../base/tree-files.js';
import { decodeLmx, LMX_MAX_BYTES, type LmxKind, type LmxProblem, tooLargeProblem } from '../../../lmx/index.js';
import { type DirectoryOf, directoriesOf, lmxWordOfDirectory, RECORD_KINDS } from '../../../platform/record-kinds.js';

/** Where the content commands read and write when no directory is named. */
export const DEFAULT_DIRECTORY = 'loops';

/** The kinds of records a tree holds, each in a directory of that name: its emails half's (platform/record-kinds.ts). */
export const KINDS = directoriesOf('emails');
export type EmailDirectory = DirectoryOf<'emails'>;

/** Where a tree keeps its workflows, each with its emails under `emails/`. */
export const WORKFLOWS = RECORD_KINDS.workflow.directory;

/** The file at a tree's root that names its environments and their values (environments.ts reads it). */
export const ENVIRONMENTS_FILE = 'environments.json';

/** The directories of a tree that hold emails. */
export type TreeGroup = EmailDirectory | typeof WORKFLOWS;

/** The kind of email a pulled directory's LMX is the body of; themes have none. */
export const LMX_KIND_OF = Object.fromEntries(KINDS.map((kind) => [kind, lmxWordOfDirectory(kind)])) as Record<EmailDirectory, LmxKind | undefined>;

/** The kind of email the LMX in a kind's directory is the body of (`campaigns` -> campaign). */
export function kindOfDirectory(name: string): LmxKind | undefined {
  return (KINDS as readonly string[]).includes(name) ? LMX_KIND_OF[name as EmailDirectory] : undefined;
}

/**
 * An LMX file of a tree (`path` under `root`, never through a link), read no further than the
 * API's 100 KB limit, or the problem that stops it being read: too large, not UTF-8. Undefined
 * when it is not there.
 */
export function readLmxSource(root: string, path: string): LmxRead {
  try {
    return decodedLmx(readTreeFile(root, path, LMX_MAX_BYTES));
  } catch (error) {
    return tooLargeLmx(error);
  }
}

/** readLmxSource without holding the process while the bytes come. */
export async function readLmxSourceAsync(root: string, path: string): Promise<LmxRead> {
  try {
    return decodedLmx(await readTreeFileAsync(root, path, LMX_MAX_BYTES));
  } catch (error) {
    return tooLargeLmx(error);
  }
}

type LmxRead = { source: string } | { problem: LmxProblem } | undefined;

const decodedLmx = (bytes: Buffer | undefined): LmxRead => (bytes === undefined ? undefined : decodeLmx(bytes));

function tooLargeLmx(error: unknown): LmxRead {
  if (error instanceof TreeFileTooLargeError) return { problem: tooLargeProblem(error.size) };
  throw error;
}

/**
 * Where a file stands: in a pulled tree (`<root>/<kind>/<record>/<file>`, or a workflow's email,
 * `<root>/workflows/<workflow>/emails/<email>/email.lmx`), with the kind of email that makes it; or loose.
 */
export function placeOf(file: string): { root?: string; group?: TreeGroup; kind?: LmxKind } {
  const record = dirname(file);
  const kindDirectory = basename(dirname(record));
  if ((KINDS as readonly string[]).includes(kindDirectory)) {
    const group = kindDirectory as EmailDirectory;
    return { root: dirname(dirname(record)), group, kind: LMX_KIND_OF[group] };
  }
  // A workflow's email: <root>/workflows/<workflow>/emails/<email>/email.lmx.
  const workflow = dirname(dirname(record));
  if (kindDirectory === 'emails' && basename(dirname(workflow)) === WORKFLOWS) return { root: dirname(dirname(workflow)), group: WORKFLOWS, kind: 'workflow' };
  return {};
}

/** The deepest a tree's file lies below its root: a workflow's email, `workflows/<workflow>/emails/<email>/email.lmx`. */
const DEEPEST = 5;

/**
 * The tree a path inside one is in (`loops/transactional/<record>`, a workflow, a file of either):
 * the nearest directory above it whose child on the way is a kind's or the workflows' directory,
 * no further up than a tree's files lie. Undefined for a path in no tree, or a tree's root itself.
 */
export function treeAbove(path: string): string | undefined {
  let below = resolve(path);
  for (let depth = 0; depth < DEEPEST; depth++) {
    const above = dirname(below);
    if (above === below) return undefined;
    if (basename(below) === WORKFLOWS || (KINDS as readonly string[]).includes(basename(below))) return above;
    below = above;
  }
  return undefined;
}

/**
 * The directory whose environments.json a path is checked with: a directory that has one, or the
 * tree a path inside one is in, when its root has one; undefined when there is none.
 */
export function environmentsRootOf(path: string): string | undefined {
  if (lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true && existsSync(join(path, ENVIRONMENTS_FILE))) return path;
  const root = treeAbove(path);
  return root !== undefined && existsSync(join(root, ENVIRONMENTS_FILE)) ? root : undefined;
}

/** A tree's root as a path named inside it spells it (`loops/transactional/x` -> `loops`), so what is shown under it reads as the path. */
export function shownRootOf(path: string, root: string): string {
  return join(
    path,
    ...relative(root, resolve(path))
      .split(sep)
      .map(() => '..'),
  );
}
