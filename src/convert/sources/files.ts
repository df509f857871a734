/**
 * The files `content convert` reads: an email file, or every email file of a directory, each read
 * no further than MAX_SOURCE_BYTES and never through a link (src/base/tree-files.ts); MJML partials
 * only from inside the directory named. A partial that several emails include becomes a component.
 */
import { lstatSync } from 'node:fs';
import { basename, dirname, extname, join, normalize, posix, relative, resolve } from 'node:path';
import { LocalFileError, UsageError } from '../../base/errors.js';
import { readTreeFile, TreeFileTooLargeError, walkTree } from '../../base/tree-files.js';
import type { Place } from '../model.js';
import { COMPONENT_PARENTS } from './mjml-source.js';
import { type MjmlTag, parseMjmlTags } from './mjml-tags.js';
import { MODULE_EXTENSIONS, type ModuleReader } from './react-modules.js';

/** An email file's source is read up to this: the largest real emails are a few hundred KB; a 10 MB page is refused, not read. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

export type SourceFormat = 'mjml' | 'react' | 'html';

// A Handlebars template (.hbs, .handlebars) is HTML with {{ }}: read as HTML, its template language listed as any other's.
const FORMATS: Record<string, SourceFormat> = {
  '.mjml': 'mjml',
  '.tsx': 'react',
  '.jsx': 'react',
  '.html': 'html',
  '.htm': 'html',
  '.hbs': 'html',
  '.handlebars': 'html',
};

export function formatOf(file: string): SourceFormat | undefined {
  return FORMATS[extname(file).toLowerCase()];
}

export interface SourceFile {
  /** Under the root, with `/`. */
  path: string;
  /** As shown: the root joined with the path. */
  file: string;
  format: SourceFormat;
  text: string;
}

/** What was named: the root nothing is read outside of, and the email files under it. */
export interface Sources {
  root: string;
  /** The root as the person named it, which the files' names start with. */
  shown: string;
  files: SourceFile[];
}

/** A file under the root as text: bounded, never through a link, UTF-8 without NUL bytes. */
export function readSource(root: string, path: string): string {
  const shown = join(root, path);
  let bytes: Buffer | undefined;
  try {
    bytes = readTreeFile(root, path, MAX_SOURCE_BYTES);
  } catch (error) {
    if (!(error instanceof TreeFileTooLargeError)) throw error;
    throw new LocalFileError(`${shown} is ${error.size} bytes, more than convert reads of an email (${MAX_SOURCE_BYTES / 1024 / 1024} MB); it was not read`, {
      hint: 'name the email itself: a template is rarely over a few hundred KB (images are linked, not embedded)',
    });
  }
  if (bytes === undefined) throw new LocalFileError(`${shown}: no such file`);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (bytes.includes(0) || text.includes('\ufffd'))
    throw new LocalFileError(`${shown}: not a text file (it holds bytes that are not UTF-8 text)`, {
      hint: 'name an .mjml, .tsx, .jsx or .html file of an email',
    });
  return text;
}

/** The email files a path names: the file itself, or every one under a directory (links refused, hidden entries and node_modules left out). */
export function sourcesOf(path: string): Sources {
  const full = resolve(path);
  const stats = lstatSync(full, { throwIfNoEntry: false });
  if (stats === undefined) throw new UsageError(`${path}: no such file or directory`);
  if (stats.isSymbolicLink()) throw new LocalFileError(`${path} is a symbolic link: convert never reads through a link`, { hint: 'name the file itself' });
  if (stats.isFile()) {
    const format = formatOf(path);
    if (format === undefined)
      throw new UsageError(`${path}: not an email file convert reads`, {
        hint:
          extname(path).toLowerCase() === '.eml'
            ? 'a saved message: save its HTML part as an .html file and convert that (`content check --html` judges the .eml as it is)'
            : 'name an .mjml, .tsx, .jsx, .html, .htm or .hbs file, or a directory of them',
      });
    const root = dirname(full);
    return { root, shown: dirname(path), files: [{ path: basename(full), file: path, format, text: readSource(root, basename(full)) }] };
  }
  const files: SourceFile[] = [];
  const leftOut = (name: string) => name.startsWith('.') || name === 'node_modules';
  for (const entry of walkTree(full, ({ name }) => !leftOut(name))) {
    if (leftOut(entry.name)) continue;
    const relative = entry.path;
    if (entry.kind === 'link')
      throw new LocalFileError(`${join(path, relative)} is a symbolic link: convert never reads through a link`, {
        hint: 'remove the link, or name the files themselves',
      });
    const format = formatOf(entry.name);
    if (entry.kind === 'file' && format !== undefined) files.push({ path: relative, file: join(path, relative), format, text: readSource(full, relative) });
  }
  if (files.length === 0) throw new UsageError(`${path}: no email files (.mjml, .tsx, .jsx, .html, .hbs) in it`);
  return { root: full, shown: path, files: files.sort((a, b) => a.path.localeCompare(b.path)) };
}

/** A path a source names (a partial, an image), from the file that names it, as a path under the root; one outside it is refused, naming the place. */
export function pathUnder(sources: Pick<Sources, 'root' | 'shown'>, path: string, from: Place): string {
  const fromPath = relative(sources.shown, from.file).split('\\').join('/');
  const joined = posix.normalize(posix.join(posix.dirname(fromPath), path.split('\\').join('/')));
  if (joined.startsWith('../') || joined === '..' || posix.isAbsolute(path) || normalize(path).startsWith('/'))
    throw new LocalFileError(`${from.file}:${from.line}:${from.column}: "${path}" names a file outside ${sources.root}`, {
      hint: 'convert reads only files inside the directory it was given: name the directory that holds them all',
    });
  return joined;
}

/** Reads the modules a React template imports its values from: files under the root only, bounded as an email is, never through a link. */
export function moduleReaderOf(sources: Pick<Sources, 'root' | 'shown'>): ModuleReader {
  return (specifier, from) => {
    let base: string;
    try {
      base = pathUnder(sources, specifier, from);
    } catch {
      return undefined;
    }
    for (const extension of MODULE_EXTENSIONS) {
      try {
        return { file: join(sources.shown, base + extension), text: readSource(sources.root, base + extension) };
      } catch {
        // Not there under this name (or not one convert reads): the next name bundlers try.
      }
    }
    return undefined;
  };
}

/** The path of a partial an `<mj-include>` names, under the root (`.mjml` when it names no extension); one outside it is refused. */
export function includeKey(sources: Pick<Sources, 'root' | 'shown'>, includePath: string, from: Place): string {
  let joined: string;
  try {
    joined = pathUnder(sources, includePath, from);
  } catch {
    throw new LocalFileError(`${from.file}:${from.line}:${from.column}: <mj-include path="${includePath}"> names a file outside ${sources.root}`, {
      hint: 'convert reads partials only from inside the directory it was given: name the directory that holds the partials',
    });
  }
  return extname(joined) !== '' ? joined : `${joined}.mjml`;
}

/** The partials each MJML email includes (directly), by key: a partial several emails include becomes a component. */
export function sharedPartials(sources: Sources): { partials: Set<string>; shared: Map<string, string[]> } {
  const users = new Map<string, string[]>();
  const partials = new Set<string>();
  for (const source of sources.files.filter((file) => file.format === 'mjml')) {
    let tags: MjmlTag[];
    try {
      tags = parseMjmlTags(source.text, source.file);
    } catch {
      continue; // Its own conversion reports why.
    }
    // Any file included is no email of its own; an MJML partial at the top of a body may be a component.
    const visit = (list: MjmlTag[], parent: string) => {
      for (const tag of list) {
        if (tag.name === 'mj-include' && tag.attrs.path !== undefined && tag.attrs.type !== 'css') {
          const key = includeKey(sources, tag.attrs.path, tag.at);
          // An email that includes itself stays an email: its conversion refuses the circle, naming the place.
          if (key === source.path) continue;
          partials.add(key);
          if (tag.attrs.type === undefined && COMPONENT_PARENTS.has(parent)) users.set(key, [...new Set([...(users.get(key) ?? []), source.path])]);
        }
        visit(tag.children, tag.name);
      }
    };
    visit(tags, '#root');
  }
  const emails = sources.files.filter((file) => !partials.has(file.path)).map((file) => file.path);
  const shared = new Map([...users].filter(([, by]) => by.filter((user) => emails.includes(user)).length > 1));
  return { partials, shared };
}
