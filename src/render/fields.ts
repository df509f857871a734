/**
 * Fields as "label  value" lines that fit a width (80 columns by default): long values wrap under
 * their own column, at spaces where there are some. For records with long free text (subjects,
 * rule descriptions), where a box-drawn table would run past the edge of the terminal. Piped, they
 * are FIELD and VALUE tab-separated rows like every other table.
 */

import { sanitize } from '../base/sanitize.js';
import type { Output } from './output.js';
import { styleFor } from './style.js';
import { renderRows } from './table.js';
import { displayWidth } from './width.js';
import { wrapLines } from './wrap.js';

const TEXT_WIDTH = 80;

/** How far a value put under its label is indented. */
const UNDER = 2;

/** Each text sanitized and wrapped to `width`, every line after the first indented by `indent`. */
export function indented(text: string, indent: number, width: number = TEXT_WIDTH): string {
  const pad = ' '.repeat(indent);
  return wrapLines(sanitize(text), Math.max(20, width - indent)).join(`\n${pad}`);
}

/** Rows of label and value; the labels are the program's own, the values are sanitized. */
export function renderFields(out: Output, rows: [label: string, value: string][], width: number = Math.min(out.columns, TEXT_WIDTH)): string {
  if (!out.tty) return renderRows([{ header: 'FIELD' }, { header: 'VALUE' }], rows, true, out);
  const paint = styleFor(out).bold;
  const labelWidth = Math.min(24, Math.max(0, ...rows.map(([label]) => label.length))) + 2;
  return rows
    .map(([label, value]) => {
      // One word too wide to go beside its label (an address) goes whole on the line under it.
      const shown = sanitize(value);
      if (!/\s/.test(shown) && displayWidth(shown) > width - labelWidth && displayWidth(shown) <= width - UNDER) {
        return `${paint(label)}\n${' '.repeat(UNDER)}${shown}\n`;
      }
      const padded = label.length >= labelWidth - 1 ? `${label}\n${' '.repeat(labelWidth)}` : label.padEnd(labelWidth);
      return `${paint(padded)}${indented(value, labelWidth, width)}\n`;
    })
    .join('');
}
