/**
 * Where the LMX a conversion makes lays its blocks out across a screen, as the LMX renderer
 * (src/lmx/render*.ts) draws them: the page's padding, a body 600 px wide at most with its own
 * padding, each block in a cell of its padding, sections and columns holding blocks of their own
 * (columns one under the other at 480 px and below, unless told not to stack), and each block's
 * alignment with the renderer's defaults (an image, a divider and icons centred, the rest left).
 * The same model as layout.ts's, for LMX: the two are compared block by block.
 */
import { LIST_INDENT_PX } from '../../lmx/render/text.js';
import { DEFAULT_THEME_STYLES } from '../../platform/themes/default-theme.js';
import type { LmxBlock } from '../lmx-out.js';
import type { Align } from './alignment.js';
import type { Box } from './layout.js';

/** The widest the renderer draws a body, and the screen width its columns stack at. */
const BODY_WIDTH = 600;
const STACK_AT = 480;

const number = (value: string | number | undefined, fallback = 0) => {
  const parsed = Number(value);
  return value === undefined || !Number.isFinite(parsed) ? fallback : parsed;
};

/** The alignment a block is drawn with: its own, else the renderer's default for its kind. */
export function lmxAlign(block: LmxBlock): Align {
  const own = block.attrs.align;
  if (own === 'left' || own === 'center' || own === 'right') return own;
  return ['Image', 'Divider', 'Icons'].includes(block.tag) ? 'center' : 'left';
}

/** The content box of the body at a screen width, with `<Style />`'s padding and border. */
export function bodyBox(style: Readonly<Record<string, string>>, viewport: number): Box {
  const page = number(style.backgroundXPadding, number(DEFAULT_THEME_STYLES.backgroundXPadding));
  const inside = number(style.bodyXPadding, number(DEFAULT_THEME_STYLES.bodyXPadding)) + number(style.borderWidth, number(DEFAULT_THEME_STYLES.borderWidth));
  const width = Math.min(BODY_WIDTH, Math.max(0, viewport - 2 * page));
  const left = (viewport - width) / 2;
  return { left: left + inside, right: left + width - inside };
}

/** A block's content box in the box it stands in: less its padding. */
export function paddedBox(block: LmxBlock, outer: Box): Box {
  return { left: outer.left + number(block.attrs.paddingLeft), right: outer.right - number(block.attrs.paddingRight) };
}

/**
 * The content boxes of a row of columns' items, as the renderer shares the row out (half its gap
 * taken off each inner side; `gapShare` says another share, to aim between side by side and stacked).
 */
export function columnBoxes(columns: LmxBlock, inner: Box, viewport: number, gapShare = 0.5): Box[] {
  const items = columns.blocks ?? [];
  if (viewport <= STACK_AT && columns.attrs.stackOnMobile !== 'false') return items.map(() => ({ ...inner }));
  const gap = number(columns.attrs.gap, 24);
  const given = (columns.attrs.widths ?? '').split(',').map(Number);
  const widths = given.length === items.length && given.every((width) => width >= 1 && width <= 100) ? given : items.map(() => 100 / items.length);
  const total = inner.right - inner.left;
  let left = inner.left;
  return items.map((_item, index) => {
    const width = (total * widths[index]!) / 100;
    const box = { left: left + (index === 0 ? 0 : gap * gapShare), right: left + width - (index === items.length - 1 ? 0 : gap * gapShare) };
    left += width;
    return box;
  });
}

/** Every block of an email laid out at a screen width: its content box and alignment. */
export function layoutLmx(style: Readonly<Record<string, string>>, blocks: readonly LmxBlock[], viewport: number): Map<LmxBlock, { box: Box; align: Align }> {
  const placed = new Map<LmxBlock, { box: Box; align: Align }>();
  const visit = (list: readonly LmxBlock[], outer: Box) => {
    for (const block of list) {
      const box = paddedBox(block, outer);
      placed.set(block, { box, align: lmxAlign(block) });
      if (block.tag === 'Columns') columnBoxes(block, box, viewport).forEach((item, index) => visit(block.blocks![index]!.blocks ?? [], item));
      else if (block.tag === 'Section' || block.tag === 'Component') visit(block.blocks ?? [], box);
      else if (block.tag === 'OrderedList' || block.tag === 'UnorderedList') visit(block.blocks ?? [], { left: box.left + LIST_INDENT_PX, right: box.right });
    }
  };
  visit(blocks, bodyBox(style, viewport));
  return placed;
}
