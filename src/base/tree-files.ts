/**
 * The files of a tree (a content directory, the root `loopsctl mcp` was given), read and written
 * without ever following a symbolic link. Git keeps links, so a pull request can commit one where
 * a file goes; read through, it would put any file of the machine (`/proc/self/environ`) into what
 * is shown, and written through, it would replace whatever it points at. So under the root, each
 * segment of a path is looked at with `lstat` and must be a directory, the file itself must be a
 * regular file, and it is opened with O_NOFOLLOW (and checked to be the file looked at); writing is
 * in tree-writes.ts, by the same rules. The root itself is the one the person named, links and all.
 * A tree held in memory (HeldTree) is read by the same functions, as if it were on disk.
 */
import { closeSync, constants, type Dirent, fstatSync, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { builtinModule } from './builtin.js';
import { LocalFileError } from './errors.js';

/** What a name in a tree is, as `lstat` sees it. */
export type TreeEntryKind = 'file' | 'directory' | 'link' | 'other';

export interface TreeEntry {
  name: string;
  kind: TreeEntryKind;
}

/** A file larger than its reader takes: it was not read. */
export class TreeFileTooLargeError extends LocalFileError {
  constructor(
    readonly file: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${file} is ${size} bytes, more than the ${limit} read of it; it was not read`);
  }
}

/** O_NOFOLLOW and O_NONBLOCK where the system has them (Windows has neither: lstat alone guards there). */
export const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO put where a file was looked at would otherwise hold the open until a writer comes. */
const NON_BLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW | NON_BLOCK;

export function kindOf(stats: Stats): TreeEntryKind {
  return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
}

/** What separates a path's segments: `/`, and on Windows `\` too (elsewhere it may be part of a name). */
const SEPARATORS = sep === '\\' ? /[\\/]/ : /\//;

/** The segments of a path under the root: `a/b/c` -> a, b, c; `..` and absolute paths are refused. */
export function segmentsOf(root: string, path: string): string[] {
  const segments = path.split(SEPARATORS).filter((segment) => segment !== '' && segment !== '.');
  if (isAbsolute(path) || segments.includes('..')) throw new LocalFileError(`${join(root, path)} is not a path inside ${root}`);
  return segments;
}

/**
 * A file a person named (`--rules`, `--snapshot`) as a root and a path under it, to read it as a
 * tree's files are read: a relative path is under the working directory, each of its segments
 * looked at; an absolute one, or one that climbs with `..`, under its own directory (the person's
 * own way to it, links and all). Either way the file itself is never a link.
 */
export function namedFilePlace(file: string): { root: string; path: string } {
  const climbs = isAbsolute(file) || file.split(SEPARATORS).includes('..');
  return climbs ? { root: dirname(file), path: basename(file) } : { root: '.', path: file };
}

export function refused(full: string, kind: TreeEntryKind, wanted: string): LocalFileError {
  if (kind === 'link')
    return new LocalFileError(`${full} is a symbolic link: content is never read or written through a link`, {
      hint: 'remove the link (its target is left as it is), and put the file itself there',
    });
  return new LocalFileError(`${full} is not a ${wanted}`, {
    hint: 'only directories and regular files are read here: not a device, a FIFO or a socket',
  });
}

/** lstat of a name, or undefined when nothing is there. */
export function lstatOf(full: string): Stats | undefined {
  try {
    // Without an error made for each name not there yet: every file and directory of a first pull.
    return lstatSync(full, { throwIfNoEntry: false });
  } catch (error) {
    throw new LocalFileError(`${full}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Walks the directories a path passes through: each must be a directory (a link or a file there is
 * refused). Returns the last one's full path, or undefined when one of them does not exist.
 */
export function directoryOf(root: string, segments: readonly string[]): string | undefined {
  let full = root;
  for (const segment of segments) {
    full = join(full, segment);
    const stats = lstatOf(full);
    if (stats === undefined) return undefined;
    if (!stats.isDirectory()) throw refused(full, kindOf(stats), 'directory');
  }
  return full;
}

/** What a path under the root names: undefined when nothing; a link anywhere on the way is refused. */
export function treeEntryKind(root: string, path: string): 'file' | 'directory' | undefined {
  const segments = segmentsOf(root, path);
  const held = heldAt(root, segments);
  if (held !== undefined) return held.tree.kindOf(held.path);
  if (segments.length === 0) return 'directory';
  const directory = directoryOf(root, segments.slice(0, -1));
  if (directory === undefined) return undefined;
  const full = join(directory, segments.at(-1)!);
  const stats = lstatOf(full);
  if (stats === undefined) return undefined;
  const kind = kindOf(stats);
  if (kind !== 'file' && kind !== 'directory') throw refused(full, kind, 'regular file or directory');
  return kind;
}

/** The entries of a directory under the root, sorted, each as lstat sees it; none when it does not exist. */
export function treeEntries(root: string, path: string): TreeEntry[] {
  const segments = segmentsOf(root, path);
  const held = heldAt(root, segments);
  if (held !== undefined) return held.tree.entriesOf(held.path, held.full);
  const directory = directoryOf(root, segments);
  return directory === undefined ? [] : entriesIn(directory);
}

/** An entry met on a walk of the tree: its path under the root, its name, and what it is. */
export interface WalkedEntry extends TreeEntry {
  path: string;
}

function direntKind(entry: Dirent): TreeEntryKind {
  return entry.isSymbolicLink() ? 'link' : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
}

/**
 * Every entry under the root, directory by directory from the top (breadth first), each
 * directory's names sorted; `enter` says which directories are walked into (a link never is).
 * Each directory is read once, with the kinds its listing gives, and nothing on the way to it is
 * looked at again: a walk costs what the tree holds, whatever its depth (looking at each path's
 * segments anew, as treeEntries does, makes a chain of 1,000 directories cost a billion steps).
 */
export function walkTree(root: string, enter: (entry: WalkedEntry) => boolean): WalkedEntry[] {
  const walked: WalkedEntry[] = [];
  const directories = [''];
  for (let next = 0; next < directories.length; next += 1) {
    const path = directories[next]!;
    for (const entry of listed(root, path)) {
      const found = { path: path === '' ? entry.name : `${path}/${entry.name}`, name: entry.name, kind: entry.kind };
      walked.push(found);
      if (found.kind === 'directory' && enter(found)) directories.push(found.path);
    }
  }
  return walked;
}

/** A directory's entries as a walk lists them, sorted by name: a held tree's, or as its listing gives their kinds. */
function listed(root: string, path: string): TreeEntry[] {
  const held = heldAt(root, path === '' ? [] : path.split('/'));
  if (held !== undefined) return held.tree.kindOf(held.path) === 'directory' ? held.tree.entriesOf(held.path, held.full) : [];
  return entriesIn(path === '' ? root : join(root, path));
}

/**
 * A directory's entries, sorted by name, each of the kind its listing gives: the entry's own, as
 * lstat sees it (a link is a link), without looking at each again; none when it does not exist.
 */
function entriesIn(full: string): TreeEntry[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new LocalFileError(`${full}: ${(error as Error).message}`, { cause: error });
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((entry) => ({ name: entry.name, kind: direntKind(entry) }));
}

/** Where a file to read is, checked: its full path and what lstat saw, or undefined when it does not exist. */
function fileToRead(root: string, path: string): { full: string; stats: Stats } | undefined {
  const segments = segmentsOf(root, path);
  if (segments.length === 0) throw refused(root, 'directory', 'regular file');
  const directory = directoryOf(root, segments.slice(0, -1));
  if (directory === undefined) return undefined;
  const full = join(directory, segments.at(-1)!);
  const stats = lstatOf(full);
  if (stats === undefined) return undefined;
  if (!stats.isFile()) throw refused(full, kindOf(stats), 'regular file');
  return { full, stats };
}

/** The opened file must be the one looked at: a name swapped between the lstat and the open is refused. */
function sameFile(full: string, looked: Stats, opened: Stats): void {
  if (!opened.isFile() || opened.ino !== looked.ino || opened.dev !== looked.dev)
    throw new LocalFileError(`${full} changed while it was being opened; it was not read`, { hint: 'run the command again' });
}

function openError(full: string, error: unknown): LocalFileError {
  const code = (error as NodeJS.ErrnoException).code;
  // O_NOFOLLOW's refusal of a link put there after the lstat.
  if (code === 'ELOOP' || code === 'EMLINK') return refused(full, 'link', 'regular file');
  return new LocalFileError(`${full}: ${(error as Error).message}`, { cause: error });
}

/**
 * A file's bytes, at most `limit` (TreeFileTooLargeError past it, before anything is read), or
 * undefined when the file or a directory on its way does not exist.
 */
export function readTreeFile(root: string, path: string, limit: number): Buffer | undefined {
  const held = heldFile(root, path, limit);
  if (held !== undefined) return held.bytes;
  const found = fileToRead(root, path);
  if (found === undefined) return undefined;
  if (found.stats.size > limit) throw new TreeFileTooLargeError(found.full, found.stats.size, limit);
  return readOpened(found.full, limit, found.stats);
}

/**
 * A file's bytes, opened without following a link: the file lstat saw (`looked`), or with none, a
 * regular file of at most `limit` bytes as it is once open. Undefined when it is not there.
 */
function readOpened(full: string, limit: number, looked?: Stats): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(full, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw openError(full, error);
  }
  try {
    const opened = fstatSync(fd);
    if (looked !== undefined) sameFile(full, looked, opened);
    else if (!opened.isFile()) throw refused(full, kindOf(opened), 'regular file');
    else if (opened.size > limit) throw new TreeFileTooLargeError(full, opened.size, limit);
    // One byte more than the limit tells a file that grew since.
    const buffer = Buffer.alloc(Math.min(opened.size, limit) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > limit) throw new TreeFileTooLargeError(full, Math.max(length, opened.size), limit);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** A directory of the tree with its entries, whose files are read by name (treeDirectory). */
export interface TreeDirectory {
  entries: TreeEntry[];
  read(name: string, limit: number): Buffer | undefined;
}

/**
 * A directory under the root, looked at once as treeEntries does, for reading many of its files:
 * each is then opened without following a link and checked to be a regular file once open, with
 * nothing on the way to it looked at again (as a walk reads). Undefined when it does not exist.
 */
export function treeDirectory(root: string, path: string): TreeDirectory | undefined {
  const segments = segmentsOf(root, path);
  const held = heldAt(root, segments);
  if (held !== undefined)
    return held.tree.kindOf(held.path) === undefined
      ? undefined
      : { entries: held.tree.entriesOf(held.path, held.full), read: (name, limit) => heldFile(held.full, nameIn(held.full, name), limit)!.bytes };
  const full = directoryOf(root, segments);
  return full === undefined ? undefined : { entries: entriesIn(full), read: (name, limit) => readOpened(join(full, nameIn(full, name)), limit) };
}

/** A name in the directory, not a path through another. */
function nameIn(directory: string, name: string): string {
  const segments = segmentsOf(directory, name);
  if (segments.length !== 1 || segments[0] !== name) throw new LocalFileError(`${join(directory, name)} is not a name in ${directory}`);
  return name;
}

/** readTreeFile without holding the process while the bytes come: for a server that answers others meanwhile. */
export async function readTreeFileAsync(root: string, path: string, limit: number): Promise<Buffer | undefined> {
  const held = heldFile(root, path, limit);
  if (held !== undefined) return held.bytes;
  const found = fileToRead(root, path);
  if (found === undefined) return undefined;
  const { full, stats } = found;
  if (stats.size > limit) throw new TreeFileTooLargeError(full, stats.size, limit);
  let handle;
  try {
    handle = await open(full, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw openError(full, error);
  }
  try {
    const opened = await handle.stat();
    sameFile(full, stats, opened);
    const buffer = Buffer.alloc(Math.min(opened.size, limit) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = (await handle.read(buffer, length, buffer.length - length, null)).bytesRead;
    if (length > limit) throw new TreeFileTooLargeError(full, Math.max(length, opened.size), limit);
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** The trees held in memory, by their roots. */
const heldTrees = new Map<string, HeldTree>();

/**
 * A tree held in memory rather than written to disk (a side of a review, from a git commit or the
 * account): from when it is held until it is released, this module's readers read it at its root
 * as they would a directory there, and nothing is on disk at that root. It holds directories and
 * regular files only, which is all the tree's readers take.
 */
export class HeldTree {
  /** Each directory's entries, by the directory's path (the root's is ''). */
  private readonly directories = new Map<string, Map<string, 'file' | 'directory'>>([['', new Map()]]);
  private readonly files = new Map<string, Buffer>();

  /** The root, spelled as the readers' paths are joined, so that theirs are found under it. */
  readonly root: string;

  constructor(root: string) {
    this.root = join(root);
  }

  /** Makes a directory, and those on its way; a file on its way is refused. */
  addDirectory(path: string): void {
    let at = '';
    for (const segment of segmentsOf(this.root, path)) {
      const below = at === '' ? segment : `${at}/${segment}`;
      const entries = this.directories.get(at)!;
      const kind = entries.get(segment);
      if (kind === 'file') throw refused(join(this.root, below), 'file', 'directory');
      if (kind === undefined) {
        entries.set(segment, 'directory');
        this.directories.set(below, new Map());
      }
      at = below;
    }
  }

  /** Puts a file (its bytes taken as they are, not copied), its directories made; a directory at its name is refused. */
  writeFile(path: string, data: string | Uint8Array): void {
    const segments = segmentsOf(this.root, path);
    if (segments.length === 0) throw refused(this.root, 'directory', 'regular file');
    const parent = segments.slice(0, -1).join('/');
    this.addDirectory(parent);
    const file = segments.join('/');
    if (this.directories.has(file)) throw refused(join(this.root, file), 'directory', 'regular file');
    this.directories.get(parent)!.set(segments.at(-1)!, 'file');
    this.files.set(file, typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }

  /** Removes a file, its directory left; nothing when it is not there, a directory refused. */
  removeFile(path: string): void {
    const segments = segmentsOf(this.root, path);
    const file = segments.join('/');
    if (this.directories.has(file)) throw refused(join(this.root, file), 'directory', 'regular file');
    if (this.files.delete(file)) this.directories.get(segments.slice(0, -1).join('/'))!.delete(segments.at(-1)!);
  }

  /** Makes the tree readable at its root; returns how to release it. */
  hold(): () => void {
    heldTrees.set(this.root, this);
    return () => {
      if (heldTrees.get(this.root) === this) heldTrees.delete(this.root);
    };
  }

  kindOf(path: string): 'file' | 'directory' | undefined {
    return this.directories.has(path) ? 'directory' : this.files.has(path) ? 'file' : undefined;
  }

  entriesOf(path: string, full: string): TreeEntry[] {
    if (this.files.has(path)) throw refused(full, 'file', 'directory');
    const entries = [...(this.directories.get(path) ?? [])];
    return entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, kind]) => ({ name, kind }));
  }

  fileAt(path: string, full: string): Buffer | undefined {
    if (this.directories.has(path)) throw refused(full, 'directory', 'regular file');
    return this.files.get(path);
  }
}

/** A name under the system's temporary directory for held trees, which nothing is written at: `prefix` and a random part. */
export function heldTreesHome(prefix: string): string {
  // Loaded here: the readers of this module, on every run's path, need neither.
  return join(builtinModule('node:os').tmpdir(), `${prefix}${builtinModule('node:crypto').randomUUID()}`);
}

/** Holds each of the trees (HeldTree.hold); returns how to release them all. */
export function holdTrees(trees: readonly HeldTree[]): () => void {
  const releases = trees.map((tree) => tree.hold());
  return () => {
    for (const release of releases) release();
  };
}

/** The held tree a path under a root is in (the root as the tree was made with it), and the path in it; undefined when it is in none. */
function heldAt(root: string, segments: readonly string[]): { tree: HeldTree; path: string; full: string } | undefined {
  if (heldTrees.size === 0) return undefined;
  const full = join(root, ...segments);
  for (const [heldRoot, tree] of heldTrees) {
    if (full === heldRoot) return { tree, path: '', full };
    if (full.startsWith(heldRoot) && full[heldRoot.length] === sep)
      return {
        tree,
        path: full
          .slice(heldRoot.length + 1)
          .split(sep)
          .join('/'),
        full,
      };
  }
  return undefined;
}

/** A held tree's file, as readTreeFile reads one; undefined when the path is in no held tree (it is then read from disk). */
function heldFile(root: string, path: string, limit: number): { bytes: Buffer | undefined } | undefined {
  const held = heldAt(root, segmentsOf(root, path));
  if (held === undefined) return undefined;
  const bytes = held.tree.fileAt(held.path, held.full);
  if (bytes !== undefined && bytes.length > limit) throw new TreeFileTooLargeError(held.full, bytes.length, limit);
  return { bytes };
}

/** Whether anything is at a name at the top of a tree (a link too, as lstat sees it); not when it cannot be looked at. */
export function treeHasEntry(root: string, name: string): boolean {
  const held = heldAt(root, segmentsOf(root, name));
  if (held !== undefined) return held.tree.kindOf(held.path) !== undefined;
  try {
    return lstatSync(join(root, name), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
