/**
 * Markdown as GitHub renders it, for the tests of loopsctl's Markdown views: micromark, a CommonMark
 * parser, with its GitHub Flavored Markdown extension (tables, autolinked addresses, strikethrough),
 * made to render as github.com does. What a test asserts of the HTML is what a reader of the pull
 * request comment would see.
 */
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/** The HTML GitHub Flavored Markdown makes of a text (raw HTML in it kept, as GitHub keeps what it allows). */
export function githubHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

/** The text of rendered HTML, its tags left out and its entities read, zero-width spaces dropped. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\u200b/g, '');
}
