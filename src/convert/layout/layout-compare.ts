/**
 * Layout held to the source. Once the email is mapped and its layout carried (layout-carry.ts),
 * the LMX and the source are laid out again at 600 and 375 px and compared, block by block: what
 * stands elsewhere or aligns otherwise than in the source is listed, and counted in the fidelity
 * line.
 */
import type { LmxBlock } from '../lmx-out.js';
import type { Findings, Measure, SourceElement } from '../model.js';
import type { Align, Position } from './alignment.js';
import { type BlockSource, sourceOf } from './block-source.js';
import { type Box, SourceLayout } from './layout.js';
import { buttonWidth, wordsTooWide } from './lmx-fit.js';
import { layoutLmx } from './lmx-layout.js';

/** The widths an email is compared at: the body's own, and a phone's. */
export const VIEWPORTS = [600, 375] as const;

/** How far a block may stand from the source's place and still be taken as there: rounding, borders, a font's metrics. */
export const LAYOUT_TOLERANCE = 6;

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

/** Each width's LMX laid out, and what the positions of its blocks are judged by. */
interface Placing {
  source: SourceLayout;
  phoneSource: SourceLayout;
  style: Readonly<Record<string, string>>;
  laid: ReadonlyMap<number, ReturnType<typeof layoutLmx>>;
}

/** Where LMX draws a block at a width: a button widened to stand full width stands so only where its padding reaches across its box (LMX takes at most 100 px a side). */
function drawnAt({ style, laid }: Placing, block: LmxBlock, from: BlockSource, viewport: number): Position | undefined {
  const placed = laid.get(viewport)?.get(block);
  if (placed === undefined) return undefined;
  // LMX draws an image of no width across its box.
  if (block.tag === 'Image' && block.attrs.width === undefined) return 'full';
  const fills = from.fills === true && buttonWidth(block, style) >= placed.box.right - placed.box.left - 2 * LAYOUT_TOLERANCE;
  return fills ? 'full' : placed.align;
}

/** How a block the source draws in one place at every width stands elsewhere in LMX, said and what to do; undefined where it stands as the source does. */
function fixedDifference(placing: Placing, block: LmxBlock, from: BlockSource, was: Position): [string, string] | undefined {
  const is = drawnAt(placing, block, from, placing.source.viewport)!;
  // A full-width button fills its box at every width; LMX's, as wide as its padding makes it, may not on a phone, where its column is wider.
  const phone = from.fills === true && is === was ? drawnAt(placing, block, from, VIEWPORTS[1]) : undefined;
  const squeezed = is === was && phone === undefined ? squeezedAt(block, from, placing.phoneSource, placing.laid) : undefined;
  if (was === is && (phone === undefined || phone === was) && squeezed === undefined) return undefined;
  if (was !== is)
    return [
      `drawn ${SAID[is]}, where the source draws it ${SAID[was]}`,
      was === 'full' ? 'widen it in the LMX (innerXPadding) to fill the body' : `set its align to "${was}" in the LMX`,
    ];
  if (squeezed !== undefined)
    return [
      `drawn ${Math.round(squeezed)} px wide at ${VIEWPORTS[1]} px wide, where the source keeps its ${block.attrs.width} px and widens its column`,
      'LMX fits an image to its column on a phone: stack the columns there (stackOnMobile), or give the image a width its column holds',
    ];
  return [
    `drawn ${SAID[phone!]} at ${VIEWPORTS[1]} px wide, where the source draws it ${SAID[was]}`,
    'LMX draws a button as wide on every screen: choose the width that suits both',
  ];
}

/**
 * How a block stands elsewhere than the source draws it, said and what to do; undefined where it
 * stands as the source does.
 */
function placeDifference(placing: Placing, block: LmxBlock, from: BlockSource, was: Position): [string, string] | undefined {
  if (from.inTurn === true)
    return [
      'drawn in a place of its own, one under another with the others, where the source shows one at a time in one place, with a row of thumbnails to choose it',
      'keep the one picture to show, or set them side by side (<Columns>) as the row of thumbnails',
    ];
  if (atOwnSize(block, from)) return [`drawn across the full width, where the source draws it ${SAID[was]} at its own size`, OWN_WIDTH];
  const { positionAt } = from;
  const unbroken = from.bold === true && was !== 'full' ? unbrokenAt(block, placing.style, placing.laid) : [];
  if (positionAt === undefined && unbroken.length > 0)
    return [
      unbroken
        .map(
          (viewport) =>
            `drawn ${SAID[drawnAt(placing, block, from, viewport)!]} at ${viewport} px wide on one line, where the source's bold label breaks across its box's full width`,
        )
        .join('; '),
      'LMX draws a button’s label in its theme’s weight: make the theme’s button text bold in the editor, or shorten the label',
    ];
  if (positionAt === undefined) return fixedDifference(placing, block, from, was);
  const differs = VIEWPORTS.flatMap((viewport) => {
    const [at, is] = [positionAt(viewport), drawnAt(placing, block, from, viewport)];
    return is === undefined || at === is ? [] : [`drawn ${SAID[is]} at ${viewport} px wide, where the source's stylesheet draws it ${SAID[at]}`];
  });
  if (differs.length === 0) return undefined;
  return [
    differs.join('; '),
    'LMX draws a block in one place on every screen, where the source’s media queries move it: choose the place that suits both (innerXPadding widens a button)',
  ];
}

/**
 * Where each block stands across its box, at 600 px, against where the source draws it as the
 * layout model reads it: a text's alignment, an image's or a button's own place (a side, centred,
 * or across the full width); one the source's media queries move (Mailgen's `.button { width:
 * 100% }` up to 500 px) at each width compared, a picture that widens its column on a phone where
 * LMX fits it to the column, and a button whose bold label breaks across its
 * box where LMX's, in its theme's weight, stands on one line. Dividers and icons are not counted: the model does
 * not place them. Each that stands elsewhere is listed, unless the layout entry of the same block
 * already says how; blocks shown in turn in one place are always listed, and an image drawn at its
 * own size or a button whose label does not break is never counted as kept.
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
  const placing = { source, phoneSource, style, laid };
  for (const block of laid.get(source.viewport)!.keys()) {
    const from = sourceOf(block);
    if (from === undefined || CONTAINERS.has(block.tag)) continue;
    const was = from.position ?? (from.kind === 'text' ? source.of(from.element)?.align : undefined);
    if (was === undefined) continue;
    measure.source += 1;
    const differs = placeDifference(placing, block, from, was);
    if (differs === undefined) measure.kept += 1;
    else if (from.inTurn === true || listed.get(block) === undefined)
      findings.add((from.own ?? from.element).at, `the position of <${block.tag}>`, 'not carried', ...differs);
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
