/**
 * Layout carried, and held to the source. The mapper notes for each block the source element whose
 * box it stands in (its own, or for a run of text, an image or a button, the box that holds it)
 * and how the source aligns it. Once the email is mapped, each block's side padding is set so that
 * its content stands where the source's does at 600 px (the LMX laid out as the renderer draws it,
 * lmx-layout.ts, against the source laid out as a browser would, layout.ts); an inset every block
 * shares becomes the body's padding. Then both are laid out again at 600 and 375 px and compared,
 * block by block: what stands elsewhere or aligns otherwise than in the source is listed, and
 * counted in the fidelity line.
 */
import { largest, smallest } from '../../base/extremes.js';
import { LIST_INDENT_PX } from '../../lmx/render/text.js';
import type { LmxBlock } from '../lmx-out.js';
import type { Findings, Measure, SourceElement } from '../model.js';
import { type BlockSource, sourceOf } from './block-source.js';
import { type Align, type Box, type Position, SourceLayout } from './layout.js';
import { buttonWidth, fitButtons, wordsTooWide } from './lmx-fit.js';
import { bodyBox, columnBoxes, layoutLmx, paddedBox } from './lmx-layout.js';

/** The widths an email is compared at: the body's own, and a phone's. */
export const VIEWPORTS = [600, 375] as const;

/** How far a block may stand from the source's place and still be taken as there: rounding, borders, a font's metrics. */
export const LAYOUT_TOLERANCE = 6;

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

/** The point of a box an alignment places things by. */
const anchor = (box: Box, align: Align) => (align === 'left' ? box.left : align === 'right' ? box.right : (box.left + box.right) / 2);

/** How a block stands apart from its source at a screen width, said plainly; undefined where it stands as the source does. */
function difference(from: BlockSource, source: Box, lmx: { box: Box; align: Align }, viewport: number): string | undefined {
  const sourceAlign = from.align;
  if (sourceAlign !== lmx.align) return `aligned ${lmx.align}, where the source aligns it ${sourceAlign}`;
  const at = (value: number) => `${Math.round(value)} px`;
  if (from.kind === 'media') {
    const [was, is] = [anchor(source, sourceAlign), anchor(lmx.box, lmx.align)];
    return Math.abs(was - is) <= LAYOUT_TOLERANCE ? undefined : `placed at ${at(is)} from the left at ${viewport} px wide, where the source has ${at(was)}`;
  }
  const left = Math.abs(source.left - lmx.box.left) > LAYOUT_TOLERANCE;
  const right = Math.abs(source.right - lmx.box.right) > LAYOUT_TOLERANCE;
  if (!left && !right) return undefined;
  return `its text spans ${at(lmx.box.left)} to ${at(lmx.box.right)} at ${viewport} px wide, where the source's spans ${at(source.left)} to ${at(source.right)}`;
}

/**
 * An image the source draws at its own size (an HTML or React image of no width), which LMX, given
 * none, draws across its box: what moves it is its width, at every screen.
 */
const atOwnSize = (block: LmxBlock, from: BlockSource) => block.tag === 'Image' && block.attrs.width === undefined && from.position !== 'full';

const OWN_WIDTH = "set its width to the image's own, in pixels: LMX draws an image of no width across its box";

/** Blocks that hold blocks: their place is their content's, counted block by block. */
const CONTAINERS: ReadonlySet<string> = new Set(['Section', 'Columns', 'ColumnItem', 'Component']);

const SAID: Record<Position, string> = { left: 'at the left', center: 'centred', right: 'at the right', full: 'across the full width' };

/** Where a face stands across a box: at a side, centred, or filling it. */
function standing(face: Box, box: Box): Position {
  const [before, after] = [face.left - box.left, box.right - face.right];
  if (before <= LAYOUT_TOLERANCE && after <= LAYOUT_TOLERANCE) return 'full';
  if (Math.abs(before - after) <= LAYOUT_TOLERANCE) return 'center';
  return before < after ? 'left' : 'right';
}

/**
 * The widths at which a button's bold label, wider, breaks onto a second line across its box in
 * the source, where LMX's, in its theme's weight, stands on one line at its side. Where LMX's
 * face fills its box too, about as wide (within a fifth) as the source's, both are judged against
 * the screen: a change of width, not of place (Mailgen's Neopolitan's button in its narrow column
 * on a phone).
 */
function unbrokenAt(block: LmxBlock, style: Readonly<Record<string, string>>, laid: ReadonlyMap<number, ReturnType<typeof layoutLmx>>): number[] {
  return VIEWPORTS.filter((viewport) => {
    const placed = laid.get(viewport)?.get(block);
    if (placed === undefined) return false;
    const { box, align } = placed;
    const [room, drawn] = [box.right - box.left, buttonWidth(block, style, false)];
    if (buttonWidth(block, style, true) < room - LAYOUT_TOLERANCE || drawn >= room - LAYOUT_TOLERANCE) return false;
    const left = align === 'left' ? box.left : align === 'right' ? box.right - drawn : (box.left + box.right - drawn) / 2;
    const face = { left, right: left + drawn };
    const screen = { left: 0, right: viewport };
    return standing(face, box) !== 'full' || drawn < 0.8 * room || standing(face, screen) !== standing(box, screen);
  });
}

/**
 * The width LMX draws an image of a width at on a phone, where it shrinks it to its column and the
 * source keeps the image's width, widening its column past its share of the row (React Email's 264
 * px picture in a row's half); undefined where both draw it alike.
 */
function squeezedAt(block: LmxBlock, from: BlockSource, phone: SourceLayout, laid: ReadonlyMap<number, ReturnType<typeof layoutLmx>>): number | undefined {
  const width = block.tag === 'Image' ? Number(block.attrs.width) : Number.NaN;
  const lmx = laid.get(phone.viewport)?.get(block)?.box;
  const source = phone.of(from.own ?? from.element)?.box;
  if (Number.isNaN(width) || lmx === undefined || source === undefined) return undefined;
  // A source wider than the screen is judged where it fits, as its layout is.
  if (source.right > phone.viewport + LAYOUT_TOLERANCE) return undefined;
  const drawn = lmx.right - lmx.left;
  // The source's box is the image's own width where the image sizes it: a column it widens.
  return drawn < width - LAYOUT_TOLERANCE && Math.abs(source.right - source.left - width) <= LAYOUT_TOLERANCE ? drawn : undefined;
}

/**
 * Where each block stands across its box, at 600 px, against where the source draws it as the
 * layout model reads it: a text's alignment, an image's or a button's own place (a side, centred,
 * or across the full width); one the source's media queries move (Mailgen's `.button { width:
 * 100% }` up to 500 px) at each width compared, a picture that widens its column on a phone where
 * LMX fits it to the column, and a button whose bold label breaks across its
 * box where LMX's, in its theme's weight, stands on one line. Dividers and icons are not counted: the model does
 * not place them. Each that stands elsewhere is listed, unless the layout entry of the same block
 * already says how.
 */
function comparePositions(
  source: SourceLayout,
  phoneSource: SourceLayout,
  style: Readonly<Record<string, string>>,
  blocks: readonly LmxBlock[],
  listed: ReadonlyMap<LmxBlock, string | undefined>,
  findings: Findings,
): Measure {
  const measure = { source: 0, kept: 0 };
  const laid = new Map<number, ReturnType<typeof layoutLmx>>(VIEWPORTS.map((viewport) => [viewport, layoutLmx(style, blocks, viewport)]));
  // A button widened to stand full width stands so only where its padding reaches across its box (LMX takes at most 100 px a side).
  const drawnAt = (block: LmxBlock, from: BlockSource, viewport: number): Position | undefined => {
    const placed = laid.get(viewport)?.get(block);
    if (placed === undefined) return undefined;
    // LMX draws an image of no width across its box.
    if (block.tag === 'Image' && block.attrs.width === undefined) return 'full';
    const fills = from.fills === true && buttonWidth(block, style) >= placed.box.right - placed.box.left - 2 * LAYOUT_TOLERANCE;
    return fills ? 'full' : placed.align;
  };
  for (const block of laid.get(source.viewport)!.keys()) {
    const from = sourceOf(block);
    if (from === undefined || CONTAINERS.has(block.tag)) continue;
    const was = from.position ?? (from.kind === 'text' ? source.of(from.element)?.align : undefined);
    if (was === undefined) continue;
    measure.source += 1;
    if (from.inTurn === true) {
      findings.add(
        (from.own ?? from.element).at,
        `the position of <${block.tag}>`,
        'not carried',
        'drawn in a place of its own, one under another with the others, where the source shows one at a time in one place, with a row of thumbnails to choose it',
        'keep the one picture to show, or set them side by side (<Columns>) as the row of thumbnails',
      );
      continue;
    }
    if (atOwnSize(block, from)) {
      if (listed.get(block) === undefined)
        findings.add(
          (from.own ?? from.element).at,
          `the position of <${block.tag}>`,
          'not carried',
          `drawn across the full width, where the source draws it ${SAID[was]} at its own size`,
          OWN_WIDTH,
        );
      continue;
    }
    const { positionAt } = from;
    const unbroken = from.bold === true && was !== 'full' ? unbrokenAt(block, style, laid) : [];
    if (positionAt === undefined && unbroken.length > 0) {
      if (listed.get(block) === undefined)
        findings.add(
          (from.own ?? from.element).at,
          `the position of <${block.tag}>`,
          'not carried',
          unbroken
            .map(
              (viewport) =>
                `drawn ${SAID[drawnAt(block, from, viewport)!]} at ${viewport} px wide on one line, where the source's bold label breaks across its box's full width`,
            )
            .join('; '),
          'LMX draws a button’s label in its theme’s weight: make the theme’s button text bold in the editor, or shorten the label',
        );
      continue;
    }
    if (positionAt === undefined) {
      const is = drawnAt(block, from, source.viewport)!;
      // A full-width button fills its box at every width; LMX's, as wide as its padding makes it, may not on a phone, where its column is wider.
      const phone = from.fills === true && is === was ? drawnAt(block, from, VIEWPORTS[1]) : undefined;
      const squeezed = is === was && phone === undefined ? squeezedAt(block, from, phoneSource, laid) : undefined;
      if (was === is && (phone === undefined || phone === was) && squeezed === undefined) measure.kept += 1;
      else if (listed.get(block) === undefined) {
        const [said, todo] =
          was !== is
            ? [
                `drawn ${SAID[is]}, where the source draws it ${SAID[was]}`,
                was === 'full' ? 'widen it in the LMX (innerXPadding) to fill the body' : `set its align to "${was}" in the LMX`,
              ]
            : squeezed !== undefined
              ? [
                  `drawn ${Math.round(squeezed)} px wide at ${VIEWPORTS[1]} px wide, where the source keeps its ${block.attrs.width} px and widens its column`,
                  'LMX fits an image to its column on a phone: stack the columns there (stackOnMobile), or give the image a width its column holds',
                ]
              : [
                  `drawn ${SAID[phone!]} at ${VIEWPORTS[1]} px wide, where the source draws it ${SAID[was]}`,
                  'LMX draws a button as wide on every screen: choose the width that suits both',
                ];
        findings.add((from.own ?? from.element).at, `the position of <${block.tag}>`, 'not carried', said, todo);
      }
      continue;
    }
    const differs = VIEWPORTS.flatMap((viewport) => {
      const [at, is] = [positionAt(viewport), drawnAt(block, from, viewport)];
      return is === undefined || at === is ? [] : [`drawn ${SAID[is]} at ${viewport} px wide, where the source's stylesheet draws it ${SAID[at]}`];
    });
    if (differs.length === 0) measure.kept += 1;
    else if (listed.get(block) === undefined)
      findings.add(
        (from.own ?? from.element).at,
        `the position of <${block.tag}>`,
        'not carried',
        differs.join('; '),
        'LMX draws a block in one place on every screen, where the source’s media queries move it: choose the place that suits both (innerXPadding widens a button)',
      );
  }
  return measure;
}

/**
 * Each block laid out as the LMX draws it and as the source does, at each width compared: how many
 * stand and align as in the source (`layout`), and an entry at its source place for each that does
 * not; and how many stand at the side the source draws them at (`positions`).
 */
export function compareLayout(
  body: SourceElement,
  style: Readonly<Record<string, string>>,
  blocks: readonly LmxBlock[],
  findings: Findings,
): { layout: Measure; positions: Measure } {
  const compared = new Map<LmxBlock, string | undefined>();
  const layouts = VIEWPORTS.map((viewport) => new SourceLayout(body, viewport));
  for (const [index, viewport] of VIEWPORTS.entries()) {
    const source = layouts[index]!;
    const laid = layoutLmx(style, blocks, viewport);
    for (const [block, placed] of laid) {
      const from = sourceOf(block);
      const box = from === undefined ? undefined : source.of(from.element)?.box;
      if (from === undefined || box === undefined || compared.get(block) !== undefined) continue;
      // A source wider than the screen relies on CSS of its own to fit a phone (media queries), which the model does not read: judged where it fits.
      if (box.right > viewport + LAYOUT_TOLERANCE) continue;
      // A list's text stands in its items, which take its padding (a list has none of its own): judged where its first item's stands.
      const first = block.tag === 'OrderedList' || block.tag === 'UnorderedList' ? block.blocks?.[0] : undefined;
      const item = first === undefined ? undefined : laid.get(first);
      compared.set(block, difference(from, box, item === undefined ? placed : { ...placed, box: item.box }, viewport));
    }
  }
  // A word LMX cannot break that makes a phone's page wider than its screen, where the source's fits it.
  const phone = layouts[1]!;
  for (const [block, { said }] of wordsTooWide(style, blocks)) {
    const from = sourceOf(block);
    const box = from === undefined ? undefined : phone.of(from.element)?.box;
    if (box === undefined || box.right > VIEWPORTS[1] + LAYOUT_TOLERANCE) continue;
    // Said beside the block's other difference, if it has one: a page wider than a phone's screen is what its reader notices.
    const differs = compared.get(block);
    compared.set(block, differs === undefined ? said : `${differs}; ${said}`);
  }
  for (const [block, differs] of compared) {
    if (differs === undefined) continue;
    const from = sourceOf(block)!;
    findings.add(
      from.element.at,
      `the layout of <${block.tag}>`,
      'not carried',
      differs,
      `${atOwnSize(block, from) ? `${OWN_WIDTH}; then ` : ''}set its align and padding in the LMX (or the body’s bodyXPadding) as the original stands, and check it in the preview`,
    );
  }
  return {
    layout: { source: compared.size, kept: [...compared.values()].filter((differs) => differs === undefined).length },
    positions: comparePositions(layouts[0]!, layouts[1]!, style, blocks, compared, findings),
  };
}
