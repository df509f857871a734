/**
 * Tables for people, rows for pipes: on a terminal a boxed table (cli-table3, which keeps columns
 * aligned with wide characters), elsewhere tab-separated rows under a header line. Every cell is
 * sanitized here, the one place text from the API reaches a table.
 */
import Table from 'cli-table3';
import type { Output } from './output.js';
import { sanitize } from './sanitize.js';
import { styleFor } from './style.js';

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A cell: plain text, or text with a colour applied only on a colour terminal. */
export type Cell = string | { text: string; paint?: (text: string) => string };

export function cellText(cell: Cell): string {
  return typeof cell === 'string' ? cell : cell.text;
}

export function renderTable(out: Output, columns: Column[], rows: Cell[][]): string {
  if (!out.tty) return renderRows(columns, rows, true);
  const style = styleFor(out);
  const table = new Table({
    head: columns.map((column) => style.bold(column.header)),
    style: { head: [], border: [] },
    colAligns: columns.map((column) => column.align ?? 'left'),
  });
  for (const row of rows) {
    table.push(
      row.map((cell) => {
        const text = sanitize(cellText(cell));
        return typeof cell !== 'string' && cell.paint && out.color ? cell.paint(text) : text;
      }),
    );
  }
  return `${table.toString()}\n`;
}

/** Tab-separated rows, optionally under a header line: the form scripts read. */
export function renderRows(columns: Column[], rows: Cell[][], header: boolean): string {
  const lines = rows.map((row) => row.map((cell) => sanitize(cellText(cell))).join('\t'));
  if (header) lines.unshift(columns.map((column) => column.header).join('\t'));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** A record's fields as field / value rows, in the API's order; `paint` colours chosen values. */
export function renderRecord(out: Output, record: object, paint: Record<string, (text: string) => string> = {}): string {
  const rows: Cell[][] = Object.entries(record).map(([key, value]) => [key, { text: displayValue(value), paint: paint[key] }]);
  return renderTable(out, [{ header: 'FIELD' }, { header: 'VALUE' }], rows);
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
