/**
 * Text from an account in loopsctl's Markdown and Slack views reads as itself: rendered as GitHub
 * renders Markdown (test/support/markdown.ts), a name written as a link, an image, HTML, an
 * address, a mention or a table's pipe is none of them; in Slack's mrkdwn its control characters
 * are entities and every text object is verbatim.
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, escapeMrkdwn, fenced, markdownCode, mrkdwn, section } from '../../../src/render/markup.js';
import { githubHtml, textOfHtml } from '../../support/markdown.js';

/** Names an account may hold, each of which Markdown would read as something other than text. */
const HOSTILE = [
  '[Reset your password](https://evil.example/login)',
  '![tracking pixel](https://evil.example/p.png)',
  '<img src="https://evil.example/p.png"> <a href="https://evil.example">x</a>',
  'Visit https://evil.example/login or www.evil.example',
  'Write to ada@evil.example, @acme/owners and fix #12',
  '*bold* _em_ ~~struck~~ `code` | a pipe',
  '# A heading? 1. a list? > a quote?',
  '[a]: https://evil.example/reference [a]',
  'A back\\slash, an &amp; entity and &#60;',
];

describe('escapeMarkdown', () => {
  for (const name of HOSTILE)
    it(`reads as itself in a paragraph and in a table's cell: ${name}`, () => {
      const paragraph = githubHtml(`Email ${escapeMarkdown(name)}.`);
      expect(paragraph, paragraph).not.toMatch(/<(a|img|em|strong|del|code|h1|ol|blockquote)\b/);
      expect(textOfHtml(paragraph).trim()).toBe(`Email ${name}.`);
      const table = githubHtml(`| Email | Kind |\n| --- | --- |\n| ${escapeMarkdown(name)} | transactional |`);
      expect(table).not.toMatch(/<(a|img|em|strong|del|code)\b/);
      expect(table.match(/<td>/g), table).toHaveLength(2);
      expect(textOfHtml(/<td>([\s\S]*?)<\/td>/.exec(table)![1]!)).toBe(name);
    });

  it('keeps a name on its line, its control characters visible', () => {
    const html = githubHtml(`| ${escapeMarkdown('two\nlines\u001b[31m')} |\n| --- |`);
    expect(textOfHtml(/<th>([\s\S]*?)<\/th>/.exec(html)![1]!)).toBe('two\\nlines\\x1b[31m');
  });
});

describe('markdownCode', () => {
  it('holds a path as it is, backticks, pipes, entities and backslashes included', () => {
    for (const path of ['transactional/welcome--cx1', 'a`b``c', '`starts', 'C:\\review.html', '&lt; <b> | x', ' spaced '])
      expect(textOfHtml(/<code>([\s\S]*?)<\/code>/.exec(githubHtml(`See ${markdownCode(path)}.`))![1]!), path).toBe(path);
  });

  it("in a table's cell, its pipes stay in the cell", () => {
    const html = githubHtml(`| Email | Kind |\n| --- | --- |\n| ${markdownCode('a|b', true)} | x |`);
    expect(html.match(/<td>/g)).toHaveLength(2);
    expect(html).toContain('<td><code>a|b</code></td>');
  });
});

describe('fenced', () => {
  it('fences a diff with more backticks than any run in it', () => {
    expect(fenced('+a\n', 'diff')).toBe('```diff\n+a\n```');
    expect(fenced('+````\n', 'diff')).toBe('`````diff\n+````\n`````');
    expect(fenced('+no end', 'diff')).toBe('```diff\n+no end\n```');
    expect(githubHtml(fenced('+```\n+[x](https://evil.example)\n', 'diff'))).not.toMatch(/<a\b/);
  });
});

describe("Slack's mrkdwn", () => {
  it('writes its control characters as entities, so a name can neither ping a channel nor draw a link', () => {
    expect(escapeMrkdwn('<!channel> & <https://evil.example|click>')).toBe('&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;');
    expect(escapeMrkdwn('a\nb\u001b')).toBe('a\\nb\\x1b');
  });

  it('makes every text object verbatim: no address linked, no mention parsed, but what loopsctl writes as a link', () => {
    expect(mrkdwn('@channel https://evil.example')).toEqual({ type: 'mrkdwn', text: '@channel https://evil.example', verbatim: true });
    expect(section('x')).toEqual({ type: 'section', text: { type: 'mrkdwn', text: 'x', verbatim: true } });
  });
});
