/**
 * How a table shares its width among its columns, as a browser's table layout does: the columns of
 * automatic layout by what their cells ask (CSS Tables 3), those of `table-layout: fixed` by their
 * first row's widths. The layout model (layout.ts) gives each cell its place by them.
 */
import type { Asks } from './layout-intrinsic.js';

/** A column of a table as its cells ask it: the least and most their content takes, whether a cell gives a share (`50%`), the width given. */
export interface Column {
  asks: Asks;
  share: boolean;
  width: number | undefined;
}

/** A row's columns, each widened by the cells of the other rows at its place (the first list is the row's own): the widest content, the widest width. */
export function mergedColumns(rows: readonly (readonly Column[])[]): Column[] {
  const columns = rows[0]!.map((column) => ({ ...column }));
  for (const other of rows.slice(1))
    other.forEach((cell, index) => {
      const column = columns[index]!;
      column.asks = { least: Math.max(column.asks.least, cell.asks.least), most: Math.max(column.asks.most, cell.asks.most) };
      column.share ||= cell.share;
      if (cell.width !== undefined) column.width = Math.max(column.width ?? 0, cell.width);
    });
  return columns;
}

/**
 * The columns of a table of `table-layout: fixed`, as Chromium draws them: each its first row's
 * cell's width, those of none sharing what is left evenly, all narrowed or widened in proportion to
 * fill the row.
 */
export function fixedShares(given: readonly (number | undefined)[], available: number): number[] {
  const written = given.reduce<number>((sum, width) => sum + (width ?? 0), 0);
  const open = given.filter((width) => width === undefined).length;
  const columns = given.map((width) => width ?? Math.max(0, available - written) / open);
  const total = columns.reduce((sum, width) => sum + width, 0);
  return total > available || open === 0 ? columns.map((width) => (total > 0 ? (width * available) / total : width)) : columns;
}

/**
 * A table's row shared out as a browser's table layout shares it (CSS Tables 3, "distributing
 * width to columns"): four guesses, each cell at the least its content takes; then a cell of a
 * share (`50%`) at that share; then a cell of a width in pixels at that width; then every other
 * cell at its content's widest line. The row's width falls between two guesses, and each cell
 * takes its place between them in proportion; past the last, room left over goes to the cells
 * that say no width, in proportion to their content (to all, in proportion, where each says one).
 */
export function shareRow(columns: readonly Column[], widths: (number | undefined)[], available: number): void {
  const least = columns.map((column) => column.asks.least);
  const given = columns.map((column) => column.width);
  const withShares = least.map((width, index) => (columns[index]!.share ? Math.max(width, given[index]!) : width));
  const withWidths = withShares.map((width, index) => (given[index] !== undefined && !columns[index]!.share ? Math.max(width, given[index]!) : width));
  const widest = withWidths.map((width, index) => (given[index] === undefined ? Math.max(width, columns[index]!.asks.most) : width));
  const sum = (list: readonly number[]) => list.reduce((total, width) => total + width, 0);
  const guesses = [least, withShares, withWidths, widest];
  const settled = (guess: readonly number[]) => guess.forEach((width, index) => (widths[index] = width));
  for (let at = 1; at < guesses.length; at += 1) {
    const [below, above] = [guesses[at - 1]!, guesses[at]!];
    if (sum(above) < available) continue;
    const span = sum(above) - sum(below);
    const part = span > 0 ? Math.max(0, available - sum(below)) / span : 0;
    return settled(below.map((width, index) => width + part * (above[index]! - width)));
  }
  const total = sum(widest);
  const open = given.flatMap((width, index) => (width === undefined ? [index] : []));
  const openMost = sum(open.map((index) => widest[index]!));
  const grown = widest.map((width, index) => {
    if (open.length === 0) return total > 0 ? (width * available) / total : width;
    if (given[index] !== undefined) return width;
    return width + (openMost > 0 ? ((available - total) * width) / openMost : (available - total) / open.length);
  });
  settled(grown);
}
