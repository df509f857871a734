/**
 * How an email source's elements align what they hold, as a browser aligns it: the text alignment
 * an element sets (its `text-align`, its `align` attribute, a `<center>`), and where an image or a
 * button stands in the box it is in.
 */

import type { SourceElement } from '../model.js';
import { alignOf } from '../styles.js';
import { sideOf } from './layout-intrinsic.js';

export type Align = 'left' | 'center' | 'right';

/** The text alignment an element sets for what it holds, or undefined where it inherits. */
export function ownTextAlign(node: SourceElement): Align | undefined {
  if (node.name === 'center') return 'center';
  const written = alignOf(node.style['text-align']);
  if (written !== undefined) return written;
  return TEXT_ALIGNED.has(node.name) ? alignOf(node.attrs.align) : undefined;
}

/**
 * The alignment an element's `align` attribute or a `<center>` gives what it holds, as browsers
 * compute it (`-webkit-center`: it places the blocks inside too, where `text-align` places only
 * text); undefined where its style says its own.
 */
export function attributeTextAlign(node: SourceElement): string | undefined {
  const align = node.style['text-align'] === undefined ? ownTextAlign(node) : undefined;
  return align === undefined ? undefined : `-webkit-${align}`;
}

/**
 * The elements whose `align` aligns their text, as `text-align` does: on a table or an image it
 * places the element instead. A column is a cell (React Email's `<Column align>` draws a `<td>` of it).
 */
export const TEXT_ALIGNED: ReadonlySet<string> = new Set(['td', 'th', 'x-column', 'div', 'p', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Whether an element is drawn as a block of its own width, placed by its margins (an image with `display: block`). */
function isBlockImage(node: SourceElement): boolean {
  return /^(block|table)$/i.test(node.style.display?.trim() ?? '');
}

/**
 * Where an image stands in the box that holds it, given the `text-align` it inherits: a block image
 * by its auto margins, else where an `align` attribute or a `<center>` around it puts blocks
 * (`-webkit-right`; `text-align: right` does not move a block); an inline one by the text
 * alignment of its line (an `align` attribute of left or right floats it there).
 */
export function imageAlign(node: SourceElement, inherited: string | undefined): Align {
  const left = sideOf(node.style, 'margin', 'left')?.toLowerCase();
  const right = sideOf(node.style, 'margin', 'right')?.toLowerCase();
  const along = alignOf(inherited) ?? 'left';
  if (isBlockImage(node)) {
    if (left === 'auto' || right === 'auto') return left === 'auto' && right === 'auto' ? 'center' : left === 'auto' ? 'right' : 'left';
    return /^\s*-webkit-/i.test(inherited ?? '') ? along : 'left';
  }
  const floated = alignOf(node.attrs.align);
  if (floated === 'left' || floated === 'right') return floated;
  return along;
}

/** Where a block stands across the box it is in: at a side, centred, or across all of it. */
export type Position = Align | 'full';

/**
 * Where a button stands in its box, as a browser draws it: across all of it where it is 100% wide
 * or a block of no width of its own; a block of a width where its margins put it (the left edge but
 * for auto ones: `text-align` does not move a block); an inline one where its line aligns it.
 */
export function buttonPosition(node: SourceElement, inherited: string | undefined): Position {
  const width = (node.attrs.width || node.style.width)?.trim().toLowerCase();
  const block = node.style.display?.trim().toLowerCase() === 'block';
  if (width === '100%' || (block && (width === undefined || width === 'auto'))) return 'full';
  if (block) return imageAlign(node, inherited);
  return alignOf(node.attrs.align ?? inherited) ?? 'left';
}
