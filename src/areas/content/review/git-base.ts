/**
 * A content tree as committed at a git ref (`content review <dir> --base main`), held in memory at
 * a temporary directory's name so that it is read exactly as the working tree is (HeldTree), with
 * no file written for it. git itself reads the commit (`ls-tree`, then `cat-file --batch` for the
 * files' bytes): nothing is checked out, and the working tree and its index are left as they are.
 * Symbolic links are not written (the tree's readers refuse them anyway); only the directory named,
 * as it stood at the ref, is read.
 */
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { UsageError } from '../../../base/errors.js';
import { HeldTree, heldTreesHome } from '../../../base/tree-files.js';

/** The most of a commit's tree read: a content tree is small; a ref of a monorepo's other half would be refused. */
const MAX_TREE_BYTES = 256 * 1024 * 1024;

function git(directory: string, args: string[], input?: string): { status: number | null; stdout: Buffer; stderr: string } {
  const run = spawnSync('git', ['-C', directory, ...args], {
    input,
    maxBuffer: MAX_TREE_BYTES + 1024 * 1024,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (run.error !== undefined)
    throw new UsageError(`--base needs git, which did not run: ${run.error.message}`, {
      hint: 'install git, or review against the account (--against account)',
    });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.toString('utf8').trim() };
}

/** A base tree, and how to release it once read. */
export interface BaseTree {
  root: string;
  commit: string;
  remove: () => void;
}

/** The directory `root` as committed at `ref`, held in memory; a ref git does not know is refused (exit 2). */
export function treeAtRef(root: string, ref: string): BaseTree {
  if (ref.startsWith('-') || ref.trim() === '') throw new UsageError(`--base ${ref}: not a git ref`, { hint: 'name a branch, tag or commit: --base main' });
  // One call asks both: the directory's place in its repository (a line, empty at the top, said only
  // within a repository), then the commit the ref names (a line, when it names one).
  const resolved = git(root, ['rev-parse', '--show-prefix', '--verify', '--quiet', `${ref}^{commit}`]);
  const lines = resolved.stdout.toString('utf8').split('\n');
  if (lines.length < 2)
    throw new UsageError(`--base: ${root} is not in a git repository`, {
      hint: 'run the review in the repository that holds the content tree, or use --against account',
    });
  const commit = lines[1]!.trim();
  if (resolved.status !== 0 || commit === '')
    throw new UsageError(`--base ${ref}: no such branch, tag or commit in this repository`, {
      hint: 'in CI, fetch the base branch first (actions/checkout with fetch-depth: 0, or git fetch origin main) and name it as fetched: --base origin/main',
    });
  const listed = git(root, ['ls-tree', '-r', '-z', '-l', commit, '--', '.']);
  if (listed.status !== 0) throw new UsageError(`--base ${ref}: git could not list the tree: ${listed.stderr}`);
  const files = listed.stdout
    .toString('utf8')
    .split('\0')
    .filter((line) => line !== '')
    .map((line) => {
      const [meta, path] = [line.slice(0, line.indexOf('\t')), line.slice(line.indexOf('\t') + 1)];
      const [mode, type, object, size] = meta.split(/\s+/);
      return { mode: mode!, type: type!, object: object!, size: Number(size), path };
    })
    .filter((entry) => entry.type === 'blob' && entry.mode !== '120000');
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > MAX_TREE_BYTES)
    throw new UsageError(`--base ${ref}: ${root} held ${total} bytes at that commit, more than a content tree (${MAX_TREE_BYTES / 1024 / 1024} MB)`, {
      hint: 'name the content directory itself, not the repository that holds it',
    });
  const base = new HeldTree(join(heldTreesHome('loopsctl-review-base-'), basename(root)));
  const batch = git(root, ['cat-file', '--batch'], files.map((file) => `${file.object}\n`).join(''));
  let offset = 0;
  for (const file of files) {
    const header = batch.stdout.indexOf(10, offset);
    offset = header + 1;
    const bytes = batch.stdout.subarray(offset, offset + file.size);
    offset += file.size + 1;
    // ls-tree names paths from the directory given, as git quotes none with -z.
    if (file.path.split('/').some((part) => part === '..' || part === '')) continue;
    base.writeFile(file.path, bytes);
  }
  return { root: base.root, commit, remove: base.hold() };
}
