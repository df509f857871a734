/**
 * Tables for people, rows for pipes. On a terminal: a header row (bold in colour), then one line
 * per row with the columns aligned by display width and two spaces between them, fitted to the
 * terminal's width; elsewhere tab-separated rows under a header line, never cut. Every cell is
 * sanitized here, the one place text from the API reaches a table.
 *
 * Fitting a table that is too wide, in order: headers wider than their cells go onto more lines;
 * low-value columns are shortened (a timestamp to its date), then dropped, lowest priority first;
 * then long cells are cut with an ellipsis: free text (descriptions, notes) first, names only when
 * that is not enough, the widest columns first; and when even that leaves no room, each row is shown
 * as a block of "FIELD: value" lines. Colour is painted after cutting, so a cut never falls inside an
 * escape sequence. The work is linear in the number of cells.
 */

import { sanitize } from '../base/sanitize.js';
import type { Output } from './output.js';
import { type Style, styleFor } from './style.js';
import { displayWidth, pad, paintedWidth, truncate, unpainted } from './width.js';
import { wrapLines } from './wrap.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
  /** When the table is too wide, columns of lower priority are shortened and dropped first (default 0). */
  priority?: number;
  /** A shorter form of the column's text, used when the table is too wide: an ISO timestamp's date. */
  shrink?: (text: string) => string;
  /** The column may be left out when the table is too wide even after shortening. */
  drop?: boolean;
  /**
   * The column's cells may be cut with an ellipsis when the table is too wide: names and
   * descriptions. Off by default, so that ids people copy, numbers and codes are never cut; a
   * table whose cuttable columns cannot make room shows its rows as blocks instead.
   */
  truncate?: boolean;
  /**
   * Free text (a description, a note, a filter in words): cut like `truncate`, and before any other
   * column, so that names stay whole while a description can give way.
   */
  prose?: boolean;
}

/** A cell: plain text, or text with a colour applied only on a colour terminal. */
export type Cell = string | { text: string; paint?: (text: string) => string };

function cellText(cell: Cell): string {
  return typeof cell === 'string' ? cell : cell.text;
}

/** A timestamp column: shortened to the date when space is short, and dropped before text is cut. */
export function timestampColumn(header: string, priority = -1): Column {
  return { header, shrink: dateOfTimestamp, drop: true, priority };
}

/** "2024-05-01T12:34:56.000Z" as "2024-05-01"; other text unchanged. */
function dateOfTimestamp(text: string): string {
  return /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
}

const GAP = '  ';
/** Below this many columns a cut cell says too little; the table turns into blocks instead. */
const MIN_CUT_WIDTH = 12;
/** A value narrower than this goes on the lines under its label rather than beside it. */
const MIN_VALUE_WIDTH = 16;

export function renderTable(out: Output, columns: Column[], rows: Cell[][]): string {
  if (!out.tty) return renderRows(columns, rows, true, out);
  return new TableLayout(out, columns, rows).render(rows);
}

/** A cell as shown: sanitized, with the columns its paint adds (a swatch) counted. */
interface Shown {
  text: string;
  paint: ((text: string) => string) | undefined;
  /** Columns the paint adds to the text; 0 without colour. */
  extra: number;
}

function shownCell(out: Output, cell: Cell): Shown {
  const text = sanitize(cellText(cell));
  const paint = typeof cell !== 'string' && cell.paint && out.color ? cell.paint : undefined;
  return { text, paint, extra: paint ? paintedWidth(paint(text)) - displayWidth(text) : 0 };
}

/** How a table is laid out at one terminal width: which columns show, how wide, shortened or not. */
interface Plan {
  shown: { index: number; width: number; shrink: boolean; truncate: boolean }[];
  /** No table fits: rows show as blocks. */
  vertical: boolean;
  /** The terminal width it was planned for. */
  columns: number;
}

/**
 * The fitted shape of a table for the terminal's width: which columns show, how wide, shortened or
 * not, or that rows show as blocks. Planned from the rows given (a listing's first page), so a
 * listing can be shown page by page as it arrives. A later page whose cells need more room than
 * their columns have, or a terminal that changed width, has the table laid out again from every row
 * seen so far, under a repeated header: what fits the terminal is never cut to an earlier page's
 * widths.
 */
export class TableLayout {
  private readonly style: Style;
  /** Widest cell of each column so far, whole and shortened. */
  private readonly cells: number[];
  private readonly shrunk: number[];
  private plan: Plan;
  private started = false;

  constructor(
    private readonly out: Output,
    private readonly columns: Column[],
    sample: Cell[][],
  ) {
    this.style = styleFor(out);
    this.cells = columns.map(() => 0);
    this.shrunk = columns.map(() => 0);
    this.measure(sample);
    this.plan = this.fit();
  }

  /** Takes the rows' cells into the widest seen; true when one is wider than its shown column. */
  private measure(rows: Cell[][]): boolean {
    // The room each shown column has; the last may run to the terminal's edge.
    const shownWidth = new Map<number, number>();
    if (this.started) {
      let used = 0;
      this.plan.shown.forEach(({ index, width }, position) => {
        shownWidth.set(index, position === this.plan.shown.length - 1 ? Math.max(width, this.out.columns - used) : width);
        used += width + GAP.length;
      });
    }
    let wider = false;
    for (const row of rows) {
      this.columns.forEach((column, index) => {
        const cell = row[index];
        if (cell === undefined) return;
        const { text, extra } = shownCell(this.out, cell);
        const whole = displayWidth(text) + extra;
        this.cells[index] = Math.max(this.cells[index]!, whole);
        const short = column.shrink ? displayWidth(column.shrink(text)) + extra : whole;
        if (column.shrink) this.shrunk[index] = Math.max(this.shrunk[index]!, short);
        const width = shownWidth.get(index);
        if (width !== undefined && (this.plan.shown.find((shown) => shown.index === index)!.shrink ? short : whole) > width) wider = true;
      });
    }
    return wider;
  }

  /** The plan for the widest cells seen and the terminal's width now. */
  private fit(): Plan {
    const { columns, cells, shrunk } = this;
    const terminal = this.out.columns;
    const headerLine = columns.map((column) => displayWidth(column.header));
    const headerWord = columns.map((column) => column.header.split(' ').reduce((widest, word) => Math.max(widest, displayWidth(word)), 0));

    const wrapHeader = columns.map(() => false);
    const useShrink = columns.map(() => false);
    const visible = columns.map(() => true);
    const headerWidth = (index: number) => (wrapHeader[index] ? headerWord[index]! : headerLine[index]!);
    const widthOf = (index: number) => Math.max(headerWidth(index), useShrink[index] ? shrunk[index]! : cells[index]!);
    const width = columns.map((_, index) => widthOf(index));
    const total = () => width.reduce((sum, columnWidth, index) => (visible[index] ? sum + columnWidth + GAP.length : sum), -GAP.length);
    const fits = () => total() <= terminal;

    // Headers wider than their cells go onto more lines first ("DELIVERY RATE"): nothing is lost.
    // All of them, so that the header reads evenly.
    if (!fits()) {
      columns.forEach((_, index) => {
        wrapHeader[index] = headerLine[index]! > Math.max(headerWord[index]!, cells[index]!);
        width[index] = widthOf(index);
      });
    }
    // Then low-value columns are shortened, then dropped: lowest priority first, among equals the rightmost.
    const byPriority = columns.map((_, index) => index).sort((a, b) => (columns[a]!.priority ?? 0) - (columns[b]!.priority ?? 0) || b - a);
    for (const index of byPriority) {
      if (fits()) break;
      if (!columns[index]!.shrink) continue;
      useShrink[index] = true;
      width[index] = widthOf(index);
    }
    for (const index of byPriority) {
      if (fits()) break;
      if (columns[index]!.drop && visible.filter(Boolean).length > 1) visible[index] = false;
    }
    // Then long text is cut: free text first, names only when that is not enough.
    let cutFits = true;
    if (!fits()) {
      const minimum = (index: number) => Math.min(width[index]!, Math.max(headerWidth(index), MIN_CUT_WIDTH));
      const sum = (indexes: number[], of: (index: number) => number) => indexes.reduce((total, index) => total + of(index), 0);
      const prose = columns.flatMap((column, index) => (visible[index] && column.prose ? [index] : []));
      const names = columns.flatMap((column, index) => (visible[index] && column.truncate && !column.prose ? [index] : []));
      const room = terminal - total() + sum(prose, (index) => width[index]!) + sum(names, (index) => width[index]!);
      // The room left for free text once the names have theirs (whole, or cut as little as they must).
      let proseRoom = room - sum(names, (index) => width[index]!);
      if (proseRoom < sum(prose, minimum)) {
        const cut = cutToFit(
          names.map((index) => width[index]!),
          names.map(minimum),
          room - sum(prose, minimum),
        );
        if (cut === undefined) cutFits = false;
        else {
          names.forEach((index, position) => (width[index] = cut[position]!));
          proseRoom = room - sum(names, (index) => width[index]!);
        }
      }
      const cut = cutFits
        ? cutToFit(
            prose.map((index) => width[index]!),
            prose.map(minimum),
            proseRoom,
          )
        : undefined;
      if (cut === undefined) cutFits = false;
      else prose.forEach((index, position) => (width[index] = cut[position]!));
    }
    const shown: Plan['shown'] = [];
    columns.forEach((column, index) => {
      if (visible[index]) shown.push({ index, width: width[index]!, shrink: useShrink[index]!, truncate: column.truncate === true || column.prose === true });
    });
    return { shown, vertical: !cutFits, columns: terminal };
  }

  /** No table fits the terminal: rows show as blocks. */
  get blocks(): boolean {
    return this.plan.vertical;
  }

  /**
   * Rows as lines (the header first, on the first call) or, when no table fits, as blocks. Rows
   * that need more room than the table gave earlier ones are laid out anew, under a new header.
   */
  render(rows: Cell[][]): string {
    let text = '';
    if (this.started) {
      const wider = this.measure(rows);
      const resized = this.out.columns !== this.plan.columns;
      if ((wider && !this.plan.vertical) || resized) {
        const plan = this.fit();
        // On the same terminal, only a plan that gives every column at least its room makes the
        // new rows fit better; one that takes room from a column would cut more, not less.
        if (!samePlan(plan, this.plan) && (resized || widens(plan, this.plan))) {
          this.plan = plan;
          // A blank line, then the table goes on under a header of its own.
          if (!plan.vertical) text += `\n${this.header()}`;
        }
      }
    }
    if (this.plan.vertical) {
      for (const row of rows) {
        // Blocks are separated by a blank line, also from the blocks of an earlier page.
        text += `${this.started ? '\n' : ''}${this.block(row)}`;
        this.started = true;
      }
      return text;
    }
    if (!this.started) {
      text += this.header();
      this.started = true;
    }
    for (const row of rows) text += this.line(this.plan.shown.map(({ index }) => shownCell(this.out, row[index] ?? '')));
    return text;
  }

  /** The header row; a header wrapped onto more lines ends on the last, next to the data. */
  private header(): string {
    const wrapped = this.plan.shown.map(({ index, width }) => wrapLines(this.columns[index]!.header, width));
    const height = wrapped.reduce((tallest, lines) => Math.max(tallest, lines.length), 0);
    let text = '';
    for (let line = 0; line < height; line++) {
      text += this.line(
        wrapped.map((lines) => ({ text: lines[line - (height - lines.length)] ?? '', paint: this.style.bold, extra: 0 })),
        true,
      );
    }
    return text;
  }

  private line(cells: Shown[], header = false): string {
    let line = '';
    let used = 0;
    cells.forEach((cell, position) => {
      const { index, width, shrink, truncate: cuttable } = this.plan.shown[position]!;
      const column = this.columns[index]!;
      const last = position === cells.length - 1;
      // The last column may run to the terminal's edge: later pages' longer cells keep more.
      const limit = last ? Math.max(width, this.out.columns - used) : width;
      let text = shrink && column.shrink && !header ? column.shrink(cell.text) : cell.text;
      let textWidth = displayWidth(text) + cell.extra;
      if (cuttable && textWidth > limit) {
        text = truncate(text, limit - cell.extra);
        textWidth = displayWidth(text) + cell.extra;
      }
      const painted = cell.paint ? cell.paint(text) : text;
      const align = column.align ?? 'left';
      if (!last) line += pad(painted, textWidth, width, align) + GAP;
      // Nothing trails the last cell: no padding, nor the gap before an empty one.
      else line = text === '' ? line.trimEnd() : line + (align === 'left' ? painted : pad(painted, textWidth, width, align));
      used += width + GAP.length;
    });
    return `${line}\n`;
  }

  private block(row: Cell[]): string {
    return renderBlock(
      this.out,
      this.columns.map((column, index) => ({ label: `${column.header}:`, cell: row[index] ?? '' })),
    );
  }
}

function samePlan(a: Plan, b: Plan): boolean {
  return (
    a.vertical === b.vertical &&
    a.shown.length === b.shown.length &&
    a.shown.every((column, position) => {
      const other = b.shown[position]!;
      return column.index === other.index && column.width === other.width && column.shrink === other.shrink;
    })
  );
}

/** The plan shows the same columns as the one before, none narrower. */
function widens(plan: Plan, before: Plan): boolean {
  return (
    !plan.vertical &&
    plan.shown.length === before.shown.length &&
    plan.shown.every((column, position) => column.index === before.shown[position]!.index && column.width >= before.shown[position]!.width)
  );
}

/**
 * Column widths cut to fit `room`: the widest are cut first, to one common width, none below its
 * minimum, and what room is left over goes to the leftmost cut columns. undefined when even the
 * minimums do not fit.
 */
function cutToFit(widths: number[], minimums: number[], room: number): number[] | undefined {
  const at = (cap: number) => widths.map((width, index) => Math.max(minimums[index]!, Math.min(width, cap)));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  if (sum(minimums) > room) return undefined;
  // The largest common cap that fits, by bisection.
  let low = 0;
  let high = widths.reduce((widest, width) => Math.max(widest, width), 0);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (sum(at(middle)) <= room) low = middle;
    else high = middle - 1;
  }
  const fitted = at(low);
  let spare = room - sum(fitted);
  for (let index = 0; index < fitted.length && spare > 0; index++) {
    if (fitted[index]! < widths[index]!) {
      fitted[index] = fitted[index]! + 1;
      spare -= 1;
    }
  }
  return fitted;
}

/**
 * Labelled values, one per line, the values aligned after the labels and wrapped to the terminal;
 * when the labels leave too little room, each value goes on the lines under its label. With a
 * header (a record's FIELD / VALUE), the header is bold and shown only beside; without, the labels are.
 */
function renderBlock(out: Output, fields: { label: string; cell: Cell }[], header?: [string, string]): string {
  const style = styleFor(out);
  const labels = fields.map(({ label }) => sanitize(label));
  const labelWidth = labels.reduce((widest, label) => Math.max(widest, displayWidth(label)), header ? displayWidth(header[0]) : 0);
  const beside = out.columns - labelWidth - GAP.length >= MIN_VALUE_WIDTH;
  const indent = beside ? labelWidth + GAP.length : GAP.length;
  const valueWidth = Math.max(out.columns - indent, 1);
  const under = (shownLabel: string, values: string[]) => `${shownLabel}\n${values.map((value) => `${GAP}${value}`).join('\n')}\n`;
  const labelled = (label: string, shownLabel: string, values: string[]) =>
    beside ? `${pad(shownLabel, displayWidth(label), labelWidth, 'left')}${GAP}${values.join(`\n${' '.repeat(indent)}`)}\n` : under(shownLabel, values);
  let text = beside && header ? labelled(header[0], style.bold(header[0]), [style.bold(header[1])]) : '';
  fields.forEach(({ cell }, index) => {
    const label = labels[index]!;
    const shownLabel = header ? label : style.bold(label);
    const values = valueLines(out, cell, valueWidth);
    // A word too wide to go beside its label (an address, never cut) goes under it, where it fits.
    if (beside && values.some((value) => paintedWidth(value) > valueWidth)) text += under(shownLabel, valueLines(out, cell, out.columns - GAP.length));
    else text += labelled(label, shownLabel, values);
  });
  return text;
}

/** A value wrapped to `width` columns at spaces (an id longer than that stays whole), each line painted. */
function valueLines(out: Output, cell: Cell, width: number): string[] {
  const { text, paint, extra } = shownCell(out, cell);
  const lines = wrapLines(text, Math.max(width - extra, 1));
  return paint ? lines.map(paint) : lines;
}

/**
 * Tab-separated rows, optionally under a header line: the form scripts read. With colour forced on
 * a pipe (FORCE_COLOR), the header is bold and cells painted as on a terminal; the shape is the same.
 */
export function renderRows(columns: Column[], rows: Cell[][], header: boolean, out?: Output): string {
  const style = out?.color === true ? styleFor(out) : undefined;
  const painted = (cell: Cell) => {
    const text = sanitize(cellText(cell));
    if (style === undefined || typeof cell === 'string' || !cell.paint) return text;
    // Colour only: a paint that adds text (a swatch) would change the value a script reads.
    const painted = cell.paint(text);
    return unpainted(painted) === text ? painted : text;
  };
  let text = header ? `${columns.map((column) => (style ? style.bold(column.header) : column.header)).join('\t')}\n` : '';
  for (const row of rows) text += `${row.map(painted).join('\t')}\n`;
  return text;
}

/**
 * A record's fields as field / value rows, in the API's order; `paint` colours chosen values. On a
 * terminal the values are wrapped to its width beside the field names, or under them when the
 * terminal is too narrow for both.
 */
export function renderRecord(out: Output, record: object, paint: Record<string, (text: string) => string> = {}): string {
  if (!out.tty)
    return renderRows(
      [{ header: 'FIELD' }, { header: 'VALUE' }],
      Object.entries(record).map(([key, value]) => [key, { text: pipedValue(value), paint: paint[key] }]),
      true,
      out,
    );
  const fields = Object.entries(record).map(([key, value]) => ({ label: key, cell: { text: displayValue(value), paint: paint[key] } }));
  return renderBlock(out, fields, ['FIELD', 'VALUE']);
}

/**
 * A value of a record on a pipe, by the one rule every piped record follows: text as it is, anything
 * else as JSON in the one cell (a number, true, null, an array, an object).
 */
function pipedValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** How a value from the API reads in a table cell. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return value.length === 0 ? '-' : value.join(', ');
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
