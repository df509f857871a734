/**
 * A directory made whole beside its place, then renamed into it: what reads the place meanwhile
 * (a run of the CLI in another shell while `npm test` builds dist/) finds the old tree whole,
 * never a half-written one. The new tree is made in a `.build-*` directory beside the place, on
 * the same file system, where a rename moves a whole tree in one step.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * A staging directory beside `target` (`staged`), with the new tree's directory in it (`dir`) and
 * room for whatever else making it needs; `target`, where the tree will be. `replace` renames the old tree away and the new one in:
 * between the two renames, and only then, there is nothing at `target` (a directory with files
 * cannot be renamed over). `remove` removes the staging directory and what is left in it.
 */
export function stageBeside(target) {
  const staged = mkdtempSync(join(dirname(target), '.build-'));
  const dir = join(staged, basename(target));
  mkdirSync(dir);
  return {
    target,
    staged,
    dir,
    replace() {
      try {
        renameSync(target, join(staged, 'old'));
      } catch (error) {
        if (error.code !== 'ENOENT') throw error;
      }
      renameSync(dir, target);
    },
    remove() {
      rmSync(staged, { recursive: true, force: true });
    },
  };
}
