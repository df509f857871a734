import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ContentState, digestOf } from '../../../../src/areas/content/shared/files.js';
import { accountFiles, heldAt, LmxNames, lackingWords, lmxNames, nameRecords } from '../../../../src/areas/content/shared/lmx-names.js';
import { tempDir } from '../../../support/main.js';

/** A tree with these record directories. */
function tree(...directories: string[]): string {
  const root = tempDir('loopsctl-lmx-names-');
  for (const directory of directories) mkdirSync(join(root, directory), { recursive: true });
  return root;
}
/** A state knowing footer--a1 in two accounts, paper--t1 in one. */
const STATE: ContentState = {
  format: 1,
  kinds: ['components', 'themes', 'transactional'],
  accounts: {
    A: {
      'components/footer--a1': { id: 'a1', digest: 'x' },
      'themes/paper--t1': { id: 't1', digest: 'x' },
      'transactional/welcome--w1': { id: 'w1', digest: 'x' },
    },
    B: { 'components/footer--a1': { id: 'b1', digest: 'x' } },
  },
};

describe('the names of components and themes in LMX', () => {
  const names = () => lmxNames(tree('components/footer--a1', 'components/header--a2', 'themes/paper--t1', 'components/.hidden'), STATE, 'B');

  it("writes the account's ids as the tree's directories, byte for byte around them", () => {
    const source = '<Style themeId=\'t9\' />\n<Component   componentId="b1" />\n<Paragraph>componentId="b1"</Paragraph>\n';
    expect(names().toTree(source, false)).toBe('<Style themeId=\'t9\' />\n<Component   componentId="footer--a1" />\n<Paragraph>componentId="b1"</Paragraph>\n');
    // An id of another account is the tree's own files' alone: the account's LMX names its own records.
    expect(names().toTree('<Component componentId="a1" />', false)).toBe('<Component componentId="a1" />');
    expect(names().toTree('<Component componentId="a1" />', true)).toBe('<Component componentId="footer--a1" />');
    // A directory renamed since is known by the id its old name ends in.
    expect(names().toTree('<Component componentId="old-footer--a2" />', true)).toBe('<Component componentId="header--a2" />');
    // A value written with a character reference, and an id the tree knows nothing of, stay as they are.
    expect(names().toTree('<Component componentId="b&#49;" />', false)).toBe('<Component componentId="b&#49;" />');
    expect(names().toTree('<Component componentId="zz" />', true)).toBe('<Component componentId="zz" />');
  });

  it("sends the account's id for each directory, and names those it has none for", () => {
    const made = names();
    expect(made.toAccount('<Component componentId="footer--a1" />\n<Component componentId="a1" />')).toEqual({
      source: '<Component componentId="b1" />\n<Component componentId="b1" />',
      missing: [],
      making: [],
    });
    expect(made.toAccount('<Style themeId="paper--t1" />\n<Component componentId="header--a2" />\n<Component componentId="zz" />')).toEqual({
      source: '<Style themeId="paper--t1" />\n<Component componentId="header--a2" />\n<Component componentId="zz" />',
      missing: ['themes/paper--t1', 'components/header--a2'],
      making: [],
    });
    // One the push makes: a stand-in until it is made, then its new id.
    made.making('components/header--a2');
    expect(made.toAccount('<Component componentId="header--a2" />')).toEqual({
      source: '<Component componentId="(made by this push) components/header--a2" />',
      missing: [],
      making: ['components/header--a2'],
    });
    made.learn('components/header--a2', 'b2');
    expect(made.toAccount('<Component componentId="header--a2" />').source).toBe('<Component componentId="b2" />');
    expect(made.makingPaths()).toEqual(['components/header--a2']);
  });

  it('reads records in place, keeping the files as they were, whose digest an older state holds', () => {
    const record = {
      files: new Map([
        ['draft.lmx', '<Component componentId="b1" />\n'],
        ['draft.json', '{}\n'],
      ]),
    };
    const before = record.files;
    nameRecords([record], names(), false);
    expect(record.files.get('draft.lmx')).toBe('<Component componentId="footer--a1" />\n');
    expect((record as { withIds?: Map<string, string> }).withIds).toBe(before);
    expect(heldAt(record, digestOf(before))).toBe(true);
    expect(heldAt(record, digestOf(record.files))).toBe(true);
    expect(heldAt(record, undefined)).toBe(false);
    const plain = { files: new Map([['component.lmx', '<Paragraph>Hi</Paragraph>\n']]) };
    nameRecords([plain], names(), true);
    expect(plain).toEqual({ files: new Map([['component.lmx', '<Paragraph>Hi</Paragraph>\n']]) });
    const sent = accountFiles(record.files, names());
    expect(sent.files.get('draft.lmx')).toBe('<Component componentId="b1" />\n');
    expect(sent.files.get('draft.json')).toBe('{}\n');
  });

  it('says which file names which record the account lacks', () => {
    const { missing } = accountFiles(new Map([['draft.lmx', '<Style themeId="paper--t1" />\n<Component componentId="header--a2" />']]), names());
    expect(lackingWords(missing, 'B')).toBe(
      'draft.lmx names themes/paper--t1 and components/header--a2, which B does not have and this push does not make: nothing of it was sent; push them with it (their kind in --only too), or name one the account has',
    );
    expect(new LmxNames().toAccount('<Component componentId="x" />').source).toBe('<Component componentId="x" />');
  });
});
