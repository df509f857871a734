/**
 * How wide an element's content asks to be, as a browser works it out to size a table's columns:
 * the least it can take (its min-content width: its longest word, its widest image or fixed box)
 * and the most it would take (its max-content width: each line of text unbroken). Estimated from
 * the styles the readers carry and the text's characters (text-width.ts), never by drawing.
 */
import { largest } from '../../base/extremes.js';
import { INLINE } from '../inline.js';
import type { SourceElement, SourceNode, Style } from '../model.js';
import { fontSizeWithin, hidesContent, pixels } from '../styles.js';
import { type Face, familyOf, textWidth } from './text-width.js';

/** The four sides of a shorthand (`padding`, `margin`), as written (each may be `auto`). */
function shorthand(value: string | undefined): [string, string, string, string] | undefined {
  const parts = value?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (parts.length === 0 || parts.length > 4) return undefined;
  const [top, right = top, bottom = top, left = right] = parts as string[];
  return [top!, right!, bottom!, left!];
}

/** A side of a box property (`padding`, `margin`) as written: its own, else the shorthand's. */
export function sideOf(style: Style, property: 'padding' | 'margin', side: 'left' | 'right' | 'top' | 'bottom'): string | undefined {
  const index = { top: 0, right: 1, bottom: 2, left: 3 }[side];
  return style[`${property}-${side}`] ?? shorthand(style[property])?.[index];
}

export function borderOf(style: Style, side: 'left' | 'right'): number {
  const own = style[`border-${side}-width`] ?? style[`border-${side}`]?.split(/\s+/).find((part) => pixels(part) !== undefined);
  const all = style['border-width'] ?? style.border?.split(/\s+/).find((part) => pixels(part) !== undefined);
  return Math.max(0, pixels(own ?? all) ?? 0);
}

/** What a row shares out: its cells, and MJML's and React Email's columns. */
export const CELLS: ReadonlySet<string> = new Set(['td', 'th', 'x-column']);

/**
 * Whether an element is drawn as a table, which grows to what it holds rather than let it overflow:
 * HTML's tables, and React Email's components that render one (its <Body>, <Container>, <Section>
 * and <Row>, which its reader marks so).
 */
export function drawnAsTable(node: SourceElement): boolean {
  // A table its style draws otherwise (`display: flex`, `block`) is a box like any other.
  const display = node.style.display?.trim().toLowerCase();
  return (node.name === 'table' || node.style['x-display'] === 'table') && (display === undefined || display === 'table');
}

/** A length in pixels where it is one of its own: a share (`50%`) or `auto` is none for what a box asks. */
const fixedLength = (value: string | undefined) => (value?.trim().endsWith('%') ? undefined : pixels(value));

/** Whether text may break within a word (`word-break: break-all` or `break-word`, `overflow-wrap: anywhere`): then no word holds a box open. */
function breaksWords(style: Style, inherited: boolean): boolean {
  const word = style['word-break']?.trim().toLowerCase();
  const wrap = (style['overflow-wrap'] ?? style['word-wrap'])?.trim().toLowerCase();
  if (word === 'break-all' || word === 'break-word' || wrap === 'anywhere') return true;
  return word === 'normal' || word === 'keep-all' ? false : inherited;
}

const BOLD_ELEMENTS: ReadonlySet<string> = new Set(['b', 'strong', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const HEADING_SIZES: Readonly<Record<string, number>> = { h1: 2, h2: 1.5, h3: 1.17, h4: 1, h5: 0.83, h6: 0.67 };

/** The face an element's text is drawn in: its own size, family and weight, else those it inherits. */
function faceOf(node: SourceElement, inherited: Face): Face {
  const written = node.style['font-size'];
  const size =
    written === undefined && HEADING_SIZES[node.name] !== undefined
      ? inherited.size * HEADING_SIZES[node.name]!
      : fontSizeWithin(written, inherited.size, node.name);
  const weight = node.style['font-weight']?.trim().toLowerCase();
  const bold = weight === undefined ? inherited.bold || BOLD_ELEMENTS.has(node.name) : weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
  return { size, family: familyOf(node.style['font-family'], inherited.family), bold };
}

/** What an element's content asks: the least and the most width of its border box. */
export interface Asks {
  least: number;
  most: number;
}

interface Context {
  face: Face;
  breaks: boolean;
}

/** What elements ask, each worked out once for the page it is in. */
export class Intrinsic {
  private readonly memo = new WeakMap<SourceElement, Asks>();
  private readonly contents = new WeakMap<SourceElement, Asks>();

  /** What an element's content asks, inside its padding (worked out with the element, from the body down). */
  content(node: SourceElement): Asks {
    if (!this.contents.has(node)) this.of(node);
    return this.contents.get(node) ?? { least: 0, most: 0 };
  }

  /** What an element's border box asks, in the face a page gives text (16 px, a serif face) where it says none. */
  of(node: SourceElement): Asks {
    return this.box(node, { face: { size: 16, family: 'serif', bold: false }, breaks: false });
  }

  private box(node: SourceElement, context: Context): Asks {
    const known = this.memo.get(node);
    if (known !== undefined) return known;
    const asks = this.measure(node, context);
    this.memo.set(node, asks);
    return asks;
  }

  /** What a node asks, its margins included. */
  private outer(node: SourceNode, context: Context): Asks {
    if (node.type === 'text') {
      // Only HTML's white space breaks a line and collapses: a no-break space (`&nbsp;`, a button's padding of text) holds its width.
      const words = node.text.split(/[ \t\n\r\f]+/).filter(Boolean);
      // A word may break after a slash, a question mark or a hyphen that a letter follows, as browsers break an address (UAX #14).
      const pieces = words.flatMap((word) => word.split(/(?<=[/?-])(?=[^\d/?-])/));
      const least = context.breaks
        ? 0
        : largest(
            pieces.map((piece) => textWidth(piece, context.face)),
            0,
          );
      // White space between words and pieces of a line is one space; white space alone (a source's indentation) nothing.
      return { least, most: words.length === 0 ? 0 : textWidth(node.text.replace(/[ \t\n\r\f]+/g, ' '), context.face) };
    }
    // A value the app fills asks about as much as its name (`companyName`) at most, and holds nothing open: its length is not known.
    if (node.type === 'variable') return { least: 0, most: textWidth(node.path.at(-1) ?? node.source, context.face) };
    if (node.type !== 'element' || hidesContent(node.style)) return { least: 0, most: 0 };
    const { least, most } = this.box(node, context);
    const margin = (at: 'left' | 'right') => Math.max(0, fixedLength(sideOf(node.style, 'margin', at)) ?? 0);
    const margins = margin('left') + margin('right');
    return { least: least + margins, most: most + margins };
  }

  private measure(node: SourceElement, context: Context): Asks {
    const { style } = node;
    const inside = { face: faceOf(node, context.face), breaks: breaksWords(style, context.breaks) };
    const held = node.name === 'table' ? this.columns(node, this.held(node, inside)) : this.held(node, inside);
    this.contents.set(node, held);
    const padding = (at: 'left' | 'right') => Math.max(0, fixedLength(sideOf(style, 'padding', at)) ?? 0);
    const inner = node.name === 'x-button' ? shorthand(style['x-inner-padding']) : undefined;
    const sides =
      padding('left') + padding('right') + borderOf(style, 'left') + borderOf(style, 'right') + (pixels(inner?.[1]) ?? 0) + (pixels(inner?.[3]) ?? 0);
    const table = drawnAsTable(node);
    // A cell's width is the one it would like: its column gives way down to what the cell holds.
    const display = style.display?.trim().toLowerCase();
    const cell = CELLS.has(node.name) && (display === undefined || display === 'table-cell');
    // A style's width wins over the attribute's, a share of the box around (`100%`) too.
    const attribute = node.name === 'img' || table || CELLS.has(node.name) ? node.attrs.width : undefined;
    const given = cell ? undefined : fixedLength(style.width ?? attribute);
    const holdsSides = table || /border-box/i.test(style['box-sizing'] ?? '');
    const own = given === undefined ? undefined : given + (holdsSides ? 0 : sides);
    let least = own ?? held.least + sides;
    let most = own ?? held.most + sides;
    const max = style['max-width']?.trim();
    // An image that may shrink to its box (`max-width: 100%`, `width: 100%`) holds nothing open.
    if (node.name === 'img' && (max?.endsWith('%') || (style.width ?? node.attrs.width)?.trim().endsWith('%'))) least = 0;
    else if (fixedLength(max) !== undefined) {
      least = Math.min(least, fixedLength(max)! + (holdsSides ? 0 : sides));
      most = Math.min(most, fixedLength(max)! + (holdsSides ? 0 : sides));
    }
    // A table, or a cell, is never narrower than what it holds; a cell asks its own width at most.
    if (table || cell) least = Math.max(least, held.least + sides);
    const cellWidth = cell ? (fixedLength(style.width) ?? fixedLength(node.attrs.width)) : undefined;
    if (cellWidth !== undefined) most = Math.max(most, cellWidth + (node.name === 'x-column' ? 0 : sides));
    return { least, most: Math.max(least, most) };
  }

  /**
   * What a table's rows ask together: a browser sizes each column by every cell in it, so the table
   * takes the widest of each column summed, which may be more than any one row asks.
   */
  private columns(table: SourceElement, rowwise: Asks): Asks {
    const elements = (node: SourceElement) => node.children.filter((child): child is SourceElement => child.type === 'element' && !hidesContent(child.style));
    const rows = (node: SourceElement): SourceElement[] =>
      elements(node).flatMap((child) => (child.name === 'tr' ? [child] : ['tbody', 'thead', 'tfoot'].includes(child.name) ? rows(child) : []));
    const widest: Asks[] = [];
    for (const row of rows(table)) {
      const cells = elements(row).filter((child) => CELLS.has(child.name));
      // A cell across columns (`colspan`) leaves its row out, as the layout's columns do; cells a style draws as boxes are no columns.
      if (cells.some((cell) => (pixels(cell.attrs.colspan) ?? 1) > 1 || !/^(table-cell)?$/i.test(cell.style.display?.trim() ?? ''))) continue;
      cells.forEach((cell, index) => {
        const asks = this.memo.get(cell) ?? { least: 0, most: 0 };
        widest[index] = { least: Math.max(widest[index]?.least ?? 0, asks.least), most: Math.max(widest[index]?.most ?? 0, asks.most) };
      });
    }
    const sum = (key: keyof Asks) => widest.reduce((total, column) => total + column[key], 0);
    return { least: Math.max(rowwise.least, sum('least')), most: Math.max(rowwise.most, sum('most')) };
  }

  /** What an element's content asks: a row its cells side by side; else its lines of inline content and its blocks, one under another. */
  private held(node: SourceElement, context: Context): Asks {
    const children = node.children;
    if (node.name === 'tr' || node.name === 'x-columns') {
      // Cells side by side; anything else in a row (React Email's <Row> holding <Text>s) a browser moves out, before the table.
      const isCell = (child: SourceNode) => child.type === 'element' && CELLS.has(child.name);
      const cells = children.filter(isCell).map((child) => this.outer(child, context));
      const others = children.filter((child) => !isCell(child)).map((child) => this.outer(child, context));
      const sum = (key: keyof Asks) => cells.reduce((total, cell) => total + cell[key], 0);
      // Cells a style draws as boxes (a phone's media query making them inline-blocks or blocks) wrap: the widest holds the row open.
      const boxes = children.filter(isCell).every((cell) => /^(inline-)?block$/i.test((cell as SourceElement).style.display?.trim() ?? ''));
      const least = boxes
        ? largest(
            cells.map((cell) => cell.least),
            0,
          )
        : sum('least');
      return {
        least: largest(
          others.map((other) => other.least),
          least,
        ),
        most: largest(
          others.map((other) => other.most),
          sum('most'),
        ),
      };
    }
    let least = 0;
    let most = 0;
    let line = 0;
    // A browser drops the white space at a line's start and end: a block's lines are measured without it, an inline
    // element's edges are handed to the block its line is in.
    const block = !INLINE.has(node.name);
    const edges = { start: 0, end: 0 };
    let started = false;
    for (const child of children) {
      const asks = this.outer(child, context);
      least = Math.max(least, asks.least);
      const inline =
        child.type !== 'element' ||
        INLINE.has(child.name) ||
        child.name === 'x-button' ||
        (child.name === 'img' && !/^(block|table)$/i.test(child.style.display?.trim() ?? ''));
      const edge = this.edgesOf(child, context.face);
      if (child.type === 'element' && child.name === 'br') line = 0;
      else if (inline) {
        if (asks.most > 0 && !started) {
          started = true;
          edges.start = edge.start;
          if (block) line -= edge.start;
        }
        line += asks.most;
        if (asks.most > 0) edges.end = edge.end;
      } else {
        line = 0;
        started = false;
        most = Math.max(most, asks.most);
      }
      most = Math.max(most, line - (block && inline ? edge.end : 0));
    }
    if (!block) this.edges.set(node, edges);
    return { least, most };
  }

  /** The white space an inline element's run starts and ends with, by element. */
  private readonly edges = new WeakMap<SourceElement, { start: number; end: number }>();

  /** How wide the white space a node's run of text starts and ends with is drawn. */
  private edgesOf(node: SourceNode, face: Face): { start: number; end: number } {
    if (node.type === 'element') return (INLINE.has(node.name) ? this.edges.get(node) : undefined) ?? { start: 0, end: 0 };
    if (node.type !== 'text' || /^[ \t\n\r\f]*$/.test(node.text)) return { start: 0, end: 0 };
    const space = textWidth(' ', face);
    return { start: /^[ \t\n\r\f]/.test(node.text) ? space : 0, end: /[ \t\n\r\f]$/.test(node.text) ? space : 0 };
  }
}
