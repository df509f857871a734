/**
 * A pulled content directory read for showing its emails: which LMX files it holds and the email
 * each is the body of (kind, name, subject, fallbacks), the components an email may embed and the
 * themes it may be drawn with. Any other directory is a set of loose .lmx files.
 */
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { decodeLmx, LMX_MAX_BYTES, parseLmx, tooLargeProblem, type LmxDocument, type LmxKind, type LmxNamespace, type LmxProblem } from '../../lmx/index.js';
import type { LmxValues } from '../../lmx/render.js';
import { z } from '../../base/shapes.js';
import { KINDS, META_FILE, parseJson, readState, STATE_FILE, type Kind } from './files.js';

/** The kind of email a pulled directory's LMX is the body of; themes have none. */
export const LMX_KIND_OF: Record<Kind, LmxKind | undefined> = {
  transactional: 'transactional',
  campaigns: 'campaign',
  components: 'component',
  themes: undefined,
};

/** How a record's LMX files are named in a list: `draft.lmx` is the draft. */
const VERSION_LABELS: Record<string, string> = { draft: 'draft', published: 'published', email: '', component: '' };

/** One LMX file of a tree. */
export interface TreeEmail {
  file: string;
  /** From the tree's root, with `/`: `transactional/welcome--cx1/draft.lmx`. */
  path: string;
  /** The directory kind it is in, or undefined for a loose file. */
  group?: Kind;
  kind?: LmxKind;
  /** The record's name and, for a transactional email, which version: `Welcome (draft)`. */
  name: string;
}

/** The fields of an email message that showing it needs, from the JSON file beside its LMX. */
const messageFields = z.looseObject({
  subject: z.string().optional(),
  previewText: z.string().optional(),
  contactPropertiesFallbacks: z.record(z.string(), z.string()).optional(),
  eventPropertiesFallbacks: z.record(z.string(), z.string()).optional(),
  dataVariablesFallbacks: z.record(z.string(), z.string()).optional(),
});

export interface MessageFields {
  subject?: string;
  previewText?: string;
  fallbacks: Partial<Record<LmxNamespace, Record<string, string>>>;
}

function entriesOf(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new LocalFileError(`${directory}: ${(error as Error).message}`);
  }
}

/** Whether a directory is one `content pull` wrote: it has the state file or a kind's directory. */
export function isTree(directory: string): boolean {
  return [STATE_FILE, ...KINDS].some((name) => {
    try {
      lstatSync(join(directory, name));
      return true;
    } catch {
      return false;
    }
  });
}

/** The .lmx files under a directory, in a stable order; hidden entries and symbolic links are left out. */
export function lmxFilesUnder(directory: string): string[] {
  const files: string[] = [];
  const pending = [directory];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const below: string[] = [];
    for (const name of entriesOf(current)) {
      const path = join(current, name);
      const stats = lstatSync(path);
      if (stats.isDirectory()) below.push(path);
      else if (stats.isFile() && name.endsWith('.lmx')) files.push(path);
    }
    pending.push(...below.reverse());
  }
  return files.sort();
}

/** The kind of email the LMX in a kind's directory is the body of (`campaigns` -> campaign). */
export function kindOfDirectory(name: string): LmxKind | undefined {
  return (KINDS as readonly string[]).includes(name) ? LMX_KIND_OF[name as Kind] : undefined;
}

/** `components/footer--cmp_1` -> `cmp_1`. */
function idOfRecordDirectory(name: string): string | undefined {
  const at = name.lastIndexOf('--');
  return at < 0 ? undefined : name.slice(at + 2);
}

/** The name a record keeps in its meta file, or its directory's name when that cannot be read. */
function recordName(kind: Kind, directory: string): string {
  try {
    const text = readFileSync(join(directory, META_FILE[kind]), 'utf8');
    return parseJson(join(directory, META_FILE[kind]), text, z.looseObject({ name: z.string() })).name;
  } catch {
    return basename(directory);
  }
}

/** Where a file stands: in a pulled tree (`<root>/<kind>/<record>/<file>.lmx`), or loose. */
export function placeOf(file: string): { root?: string; group?: Kind } {
  const kindDirectory = basename(dirname(dirname(file)));
  if (!(KINDS as readonly string[]).includes(kindDirectory)) return {};
  return { root: dirname(dirname(dirname(file))), group: kindDirectory as Kind };
}

/** Every LMX file of a directory, named as a person knows it, by kind then name. */
export function emailsOf(root: string): TreeEmail[] {
  const tree = isTree(root);
  return lmxFilesUnder(root)
    .map((file): TreeEmail => {
      const path = relative(root, file).split(sep).join('/');
      const parts = path.split('/');
      const group = tree && parts.length === 3 && (KINDS as readonly string[]).includes(parts[0]!) ? (parts[0] as Kind) : undefined;
      if (group === undefined) return { file, path, name: path };
      const version = VERSION_LABELS[basename(file, '.lmx')] ?? basename(file, '.lmx');
      const name = recordName(group, dirname(file));
      return { file, path, group, kind: LMX_KIND_OF[group], name: version === '' ? name : `${name} (${version})` };
    })
    .sort((a, b) => (a.group ?? '~').localeCompare(b.group ?? '~') || a.name.localeCompare(b.name));
}

/**
 * The component directories of a tree, each with the ids it is known by: the id in its name
 * (`components/footer--cmp_1`), and those the state file records for it in each account.
 */
export function componentDirectories(root: string): { entry: string; ids: string[] }[] {
  const state = readState(root);
  return entriesOf(join(root, 'components')).map((entry) => ({
    entry,
    ids: [idOfRecordDirectory(entry), ...Object.values(state?.accounts ?? {}).map((records) => records[`components/${entry}`]?.id)].filter(
      (id) => id !== undefined,
    ),
  }));
}

/**
 * An LMX file's text, read no further than the API's 100 KB limit (a larger file is not read
 * whole), or the problem that stops it being read: too large, not UTF-8. Throws what reading throws.
 */
export function readLmxSource(file: string): { source: string } | { problem: LmxProblem } {
  const descriptor = openSync(file, 'r');
  try {
    const size = fstatSync(descriptor).size;
    if (size > LMX_MAX_BYTES) return { problem: tooLargeProblem(size) };
    // One byte more than the limit: a file that grew since fstat is still found too large.
    const bytes = Buffer.alloc(LMX_MAX_BYTES + 1);
    let length = 0;
    while (length < bytes.length) {
      const read = readSync(descriptor, bytes, length, bytes.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return decodeLmx(bytes.subarray(0, length));
  } finally {
    closeSync(descriptor);
  }
}

/** The components of a tree, parsed, by every id they are known by. */
export function componentsOf(root: string | undefined): Map<string, LmxDocument> {
  const components = new Map<string, LmxDocument>();
  if (root === undefined) return components;
  for (const { entry, ids } of componentDirectories(root)) {
    let read: ReturnType<typeof readLmxSource>;
    try {
      read = readLmxSource(join(root, 'components', entry, 'component.lmx'));
    } catch {
      continue;
    }
    // One too large or not UTF-8 is left out, as one that cannot be read: `content check` reports it.
    if ('problem' in read) continue;
    const { document } = parseLmx(read.source);
    for (const id of ids) components.set(id, document);
  }
  return components;
}

/** The themes of a tree by id, each its styles. */
export function themesOf(root: string | undefined): Map<string, { name: string; styles: Record<string, unknown> }> {
  const themes = new Map<string, { name: string; styles: Record<string, unknown> }>();
  if (root === undefined) return themes;
  for (const entry of entriesOf(join(root, 'themes'))) {
    const id = idOfRecordDirectory(entry);
    if (id === undefined) continue;
    try {
      themes.set(id, readThemeFile(join(root, 'themes', entry, META_FILE.themes)));
    } catch {
      // A theme file that cannot be read is one fewer theme to draw with; `content push` reports it.
    }
  }
  return themes;
}

const themeFile = z.looseObject({ name: z.string().optional(), styles: z.record(z.string(), z.unknown()) });

/** A theme as `content pull` writes it (theme.json) or `themes get --json` prints it: its styles. */
export function readThemeFile(file: string): { name: string; styles: Record<string, unknown> } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new LocalFileError(`cannot read the theme file ${file}: ${(error as Error).message}`);
  }
  const theme = parseJson(file, text, themeFile);
  return { name: theme.name ?? basename(dirname(file)), styles: theme.styles };
}

/** The subject, preview text and fallbacks of the email message an LMX file is the body of (`draft.lmx` -> `draft.json`). */
export function messageFieldsOf(file: string): MessageFields {
  const fieldsFile = join(dirname(file), `${basename(file, '.lmx')}.json`);
  let text: string;
  try {
    text = readFileSync(fieldsFile, 'utf8');
  } catch {
    return { fallbacks: {} };
  }
  const fields = parseJson(fieldsFile, text, messageFields);
  return {
    subject: fields.subject,
    previewText: fields.previewText,
    fallbacks: { contact: fields.contactPropertiesFallbacks, event: fields.eventPropertiesFallbacks, data: fields.dataVariablesFallbacks },
  };
}

/** Where the preview keeps an email's sample values: a hidden file beside it, which pull and push leave alone. */
export function valuesFileOf(file: string): string {
  return join(dirname(file), `.${basename(file, '.lmx')}.values.json`);
}

const NAMESPACED = new Set<string>(['contact', 'event', 'data']);

/**
 * Sample values from JSON: `{"data": {...}, "contact": {...}, "event": {...}}`, or, for an email of
 * one namespace, the values themselves (a transactional send's `dataVariables`).
 */
export function valuesFrom(source: string, value: unknown, kind: LmxKind | undefined): LmxValues {
  const isObject = (candidate: unknown): candidate is Record<string, unknown> =>
    typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate);
  if (!isObject(value))
    throw new UsageError(`${source}: the values must be a JSON object`, {
      hint: 'for example {"data": {"firstName": "Ada"}} or {"contact": {"firstName": "Ada"}}',
    });
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => NAMESPACED.has(key) && isObject(value[key]))) return value as LmxValues;
  const namespace: LmxNamespace | undefined = kind === 'transactional' ? 'data' : kind === 'campaign' ? 'contact' : undefined;
  if (namespace === undefined) {
    throw new UsageError(`${source}: say which variables the values are for`, {
      hint: 'write them by namespace: {"contact": {...}, "event": {...}, "data": {...}}',
    });
  }
  return { [namespace]: value };
}
