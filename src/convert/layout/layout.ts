/**
 * Where a source lays its content out across the width of a screen: for each element, the left and
 * right edges of its content box at a given viewport width, and the alignment its text takes. A
 * model of how a browser lays out the HTML an email source makes (MJML's compiled HTML, React
 * Email's rendered HTML, HTML as it is), computed from the styles and attributes the readers carry
 * (MJML's own defaults among them), never by running or rendering anything: boxes of a width or a
 * max-width, centred by auto margins, `align` or `<center>`; padding, borders and `cellpadding`;
 * table rows and columns side by side (MJML's columns stacked on a narrow screen, as its media query
 * stacks them, but a group's; cells an HTML stylesheet's media query makes full width, on a screen
 * that narrow). Tests hold it to a real browser's rendering of the corpus.
 */

import { INLINE } from '../inline.js';
import { FULL_WIDTH_UP_TO, type SourceElement, type SourceNode, type Style } from '../model.js';
import { alignOf, hidesContent, pixels, styleAt } from '../styles.js';
import { type Align, ownTextAlign } from './alignment.js';
import { type Column, fixedShares, mergedColumns, shareRow } from './layout-columns.js';
import { borderOf, CELLS, drawnAsTable, Intrinsic, sideOf } from './layout-intrinsic.js';

/** A box's left and right edges, in pixels from the viewport's left. */
export interface Box {
  left: number;
  right: number;
}

/** Where an element's content stands, and how its text aligns. */
export interface Placed {
  box: Box;
  align: Align;
}

/** A length against what it is a share of: `20px`, `1.5em`, `50%`, a bare number (an attribute's pixels). */
function lengthOf(value: string | undefined, of: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim().toLowerCase();
  if (trimmed.endsWith('%')) {
    const share = Number.parseFloat(trimmed);
    return Number.isFinite(share) ? (share / 100) * of : undefined;
  }
  return pixels(trimmed);
}

const elementsOf = (nodes: readonly SourceNode[]) => nodes.filter((node): node is SourceElement => node.type === 'element');

/**
 * The body's side margins where its style sets none: those of its old attributes, which browsers
 * still honour (`leftmargin`, `rightmargin`, `marginwidth`, as Mailchimp's templates write them),
 * else the 8 px a browser gives it.
 */
function bodyMargins(attrs: Record<string, string>): Style {
  const px = (value: string | undefined) => (value !== undefined && /^\s*\d+\s*$/.test(value) ? `${value.trim()}px` : undefined);
  const width = px(attrs.marginwidth);
  return { 'margin-left': px(attrs.leftmargin) ?? width ?? '8px', 'margin-right': px(attrs.rightmargin) ?? width ?? '8px' };
}

/**
 * Each element a media query restyles on a screen this narrow given that style in place of its own,
 * while a layout is worked out (every step of the model reads an element's style); what puts each back.
 */
function narrowed(body: SourceElement, viewport: number): () => void {
  const own = new Map<SourceElement, Style>();
  const visit = (node: SourceElement) => {
    if (node.narrow !== undefined) {
      own.set(node, node.style);
      node.style = styleAt(node, viewport);
    }
    for (const child of elementsOf(node.children)) visit(child);
  };
  visit(body);
  return () => {
    for (const [node, style] of own) node.style = style;
  };
}

/** The source laid out at one viewport width. */
export class SourceLayout {
  private readonly placed = new Map<SourceElement, Placed>();
  /** By the children an element holds: the mapper reads some elements as copies (a cell read as a box), which hold the same children. */
  private readonly byChildren = new WeakMap<readonly SourceNode[], Placed>();

  constructor(
    body: SourceElement,
    readonly viewport: number,
  ) {
    const restore = narrowed(body, viewport);
    try {
      // What each element asks, worked out from the body down, each in the face it inherits.
      this.intrinsic.of(body);
      this.place(body, { left: 0, right: viewport }, 'left');
    } finally {
      restore();
    }
  }

  /** Where an element's content stands, and how its text aligns; undefined for one not laid out (in a hidden part). */
  of(node: SourceElement): Placed | undefined {
    return this.placed.get(node) ?? this.byChildren.get(node.children);
  }

  private set(node: SourceElement, placed: Placed): void {
    this.placed.set(node, placed);
    this.byChildren.set(node.children, placed);
  }

  /** Whether the alignment the element being placed passes on came from an `align` attribute or a `<center>` (`-webkit-center`), not from CSS. */
  private byAttribute = false;

  /**
   * The alignment an element gives what it holds, noted as from an attribute or not until `done`
   * is called: a table takes none from an attribute around it, as browsers draw it.
   */
  private aligned(node: SourceElement, inherited: Align): { align: Align; done: () => void } {
    const outer = this.byAttribute;
    const own = ownTextAlign(node);
    const reset = own === undefined && outer && (node.name === 'table' || node.style['x-display'] === 'table');
    this.byAttribute = own === undefined ? outer && !reset : node.style['text-align'] === undefined;
    return { align: own ?? (reset ? 'left' : inherited), done: () => (this.byAttribute = outer) };
  }

  /** An element placed in the content box of what holds it, and what it holds after it. */
  private place(node: SourceElement, outer: Box, inherited: Align): void {
    // A part this screen hides (a desktop's table a phone's media query hides) is not drawn there.
    if (hidesContent(node.style)) return;
    const { align, done } = this.aligned(node, inherited);
    if (INLINE.has(node.name) || node.name === 'x-button' || node.name === 'img') {
      this.set(node, { box: outer, align });
      for (const child of elementsOf(node.children)) this.place(child, outer, align);
      return done();
    }
    const box = this.contentBox(node, outer, inherited);
    this.set(node, { box, align });
    const inner = this.flexItem(node, box);
    if (node.name === 'x-columns' || node.name === 'tr') this.row(node, inner, align);
    else for (const child of elementsOf(node.children)) this.place(child, inner, align);
    done();
  }

  /**
   * Where what a table holds stands when its style makes it a flex box (React Email's <Section
   * style={{ display: 'flex', justifyContent: 'center' }}>): its body becomes one item, as wide as
   * its content's widest line, placed by `justify-content`.
   */
  private flexItem(node: SourceElement, box: Box): Box {
    if (node.style['x-display'] !== 'table' || !/^(inline-)?flex$/i.test(node.style.display?.trim() ?? '')) return box;
    const room = box.right - box.left;
    const width = Math.min(room, this.intrinsic.content(node).most);
    const justify = node.style['justify-content']?.trim().toLowerCase();
    const offset = justify === 'center' ? (room - width) / 2 : justify === 'flex-end' || justify === 'end' || justify === 'right' ? room - width : 0;
    return { left: box.left + offset, right: box.left + offset + width };
  }

  /** A block's content box: its width (a width or a max-width) placed in the box around it, less its padding and border. */
  private contentBox(node: SourceElement, outer: Box, inherited: Align): Box {
    const available = Math.max(0, outer.right - outer.left);
    const { attrs } = node;
    const style = node.name === 'body' && sideOf(node.style, 'margin', 'left') === undefined ? { ...bodyMargins(attrs), ...node.style } : node.style;
    const marginLeft = sideOf(style, 'margin', 'left')?.trim().toLowerCase();
    const marginRight = sideOf(style, 'margin', 'right')?.trim().toLowerCase();
    const fixedLeft = marginLeft === 'auto' ? 0 : (lengthOf(marginLeft, available) ?? 0);
    const fixedRight = marginRight === 'auto' ? 0 : (lengthOf(marginRight, available) ?? 0);
    const room = Math.max(0, available - fixedLeft - fixedRight);
    const cellPadding = ['td', 'th'].includes(node.name) ? (this.cellPadding.get(node) ?? 0) : 0;
    // A list's items stand 40 px in, a browser's own padding where the style gives none; a table's row takes no padding,
    // nor a table whose borders collapse (CSS 2.1, 17.6.2).
    const rowPart = ['tr', 'tbody', 'thead', 'tfoot'].includes(node.name) || (node.name === 'table' && /collapse/i.test(style['border-collapse'] ?? ''));
    const padLeft = rowPart ? 0 : (lengthOf(sideOf(style, 'padding', 'left'), available) ?? (['ul', 'ol'].includes(node.name) ? 40 : cellPadding));
    const padRight = rowPart ? 0 : (lengthOf(sideOf(style, 'padding', 'right'), available) ?? cellPadding);
    const sides = padLeft + padRight + borderOf(style, 'left') + borderOf(style, 'right');
    // A width is the content's (CSS's content-box) but for a table's, or where box-sizing says border-box.
    const outerWidth = drawnAsTable(node) || /border-box/i.test(style['box-sizing'] ?? '') ? 0 : sides;
    // MJML's column width holds from the screen width its media query names; below it, the column is as wide as its section.
    const sized = pixels(attrs['data-width-from']) === undefined || this.viewport >= pixels(attrs['data-width-from'])!;
    const given = sized ? (lengthOf(style.width, available) ?? lengthOf(attrs.width, available)) : undefined;
    // An HTML table of no width shrinks to what it holds, as a browser draws it (a button's table in a cell is as wide as its button);
    // React Email's components draw their tables 100% wide.
    let width = given === undefined ? (node.name === 'table' && drawnAsTable(node) ? Math.min(room, this.intrinsic.of(node).most) : room) : given + outerWidth;
    // A table's width attribute is the least it takes: only a style's max-width holds it narrower.
    const max = /^min-content$/i.test(style['max-width']?.trim() ?? '') ? this.intrinsic.content(node).least : lengthOf(style['max-width'], available);
    if (max !== undefined) width = Math.min(width, max + outerWidth);
    if (node.name !== 'table' && attrs.width === undefined) width = Math.min(width, room);
    // A table is as wide as what it holds at least: a box of 648 px in one widens it past a phone's screen, and the page with it.
    if (drawnAsTable(node)) width = Math.max(width, this.intrinsic.of(node).least);
    const free = room - width;
    const table = node.name === 'table' || node.style['x-display'] === 'table';
    // React Email draws its <Section> and <Row> as tables with align="center", unless told another side.
    const placed = table ? (alignOf(attrs.align) ?? (node.style['x-display'] === 'table' ? 'center' : undefined)) : undefined;
    const centred =
      (marginLeft === 'auto' && marginRight === 'auto') ||
      placed === 'center' ||
      // A table that says its own side (`align="left"`, floated there) stands there, in a centred cell too.
      (table && inherited === 'center' && free > 0 && placed === undefined);
    const offset = centred ? free / 2 : marginLeft === 'auto' || placed === 'right' ? free : 0;
    const left = outer.left + fixedLeft + Math.max(0, offset);
    const right = left + width;
    const inner = { left: left + padLeft + borderOf(style, 'left'), right: right - padRight - borderOf(style, 'right') };
    this.frames.set(node, { left, right });
    if (node.name === 'table') this.tableSpacing(node, inner);
    return inner;
  }

  /** Each block's border box: where its background is drawn. */
  private readonly frames = new Map<SourceElement, Box>();

  /** Where an element's background is drawn (its border box), for a block of its own. */
  frameOf(node: SourceElement): Box | undefined {
    return this.frames.get(node);
  }

  /** `cellpadding` given to the cells of a table; `cellspacing` taken off the table's inside. */
  private readonly cellPadding = new Map<SourceElement, number>();

  /** What each element's content asks, worked out once. */
  private readonly intrinsic = new Intrinsic();

  private tableSpacing(table: SourceElement, inner: Box): void {
    // A browser's own: cells 1 px apart from each other and the table's edge (2 px of spacing), 1 px of padding in each.
    const collapsed = /collapse/i.test(table.style['border-collapse'] ?? '');
    const padding = pixels(table.attrs.cellpadding) ?? 1;
    const spacing = pixels(table.attrs.cellspacing) ?? pixels(table.style['border-spacing']?.split(/\s+/)[0]) ?? (collapsed ? 0 : 2);
    inner.left += spacing;
    inner.right -= spacing;
    const rows = (node: SourceElement): SourceElement[] =>
      elementsOf(node.children).flatMap((child) => (child.name === 'tr' ? [child] : ['tbody', 'thead', 'tfoot'].includes(child.name) ? rows(child) : []));
    const all = rows(table);
    // `table-layout: fixed` (of a table of a width) takes its columns from its first row, whatever the rows below hold.
    if (/^fixed$/i.test(table.style['table-layout']?.trim() ?? '') && (table.style.width ?? table.attrs.width) !== undefined)
      for (const row of all) this.fixedBy.set(row, all[0]!);
    else for (const row of all) this.rowsBy.set(row, all);
    if (padding > 0 && !collapsed)
      for (const row of all) for (const cell of elementsOf(row.children)) if (cell.name === 'td' || cell.name === 'th') this.cellPadding.set(cell, padding);
  }

  /**
   * Cells or columns side by side: each its given width (pixels, or a share of the row), the rest
   * shared out among those that give none; MJML's columns one under the other below the width its
   * media query names (`data-stack-below`; 0 for a group's, which never stack).
   */
  private row(row: SourceElement, box: Box, align: Align): void {
    const children = elementsOf(row.children);
    // A cell this screen hides (Salted's header link, `td.mobile-hide` on a phone) takes no room and is not drawn, as in a browser.
    const cells = children.filter((child) => CELLS.has(child.name) && !hidesContent(child.style));
    // Anything else in a row (React Email's <Row> holding <Text>s) a browser's parser moves out of the table, before it: a block as wide as the row.
    for (const child of children) if (!CELLS.has(child.name)) this.place(child, box, align);
    const available = Math.max(0, box.right - box.left);
    const stackBelow = pixels(row.attrs['data-stack-below']);
    // Cells drawn as blocks (`display: block`, as Foundation's vertical menus are), or made full width by a media query
    // as wide as the screen or wider (Foundation's columns on a phone), stand one under another, each the row's width.
    const blocks =
      cells.length > 0 &&
      (cells.every((cell) => /^block\b/i.test(cell.style.display?.trim() ?? '')) ||
        cells.every((cell) => (pixels(cell.attrs[FULL_WIDTH_UP_TO]) ?? 0) >= this.viewport));
    if (blocks || (stackBelow !== undefined && available < stackBelow)) {
      for (const cell of cells) this.cell(cell, box, align, available);
      return;
    }
    // Cells a media query makes inline-blocks (Foundation's menus on a phone) flow as words do, but MJML's columns.
    if (stackBelow === undefined && cells.length > 0 && cells.every((cell) => /^inline-block$/i.test(cell.style.display?.trim() ?? '')))
      return this.flow(cells, box, align, available);
    const widths = this.givenWidths(cells, available, false);
    const fixed = this.fixedColumns(row, available);
    if (fixed?.length === cells.length) fixed.forEach((width, index) => (widths[index] = width));
    else if (stackBelow === undefined) shareRow(this.columnsOf(row, cells, widths, available), widths, available);
    else {
      // MJML's columns (inline-block boxes): each its share of the row, the rest shared evenly among those that say none.
      const given = widths.reduce<number>((sum, width) => sum + (width ?? 0), 0);
      const open = widths.filter((width) => width === undefined).length;
      const share = open === 0 ? 0 : Math.max(0, available - given) / open;
      widths.forEach((width, index) => {
        widths[index] = width ?? share;
      });
    }
    let left = box.left;
    cells.forEach((cell, index) => {
      const width = widths[index]!;
      // Columns of MJML (inline-block boxes) that do not fit beside the ones before start a line of their own.
      if (stackBelow !== undefined && left > box.left && left + width > box.right + 0.5) left = box.left;
      this.cell(cell, { left, right: left + width }, align, available);
      left += width;
    });
  }

  /**
   * Inline-block cells laid as a line lays words: each its given width (a share of the row, its
   * content's), else as wide as what it holds (no wider than the row), side by side while they fit, the rest on lines below, each line placed as the row aligns its text.
   */
  private flow(cells: readonly SourceElement[], box: Box, align: Align, available: number): void {
    const given = this.givenWidths(cells, available, true);
    const widths = cells.map((cell, index) => {
      const asks = this.intrinsic.of(cell);
      return given[index] ?? Math.min(asks.most, Math.max(asks.least, available));
    });
    const lines: number[][] = [];
    let used = 0;
    widths.forEach((width, index) => {
      if (lines.length === 0 || used + width > available + 0.5) {
        lines.push([]);
        used = 0;
      }
      lines.at(-1)!.push(index);
      used += width;
    });
    for (const line of lines) {
      const free = available - line.reduce((sum, index) => sum + widths[index]!, 0);
      let left = box.left + (align === 'center' ? free / 2 : align === 'right' ? free : 0);
      for (const index of line) {
        this.cell(cells[index]!, { left, right: left + widths[index]! }, align, available);
        left += widths[index]!;
      }
    }
  }

  /**
   * Each cell's width as written, its padding and border included: a width in pixels is its
   * content's, as browsers draw a table cell (but where box-sizing says border-box), and a share
   * (`20%`) the share of the row's width the cell's border box takes, or, in a table of
   * `table-layout: fixed`, its content's (`shares`).
   */
  private givenWidths(cells: readonly SourceElement[], available: number, shares: boolean): (number | undefined)[] {
    return cells.map((cell) => {
      const written = cell.style.width ?? cell.attrs.width;
      const width = lengthOf(written, available);
      if (
        width === undefined ||
        (cell.name !== 'td' && cell.name !== 'th') ||
        (!shares && written?.trim().endsWith('%')) ||
        /border-box/i.test(cell.style['box-sizing'] ?? '')
      )
        return width;
      const inner = this.padded(cell, { left: 0, right: width }, available);
      return width + inner.left + (width - inner.right);
    });
  }

  /** The first row of the table of `table-layout: fixed` each of its rows is in. */
  private readonly fixedBy = new Map<SourceElement, SourceElement>();

  /** The columns of a row's table of `table-layout: fixed`, by its first row's widths; undefined for a row of another table. */
  private fixedColumns(row: SourceElement, available: number): number[] | undefined {
    const first = this.fixedBy.get(row);
    if (first === undefined) return undefined;
    const given = this.givenWidths(
      elementsOf(first.children).filter((child) => CELLS.has(child.name)),
      available,
      true,
    );
    return fixedShares(given, available);
  }

  /** The rows of the table of automatic layout each of its rows is in. */
  private readonly rowsBy = new Map<SourceElement, readonly SourceElement[]>();

  /**
   * The columns a row's cells stand in, as a browser sizes a table's columns: each by every cell of
   * it, in the rows of as many cells or fewer (the widest content, the widest width), not by the row's own alone.
   */
  private columnsOf(row: SourceElement, cells: readonly SourceElement[], widths: readonly (number | undefined)[], available: number): Column[] {
    const isShare = (cell: SourceElement) => (cell.style.width ?? cell.attrs.width)?.trim().endsWith('%') === true;
    const columnsOf = (list: readonly SourceElement[], given: readonly (number | undefined)[]) =>
      list.map((cell, index) => ({ asks: this.intrinsic.of(cell), share: isShare(cell), width: given[index] }));
    const spans = (list: readonly SourceElement[]) => list.some((cell) => (pixels(cell.attrs.colspan) ?? 1) > 1);
    if (spans(cells)) return columnsOf(cells, widths);
    const others = (this.rowsBy.get(row) ?? [])
      .filter((other) => other !== row && !hidesContent(other.style))
      .map((other) => elementsOf(other.children).filter((child) => CELLS.has(child.name)))
      .filter((theirs) => theirs.length <= cells.length && !spans(theirs));
    return mergedColumns([columnsOf(cells, widths), ...others.map((theirs) => columnsOf(theirs, this.givenWidths(theirs, available, false)))]);
  }

  /** A cell or column given its box by its row: what it holds takes that box, less its padding. */
  private cell(cell: SourceElement, box: Box, align: Align, available: number): void {
    const { align: own, done } = this.aligned(cell, align);
    const placed = { box: this.padded(cell, box, available), align: own };
    this.set(cell, placed);
    if (cell.name === 'x-columns' || cell.name === 'tr') this.row(cell, placed.box, placed.align);
    else for (const child of elementsOf(cell.children)) this.place(child, placed.box, placed.align);
    done();
  }

  private padded(cell: SourceElement, box: Box, available: number): Box {
    const cellPadding = this.cellPadding.get(cell) ?? 0;
    const padLeft = lengthOf(sideOf(cell.style, 'padding', 'left'), available) ?? cellPadding;
    const padRight = lengthOf(sideOf(cell.style, 'padding', 'right'), available) ?? cellPadding;
    return { left: box.left + padLeft + borderOf(cell.style, 'left'), right: box.right - padRight - borderOf(cell.style, 'right') };
  }
}
