/**
 * The kinds of record an account holds that loopsctl reads or changes, each declared once by its
 * noun (as prose names it: `transactional email`), with every other word loopsctl has for it:
 *
 * - `directory`: where a content tree keeps it (for a kind kept in one file, that file's name
 *   without `.json`), and the half of the tree that holds it (`half`);
 * - `writes`: the kinds of configuration write (configuration-writes.ts) that change it, none for
 *   a kind loopsctl only reads;
 * - `word`: the one word `check`'s findings, `--kind` and LMX name it by, for the kinds they name;
 * - `lmx`: what its LMX is, for a kind written in LMX: the body of an email, or a part of one;
 * - `constant`: how an app's types name its constants (`TX_…`, `LOOPS_LIST_…`), for the kinds they name.
 *
 * A workflow's node is a part of its workflow: a write of a node changes the workflow, whose
 * revision guards it and whose graph a before-image keeps. An index of the resources' rows
 * (operations.ts), each kind's row in its resource's: declarations read it.
 */
import type { RecordKindEntry } from './operation-row.js';
import { RESOURCES, type Resource } from './operations.js';

export type { RecordKindEntry } from './operation-row.js';

type KindRow = Extract<Resource, { kind: object }>;

/** The kinds of record, by noun, in the rows' order: each row's kind, with the kinds of configuration write its operations make. */
export const RECORD_KINDS = Object.fromEntries(
  RESOURCES.flatMap((row) => {
    if (!('kind' in row)) return [];
    const writes = [...new Set(Object.values(row.operations as Record<string, { writes?: string }>).flatMap((operation) => operation.writes ?? []))];
    return [[row.noun, { ...row.kind, writes }]];
  }),
) as unknown as { [Row in KindRow as Row['noun']]: Row['kind'] & { writes: readonly string[] } };

type Table = typeof RECORD_KINDS;
export type RecordKind = keyof Table;

/** The table's entries whose columns are as `Shape` says (`{ half: 'emails' }`). */
type Where<Shape> = Extract<Table[RecordKind], Shape>;

/** `check`'s and `--kind`'s word for a kind: `transactional`, `campaign`, `list`, `property`… */
export type KindWord = Where<{ word: string }>['word'];
/** The word of a kind written in LMX: each kind of email, and a component, which any email may embed. */
export type LmxWord = Where<{ word: string; lmx: string }>['word'];
/** The word of a kind of email: a kind whose LMX is an email's body. */
export type EmailWord = Where<{ word: string; lmx: 'email' }>['word'];
/** How an app's types name the constants of a kind. */
export type ConstantName = Where<{ constant: string }>['constant'];
/** The noun of the kind a tree directory holds (`transactional`: transactional email). */
export type NounOfDirectory<Directory extends string> = { [Noun in RecordKind]: Table[Noun]['directory'] extends Directory ? Noun : never }[RecordKind];
/** The directory of a kind a half of the tree holds. */
export type DirectoryOf<Half extends RecordKindEntry['half']> = Where<{ half: Half }>['directory'];

const ENTRIES: readonly RecordKindEntry[] = Object.values(RECORD_KINDS);

/** A column's values for the kinds that pass a test, in the table's order. */
function columnOf<T>(test: (entry: RecordKindEntry) => boolean, value: (entry: RecordKindEntry) => string | undefined): readonly [T, ...T[]] {
  return ENTRIES.filter(test).map(value) as unknown as readonly [T, ...T[]];
}

/** Every kind's word, for the kinds that have one. */
export const KIND_WORDS = columnOf<KindWord>(
  (entry) => entry.word !== undefined,
  (entry) => entry.word,
);
/** The words of the kinds written in LMX. */
export const LMX_WORDS = columnOf<LmxWord>(
  (entry) => entry.word !== undefined && entry.lmx !== undefined,
  (entry) => entry.word,
);
/** The words of the kinds of email. */
export const EMAIL_WORDS = columnOf<EmailWord>(
  (entry) => entry.word !== undefined && entry.lmx === 'email',
  (entry) => entry.word,
);

/** The directories of a half of the tree, in the table's order. */
export function directoriesOf<Half extends RecordKindEntry['half']>(half: Half): readonly [DirectoryOf<Half>, ...DirectoryOf<Half>[]] {
  return columnOf<DirectoryOf<Half>>(
    (entry) => entry.half === half,
    (entry) => entry.directory,
  );
}

/** The kind of record a tree directory holds (`components`: a component). */
export function directoryKind(directory: string): (RecordKindEntry & { noun: RecordKind }) | undefined {
  return entryWhere((entry) => entry.directory === directory);
}

function entryWhere(test: (entry: RecordKindEntry) => boolean): (RecordKindEntry & { noun: RecordKind }) | undefined {
  const noun = (Object.keys(RECORD_KINDS) as RecordKind[]).find((kind) => test(RECORD_KINDS[kind]));
  return noun === undefined ? undefined : { ...RECORD_KINDS[noun], noun };
}

/** The word of the kind a tree directory holds, when it is written in LMX (`campaigns`: campaign; `themes`: none). */
export function lmxWordOfDirectory(directory: string): LmxWord | undefined {
  const kind = directoryKind(directory);
  return kind?.lmx === undefined ? undefined : (kind.word as LmxWord);
}
