/**
 * The renderer as the element renderers of each family see it (render/text.ts, render/media.ts,
 * render/layout.ts): the theme's styles, attributes read safely, the width a block has, and the
 * shared ways of drawing a block. The renderer implements it, so the families need not import it.
 */
import type { LmxDocument, LmxElement, LmxNode } from '../parse.js';
import type { EmailStyles, TextStyle } from '../theme.js';

/** An address not written live, with why. */
export interface InertAddress {
  tag: string;
  attribute: string;
  value: string;
  reason: string;
}

export interface Drawing {
  readonly styles: EmailStyles;
  readonly inert: InertAddress[];
  readonly missingComponents: Set<string>;
  readonly nestedComponents: Set<string>;
  /** Drawing a component's content, where another is not expanded. */
  readonly inComponent: boolean;
  /** An attribute's value with its variables filled. */
  attribute(element: LmxElement, name: string): string | undefined;
  /** A colour attribute, or undefined (noted as dropped) when it is not a safe colour. */
  colour(element: LmxElement, name: string): string | undefined;
  /** A number attribute within its bounds, or undefined (noted as dropped) when it is not one. */
  number(element: LmxElement, name: string, min: number, max: number): number | undefined;
  align(element: LmxElement): string | undefined;
  /** An address written live, or undefined (noted as inert) when it may not be. */
  url(element: LmxElement, name: string, schemes?: ReadonlySet<string>): string | undefined;
  /** The width inside an element's own left and right padding. */
  innerWidth(element: LmxElement): number;
  /** Blocks drawn within a narrower width. */
  within(width: number, draw: () => string): string;
  /** The blocks of a container, the last leaving no space below it. */
  containedBlocks(nodes: readonly LmxNode[]): string;
  inline(nodes: readonly LmxNode[]): string;
  textCss(text: TextStyle, element?: LmxElement): string[];
  /** The block style attributes as CSS: background, corner radius and padding. */
  blockCss(element: LmxElement): (string | undefined)[];
  /** A block in its own table cell, with the space the editor leaves between blocks. */
  wrap(element: LmxElement, inner: string, extra?: string[]): string;
  /** The component of that id given to the render, parsed. */
  componentNamed(id: string): LmxDocument | undefined;
  /** A component's content drawn, where no other component is expanded, within the budget components have. */
  asComponent(draw: () => string): string;
}
