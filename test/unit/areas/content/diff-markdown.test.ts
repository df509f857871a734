import { describe, expect, it } from 'vitest';
import { renderDiffMarkdown } from '../../../../src/areas/content/diff-markdown.js';

describe('the Markdown of content diff', () => {
  it('counts the records by kind and action, then gives each its section', () => {
    const text = renderDiffMarkdown('loops', 'Acme', [
      { kind: 'components', name: 'Footer', path: 'components/footer--1', action: 'changed here', patch: '-a\n+b\n' },
      { kind: 'components', name: 'Head|er', path: 'components/header--2', action: 'changed here', patch: '+c\n' },
      { kind: 'themes', name: 'Dark', path: 'themes/dark--3', action: 'only in the account', patch: '-d\n' },
    ]);
    expect(text).toBe(
      [
        '## Content: loops and Acme',
        '| Kind | Action | Records |\n| --- | --- | ---: |\n| components | changed here | 2 |\n| themes | only in the account | 1 |',
        '## Details',
        '### components Footer: changed here\n\n`components/footer--1`\n\n```diff\n-a\n+b\n```',
        '### components Head\\|er: changed here\n\n`components/header--2`\n\n```diff\n+c\n```',
        '### themes Dark: only in the account\n\n`themes/dark--3`\n\n```diff\n-d\n```',
      ].join('\n\n') + '\n',
    );
    expect(renderDiffMarkdown('loops', 'Acme', [])).toBe('## Content: loops and Acme\n\nBoth hold the same content.\n');
  });
});
