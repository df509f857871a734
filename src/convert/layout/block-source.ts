/**
 * Where each block of the LMX came from in its source: the element it stands in and how the source
 * places it there, noted as the blocks are made, for the layout to be carried and compared.
 */
import type { LmxBlock } from '../lmx-out.js';
import type { SourceElement } from '../model.js';
import type { Align, Position } from './alignment.js';

/** Where a block came from: the element whose content box it stands in, and how the source aligns what it holds there. */
export interface BlockSource {
  element: SourceElement;
  /** `text`: its text fills the box (compared edge to edge); `media`: an image, button, divider or icons placed in it by its alignment. */
  kind: 'text' | 'media';
  align: Align;
  /** The element the block draws (an image, a button), where it is not the box it stands in. */
  own?: SourceElement;
  /** Where the source draws it across its box (an image's or button's own place); a text's is its alignment, as the layout model reads it. */
  position?: Position;
  /** The block as made stands across the body (a full-width button widened to fill it). */
  fills?: boolean;
  /** Where the source draws it at a screen width, where its stylesheet's media queries move it (a button made full width on a phone). */
  positionAt?: (viewport: number) => Position;
  /** The source shows it one at a time among others in its place (a carousel's picture): no place LMX gives it is the source's. */
  inTurn?: boolean;
  /** A button's label the source draws bold, which LMX draws in its theme's weight (regular in the default theme). */
  bold?: boolean;
}

const sources = new WeakMap<LmxBlock, BlockSource>();

/** Where a block came from (for the tests that hold the layout model to a browser's rendering). */
export function sourceOf(block: LmxBlock): Readonly<BlockSource> | undefined {
  return sources.get(block);
}

/** Notes where a block came from, for its layout to be carried and compared. */
export function recordSource(
  made: LmxBlock,
  element: SourceElement | undefined,
  kind: BlockSource['kind'],
  align: Align,
  drawn: Pick<BlockSource, 'own' | 'position' | 'fills' | 'positionAt' | 'inTurn' | 'bold'> = {},
): void {
  if (element !== undefined) sources.set(made, { element, kind, align, ...drawn });
}
