/** A directory laid out as `content pull` lays it out, for tests of the commands that read one. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './temp.js';

/** A new `loops` directory holding these files (paths relative to it); removed after the test file. */
export function contentTree(files: Record<string, string | Buffer>): string {
  return filesIn(join(tempDir('loopsctl-content-'), 'loops'), files);
}

/** A new directory holding these files (an app's repository, emails to convert); removed after the test file. */
export function directoryOf(files: Record<string, string | Buffer>, prefix = 'loopsctl-files-'): string {
  return filesIn(tempDir(prefix), files);
}

function filesIn(root: string, files: Record<string, string | Buffer>): string {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
