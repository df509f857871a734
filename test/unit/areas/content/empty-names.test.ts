/**
 * The records of a content tree are matched with the account's by name, and created with it: a
 * record file whose name is empty (an email's, a segment's, a group's) is refused where the tree is
 * read, naming the file, rather than pushed as a record nobody can find again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAudience } from '../../../../src/areas/content/audience/files.js';
import { readRecords } from '../../../../src/areas/content/shared/record-files.js';
import { LocalFileError } from '../../../../src/base/errors.js';
import { tempDir } from '../../../support/temp.js';

/** A tree holding one file, at `path` from its root. */
function treeWith(path: string, text: string): string {
  const root = tempDir('loopsctl-empty-names-');
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
  return root;
}

function refusal(read: () => unknown): LocalFileError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(LocalFileError);
    return error as LocalFileError;
  }
  throw new Error('the tree was read');
}

describe('a record file of the tree with an empty name', () => {
  it.each([
    ['transactional', 'transactional/welcome--c1/transactional.json'],
    ['campaigns', 'campaigns/november--c2/campaign.json'],
  ] as const)('is refused for an email record (%s), naming its file', (kind, path) => {
    const root = treeWith(path, '{ "name": "" }\n');
    expect(refusal(() => readRecords(root, [kind])).message).toMatch(new RegExp(`^${join(root, path)}: name: `));
    expect(readRecords(treeWith(path, '{ "name": "Welcome" }\n'), [kind]).map((record) => record.name)).toEqual(['Welcome']);
  });

  it.each([
    ['a segment', 'segments/dormant--c3/segment.json'],
    ['a group of transactional emails', 'groups/transactional/receipts--c4/group.json'],
  ])('is refused for %s, naming its file', (_what, path) => {
    const root = treeWith(path, '{ "name": "", "filter": null }\n');
    expect(refusal(() => readAudience(root)).message).toMatch(new RegExp(`^${join(root, path)}: name: `));
  });
});
