/**
 * The one mapper from a source's tree (model.ts) to LMX blocks, element by element: headings,
 * paragraphs, quotes, lists, code, buttons, images, dividers, 2 to 4 columns, social icons and one
 * level of styled sections. Spacing (padding, margins, spacers) becomes the padding of the block
 * beside it. What LMX cannot hold is listed in the findings, and its text is kept as paragraphs.
 */
import { listBackgroundImage, listDecoration, listHidden, standInForImage } from './box-losses.js';
import { coloured, rememberBackdrop, rememberLook, SOURCE_TEXT } from './contrast.js';
import { dividerBlock } from './divider.js';
import { buttonBlock, imageBlock, outsideFace } from './image-button.js';
import { dropsPlatformLink, holdsImage, hrefOf, inherit, inlineOf, isButtonLink, isHidden, isInline, type MapContext, trimInline } from './inline.js';
import { attributeTextAlign } from './layout/alignment.js';
import { recordSource } from './layout/block-source.js';
import { listBlock } from './lists.js';
import { addPadding, block, type LmxBlock, plainText, setNumber } from './lmx-out.js';
import { FULL_WIDTH_UP_TO, type Place, type SourceElement, type SourceNode, shorten, textContent } from './model.js';
import { columnsOf, columnWidths, linkedParts } from './shapes.js';
import { socialBlocks } from './social.js';
import { alignOf, alphaOf, backgroundImageOf, backgroundOf, boxSides, hexColour, lineHeightPercent, listAlpha, pixels, verticalSpace } from './styles.js';
import { tableBlocks } from './tables.js';
import { blockFontSize, type DrawnSizes, listPhoneSize, listTextLook } from './text-losses.js';

/** Space a spacer leaves for the block after it; it becomes that block's top padding. */
interface Spacer {
  tag: '#space';
  height: number;
}
type Mapped = LmxBlock | Spacer;

const isSpacer = (node: Mapped): node is Spacer => node.tag === '#space';

/** Elements that hold nothing to show. */
const SILENT = new Set(['head', 'title', 'meta', 'link', 'base', '#comment', 'x-head']);

/** Elements an email cannot carry, with what to do about them. */
const UNSUPPORTED: Record<string, { construct: string; todo: string }> = {
  script: { construct: 'a script', todo: 'email clients run no scripts: nothing to do' },
  form: { construct: 'a form', todo: 'link to a page with the form instead (a <Button>)' },
  input: { construct: 'a form field', todo: 'link to a page with the form instead (a <Button>)' },
  select: { construct: 'a form field', todo: 'link to a page with the form instead (a <Button>)' },
  textarea: { construct: 'a form field', todo: 'link to a page with the form instead (a <Button>)' },
  button: { construct: 'a form button', todo: 'make it a <Button> with the address it should open' },
  iframe: { construct: 'an embedded frame', todo: 'link to the page instead' },
  video: { construct: 'a video', todo: 'use a still image linked to the video' },
  audio: { construct: 'an audio player', todo: 'link to the recording instead' },
  object: { construct: 'an embedded object', todo: 'use an image or a link instead' },
  embed: { construct: 'an embedded object', todo: 'use an image or a link instead' },
  svg: { construct: 'an inline SVG drawing', todo: 'export it as a PNG and use an <Image>' },
  canvas: { construct: 'a canvas', todo: 'use an image instead' },
  style: { construct: 'custom CSS (<style>)', todo: 'LMX takes no CSS: set colours and fonts in the theme (<Style />) and on each block' },
};

/** The blocks of a list of nodes: runs of inline content become paragraphs, spacers the next block's padding. */
export function blocksOf(nodes: readonly SourceNode[], context: MapContext): LmxBlock[] {
  const mapped: Mapped[] = [];
  let run: SourceNode[] = [];
  const flush = () => {
    const paragraph = textBlock('Paragraph', run, context, undefined);
    if (paragraph !== undefined) mapped.push(paragraph);
    run = [];
  };
  for (const node of nodes) {
    if (isInline(node)) run.push(node);
    else {
      flush();
      mapped.push(...nodeBlocks(node as SourceElement, context));
    }
  }
  flush();
  return placeSpacers(mapped);
}

/** Spacers given to the block after them as top padding (or, at the end, to the block before as bottom padding). */
function placeSpacers(mapped: Mapped[]): LmxBlock[] {
  const blocks: LmxBlock[] = [];
  let pending = 0;
  for (const node of mapped) {
    if (isSpacer(node)) pending += node.height;
    else {
      if (pending > 0) addPadding(node, 'paddingTop', pending);
      pending = 0;
      blocks.push(node);
    }
  }
  const last = blocks.at(-1);
  if (pending > 0 && last !== undefined) addPadding(last, 'paddingBottom', pending);
  return blocks;
}

/** One element's blocks. */
function nodeBlocks(node: SourceElement, context: MapContext): Mapped[] {
  if (SILENT.has(node.name) || dropsPlatformLink(node, context)) return [];
  if (isHidden(node)) return listHidden(node, context);
  const unsupported = UNSUPPORTED[node.name];
  if (unsupported !== undefined) return unsupportedBlocks(node, context, unsupported);
  switch (node.name) {
    case 'h1':
    case 'h2':
    case 'h3':
      return spaced(node, textBlock(node.name.toUpperCase(), node.children, inherit(context, node.style), node));
    case 'h4':
    case 'h5':
    case 'h6':
      context.findings.add(node.at, `<${node.name}>`, 'approximated', 'written as <H3>, the smallest heading LMX has', 'check its size in the preview');
      return spaced(node, textBlock('H3', node.children, inherit(context, node.style), node));
    case 'p':
      // A paragraph that holds an image (Markdown's `![alt](src)` alone on its line, <p><img></p>): its text and images as blocks, in order.
      if (node.children.some(holdsImage)) return container(node, context, (inner) => blocksOf(node.children, inner));
      return spaced(node, textBlock('Paragraph', node.children, inherit(context, node.style), node));
    case 'blockquote':
      return quoteBlocks(node, context);
    case 'pre': {
      const code = block('CodeBlock', {}, { raw: textContent(node).replace(/^\n/, '').replace(/\s+$/, '') });
      recordSource(code, node, 'text', 'left');
      return spaced(node, code);
    }
    case 'ul':
    case 'ol':
      return spaced(node, listBlock(node, context, STEPS));
    case 'img':
      return spaced(node, onItsColour(imageBlock(node, undefined, context), context, node.at));
    case 'hr':
      return [onItsColour(dividerBlock(node, context), context, node.at)];
    case 'x-button':
      return spaced(node, onItsColour(buttonBlock(node, context), context, node.at));
    case 'x-spacer':
      return [{ tag: '#space', height: pixels(node.attrs.height) ?? 0 }];
    case 'x-columns':
      return columnsBlocks(node, context);
    case 'x-social':
      return socialBlocks(node, context).map((made) => onItsColour(made, context, node.at));
    case 'x-component':
      return [block('Component', { componentId: node.attrs.id! })];
    case 'x-file-start':
      // Text a source writes before its HTML: its reader listed it, and LMX writes nothing there.
      return [];
    case 'table':
      return container(node, context, (inner) => tableBlocks(node, inner, STEPS));
    case 'a':
      return linkBlocks(node, context);
    default:
      return container(node, context, (inner) => blocksOf(node.children, inner));
  }
}

/** The padding and margin of an element, on the first and last of its blocks. */
function spaced(node: SourceElement, made: LmxBlock | undefined): LmxBlock[] {
  if (made === undefined) return [];
  const { top, bottom } = verticalSpace(node.style);
  addPadding(made, 'paddingTop', top);
  addPadding(made, 'paddingBottom', bottom);
  return [made];
}

/** A heading, paragraph or quote: its content, alignment, size, line height, colour and background. */
export function textBlock(tag: string, nodes: readonly SourceNode[], context: MapContext, node: SourceElement | undefined): LmxBlock | undefined {
  const drawn: DrawnSizes = [];
  let inline = trimInline(inlineOf(nodes, { ...context, drawnSizes: drawn }));
  if (plainText(inline).trim() === '') return undefined;
  const style = context.inherited;
  const made = block(tag, {}, { inline });
  const at = node?.at ?? firstPlace(nodes);
  const align = alignOf(style['text-align'] ?? node?.attrs.align);
  if (align !== undefined && align !== 'left' && tag !== 'ListItem') made.attrs.align = align;
  if (tag !== 'ListItem') recordSource(made, node ?? context.holder, 'text', align ?? 'left');
  // A heading's size is its own; a paragraph's is what it inherits, where that is not the email's base size.
  const fontSize =
    blockFontSize(drawn, pixels(style['font-size']), tag, context) ?? pixels(tag.startsWith('H') ? node?.style['font-size'] : style['font-size']);
  if (fontSize !== undefined && fontSize !== context.baseFontSize) setNumber(made, 'fontSize', fontSize, at, context.findings);
  listPhoneSize(node, fontSize ?? context.baseFontSize, at, context);
  const lineHeight = lineHeightPercent(node?.style['line-height'], fontSize);
  if (lineHeight !== undefined) setNumber(made, 'lineHeight', lineHeight, at, context.findings);
  // Text of no colour of its own is drawn in the source's default, black, which the theme's base colour may not be.
  const colour = hexColour(style.color, context.sourceBackground) ?? SOURCE_TEXT;
  listAlpha(context.findings, style.color, colour, context.sourceBackground, at);
  if (colour !== context.baseColour) {
    inline = coloured(inline, colour);
    made.inline = inline;
  }
  if (/^(bold|bolder|[6-9]00)$/i.test(style['font-weight'] ?? '') && !tag.startsWith('H')) made.inline = [{ tag: 'Strong', attrs: {}, children: made.inline! }];
  listTextLook(tag, node, at, context);
  const own = node === undefined ? undefined : backgroundOf(node.style, node.attrs);
  // Text that stood on another colour than LMX draws it on (a footer on the page, below the card) keeps that colour behind it.
  const under = own ?? standsOn(context);
  if (under !== undefined && under !== context.background) made.attrs.blockColor = under;
  rememberLook(made, colour, own ?? context.sourceBackground, at, own === undefined ? context.sourceImage : undefined);
  return made;
}

/** The colour content stood on in the source where LMX draws it on another (the page's, beside the body's card), or undefined. */
export function standsOn(context: MapContext): string | undefined {
  return context.sourceBackground !== undefined && context.sourceBackground !== context.background ? context.sourceBackground : undefined;
}

/**
 * An image, a button, a divider or icons drawn on the colour they stood on in the source, where LMX
 * would draw them on another (a receipt's button on the white page, below the dark header band taken
 * for the body), as a text block is: beside blocks of that colour, one band of it. What an image or
 * a button stood on is noted, for the colours to be counted.
 */
function onItsColour<Made extends LmxBlock | undefined>(made: Made, context: MapContext, at: Place): Made {
  if (made === undefined) return made;
  const under = standsOn(context);
  if (under !== undefined && made.attrs.blockColor === undefined) made.attrs.blockColor = under;
  if (made.tag === 'Image' || made.tag === 'Button') rememberBackdrop(made, context.sourceBackground, at, context.sourceImage);
  return made;
}

function firstPlace(nodes: readonly SourceNode[]) {
  return nodes[0]!.at;
}

function quoteBlocks(node: SourceElement, context: MapContext): LmxBlock[] {
  const inner = inherit(context, node.style);
  if (node.children.every(isInline)) return spaced(node, textBlock('Quote', node.children, inner, node));
  // A quote of several paragraphs: each becomes a quote.
  return blocksOf(node.children, inner).map((made) => (made.tag === 'Paragraph' ? { ...made, tag: 'Quote' } : made));
}

/** A link around blocks: a button, an image with a link, or the blocks with the link on their text. */
function linkBlocks(node: SourceElement, context: MapContext): Mapped[] {
  if (isButtonLink(node)) return spaced(outsideFace(node), onItsColour(buttonBlock(node, context), context, node.at));
  const images = node.children.filter((child): child is SourceElement => child.type === 'element' && child.name === 'img');
  let href = node.attrs.href === undefined ? undefined : hrefOf(node.attrs.href, node, context);
  if (href?.trim() === '') {
    context.findings.add(
      node.at,
      `a link to ${node.attrs.href!.trim()}`,
      'kept as text',
      'its image kept without the link, as a link to nowhere cannot be published',
      'write the link’s https address (or a variable that holds it) in its href',
    );
    href = undefined;
  }
  if (images.length === 1 && node.children.every((child) => child === images[0] || (child.type === 'text' && child.text.trim() === ''))) {
    return spaced(node, onItsColour(imageBlock(images[0]!, href, context), context, images[0]!.at));
  }
  return container(node, context, (inner) => blocksOf(images.length > 0 ? linkedParts(node) : node.children, inner));
}

/** Columns: 2 to 4 become <Columns>; one is its content; five or more are listed and their content stacked. */
export function columnsBlocks(row: SourceElement, context: MapContext): Mapped[] {
  const standIn = standInForImage(row, context);
  listBackgroundImage(row, context, standIn);
  // A picture's words drawn on the colour that stands in for it, as if the row had that colour.
  const node = standIn === undefined ? row : { ...row, style: { ...row.style, 'background-color': standIn } };
  const columns = columnsOf(node);
  // Columns whose shares of the row add up to more than all of it wrap, as the source draws them: a line of
  // those that fit beside each other, then the next (Covalent's 100% title, then rows of a 40% label and a 60% value),
  // each a row with the row's look but not its space above and below.
  if (node.attrs['data-stack-below'] !== undefined && sharesOf(columns) > 100.5) {
    const style = Object.fromEntries(Object.entries(node.style).filter(([property]) => !/^(padding|margin)/.test(property)));
    return linesOf(columns).flatMap((line) => rowBlocks({ ...node, children: line, style }, line, context));
  }
  return rowBlocks(node, columns, context);
}

/** A row's columns as blocks: `<Columns>` of those with content, or their blocks one under another. */
function rowBlocks(node: SourceElement, columns: readonly SourceElement[], context: MapContext): Mapped[] {
  // The row's colour is what its columns' text was read against.
  const rowColour = backgroundOf(node.style, node.attrs, context.sourceBackground);
  const inRow = rowColour === undefined ? context : { ...context, sourceBackground: rowColour };
  const filled = columns.map((column) => ({ column, blocks: column.children.length === 0 ? [] : columnContent(column, inRow) }));
  const withContent = filled.filter((entry) => entry.blocks.length > 0);
  if (withContent.length <= 1) return withContent.flatMap((entry) => entry.blocks);
  if (withContent.length > 4 || context.inColumns) {
    context.findings.add(
      node.at,
      context.inColumns ? 'columns inside a column' : `${withContent.length} columns`,
      'flattened',
      'the columns’ content stacked one under the other',
      context.inColumns ? 'LMX columns do not nest: split the row into separate rows' : 'LMX takes 2 to 4 columns: split the row into rows of 4 or fewer',
    );
    return withContent.flatMap((entry) => entry.blocks);
  }
  // The least gap LMX takes: the source's columns meet, their content's own padding apart.
  const made = block('Columns', { gap: '12' }, { blocks: withContent.map((entry) => block('ColumnItem', {}, { blocks: entry.blocks })) });
  const widths = columnWidths(withContent.map((entry) => entry.column));
  if (widths !== undefined) made.attrs.widths = widths;
  const vertical = withContent[0]!.column.attrs['vertical-align'];
  if (vertical === 'middle' || vertical === 'bottom') made.attrs.verticalAlignment = vertical;
  // Side by side at every width, as a table's cells and an MJML group's columns are, unless the source stacks them
  // (MJML's columns, boxes that wrap, cells its stylesheet makes full width on a phone).
  const narrowed = withContent.every((entry) => (pixels(entry.column.attrs[FULL_WIDTH_UP_TO]) ?? 0) > 0);
  if ((pixels(node.attrs['data-stack-below']) ?? 0) === 0 && !narrowed) made.attrs.stackOnMobile = 'false';
  recordSource(made, node, 'text', 'left');
  made.blocks!.forEach((item, index) => recordSource(item, withContent[index]!.column, 'text', 'left'));
  const background = backgroundOf(node.style, node.attrs);
  if (background !== undefined && background !== context.background && !context.inSection) made.attrs.blockColor = background;
  const { top, bottom } = verticalSpace(node.style);
  addPadding(made, 'paddingTop', top);
  addPadding(made, 'paddingBottom', bottom);
  return [made];
}

/** Columns that wrap, line by line: on each line those that fit beside each other. */
function linesOf(columns: readonly SourceElement[]): SourceElement[][] {
  const lines: SourceElement[][] = [];
  let share = Number.POSITIVE_INFINITY;
  for (const column of columns) {
    const own = sharesOf([column]);
    if (share + own > 100.5) {
      lines.push([]);
      share = 0;
    }
    share += own;
    lines.at(-1)!.push(column);
  }
  return lines;
}

/** The shares of a row its columns give themselves, in percent (none given counts none). */
function sharesOf(columns: readonly SourceElement[]): number {
  return columns.reduce((sum, column) => sum + (Number(/^(\d+(?:\.\d+)?)%$/.exec(column.attrs.width ?? '')?.[1]) || 0), 0);
}

function columnContent(column: SourceElement, context: MapContext): LmxBlock[] {
  return container(column, { ...context, inColumns: true }, (inner) => blocksOf(column.children, inner)).filter((made): made is LmxBlock => !isSpacer(made));
}

/** An element with no meaning of its own: its content, as a styled section when its background sets it apart. */
export function container(node: SourceElement, context: MapContext, content: (inner: MapContext) => Mapped[]): Mapped[] {
  const standIn = standInForImage(node, context);
  listBackgroundImage(node, context, standIn);
  const background = backgroundOf(node.style, node.attrs, context.sourceBackground) ?? standIn;
  const writtenBackground = node.style['background-color'] ?? node.style.background?.split(/\s+(?![^(]*\))/).find((part) => alphaOf(part) !== undefined);
  listAlpha(context.findings, writtenBackground, background, context.sourceBackground, node.at);
  listDecoration(node, context);
  const styled = background !== undefined && background !== context.background && !context.plain.includes(background);
  // A cell's, a div's or a <center>'s alignment reaches the blocks inside, as its text-align does.
  const align = attributeTextAlign(node);
  let inner = { ...inherit(context, align === undefined ? node.style : { ...node.style, 'text-align': align }, node.name), holder: node };
  const image = backgroundImageOf(node.style, node.attrs) || undefined;
  if (background !== undefined || image !== undefined) inner = { ...inner, sourceBackground: background ?? inner.sourceBackground, sourceImage: image };
  if (styled) inner = { ...inner, background };
  if (!styled || (context.inColumns && node.name === 'x-column')) return withSpace(node, content(inner));
  if (context.inSection) {
    context.findings.add(
      node.at,
      'a styled section inside a section',
      'flattened',
      'its content kept in the outer section, each text block on its background colour, the space between them the outer section’s',
      'LMX sections do not nest: make it a section of its own',
    );
    // Drawn on the outer section's colour: its text blocks take the colour they stood on as their own.
    return withSpace(node, content({ ...inner, background: context.background }));
  }
  const blocks = content({ ...inner, inSection: true }).filter((made): made is LmxBlock => !isSpacer(made));
  if (blocks.length === 0) return [];
  const section = block('Section', { blockColor: background! }, { blocks });
  recordSource(section, node, 'text', 'left');
  const radius = pixels(node.style['border-radius']);
  if (radius !== undefined && radius > 0) setNumber(section, 'blockBorderRadius', radius, node.at, context.findings);
  const padding = boxSides(node.style, 'padding');
  for (const [index, side] of (['paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft'] as const).entries()) {
    const value = padding[index];
    if (value !== undefined && value > 0) setNumber(section, side, value, node.at, context.findings);
  }
  return [section];
}

/** A container's own vertical padding and margin given to the first and last of its blocks. */
function withSpace(node: SourceElement, mapped: Mapped[]): Mapped[] {
  const blocks = mapped.filter((made): made is LmxBlock => !isSpacer(made));
  const { top, bottom } = verticalSpace(node.style);
  if (blocks.length === 0) return top + bottom > 0 && node.children.length === 0 ? [{ tag: '#space', height: top + bottom }] : mapped;
  addPadding(blocks[0]!, 'paddingTop', top);
  addPadding(blocks.at(-1)!, 'paddingBottom', bottom);
  return mapped;
}

function unsupportedBlocks(node: SourceElement, context: MapContext, what: { construct: string; todo: string }): Mapped[] {
  const kept = node.name === 'script' || node.name === 'style' ? [] : blocksOf(node.children, context);
  const text = textContent(node).replace(/\s+/g, ' ').trim();
  const done = kept.length > 0 ? 'its text kept as paragraphs' : text === '' ? 'dropped' : `dropped with its text "${shorten(text)}"`;
  context.findings.add(node.at, what.construct, kept.length > 0 ? 'kept as text' : 'dropped', done, what.todo);
  return kept;
}

/** The steps tables.ts and lists.ts take from here. */
const STEPS = {
  blocksOf,
  columnsBlocks: (node: SourceElement, context: MapContext) => columnsBlocks(node, context).filter((made): made is LmxBlock => !isSpacer(made)),
  textBlock,
};
