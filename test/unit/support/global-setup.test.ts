/** The run's temporary directory (test/support/global-setup.ts): spread over ext4's block groups where it can be. */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spreadOverBlockGroups } from '../../support/global-setup.js';
import { tempDir } from '../../support/temp.js';

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
