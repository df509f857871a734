/**
 * A rendered email cut into the blocks a person sees, one per top-level LMX block (a component is
 * one block, all it draws): the renderer stands each in a table of its own at the top of the
 * body's cell, so a block is a top-level table there. Two emails' blocks are compared as they are
 * drawn, with the whitespace HTML collapses collapsed: an LMX file reformatted draws the same blocks.
 */
import { diffArrays } from 'diff';

/** The body's cell: where the blocks begin (after its opening tag) and where they end. */
const BODY_START = /<td style="padding:[^"]*;text-align:left">\n/;
const BODY_END = '\n</td></tr></table>\n<!--[if mso]></td></tr></table><![endif]-->\n</td></tr></table>\n</body>';

export interface Body {
  /** The document up to the blocks, and from their end. */
  before: string;
  after: string;
  blocks: string[];
}

/** An email document cut into its blocks; a document not of that layout is one block. */
export function bodyOf(html: string): Body {
  const start = BODY_START.exec(html);
  const end = html.lastIndexOf(BODY_END);
  if (start === null || end < start.index) return { before: '', after: '', blocks: [html] };
  const from = start.index + start[0].length;
  return { before: html.slice(0, from), after: html.slice(end), blocks: topLevelTables(html.slice(from, end)) };
}

/** The tables at the top level of some HTML, each with what stands after it up to the next. */
function topLevelTables(html: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let begun = 0;
  for (const match of html.matchAll(/<table\b|<\/table>/g)) {
    if (match[0] === '</table>') depth = Math.max(0, depth - 1);
    else {
      if (depth === 0 && match.index > begun) {
        blocks.push(html.slice(begun, match.index));
        begun = match.index;
      }
      depth += 1;
    }
  }
  if (begun < html.length) blocks.push(html.slice(begun));
  return blocks.filter((block) => block.trim() !== '');
}

/** A block as compared: HTML collapses runs of whitespace, so they draw the same. */
export function comparable(block: string): string {
  return block.replace(/\s+/g, ' ').trim();
}

/** A block changed: where it stands on each side (an index into that side's blocks). */
export interface BlockChange {
  change: 'added' | 'removed' | 'changed';
  before?: number;
  after?: number;
  /** The block's text as read, cut short: which block it is, for a person. */
  text: string;
}

/** The blocks that differ between two sides: those the longest common run leaves, a removal then an addition at one place paired as a change. */
export function changedBlocks(before: readonly string[], after: readonly string[]): BlockChange[] {
  const parts = diffArrays(before.map(comparable), after.map(comparable));
  const changes: BlockChange[] = [];
  let at = { before: 0, after: 0 };
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    if (!part.added && !part.removed) {
      at = { before: at.before + part.count!, after: at.after + part.count! };
      continue;
    }
    const next = parts[index + 1];
    if (part.removed && next?.added) {
      const paired = Math.min(part.count!, next.count!);
      for (let offset = 0; offset < Math.max(part.count!, next.count!); offset += 1) {
        if (offset < paired) changes.push({ change: 'changed', before: at.before + offset, after: at.after + offset, text: textOf(after[at.after + offset]!) });
        else if (offset < part.count!) changes.push({ change: 'removed', before: at.before + offset, text: textOf(before[at.before + offset]!) });
        else changes.push({ change: 'added', after: at.after + offset, text: textOf(after[at.after + offset]!) });
      }
      at = { before: at.before + part.count!, after: at.after + next.count! };
      index += 1;
    } else if (part.removed) {
      for (let offset = 0; offset < part.count!; offset += 1)
        changes.push({ change: 'removed', before: at.before + offset, text: textOf(before[at.before + offset]!) });
      at.before += part.count!;
    } else {
      for (let offset = 0; offset < part.count!; offset += 1)
        changes.push({ change: 'added', after: at.after + offset, text: textOf(after[at.after + offset]!) });
      at.after += part.count!;
    }
  }
  return changes;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The text of rendered HTML as a plain-text version reads it: a line per paragraph, heading, list
 * item and row, the tags left out, an image by its alt text, a button's or a link's address after its words.
 */
export function plainTextOf(html: string): string {
  return html
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

/** A block's text, cut to a length a list can show. */
export function textOf(block: string): string {
  const text = plainTextOf(block).replace(/\s+/g, ' ').trim();
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
