/**
 * The source files under the directories `--code` names: walked without recursion (a tree of
 * 100,000 files is a loop, not a deep stack), symlinks never followed (they may point out of the
 * tree), dependencies and hidden directories left out, and files over a size bound skipped with a
 * note rather than read whole.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { LocalFileError } from '../base/errors.js';
import type { CodeScan } from './uses.js';

/** Larger source files are generated or bundled: skipped, and said so. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

export const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
export const OTHER_EXTENSIONS = new Set(['.py', '.rb', '.go', '.php']);

/** Directories that hold what the app installs or builds, not what it writes. */
const LEFT_OUT = new Set(['node_modules', 'vendor', 'dist', 'build', '__pycache__', 'venv']);

export interface SourceFile {
  path: string;
  text: string;
}

/** Every source file under the directories, read; invalid UTF-8 becomes U+FFFD, so a stray byte costs nothing. */
export function* sourceFiles(directories: readonly string[], skipped: CodeScan['skipped']): Generator<SourceFile> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  for (const directory of directories) {
    let top;
    try {
      top = lstatSync(directory);
    } catch (error) {
      throw new LocalFileError(`--code ${directory}: ${(error as Error).message}`, { cause: error });
    }
    if (!top.isDirectory()) throw new LocalFileError(`--code ${directory}: not a directory`, { hint: "name the app's source directory" });
    const pending = [directory];
    while (pending.length > 0) {
      const current = pending.pop()!;
      const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const path = join(current, entry.name);
        if (entry.isSymbolicLink()) {
          skipped.push({ path, reason: 'a symbolic link, not followed' });
        } else if (entry.isDirectory()) {
          if (!entry.name.startsWith('.') && !LEFT_OUT.has(entry.name)) pending.push(path);
        } else if (entry.isFile() && (JS_EXTENSIONS.has(extname(entry.name)) || OTHER_EXTENSIONS.has(extname(entry.name)))) {
          const size = lstatSync(path).size;
          if (size > MAX_SOURCE_BYTES)
            skipped.push({ path, reason: `${Math.ceil(size / 1024 / 1024)} MB, over the ${MAX_SOURCE_BYTES / 1024 / 1024} MB read` });
          else yield { path, text: decoder.decode(readFileSync(path)) };
        }
      }
    }
  }
}
