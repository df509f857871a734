/**
 * The blocks of two sides of an email paired as a diff pairs lines: an insertion is an insertion,
 * a block drawn the same elsewhere has moved, a component edited is changed wherever it stands.
 */
import { describe, expect, it } from 'vitest';
import { bodyOf } from '../../../../../src/areas/content/review/blocks.js';
import { changedBlocks, likeness } from '../../../../../src/areas/content/review/pairs.js';
import { parseLmx } from '../../../../../src/lmx/index.js';
import { renderLmx } from '../../../../../src/lmx/render/index.js';

const FOOTER = parseLmx('<Divider />\n<Paragraph align="center">Acme Inc · 1 Main Street</Paragraph>').document;
const FOOTER_MOVED = parseLmx('<Divider />\n<Paragraph align="center">Acme Inc · 2 Market Square</Paragraph>').document;

/** The blocks an email's LMX draws, with the footer component (cmp2) as given. */
function blocks(lmx: string, footer = FOOTER) {
  return bodyOf(renderLmx(parseLmx(lmx).document, { components: new Map([['cmp2', footer]]) })).blocks;
}

const EMAIL = [
  '<H1>Welcome</H1>',
  '<Paragraph>Thanks for joining Acme. Your workspace is ready whenever you are.</Paragraph>',
  '<Button href="https://acme.example/start">Open your workspace</Button>',
  '<Component componentId="cmp2" />',
].join('\n');

const pairsOf = (before: string, after: string, footer = FOOTER) =>
  changedBlocks(blocks(before), blocks(after, footer)).map(({ change, before: at, after: to, tag, componentId, moved }) => ({
    change,
    at,
    to,
    tag,
    ...(componentId === undefined ? {} : { componentId }),
    ...(moved === undefined ? {} : { moved }),
  }));

describe('the blocks of two sides, paired', () => {
  it('a paragraph reworded, one inserted before the component, the component edited: one changed, one added, the component changed', () => {
    const after = EMAIL.replace('Thanks for joining', 'Thank you for joining').replace(
      '<Component',
      '<Paragraph>Questions? Reply to this email and a person will answer.</Paragraph>\n<Component',
    );
    expect(pairsOf(EMAIL, after, FOOTER_MOVED)).toEqual([
      { change: 'changed', at: 1, to: 1, tag: 'Paragraph' },
      { change: 'added', at: undefined, to: 3, tag: 'Paragraph' },
      { change: 'changed', at: 3, to: 4, tag: 'Component', componentId: 'cmp2' },
    ]);
  });

  it('a paragraph inserted before another: added, and the one after it unchanged', () => {
    const after = EMAIL.replace('<Paragraph>', '<Paragraph>A word first.</Paragraph>\n<Paragraph>');
    expect(pairsOf(EMAIL, after)).toEqual([{ change: 'added', at: undefined, to: 1, tag: 'Paragraph' }]);
  });

  it('a block drawn the same in another place: moved, and nothing else', () => {
    const after = ['<H1>Welcome</H1>', '<Button href="https://acme.example/start">Open your workspace</Button>'].join('\n');
    const moved = `${after}\n<Paragraph>Thanks for joining Acme. Your workspace is ready whenever you are.</Paragraph>\n<Component componentId="cmp2" />`;
    expect(pairsOf(EMAIL, moved)).toEqual([{ change: 'moved', at: 1, to: 2, tag: 'Paragraph' }]);
  });

  it('a section drawn as the component draws: never moved to or from the component, nor the same block in its place', () => {
    const section = '<Section><Divider />\n<Paragraph align="center">Acme Inc · 1 Main Street</Paragraph></Section>';
    const inline = EMAIL.replace('<Component componentId="cmp2" />', section);
    expect(blocks(inline)[3]!.html).toBe(blocks(EMAIL)[3]!.html);
    // The section moved to the top and the component put where it stood: one removed, one added, each its own tag.
    const moved = `${section}\n${EMAIL}`;
    expect(pairsOf(inline, moved)).toEqual([
      { change: 'moved', at: 3, to: 0, tag: 'Section' },
      { change: 'added', at: undefined, to: 4, tag: 'Component', componentId: 'cmp2' },
    ]);
    expect(pairsOf(EMAIL, `${section}\n${EMAIL.replace('\n<Component componentId="cmp2" />', '')}`)).toEqual([
      { change: 'added', at: undefined, to: 0, tag: 'Section' },
      { change: 'removed', at: 3, to: undefined, tag: 'Component', componentId: 'cmp2' },
    ]);
    expect(pairsOf(EMAIL, inline).map(({ change, tag }) => `${change} ${tag}`)).toEqual(['removed Component', 'added Section']);
  });

  it('a component moved to the top and edited: changed and moved, never added and removed', () => {
    const after = `<Component componentId="cmp2" />\n${EMAIL.replace('\n<Component componentId="cmp2" />', '')}`;
    expect(pairsOf(EMAIL, after, FOOTER_MOVED)).toEqual([{ change: 'changed', at: 3, to: 0, tag: 'Component', componentId: 'cmp2', moved: true }]);
  });

  it('two blocks drawn alike, both moved: each paired with a place of its own', () => {
    const divided = EMAIL.replace('<H1>Welcome</H1>', '<Divider />\n<Divider />\n<H1>Welcome</H1>');
    const apart = EMAIL.replace('<Button', '<Divider />\n<Button').replace('<Component', '<Divider />\n<Component');
    expect(pairsOf(divided, apart)).toEqual([
      { change: 'moved', at: 0, to: 2, tag: 'Divider' },
      { change: 'moved', at: 1, to: 4, tag: 'Divider' },
    ]);
    // The same component twice, edited and moved: each to its own place.
    const twice = `<Component componentId="cmp2" />\n<Component componentId="cmp2" />\n${EMAIL.replace('\n<Component componentId="cmp2" />', '')}`;
    const spread = EMAIL.replace('<Button', '<Component componentId="cmp2" />\n<Button');
    expect(pairsOf(twice, spread, FOOTER_MOVED).map(({ change, at, to, moved }) => [change, at, to, moved])).toEqual([
      ['changed', 0, 2, true],
      ['changed', 1, 4, true],
    ]);
  });

  it('a component matched by its id outweighs a paragraph matched by its words (3 against at most 2)', () => {
    // Crossed: the component and a reworded paragraph change places; only one of the two pairs can stand in order.
    const before = [
      '<H1>Welcome</H1>',
      '<Paragraph>Thanks for joining Acme. Your workspace is ready whenever you are.</Paragraph>',
      '<Component componentId="cmp2" />',
    ].join('\n');
    const after = [
      '<H1>Welcome</H1>',
      '<Component componentId="cmp2" />',
      '<Paragraph>Thank you for joining Acme. Your workspace is ready whenever you are.</Paragraph>',
    ].join('\n');
    expect(pairsOf(before, after, FOOTER_MOVED).map(({ change, tag, moved }) => `${change} ${tag}${moved ? ' moved' : ''}`)).toEqual([
      'removed Paragraph',
      'changed Component',
      'added Paragraph',
    ]);
  });

  it('a component swapped for another: the one removed, the other added, never one changed', () => {
    const after = EMAIL.replace('cmp2', 'cmp9');
    expect(pairsOf(EMAIL, after)).toEqual([
      { change: 'removed', at: 3, to: undefined, tag: 'Component', componentId: 'cmp2' },
      { change: 'added', at: undefined, to: 3, tag: 'Component', componentId: 'cmp9' },
    ]);
  });

  it('a paragraph rewritten whole: removed and added; a block of another kind in its place likewise', () => {
    const rewritten = EMAIL.replace('Thanks for joining Acme. Your workspace is ready whenever you are.', 'Invoices arrive monthly by post.');
    expect(pairsOf(EMAIL, rewritten).map(({ change }) => change)).toEqual(['removed', 'added']);
    const heading = EMAIL.replace(/<Paragraph>(.*)<\/Paragraph>/, '<H2>$1</H2>');
    expect(pairsOf(EMAIL, heading).map(({ change, tag }) => `${change} ${tag}`)).toEqual(['removed Paragraph', 'added H2']);
  });

  it('a removed block is listed where it stood, among the others in the order of the after side', () => {
    const after = EMAIL.replace(/<Paragraph>.*<\/Paragraph>\n/, '').replace('<Component', '<Paragraph>New.</Paragraph>\n<Component');
    expect(pairsOf(EMAIL, after).map(({ change, at, to }) => [change, at, to])).toEqual([
      ['removed', 1, undefined],
      ['added', undefined, 2],
    ]);
  });

  it('a block removed after one edited is listed after it', () => {
    const after = EMAIL.replace('Thanks for joining', 'Thank you for joining').replace(/<Button[^\n]*\n/, '');
    expect(pairsOf(EMAIL, after).map(({ change, tag }) => `${change} ${tag}`)).toEqual(['changed Paragraph', 'removed Button']);
  });

  it('an email of 1,000 paragraphs each reworded: too many to weigh, each paired with its own in order', () => {
    const email = (word: string) => Array.from({ length: 1000 }, (_, index) => `<Paragraph>Line ${index} says ${word} and more words.</Paragraph>`).join('\n');
    const changes = changedBlocks(blocks(email('this')), blocks(email('that')));
    expect(changes).toHaveLength(1000);
    expect(changes.every((change, index) => change.change === 'changed' && change.before === index && change.after === index)).toBe(true);
  });

  it('measures likeness by the words two blocks share', () => {
    const words = (text: string) => {
      const counts = new Map<string, number>();
      for (const word of text.split(' ')) counts.set(word, (counts.get(word) ?? 0) + 1);
      return counts;
    };
    expect(likeness(words('a b c d'), words('a b c e'))).toBe(0.75);
    expect(likeness(new Map(), new Map())).toBe(1);
    expect(likeness(words('a'), words('b'))).toBe(0);
  });
});
