/**
 * A rendered email cut into the blocks a person sees, one per top-level LMX block (a component is
 * one block, all it draws), as the renderer tells them (RenderedEmail.blocks): what each is (its
 * tag, a component's id) and the HTML it drew. Blocks are compared as they are drawn, with the
 * whitespace HTML collapses collapsed (not a code block's): an LMX file reformatted draws the same blocks.
 */
import type { DrawnBlock } from '../../../lmx/render/index.js';

/** The body's cell: where the blocks begin (after its opening tag) and where they end. */
const BODY_START = /<td style="padding:[^"]*;text-align:left">\n/;
const BODY_END = '\n</td></tr></table>\n<!--[if mso]></td></tr></table><![endif]-->\n</td></tr></table>\n</body>';

export interface Body {
  /** The document up to the blocks, and from their end. */
  before: string;
  after: string;
  blocks: DrawnBlock[];
}

/** An email as drawn: its document and the blocks the renderer drew into its body. */
export interface Drawn {
  html: string;
  blocks: readonly DrawnBlock[];
}

/** An email document cut into its blocks; a document whose body is not the blocks drawn is one block. */
export function bodyOf(drawn: Drawn): Body {
  const { html } = drawn;
  const start = BODY_START.exec(html);
  const end = html.lastIndexOf(BODY_END);
  const from = start === null ? -1 : start.index + start[0].length;
  if (start === null || end < from || html.slice(from, end) !== drawn.blocks.map((block) => block.html).join(''))
    return { before: '', after: '', blocks: [{ tag: 'Document', html }] };
  return { before: html.slice(0, from), after: html.slice(end), blocks: [...drawn.blocks] };
}

/**
 * A block as compared: HTML collapses runs of whitespace, so they draw the same; but inside a
 * `<pre>` (a code block), which draws each space and line break.
 */
export function comparable(html: string): string {
  return html
    .split(/(<pre\b[\s\S]*?<\/pre>)/)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/\s+/g, ' ')))
    .join('')
    .trim();
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The text of rendered HTML as a plain-text version reads it: a line per paragraph, heading, list
 * item and row, the tags left out, an image by its alt text, a button's or a link's address after its words.
 */
export function plainTextOf(html: string): string {
  // A line break of the LMX file is a space as drawn; a code block's is a line.
  return comparable(html)
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<img\b[^>]*?\balt="([^"]*)"[^>]*>/g, '[$1]')
    .replace(/<a\b[^>]*?\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g, '$2 ($1)')
    .replace(/<br>|<\/(p|h[1-6]|li|tr|blockquote|pre)>|<hr[^>]*>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity]!)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** The plain text of an email's body, as its blocks read. */
export function bodyText(drawn: Drawn): string {
  return plainTextOf(
    bodyOf(drawn)
      .blocks.map((block) => block.html)
      .join('\n'),
  );
}

/** A block's text, cut to a length a list can show. */
export function textOf(html: string): string {
  const text = plainTextOf(html).replace(/\s+/g, ' ').trim();
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
