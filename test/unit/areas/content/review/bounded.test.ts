/**
 * A review of 500 changed emails stays bounded: the Markdown fits a GitHub comment and says how
 * many emails it left out, the Slack message keeps to Slack's limits, and the HTML is paginated, its
 * first page listing every email and the page it is on. And the blocks a rendered email is cut into.
 */
import { describe, expect, it } from 'vitest';
import { bodyOf, bodyText } from '../../../../../src/areas/content/review/blocks.js';
import type { Review, ReviewedEmail } from '../../../../../src/areas/content/review/compare.js';
import { EMAILS_PER_PAGE, offlineImages, pageFiles, reviewPages, wordDiff } from '../../../../../src/areas/content/review/page.js';
import { changedBlocks } from '../../../../../src/areas/content/review/pairs.js';
import type { SideEmail } from '../../../../../src/areas/content/review/sides.js';
import { MAX_COMMENT_CHARS, reviewMarkdown, reviewSlack } from '../../../../../src/areas/content/review/words.js';
import { parseLmx } from '../../../../../src/lmx/index.js';
import { renderLmx } from '../../../../../src/lmx/render/index.js';

const draw = (lmx: string) => renderLmx(parseLmx(lmx).document, { subject: 'S' });

function side(index: number, text: string): SideEmail {
  const drawn = draw(`<H1>Email ${index}</H1><Paragraph>${text}</Paragraph>`);
  return {
    kind: 'transactional',
    name: `A transactional email with a long name, number ${index}`,
    path: `transactional/email-${index}--c${index}`,
    subject: 'S',
    previewText: '',
    from: 'Acme <hello@acme.example>',
    nodes: [],
    components: [],
    variables: [],
    view: { ...drawn, problems: [], htmlBytes: drawn.html.length },
    errors: [],
  };
}

function manyChanged(count: number): Review {
  const emails: ReviewedEmail[] = Array.from({ length: count }, (_, index) => {
    const before = side(index, 'Before');
    const after = side(index, 'After');
    return {
      kind: 'transactional',
      name: before.name,
      path: before.path,
      change: 'changed',
      changed: ['body', 'plainText'],
      blocks: changedBlocks(bodyOf(before.view).blocks, bodyOf(after.view).blocks),
      variables: { added: [], removed: [] },
      findings: { appeared: [], disappeared: [] },
      before,
      after,
    };
  });
  return { emails, unchanged: 3, digest: 'd'.repeat(64) };
}

describe('a review of 500 emails', () => {
  const review = manyChanged(500);

  it('fits a GitHub comment, saying how many emails it left out', () => {
    const markdown = reviewMarkdown(review, 'review.html');
    expect(markdown.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    const shown = markdown.match(/^\| A transactional/gm)!.length;
    expect(shown).toBeLessThan(500);
    expect(markdown).toContain(`${500 - shown} more emails left out: a comment holds 65536 characters.`);
  });

  it('keeps to Slack’s 50 blocks and 3,000 characters a section, counting what it left out', () => {
    const message = reviewSlack(review, undefined);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    for (const block of message.blocks) if ('text' in block) expect(block.text.text.length).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(message)).toContain('460 more emails not shown here');
  });

  it('is paginated, the first page listing every email and where it is', () => {
    const files = pageFiles('out/review.html', Math.ceil(500 / EMAILS_PER_PAGE));
    expect(files.slice(0, 2)).toEqual(['out/review.html', 'out/review-2.html']);
    const pages = reviewPages(review, { between: 'a → b', files });
    expect(pages).toHaveLength(10);
    expect(pages[0]!.match(/<section class="email"/g)).toHaveLength(EMAILS_PER_PAGE);
    expect(pages[0]).toContain('<a href="review-10.html#email-500">');
    expect(pages[9]).toContain('Page 10 of 10');
  });
});

describe('the blocks of a rendered email', () => {
  it('are its top-level blocks, compared with whitespace collapsed, a component one block', () => {
    const one = draw(
      '<H1>Hi</H1><Paragraph>A  b</Paragraph><Columns widths="50,50"><ColumnItem><Paragraph>x</Paragraph></ColumnItem><ColumnItem><Paragraph>y</Paragraph></ColumnItem></Columns>',
    );
    expect(bodyOf(one).blocks).toHaveLength(3);
    const two = draw(
      '<H1>Hi</H1>\n<Paragraph>A\n b</Paragraph><Columns widths="50,50"><ColumnItem><Paragraph>x</Paragraph></ColumnItem><ColumnItem><Paragraph>z</Paragraph></ColumnItem></Columns><Divider />',
    );
    expect(changedBlocks(bodyOf(one).blocks, bodyOf(two).blocks)).toEqual([
      { change: 'changed', before: 2, after: 2, tag: 'Columns', text: expect.stringContaining('z') },
      { change: 'added', after: 3, tag: 'Divider', text: '' },
    ]);
    expect(bodyText(one)).toBe('Hi\nA b\nx\ny');
  });

  it('draws an image offline as a placeholder of its size, its address kept only as text', () => {
    const html = offlineImages('<img src="https://cdn.example/a.png" alt="A" width="300" height="100">');
    expect(html).toMatch(
      /^<img src="data:image\/svg\+xml;charset=utf-8,[^"]+" data-offline-image="https:\/\/cdn.example\/a.png" alt="A" width="300" height="100">$/,
    );
    expect(decodeURIComponent(html)).toContain('width="300" height="100"');
  });

  it('shows a text change as words struck and added', () => {
    expect(wordDiff('Your order shipped', 'Your order is on its way')).toBe('Your order <del>shipped</del><ins>is on its way</ins>');
  });
});
