/**
 * An app's source scanned for what it uses of the account: JS and TS with Babel's parser, the rest
 * with a tokenizer. A file that names nothing a scanner looks for (mayHoldUses) is passed over
 * before it is parsed: in most apps, nineteen files in twenty.
 */
import { extname } from 'node:path';
// A bundle of its own (src/build/build.mjs), required when this module first runs: only with --code.
import { parse } from '@babel/parser';
import { JS_EXTENSIONS, sourceFiles } from './files.js';
import { javascriptUses } from './javascript.js';
import { tokenUses } from './tokens.js';
import { type CodeScan, type FileScan, mayHoldUses, type ScanSteps } from './uses.js';

/** One file's uses, read by the scanner of its language, whatever it names. */
export function scanFile(path: string, text: string, steps?: ScanSteps): FileScan {
  return JS_EXTENSIONS.has(extname(path)) ? javascriptUses(parse as never, path, text) : tokenUses(path, text, steps);
}

export function scanCode(directories: readonly string[]): CodeScan {
  const scan: CodeScan = { uses: [], skipped: [], filesScanned: 0, filesPassed: 0 };
  for (const { path, text } of sourceFiles(directories, scan.skipped)) {
    if (!mayHoldUses(text)) {
      scan.filesPassed++;
      continue;
    }
    scan.filesScanned++;
    const { uses, unread } = scanFile(path, text);
    for (const use of uses) scan.uses.push(use);
    if (unread !== undefined) scan.skipped.push({ path, reason: unread });
  }
  return scan;
}
