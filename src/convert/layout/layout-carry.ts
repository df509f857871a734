/**
 * Layout carried. The mapper notes for each block the source element whose box it stands in (its
 * own, or for a run of text, an image or a button, the box that holds it) and how the source
 * aligns it. Once the email is mapped, each block's side padding is set so that its content stands
 * where the source's does at 600 px (the LMX laid out as the renderer draws it, lmx-layout.ts,
 * against the source laid out as a browser would, layout.ts); an inset every block shares becomes
 * the body's padding. layout-compare.ts then holds the result to the source.
 */
import { largest, smallest } from '../../base/extremes.js';
import { LIST_INDENT_PX } from '../../lmx/render/text.js';
import type { LmxBlock } from '../lmx-out.js';
import type { SourceElement } from '../model.js';
import { sourceOf } from './block-source.js';
import { type Box, SourceLayout } from './layout.js';
import { LAYOUT_TOLERANCE, VIEWPORTS } from './layout-compare.js';
import { fitButtons } from './lmx-fit.js';
import { bodyBox, columnBoxes, paddedBox } from './lmx-layout.js';

const SIDES = ['paddingLeft', 'paddingRight'] as const;

function setSide(target: LmxBlock, side: (typeof SIDES)[number], value: number): void {
  const rounded = Math.round(value);
  if (rounded >= 1) target.attrs[side] = String(rounded);
  else delete target.attrs[side];
}

/** The narrowest a block's text is left by the padding carried into it, on a phone: a line of a few words. */
const MIN_TEXT_WIDTH = 120;

/**
 * Whether a source's box can be carried into a block's padding: not where it is a sliver of the
 * box LMX gives the block (a cell the model sized otherwise than a browser would), nor where the
 * padding would leave the text narrower than a few words on a phone, whose body is `shrink` px
 * narrower. Such padding would squeeze the text to nothing and widen the page past the screen; the
 * block keeps its own, and stands listed where it differs from the source.
 */
function carriable(box: Box, outer: Box, shrink: number): boolean {
  const room = outer.right - outer.left;
  const sides = box.left - outer.left + (outer.right - box.right);
  return box.right - box.left >= room / 4 && room - shrink - sides >= MIN_TEXT_WIDTH;
}

/** The source and the box LMX gives a block at a phone's width, for padding that suits both widths. */
interface Phone {
  source: SourceLayout;
  outer: Box;
}

/**
 * A side's padding: the one that stands the block where the source's stands at 600 px (`wide`),
 * moved toward the one it takes on a phone (`narrow`, where the source's media queries set other
 * padding) as far as keeps it within the tolerance at 600 px, so that one padding stands within it
 * at both widths where it can; where it cannot, the 600 px one.
 */
function bothWidths(wide: number, narrow: number | undefined): number {
  const reach = LAYOUT_TOLERANCE - 1;
  if (narrow === undefined || Math.abs(wide - narrow) > 2 * reach) return wide;
  return Math.min(Math.max(wide, Math.max(wide, narrow) - reach), Math.min(wide, narrow) + reach);
}

/**
 * Each block's side padding set so that its content stands where the source's does, in the box LMX
 * gives it (`shrink`: how much narrower that box is on a phone; `phone`: the source and that box at
 * a phone's width, where the source fits one).
 */
function carrySides(blocks: readonly LmxBlock[], outer: Box, source: SourceLayout, viewport: number, shrink: number, phone: Phone | undefined): void {
  for (const block of blocks) {
    const box = sourceBox(block, source);
    if (box !== undefined && carriable(box, outer, shrink)) {
      const small = phone === undefined ? undefined : sourceBox(block, phone.source);
      const fits = small !== undefined && phone !== undefined && small.right <= VIEWPORTS[1] + LAYOUT_TOLERANCE;
      const left = bothWidths(box.left - outer.left, fits ? small.left - phone.outer.left : undefined);
      const right = bothWidths(outer.right - box.right, fits ? phone.outer.right - small.right : undefined);
      // A list's items take the padding, beyond the indent LMX draws a list's items with: a list has none of its own.
      const listed = block.tag === 'OrderedList' || block.tag === 'UnorderedList';
      const targets = listed ? (block.blocks ?? []) : [block];
      for (const target of targets) {
        setSide(target, 'paddingLeft', left - (listed ? LIST_INDENT_PX : 0));
        setSide(target, 'paddingRight', right);
      }
    }
    const inner = paddedBox(block, outer);
    const phoneInner = phone === undefined ? undefined : { ...phone, outer: paddedBox(block, phone.outer) };
    // Columns stacked on a phone are wider there than side by side; a row that does not stack shrinks in proportion.
    const columnShrink = block.attrs.stackOnMobile === 'false' ? shrink / Math.max(1, block.blocks?.length ?? 1) : 0;
    if (block.tag === 'Columns') carryWidths(block, source);
    if (block.tag === 'Columns') {
      const phoneItems = phoneInner === undefined ? undefined : columnBoxes(block, phoneInner.outer, VIEWPORTS[1]);
      // Where the source fits a phone, each item's padding suits its box side by side and its box there (stacked, where the gap goes).
      columnBoxes(block, inner, viewport).forEach((item, index) =>
        carrySides(block.blocks![index]!.blocks ?? [], item, source, viewport, columnShrink, phoneInner && { ...phoneInner, outer: phoneItems![index]! }),
      );
    } else if (block.tag === 'Section') carrySides(block.blocks ?? [], inner, source, viewport, shrink, phoneInner);
  }
}

/**
 * A row that stays side by side (a table's) shares its width out as the source's does at 600 px:
 * a receipt's narrow price column and wide description, each cell's share of the row running from
 * halfway between its content and the one before to halfway to the one after.
 */
function carryWidths(block: LmxBlock, source: SourceLayout): void {
  const items = (block.blocks ?? []).map((item) => sourceBox(item, source));
  if (block.attrs.stackOnMobile !== 'false' || items.some((item) => item === undefined) || items.length < 2) return;
  const boxes = items as Box[];
  // A row of a table's cells with content, which convert builds, was not laid out itself: it runs from its first cell's content to its last's.
  const row = sourceBox(block, source) ?? { left: boxes[0]!.left, right: boxes.at(-1)!.right };
  const edges = [row.left, ...boxes.slice(1).map((box, index) => (boxes[index]!.right + box.left) / 2), row.right];
  const spans = boxes.map((_box, index) => Math.max(0, edges[index + 1]! - edges[index]!));
  const total = spans.reduce((sum, span) => sum + span, 0);
  if (!(total > 0)) return;
  const shares = spans.map((span) => Math.max(1, Math.round((span / total) * 100)));
  shares[shares.length - 1]! += 100 - shares.reduce((sum, share) => sum + share, 0);
  if (shares.some((share) => share < 1) || shares.every((share) => Math.abs(share - 100 / shares.length) < 2)) return;
  block.attrs.widths = shares.join(',');
}

function sourceBox(block: LmxBlock, source: SourceLayout): Box | undefined {
  const from = sourceOf(block);
  return from === undefined ? undefined : source.of(from.element)?.box;
}

/** The side padding every block of the body shares, made the body's (`bodyXPadding`): none where a coloured block would shrink with it. */
function hoistInset(style: Record<string, string>, blocks: readonly LmxBlock[]): void {
  if (blocks.length === 0 || blocks.some((block) => block.attrs.blockColor !== undefined)) return;
  const sidesOf = (block: LmxBlock) => (block.tag === 'OrderedList' || block.tag === 'UnorderedList' ? (block.blocks ?? []) : [block]);
  const inset = smallest(blocks.flatMap(sidesOf).flatMap((block) => SIDES.map((side) => Number(block.attrs[side] ?? 0))));
  if (!(inset >= LAYOUT_TOLERANCE)) return;
  style.bodyXPadding = String(inset);
  for (const block of blocks.flatMap(sidesOf)) for (const side of SIDES) setSide(block, side, Number(block.attrs[side] ?? 0) - inset);
}

/**
 * The page's colour around the card the body stands for, where the card stands the same distance in
 * from each side of the screen at 600 and 375 px (Foundation's 580 px container, 95% of a phone's
 * screen; Lee Munroe's 10 px of padding around its card): the theme's page padding
 * (`backgroundXPadding`), so that the body stands where the card does at both widths.
 */
function pageInset(card: SourceElement, layouts: readonly SourceLayout[]): number | undefined {
  const insets = layouts.flatMap((layout) => {
    const frame = layout.frameOf(card);
    return frame === undefined ? [] : [frame.left, layout.viewport - frame.right];
  });
  if (insets.length !== 2 * layouts.length) return undefined;
  const least = smallest(insets);
  const mean = insets.reduce((sum, inset) => sum + inset, 0) / insets.length;
  return least >= LAYOUT_TOLERANCE && largest(insets) - least <= LAYOUT_TOLERANCE ? Math.round(mean) : undefined;
}

/** The space the renderer leaves between two blocks of a container (render.ts's BLOCK_TABLE margin). */
const BLOCK_GAP = 16;

/** The padding that stands at one end of a block: a list's is its first or last item's. */
function end(block: LmxBlock, side: 'paddingTop' | 'paddingBottom'): LmxBlock | undefined {
  if (block.attrs.blockColor !== undefined) return undefined;
  if (block.tag === 'OrderedList' || block.tag === 'UnorderedList') return side === 'paddingTop' ? block.blocks?.[0] : block.blocks?.at(-1);
  return block;
}

/**
 * The space between two blocks as the source has it: the renderer puts 16 px between blocks
 * itself, so that much of the padding the source's spacing became is taken off each pair (from the
 * first's bottom, then the second's top; never from a coloured block, whose padding is inside it).
 */
function fitGaps(blocks: readonly LmxBlock[]): void {
  for (let index = 1; index < blocks.length; index += 1) {
    let left = BLOCK_GAP;
    for (const [block, side] of [
      [end(blocks[index - 1]!, 'paddingBottom'), 'paddingBottom'],
      [end(blocks[index]!, 'paddingTop'), 'paddingTop'],
    ] as const) {
      if (block === undefined || left === 0) continue;
      const padding = Number(block.attrs[side] ?? 0);
      const taken = Math.min(padding, left);
      left -= taken;
      if (padding - taken > 0) block.attrs[side] = String(padding - taken);
      else delete block.attrs[side];
    }
  }
  for (const block of blocks)
    for (const inner of block.tag === 'Columns' ? (block.blocks ?? []) : [block])
      if (inner.tag !== 'OrderedList' && inner.tag !== 'UnorderedList' && inner.blocks !== undefined) fitGaps(inner.blocks);
}

/** The source's side insets carried into the blocks' padding (and the body's), as the source stands at 600 px, and its spacing between blocks. */
export function carryLayout(body: SourceElement, style: Record<string, string> | undefined, blocks: readonly LmxBlock[], card?: SourceElement): void {
  const viewport = VIEWPORTS[0];
  const wide = new SourceLayout(body, viewport);
  const narrow = new SourceLayout(body, VIEWPORTS[1]);
  const inset = card === undefined ? undefined : pageInset(card, [wide, narrow]);
  if (style !== undefined && inset !== undefined && style.backgroundXPadding === undefined) style.backgroundXPadding = String(inset);
  const body600 = bodyBox(style ?? {}, viewport);
  const phone = bodyBox(style ?? {}, VIEWPORTS[1]);
  const shrink = body600.right - body600.left - (phone.right - phone.left);
  carrySides(blocks, body600, wide, viewport, shrink, { source: narrow, outer: phone });
  // A component has no <Style /> of its own: its blocks keep their padding.
  if (style !== undefined) hoistInset(style, blocks);
  fitGaps(blocks);
  fitButtons(style ?? {}, blocks);
}
