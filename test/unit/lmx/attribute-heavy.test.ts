import { describe, expect, it } from 'vitest';
import { parseLmx, validateLmx } from '../../../src/lmx/index.js';

/**
 * One tag of 1.3 MB: 130,000 attributes. Parsed in time proportional to its size it takes well
 * under a second; compared with every attribute before it (the duplicate check), as it once was,
 * it takes minutes, past the test's timeout. The time itself is `npm run bench`'s to show.
 */
const COUNT = 130_000;
const heavyTag = (names: (index: number) => string) =>
  `<Paragraph ${Array.from({ length: COUNT }, (_, index) => `${names(index)}="x"`).join(' ')}>hi</Paragraph>`;

describe('a tag with a great many attributes', () => {
  it('is parsed and validated whole, each attribute once', () => {
    const source = heavyTag((index) => `a${index}`);
    expect(source.length).toBeGreaterThan(1_300_000);
    const { document, problems } = parseLmx(source);
    expect(problems).toEqual([]);
    const paragraph = document.children[0]!;
    expect(paragraph.kind === 'element' && paragraph.attributes.length).toBe(COUNT);
    // Each is a warning of its own: the validator too is linear in them.
    expect(validateLmx(document).filter((problem) => problem.rule === 'unknown-attribute')).toHaveLength(COUNT);
  });

  it('still finds a duplicate, however far apart the two are', () => {
    const source = heavyTag((index) => (index === COUNT - 1 ? 'a0' : `a${index}`));
    const { document, problems } = parseLmx(source);
    expect(problems.map((problem) => [problem.rule, problem.message])).toEqual([['duplicate-attribute', 'a0 is given twice on <Paragraph>']]);
    const paragraph = document.children[0]!;
    expect(paragraph.kind === 'element' && paragraph.attributes.length).toBe(COUNT - 1);
  });
});
