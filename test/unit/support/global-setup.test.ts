/**
 * The run's temporary directory (test/support/global-setup.ts): spread over ext4's block groups
 * where it can be, a directory of each test file's own in it, and what is left at the end said.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { leftBehind, spreadOverBlockGroups } from '../../support/global-setup.js';
import { fileDirPrefix, ownerOf, RUN_DIR, RUN_SHARED, sharedByRun, tempDir } from '../../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The file attributes lsattr lists for `dir` itself, or undefined where it cannot list them. */
function attributes(dir: string): string | undefined {
  const listed = spawnSync('lsattr', ['-d', dir], { encoding: 'utf8' });
  return listed.status === 0 ? listed.stdout.split(' ')[0] : undefined;
}

it('marks a directory on ext4 a top directory, so that the directories made in it are spread', (context) => {
  const dir = join(tempDir(), 'run');
  mkdirSync(dir);
  const before = attributes(dir);
  const filesystem = spawnSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' }).stdout?.trim();
  if (before === undefined || filesystem !== 'ext2/ext3') context.skip(`not an ext4 directory that lsattr lists (${filesystem ?? 'no stat'})`);
  expect(before).not.toContain('T');
  spreadOverBlockGroups(dir);
  expect(attributes(dir)).toContain('T');
});

it('leaves a directory whose filesystem has no such attribute as it is, without an error', () => {
  expect(() => spreadOverBlockGroups('/proc')).not.toThrow();
  expect(() => spreadOverBlockGroups(join(tempDir(), 'missing'))).not.toThrow();
});

it("gives each test file a temporary directory of its own, named after it, in the run's", () => {
  const own = basename(tmpdir());
  expect(own.startsWith(fileDirPrefix(ROOT, join(ROOT, 'test/unit/support/global-setup.test.ts')))).toBe(true);
  expect(ownerOf(own)).toBe('test/unit/support/global-setup.test.ts');
  expect(dirname(tempDir())).toBe(tmpdir());
});

it("warns of what is left in the run's directory, by the test file that made it", () => {
  const run = tempDir('run-');
  const left = join(run, `${fileDirPrefix(ROOT, join(ROOT, 'test/e2e/areas/content/preview.test.ts'))}Ab12Cd`);
  mkdirSync(join(left, 'loopsctl-browser-xyz'), { recursive: true });
  mkdirSync(join(run, 'stray'));
  // What the run's files share is the run's own, removed with its directory: said by nothing.
  mkdirSync(join(run, RUN_SHARED, 'convert-corpus'), { recursive: true });
  // A file skipped whole leaves its directory as it was made: said by nothing.
  mkdirSync(join(run, `${fileDirPrefix(ROOT, join(ROOT, 'test/spawned/quickstart.test.ts'))}Ef34Gh`));
  expect(leftBehind(run).sort()).toEqual([
    `warning: ${join(run, 'stray')} was left in the tests' temporary directory by no test file (vitest, or a worker between two files)`,
    `warning: test/e2e/areas/content/preview.test.ts left its temporary directory ${left}, holding loopsctl-browser-xyz: its process ended before the file could remove it`,
  ]);
});

it("makes a directory the run's files share once, in the run's directory, and keeps the first put in place", () => {
  const runDir = process.env[RUN_DIR]!;
  const name = `shared-test-${process.pid}-${Date.now()}`;
  const dir = join(runDir, RUN_SHARED, name);
  try {
    let made = 0;
    const make = (into: string) => {
      made += 1;
      writeFileSync(join(into, 'file'), 'text');
    };
    expect(sharedByRun(name, make)).toBe(dir);
    expect(sharedByRun(name, make)).toBe(dir);
    expect(made).toBe(1);
    expect(readdirSync(dir)).toEqual(['file']);
    rmSync(dir, { recursive: true });
    // Another process puts its own in place while this one makes it: that one is kept, and this one's removed.
    expect(
      sharedByRun(name, (into) => {
        mkdirSync(dir);
        writeFileSync(join(dir, 'theirs'), 'text');
        writeFileSync(join(into, 'ours'), 'text');
      }),
    ).toBe(dir);
    expect(readdirSync(dir)).toEqual(['theirs']);
    expect(readdirSync(join(runDir, RUN_SHARED)).filter((entry) => entry.includes(name))).toEqual([name]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(existsSync(dir)).toBe(false);
});
