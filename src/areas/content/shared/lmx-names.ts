/**
 * The components and themes an email's LMX names: `<Component componentId="…" />`, `<Style
 * themeId="…" />`. The account knows them by its own ids, which differ from one account to the
 * next; the tree names each by its record's directory (`footer--cm1`), the same whichever account
 * the tree is pushed to. A pull and a diff read the account's LMX with each id the tree
 * holds a record of written as that record's directory; a push sends the tree's with each directory
 * written as the id the state records for it in the account pushed to (or the id the push just gave
 * it). An id the tree knows no record of is left as it is, and so is LMX that names neither.
 *
 * A tree pulled before names were written keeps ids in its LMX: an id of one of the tree's records,
 * in this account or any other the state knows, reads as that record's directory, so that such a
 * tree diffs clean and pushes as before; `withIds` keeps the files as they were, whose digest the
 * state then recorded.
 */
import { UsageError } from '../../../base/errors.js';
import { treeEntries } from '../../../base/tree-files.js';
import { elementsOf, parseLmx } from '../../../lmx/index.js';
import { directoryIdOf } from './audience-state.js';
import { type ContentState, digestOf, type Files } from './files.js';

/** The kinds of record LMX names by id, and the element and attribute that name one. */
const REFERENCES = {
  components: { element: 'Component', attribute: 'componentId' },
  themes: { element: 'Style', attribute: 'themeId' },
} as const;
type NamedKind = keyof typeof REFERENCES;
const NAMED_KINDS = Object.keys(REFERENCES) as NamedKind[];

/** What a push sends for a record the same push makes before the emails, in a plan: no id exists yet. */
const MADE_BY_THIS_PUSH = '(made by this push) ';

/** The stand-in a plan names a record by (a component, a segment, a group) that the same push makes first. */
export function standIn(name: string): string {
  return `${MADE_BY_THIS_PUSH}${name}`;
}

/** Whether a plan's calls name a record by its stand-in: a plan file cannot hold them, the account gives the id only once it is made. */
export function namesStandIn(calls: unknown): boolean {
  return JSON.stringify(calls).includes(MADE_BY_THIS_PUSH);
}

/** The record's directory a name of the tree names, by the LMX that names it: `components/footer--cm1`. */
export interface NamedRecord {
  /** The LMX file, as its record's files name it (`draft.lmx`). */
  file: string;
  path: string;
}

/** One kind's names: each directory with its id in this account, and the other ids a directory is known by. */
interface KindNames {
  /** Every directory name the tree knows (on disk, or in the state), with its id in this account where one is known. */
  ids: Map<string, string | undefined>;
  /** By id in this account, the directory. */
  here: Map<string, string>;
  /** By any other id the tree knows a directory by (the id its name ends in, its id in another account), the directory. */
  elsewhere: Map<string, string>;
  /** Directories the push makes before the emails: no id until it is made, so a plan names them by a stand-in. */
  making: Set<string>;
}

/** The tree's names of its components and themes in one account, and their ids there. */
export class LmxNames {
  private readonly kinds: Record<NamedKind, KindNames> = {
    components: { ids: new Map(), here: new Map(), elsewhere: new Map(), making: new Set() },
    themes: { ids: new Map(), here: new Map(), elsewhere: new Map(), making: new Set() },
  };

  /** A directory the tree has or the state names, known by `id` in this account (`here`) or in another. */
  add(path: string, id: string | undefined, here: boolean): void {
    const place = placeOf(path);
    if (place === undefined) return;
    const names = this.kinds[place.kind];
    if (!names.ids.has(place.name)) names.ids.set(place.name, undefined);
    if (id === undefined) return;
    if (!here) {
      if (!names.elsewhere.has(id)) names.elsewhere.set(id, place.name);
      return;
    }
    const was = names.ids.get(place.name);
    if (was !== undefined && names.here.get(was) === place.name) names.here.delete(was);
    names.ids.set(place.name, id);
    names.here.set(id, place.name);
  }

  /** The id a record has in this account, learnt: paired by name, or made by this push. */
  learn(path: string, id: string): void {
    this.add(path, id, true);
  }

  /**
   * A record the push makes before the emails that name it: it has no id in this account until it
   * is made (an id the state kept is of one deleted since), so a plan names it by a stand-in.
   */
  making(path: string): void {
    const place = placeOf(path);
    if (place === undefined) return;
    const names = this.kinds[place.kind];
    const was = names.ids.get(place.name);
    if (was !== undefined && names.here.get(was) === place.name) names.here.delete(was);
    names.ids.set(place.name, undefined);
    names.making.add(place.name);
  }

  /** The records the push makes, by path: what the workflows' plan after the emails' may name too. */
  makingPaths(): string[] {
    return NAMED_KINDS.flatMap((kind) => [...this.kinds[kind].making].map((name) => `${kind}/${name}`));
  }

  /** LMX as the tree holds it: each id of a record of the tree in this account (and with `local`, in any) as the record's directory. */
  toTree(source: string, local: boolean): string {
    return rewrite(source, (kind, value) => this.nameOf(kind, value, local));
  }

  /**
   * LMX as the account takes it: each directory named as the record's id in this account. A
   * directory with no id here is `missing`, or, one the push makes, named by a stand-in and `making`.
   */
  toAccount(source: string): { source: string; missing: string[]; making: string[] } {
    const missing: string[] = [];
    const making: string[] = [];
    const text = rewrite(source, (kind, value) => {
      const name = this.nameOf(kind, value, true);
      if (name === undefined) return undefined;
      const names = this.kinds[kind];
      const id = names.ids.get(name);
      if (id !== undefined) return id;
      if (names.making.has(name)) {
        making.push(`${kind}/${name}`);
        return standIn(`${kind}/${name}`);
      }
      missing.push(`${kind}/${name}`);
      return undefined;
    });
    return { source: text, missing: [...new Set(missing)], making: [...new Set(making)] };
  }

  /**
   * The directory a value of LMX names: a directory's name, this account's id of one, and for the
   * tree's own files (`local`) any other id the tree knows one by, or the name of a directory
   * renamed since (`footer--cm1`, now `site-footer--cm1`), known by the id its name ends in.
   */
  private nameOf(kind: NamedKind, value: string, local: boolean): string | undefined {
    const names = this.kinds[kind];
    if (names.ids.has(value)) return value;
    const here = names.here.get(value);
    if (here !== undefined || !local) return here;
    const renamed = directoryIdOf(value);
    return names.elsewhere.get(value) ?? (renamed === undefined ? undefined : (names.elsewhere.get(renamed) ?? names.here.get(renamed)));
  }
}

/** `components/footer--cm1` -> its kind and directory; undefined for a record of another kind. */
function placeOf(path: string): { kind: NamedKind; name: string } | undefined {
  const at = path.indexOf('/');
  const kind = path.slice(0, at) as NamedKind;
  const name = path.slice(at + 1);
  return at > 0 && NAMED_KINDS.includes(kind) && name !== '' && !name.includes('/') ? { kind, name } : undefined;
}

/**
 * The names of a tree's components and themes in `account`: the directories it holds and the
 * records the state names, with the ids the state records for them in that account.
 */
export function lmxNames(root: string, state: ContentState | undefined, account: string): LmxNames {
  const names = new LmxNames();
  for (const kind of NAMED_KINDS) {
    for (const entry of treeEntries(root, kind)) {
      if (entry.kind !== 'directory' || entry.name.startsWith('.')) continue;
      names.add(`${kind}/${entry.name}`, directoryIdOf(entry.name), false);
    }
  }
  for (const [team, records] of Object.entries(state?.accounts ?? {})) {
    for (const [path, record] of Object.entries(records)) names.add(path, record.id, team === account);
  }
  return names;
}

/**
 * Rewrites the value of each attribute that names a component or a theme where `replace` gives
 * another, in place: the rest of the source is kept byte for byte. A value written with a
 * character reference is left as it is.
 */
function rewrite(source: string, replace: (kind: NamedKind, value: string) => string | undefined): string {
  if (!source.includes('componentId') && !source.includes('themeId')) return source;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const element of elementsOf(parseLmx(source).document)) {
    const kind = NAMED_KINDS.find((candidate) => REFERENCES[candidate].element === element.name);
    if (kind === undefined) continue;
    const attribute = element.attributes.find((candidate) => candidate.name === REFERENCES[kind].attribute);
    const part = attribute?.parts.length === 1 ? attribute.parts[0] : undefined;
    if (attribute === undefined || part?.kind !== 'text') continue;
    const start = part.position.offset;
    if (source.slice(start, start + attribute.value.length) !== attribute.value) continue;
    const text = replace(kind, attribute.value);
    if (text !== undefined && text !== attribute.value) edits.push({ start, end: start + attribute.value.length, text });
  }
  let result = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

/** The LMX files of a record's files with `rewrite` applied; undefined when none changed. */
function mapLmx(files: Files, rewrite: (source: string) => string): Files | undefined {
  let changed = false;
  const out: Files = new Map();
  for (const [name, text] of files) {
    const next = name.endsWith('.lmx') ? rewrite(text) : text;
    changed ||= next !== text;
    out.set(name, next);
  }
  return changed ? out : undefined;
}

/** Files whose LMX may name components and themes by id: as they read on disk, or as the account holds them. */
export interface NamedFiles {
  files: Files;
  /** The same files as they name records by id (on disk, as an older pull wrote them; or in the account), when that differs. */
  withIds?: Files;
}

/**
 * Reads a record's files with the tree's names for ids, in place: `local` files (the tree's) for
 * any id the tree knows its records by, the account's for its own ids. What they were is kept as
 * `withIds`.
 */
export function nameRecords(records: readonly NamedFiles[], names: LmxNames, local: boolean): void {
  for (const record of records) {
    const named = mapLmx(record.files, (source) => names.toTree(source, local));
    if (named === undefined) continue;
    record.withIds = record.files;
    record.files = named;
  }
}

/**
 * A record's files as the account takes them: each name of the tree as the record's id there, with
 * the names it has no id for (`missing`, by the file that names them) and those the push makes first.
 */
export function accountFiles(files: Files, names: LmxNames): { files: Files; missing: NamedRecord[]; making: string[] } {
  const missing: NamedRecord[] = [];
  const making = new Set<string>();
  const sent: Files = new Map(files);
  for (const [name, text] of files) {
    if (!name.endsWith('.lmx')) continue;
    const account = names.toAccount(text);
    sent.set(name, account.source);
    for (const path of account.missing) missing.push({ file: name, path });
    for (const path of account.making) making.add(path);
  }
  return { files: sent, missing, making: [...making] };
}

/** Whether files are what a digest the state keeps was taken of: as they read, or as they name records by id (a state an older pull kept). */
export function heldAt(side: NamedFiles, digest: string | undefined): boolean {
  return digest !== undefined && (digestOf(side.files) === digest || (side.withIds !== undefined && digestOf(side.withIds) === digest));
}

/** Why a record whose LMX names a component or theme `account` lacks is not sent: each file, and the record it names. */
export function lackingWords(missing: readonly NamedRecord[], account: string): string {
  const byFile = new Map<string, string[]>();
  for (const name of missing) byFile.set(name.file, [...(byFile.get(name.file) ?? []), name.path]);
  const named = [...byFile].map(([file, paths]) => `${file} names ${paths.join(' and ')}`).join(', ');
  const them = missing.length === 1 ? 'it' : 'them';
  return `${named}, which ${account} does not have and this push does not make: nothing of it was sent; push ${them} with it (their kind in --only too), or name one the account has`;
}

/** A plan file cannot name a component or theme the same plan makes: the account gives its id only once it is made. */
export function madeByThePlan(path: string, making: readonly string[]): UsageError {
  return new UsageError(`${path}: names ${making.join(', ')}, which this plan makes: a plan file cannot hold an id before the account gives it`, {
    hint: 'push the components and themes first (`loopsctl content push --only components,themes`), then plan the rest with --out',
  });
}
