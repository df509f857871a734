/**
 * HTML tables, which email HTML uses for two things: layout (a row of cells side by side, a
 * centred column) and content (an invoice, a schedule). Layout becomes columns or the cells'
 * content; a table of content has no LMX form, so each of its rows becomes a paragraph, listed.
 */

import { inherit, isInline, type MapContext } from './inline.js';
import { attributeTextAlign } from './layout/alignment.js';
import { recordSource } from './layout/block-source.js';
import type { LmxBlock } from './lmx-out.js';
import { element, type SourceElement, type SourceNode, textContent } from './model.js';
import { alignOf, backgroundOf, pixels } from './styles.js';

/** The mapper's own steps, handed in (blocks.ts calls this module, so it cannot import it back). */
export interface BlockSteps {
  blocksOf(nodes: readonly SourceNode[], context: MapContext): LmxBlock[];
  columnsBlocks(node: SourceElement, context: MapContext): LmxBlock[];
  textBlock(tag: string, nodes: readonly SourceNode[], context: MapContext, node: SourceElement | undefined): LmxBlock | undefined;
}

const elements = (nodes: readonly SourceNode[]) => nodes.filter((node): node is SourceElement => node.type === 'element');

/** The rows of a table, through its tbody, thead and tfoot. */
function rowsOf(table: SourceElement): SourceElement[] {
  return elements(table.children).flatMap((child) => (child.name === 'tr' ? [child] : ['tbody', 'thead', 'tfoot'].includes(child.name) ? rowsOf(child) : []));
}

const cellsOf = (row: SourceElement) => elements(row.children).filter((cell) => cell.name === 'td' || cell.name === 'th');

/** Whether a cell shows anything: text, an image, a divider. */
function hasContent(node: SourceNode): boolean {
  if (node.type !== 'element') return node.type === 'variable' || textContent(node).replace(/[\s\u00a0\u200c]+/g, '') !== '';
  return ['img', 'hr', 'x-button', 'x-social'].includes(node.name) || node.children.some(hasContent);
}

/** Whether a node holds a table. */
const holdsTable = (node: SourceNode): boolean => node.type === 'element' && (node.name === 'table' || node.children.some(holdsTable));

/** A header cell: a `<th>` of text. A `<th>` that holds a table is a column (Foundation for Emails lays its grid out in `<th>`s). */
const isHeaderCell = (cell: SourceElement) => cell.name === 'th' && hasContent(cell) && !holdsTable(cell);

/**
 * A table of content rather than layout: it says so (header cells over rows, an MJML <mj-table>),
 * or it has two or more rows of two or more cells that hold only text.
 */
function isContentTable(table: SourceElement, rows: SourceElement[]): boolean {
  if (table.attrs['data-content-table'] !== undefined) return true;
  if (table.attrs.role === 'presentation') return false;
  const shown = rows.filter((row) => cellsOf(row).some(hasContent));
  if (shown.length >= 2 && rows.some((row) => cellsOf(row).some(isHeaderCell))) return true;
  const wide = rows.filter((row) => cellsOf(row).filter(hasContent).length >= 2);
  return wide.length >= 2 && wide.every((row) => cellsOf(row).every((cell) => cell.children.every(isInline)));
}

export function tableBlocks(table: SourceElement, context: MapContext, steps: BlockSteps): LmxBlock[] {
  const rows = rowsOf(table);
  if (isContentTable(table, rows)) return contentRows(table, rows, context, steps);
  const blocks: LmxBlock[] = [];
  for (const row of rows) {
    const cells = cellsOf(row).filter(hasContent);
    if (cells.length === 0) continue;
    const inner = inherit(context, row.style);
    if (cells.length === 1) {
      blocks.push(...cellBlocks(paintedBy(row, cells[0]!, context), inner, steps));
      continue;
    }
    const shares = pixelShares(cells);
    const columns: SourceElement = {
      type: 'element',
      name: 'x-columns',
      attrs: {},
      style: row.style,
      at: row.at,
      children: cells.map((cell, index) => ({
        ...cell,
        name: 'x-column',
        attrs: { ...cell.attrs, width: cell.attrs.width?.endsWith('%') ? cell.attrs.width : (shares?.[index] ?? '') },
        style: alignedStyle(cell, inner),
      })),
    };
    blocks.push(...steps.columnsBlocks(columns, inner));
  }
  return blocks;
}

/** Cells that each give their width in pixels (Foundation's `width: 338.33px` of a 7-of-12 column) as shares of the row, in percent; undefined where one gives none. */
function pixelShares(cells: readonly SourceElement[]): string[] | undefined {
  const widths = cells.map((cell) => (cell.attrs.width?.endsWith('%') ? undefined : pixels(cell.style.width ?? cell.attrs.width)));
  if (widths.some((width) => width === undefined || width <= 0)) return undefined;
  const total = widths.reduce<number>((sum, width) => sum + width!, 0);
  return widths.map((width) => `${((width! / total) * 100).toFixed(2)}%`);
}

/** A row's one cell with the row's background where it sets none of its own: the colour its text stands on (a footer's dark `<tr bgcolor>`). */
function paintedBy(row: SourceElement, cell: SourceElement, context: MapContext): SourceElement {
  const colour = backgroundOf(row.style, row.attrs, context.sourceBackground);
  if (colour === undefined || backgroundOf(cell.style, cell.attrs) !== undefined) return cell;
  return { ...cell, style: { ...cell.style, 'background-color': colour } };
}

/** A cell's content, with the cell's alignment and style passed down. */
function cellBlocks(cell: SourceElement, context: MapContext, steps: BlockSteps): LmxBlock[] {
  return steps.blocksOf([{ ...cell, name: 'div', style: alignedStyle(cell, context) }], context);
}

/**
 * A cell's style with its `align` attribute as the text-align its content inherits (centring kept,
 * blocks placed by it as a browser places them),
 * and a `<th>`'s defaults as browsers draw it: bold, and centred where its row sets no alignment.
 */
function alignedStyle(cell: SourceElement, context: MapContext) {
  const written = cell.attrs.align;
  const style =
    written !== undefined && cell.style['text-align'] === undefined ? { ...cell.style, 'text-align': attributeTextAlign(cell) ?? written } : cell.style;
  if (cell.name !== 'th') return style;
  const inherited = context.inherited['text-align'];
  return {
    ...(style['text-align'] === undefined && (inherited === undefined || inherited === 'start') ? { 'text-align': 'center' } : {}),
    ...(style['font-weight'] === undefined ? { 'font-weight': 'bold' } : {}),
    ...style,
  };
}

/** A table of content: listed, each row a paragraph of its cells' text. */
function contentRows(table: SourceElement, rows: SourceElement[], context: MapContext, steps: BlockSteps): LmxBlock[] {
  context.findings.add(
    table.at,
    'a table used for content',
    'flattened',
    `its ${rows.length} rows written as paragraphs, the cells of each separated by " — "`,
    'LMX has no tables: keep it as these paragraphs, use 2 to 4 <Columns>, or send the rows as one data variable the app formats',
  );
  const blocks: LmxBlock[] = [];
  for (const row of rows) {
    const cells = cellsOf(row).filter(hasContent);
    const nodes: SourceNode[] = [];
    cells.forEach((cell, index) => {
      if (index > 0) nodes.push({ type: 'text', text: ' — ', at: cell.at });
      nodes.push(...flattenCell(cell));
    });
    const header = cells.length > 0 && cells.every((cell) => cell.name === 'th');
    // The row's text starts in its first cell, and aligns and is coloured as that cell has it (a receipt's cells at the left in a centred card).
    const first = cells[0] === undefined ? {} : alignedStyle(cells[0], context);
    const align = alignOf(first['text-align']);
    const colour = first.color ?? (cells[0] === undefined ? undefined : contentColour(cells[0]));
    const style = {
      ...row.style,
      ...(align === undefined ? {} : { 'text-align': align }),
      ...(colour === undefined ? {} : { color: colour }),
      ...(header ? { 'font-weight': 'bold' } : {}),
    };
    const made = steps.textBlock('Paragraph', nodes, inherit(context, style), undefined);
    if (made === undefined) continue;
    if (align !== undefined) recordSource(made, context.holder, 'text', align, { position: align });
    blocks.push(made);
  }
  return blocks;
}

/** The one colour a cell's blocks give their text (Mailgen's `<th><p style="color: #74787E">`), or undefined. */
function contentColour(cell: SourceElement): string | undefined {
  if (cell.children.every(isInline)) return undefined;
  const colours = new Set(cell.children.filter(hasContent).map((child) => (child.type === 'element' ? child.style.color : undefined)));
  return colours.size === 1 ? [...colours][0] : undefined;
}

/** A cell's nodes as inline content: a nested table or block's text joined with spaces, in the colour its blocks give it. */
function flattenCell(cell: SourceElement): SourceNode[] {
  if (cell.children.every(isInline)) return cell.children;
  const text: SourceNode = { type: 'text', text: textContent(cell), at: cell.at };
  const colour = contentColour(cell);
  return [colour === undefined ? text : element('span', cell.at, [text], {}, { color: colour })];
}
