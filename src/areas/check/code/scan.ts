/** An app's source scanned for what it uses of the account: JS and TS with Babel's parser, the rest with a tokenizer. */
import { extname } from 'node:path';
// A bundle of its own (src/build/build.mjs), required when this module first runs: only with --code.
import { parse } from '@babel/parser';
import { JS_EXTENSIONS, sourceFiles } from './files.js';
import { javascriptUses } from './javascript.js';
import { tokenUses } from './tokens.js';
import type { CodeScan } from './uses.js';

export function scanCode(directories: readonly string[]): CodeScan {
  const scan: CodeScan = { uses: [], skipped: [], filesScanned: 0 };
  for (const { path, text } of sourceFiles(directories, scan.skipped)) {
    scan.filesScanned++;
    const uses = JS_EXTENSIONS.has(extname(path)) ? javascriptUses(parse as never, path, text) : tokenUses(path, text);
    scan.uses.push(...uses);
  }
  return scan;
}
