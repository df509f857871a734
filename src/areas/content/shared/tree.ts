/**
 * A pulled content directory read for showing its emails: which LMX files it holds and the email
 * each is the body of (kind, name, subject, fallbacks), the components an email may embed and the
 * themes it may be drawn with. Any other directory is a set of loose .lmx files.
 */

import { basename, dirname, join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
import { LocalFileError, UsageError } from '../../../base/errors.js';
import { isJsonObject } from '../../../base/json-object.js';
import { z } from '../../../base/shapes.js';
import { readTreeFile, readTreeFileAsync, TreeFileTooLargeError, treeHasEntry } from '../../../base/tree-files.js';
import { type LmxDocument, type LmxKind, type LmxNamespace, parseLmx } from '../../../lmx/index.js';
import type { LmxValues } from '../../../lmx/render/index.js';
import { fallbacksOf } from '../../../platform/email-messages/fallbacks.js';
import { FALLBACKS_SHAPE } from '../../../platform/email-messages/schemas.js';
import { WORKFLOW_FILE } from '../../../platform/workflows/file.js';
import { type EnvValues, fillJson, fillLmx } from './env-values.js';
import { type EmailDirectory, KINDS, parseJson, readState, STATE_FILE, shownEntries } from './files.js';
import { placeOf, readLmxSourceAsync, type TreeGroup, WORKFLOWS } from './lmx-files.js';
import { META_FILE } from './record-files.js';

/** How a record's LMX files are named in a list: `draft.lmx` is the draft. */
const VERSION_LABELS: Record<string, string> = { draft: 'draft', published: 'published', email: '', component: '' };

/** One LMX file of a tree. */
export interface TreeEmail {
  file: string;
  /** From the tree's root, with `/`: `transactional/welcome--cx1/draft.lmx`. */
  path: string;
  /** The directory kind it is in (a workflow's emails are in `workflows`), or undefined for a loose file. */
  group?: TreeGroup;
  kind?: LmxKind;
  /** The record's name and, for a transactional email, which version: `Welcome (draft)`. */
  name: string;
}

/** The fields of an email message that showing it needs, from the JSON file beside its LMX. */
const messageFields = z.looseObject({
  subject: z.optional(z.string()),
  previewText: z.optional(z.string()),
  ...FALLBACKS_SHAPE,
});

export interface MessageFields {
  subject?: string;
  previewText?: string;
  fallbacks: Partial<Record<LmxNamespace, Record<string, string>>>;
  /** Every field of the file whose value is text, by name: the sender's too (`fromName`…), which a review shows. */
  texts: Record<string, string>;
  /** Whether the fields file is there: without one, what the message says (its languageCode) is not known. */
  read: boolean;
}

/** A record's JSON files are a few fields; a theme's styles, a few dozen. */
const MAX_JSON_FILE_BYTES = 1024 * 1024;

/**
 * A file of the tree as text, never through a link (src/base/tree-files.ts), at most `limit`
 * bytes; undefined when it is not there. Read asynchronously: the preview answers others meanwhile.
 */
async function readTreeText(root: string, path: string, limit = MAX_JSON_FILE_BYTES): Promise<string | undefined> {
  try {
    return (await readTreeFileAsync(root, path, limit))?.toString('utf8');
  } catch (error) {
    if (!(error instanceof TreeFileTooLargeError)) throw error;
    throw new LocalFileError(`${error.file} is ${error.size} bytes, more than loopsctl reads of it (${limit / 1024} KB); it was not read`, {
      hint: 'it is not a file `content pull` wrote: remove it, or pull again',
    });
  }
}

/** Whether a directory is one `content pull` wrote: it has the state file or a kind's directory. */
export function isTree(directory: string): boolean {
  return [STATE_FILE, ...KINDS, 'workflows'].some((name) => treeHasEntry(directory, name));
}

/**
 * The .lmx files under a directory, in a stable order; hidden entries are left out, and so are
 * symbolic links unless `links` (a check lists them, to refuse them by name).
 */
export function lmxFilesUnder(directory: string, links = false): string[] {
  const files: string[] = [];
  const pending = [''];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const below: string[] = [];
    for (const { name, kind } of shownEntries(directory, current)) {
      const path = current === '' ? name : `${current}/${name}`;
      if (kind === 'directory') below.push(path);
      else if ((kind === 'file' || (links && kind === 'link')) && name.endsWith('.lmx')) files.push(join(directory, path));
    }
    pending.push(...below.reverse());
  }
  return files.sort();
}

/** `components/footer--cmp_1` -> `cmp_1`. */
function idOfRecordDirectory(name: string): string | undefined {
  const at = name.lastIndexOf('--');
  return at < 0 ? undefined : name.slice(at + 2);
}

/**
 * A workflow email as a person knows it: its workflow's name and its subject (`Welcome series:
 * Welcome aboard, {contact.firstName}`), each the directory's name where its file does not say.
 */
function workflowEmailName(root: string, directory: string, nameOfWorkflow: (directory: string) => string): string {
  const subject = fieldOf(root, `${directory}/email.json`, (text) => (JSON.parse(text) as { subject?: unknown }).subject);
  return `${nameOfWorkflow(dirname(dirname(directory)))}: ${subject ?? basename(directory)}`;
}

/** A workflow's name, from its file, or its directory's name where the file does not say. */
function workflowName(root: string, directory: string): string {
  return fieldOf(root, `${directory}/${WORKFLOW_FILE}`, nameInWorkflowFile) ?? basename(directory);
}

/**
 * The names read of workflow files, by the file's text: a run reads the same files in several
 * trees (a push's review, the account's side and the pushed one), and parsing one is most of what
 * naming its emails costs. Emptied when full, in files or in the characters its keys hold (a
 * workflow of thousands of nodes is megabytes), for a process that reads many trees (the preview server).
 */
const namesByText = new Map<string, unknown>();
let charactersKept = 0;
const MAX_KEPT_NAMES = 64;
const MAX_KEPT_CHARACTERS = 4 * 1024 * 1024;

function nameInWorkflowFile(text: string): unknown {
  if (!namesByText.has(text)) {
    if (namesByText.size >= MAX_KEPT_NAMES || charactersKept + text.length > MAX_KEPT_CHARACTERS) {
      namesByText.clear();
      charactersKept = 0;
    }
    const name = parseDocument(text).get('name');
    namesByText.set(text, typeof name === 'string' ? name : undefined);
    charactersKept += text.length;
  }
  return namesByText.get(text);
}

/** A text field of a file of the tree, or undefined when the file is not there, not read or has none. */
function fieldOf(root: string, path: string, field: (text: string) => unknown): string | undefined {
  try {
    const value = field(readTreeFile(root, path, MAX_JSON_FILE_BYTES)?.toString('utf8') ?? '');
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A record's meta file, for its name: made once, not for each record named. */
const namedRecord = z.looseObject({ name: z.string() });

/** The name a record keeps in its meta file, or its directory's name when that cannot be read (a link there is refused). */
function recordName(kind: EmailDirectory, root: string, directory: string): string {
  const path = `${directory}/${META_FILE[kind]}`;
  let bytes: Buffer | undefined;
  try {
    bytes = readTreeFile(root, path, MAX_JSON_FILE_BYTES);
  } catch (error) {
    if (error instanceof TreeFileTooLargeError) return basename(directory);
    throw error;
  }
  try {
    return parseJson(join(root, path), bytes?.toString('utf8') ?? '', namedRecord).name;
  } catch {
    return basename(directory);
  }
}

/**
 * Where a file is read or written without following a link: below its tree's root (each of the
 * kind's and the record's directories looked at too), or for a loose file, in its own directory.
 */
export function placeInTree(file: string): { root: string; path: string } {
  const { root } = placeOf(file);
  return root === undefined ? { root: dirname(file), path: basename(file) } : { root, path: relative(root, file) };
}

/**
 * The record a tree's email file is the body of, as `check` and the rules file name it
 * (`transactional/Password reset`, `campaign/Launch`, `workflow/Welcome series`); undefined for a
 * loose file.
 */
export function recordOfFile(file: string): string | undefined {
  const { root, group } = placeOf(file);
  if (root === undefined || group === undefined || group === 'components' || group === 'themes') return undefined;
  const directory = relative(root, dirname(file)).split(sep).join('/');
  if (group === WORKFLOWS) return `workflow/${workflowName(root, dirname(dirname(directory)))}`;
  return `${group === 'campaigns' ? 'campaign' : 'transactional'}/${recordName(group, root, directory)}`;
}

/** Every LMX file of a directory, named as a person knows it, by kind then name. */
export function emailsOf(root: string): TreeEmail[] {
  const tree = isTree(root);
  // A workflow's file is parsed once, however many emails it holds: a workflow's YAML is long.
  const workflowNames = new Map<string, string>();
  const nameOfWorkflow = (directory: string): string => {
    const name = workflowNames.get(directory) ?? workflowName(root, directory);
    workflowNames.set(directory, name);
    return name;
  };
  return lmxFilesUnder(root)
    .map((file): TreeEmail => {
      const path = relative(root, file).split(sep).join('/');
      const { root: placeRoot, group, kind } = placeOf(file);
      // A record of this tree, not of one nested in it.
      if (!tree || group === undefined || placeRoot !== join(root)) return { file, path, name: path };
      if (group === WORKFLOWS) return { file, path, group, kind, name: workflowEmailName(root, dirname(path), nameOfWorkflow) };
      const version = VERSION_LABELS[basename(file, '.lmx')] ?? basename(file, '.lmx');
      const name = recordName(group, root, dirname(path));
      return { file, path, group, kind, name: version === '' ? name : `${name} (${version})` };
    })
    .sort((a, b) => (a.group ?? '~').localeCompare(b.group ?? '~') || a.name.localeCompare(b.name));
}

/**
 * The component or theme directories of a tree, each with the names an email's LMX may know it by:
 * the directory's own name (`footer--cmp_1`, as a pull writes it in LMX), the id in its name, and
 * those the state file records for it in each account.
 */
export function recordDirectories(root: string, kind: 'components' | 'themes' = 'components'): { entry: string; ids: string[] }[] {
  const state = readState(root);
  return shownEntries(root, kind).map(({ name: entry }) => ({
    entry,
    ids: [entry, idOfRecordDirectory(entry), ...Object.values(state?.accounts ?? {}).map((records) => records[`${kind}/${entry}`]?.id)].filter(
      (id) => id !== undefined,
    ),
  }));
}

/**
 * The components of a tree, parsed, by every name their LMX may know them by (recordDirectories). One that is not there, not
 * UTF-8, or larger than the API takes is left out (its own check says why); a link is refused.
 */
export async function componentsOf(root: string | undefined, values?: EnvValues): Promise<Map<string, LmxDocument>> {
  const components = new Map<string, LmxDocument>();
  if (root === undefined) return components;
  for (const { entry, ids } of recordDirectories(root)) {
    // One too large or not UTF-8 is left out, as one that is not there: `content check` reports it.
    const read = await readLmxSourceAsync(root, `components/${entry}/component.lmx`);
    if (read === undefined || 'problem' in read) continue;
    const { document } = parseLmx(values === undefined ? read.source : fillLmx(read.source, values));
    for (const id of ids) components.set(id, document);
  }
  return components;
}

/** The themes of a tree by every name an email's LMX may know them by (recordDirectories), each its styles. */
export async function themesOf(root: string | undefined): Promise<Map<string, { name: string; styles: Record<string, unknown> }>> {
  const themes = new Map<string, { name: string; styles: Record<string, unknown> }>();
  if (root === undefined) return themes;
  for (const { entry, ids } of recordDirectories(root, 'themes')) {
    const path = `themes/${entry}/${META_FILE.themes}`;
    // Read here, so that a link is refused; a theme file that does not parse is one fewer theme to draw with, which `content push` reports.
    const text = await readTreeText(root, path);
    try {
      if (text !== undefined) {
        const theme = themeOf(join(root, path), text);
        for (const id of ids) themes.set(id, theme);
      }
    } catch {
      // One fewer theme to draw with.
    }
  }
  return themes;
}

const themeFile = z.looseObject({ name: z.optional(z.string()), styles: z.record(z.string(), z.unknown()) });

/**
 * A theme as `content pull` writes it (theme.json) or `themes get --json` prints it: its styles.
 * The file is `path` under `root`, read without following a link there.
 */
export async function readThemeFile(root: string, path: string): Promise<{ name: string; styles: Record<string, unknown> }> {
  const file = join(root, path);
  const text = await readTreeText(root, path);
  if (text === undefined) throw new LocalFileError(`cannot read the theme file ${file}: no such file`);
  return themeOf(file, text);
}

function themeOf(file: string, text: string): { name: string; styles: Record<string, unknown> } {
  const theme = parseJson(file, text, themeFile);
  return { name: theme.name ?? basename(dirname(file)), styles: theme.styles };
}

/**
 * The subject, preview text and fallbacks of the email message an LMX file is the body of
 * (`draft.lmx` -> `draft.json`), with an environment's values filled when given.
 */
export async function messageFieldsOf(file: string, values?: EnvValues): Promise<MessageFields> {
  const fieldsFile = join(dirname(file), `${basename(file, '.lmx')}.json`);
  const place = placeInTree(fieldsFile);
  const text = await readTreeText(place.root, place.path);
  if (text === undefined) return { fallbacks: {}, texts: {}, read: false };
  const fields = parseJson(fieldsFile, values === undefined ? text : fillJson(text, values), messageFields);
  return {
    subject: fields.subject,
    previewText: fields.previewText,
    fallbacks: fallbacksOf(fields),
    texts: Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
    read: true,
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
  if (!isJsonObject(value))
    throw new UsageError(`${source}: the values must be a JSON object`, {
      hint: 'for example {"data": {"firstName": "Ada"}} or {"contact": {"firstName": "Ada"}}',
    });
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((key) => NAMESPACED.has(key) && isJsonObject(value[key]))) return value as LmxValues;
  const namespace: LmxNamespace | undefined = kind === 'transactional' ? 'data' : kind === 'campaign' ? 'contact' : undefined;
  if (namespace === undefined) {
    throw new UsageError(`${source}: say which variables the values are for`, {
      hint: 'write them by namespace: {"contact": {...}, "event": {...}, "data": {...}}',
    });
  }
  return { [namespace]: value };
}
