/** The types of what src/build/staged-dir.mjs exports, for its tests (test/unit/build/staged-dir.test.ts). */

export interface Staged {
  /** Where the tree will be, once renamed into place. */
  target: string;
  /** The staging directory beside the target. */
  staged: string;
  /** Where the new tree is made, in `staged`. */
  dir: string;
  /** Renames the old tree away and the new one into the target. */
  replace(): void;
  /** Removes the staging directory and what is left in it. */
  remove(): void;
}

export declare function stageBeside(target: string): Staged;
