import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownRootOf, treeAbove } from '../../../../../src/areas/content/shared/lmx-files.js';

describe('the tree a path inside one is in', () => {
  it('finds the root above a record, a kind, a workflow and their files, and none for a root or a loose path', () => {
    const root = resolve('/work/site/loops');
    for (const inside of [
      'transactional',
      'transactional/password-reset--c1',
      'transactional/password-reset--c1/draft.lmx',
      'campaigns/launch--c2/draft.json',
      'workflows',
      'workflows/welcome--c3',
      'workflows/welcome--c3/workflow.yaml',
      'workflows/welcome--c3/emails/hello--c4/email.lmx',
    ])
      expect(treeAbove(join(root, inside)), inside).toBe(root);
    expect(treeAbove(root)).toBeUndefined();
    expect(treeAbove('/work/site/notes/a.lmx')).toBeUndefined();
    // No further up than a tree's files lie: a folder named like a kind far above is no tree's.
    expect(treeAbove('/work/transactional/a/b/c/d/e/f.lmx')).toBeUndefined();
  });

  it('spells the root as the path named inside it does', () => {
    const root = resolve('loops');
    expect(shownRootOf('loops/transactional/reset--c1', root)).toBe('loops');
    expect(shownRootOf('./loops/workflows/welcome--c3/emails/hello--c4', root)).toBe('loops');
    expect(join(shownRootOf('transactional/reset--c1', resolve('.')), 'transactional/reset--c1/draft.lmx')).toBe('transactional/reset--c1/draft.lmx');
    expect(shownRootOf('/abs/loops/transactional', '/abs/loops')).toBe('/abs/loops');
  });
});
