/** Text views of themes: the list with colour swatches, and one theme's styles grouped as in the editor. */

import { sanitize } from '../../base/sanitize.js';
import type { Theme, UpdatedTheme } from '../../platform/themes/schemas.js';
import { isStyleName, THEME_STYLE_GROUPS, THEME_STYLES } from '../../platform/themes/style-names.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { type Style, styleFor } from '../../render/style.js';
import { type Cell, renderRecord, renderTable, timestampColumn } from '../../render/table.js';
import { wrapLines } from '../../render/wrap.js';
import { swatch } from './swatch.js';

/** A colour cell: the hex code, with a block of that colour beside it on a colour terminal. */
function colourCell(value: unknown, style: Style): Cell {
  const text = typeof value === 'string' ? value : value === undefined ? '-' : String(value);
  return { text, paint: (shown) => swatch(style, text, shown) };
}

export const themeListView: ListView<Theme> = {
  noun: 'themes',
  columns: [
    { header: 'ID' },
    { header: 'NAME', truncate: true },
    { header: 'DEFAULT' },
    { header: 'BACKGROUND' },
    { header: 'BODY', drop: true, priority: -2 },
    { header: 'TEXT', drop: true, priority: -2 },
    { header: 'BUTTON' },
    timestampColumn('UPDATED'),
  ],
  row: (theme, style) => [
    theme.id,
    theme.name,
    theme.isDefault ? 'yes' : 'no',
    colourCell(theme.styles.backgroundColor, style),
    colourCell(theme.styles.bodyColor, style),
    colourCell(theme.styles.textBaseColor, style),
    colourCell(theme.styles.buttonBodyColor, style),
    theme.updatedAt,
  ],
};

/**
 * Every style of a theme, grouped as the reference groups them; styles the reference does not
 * name come last under "Other", so nothing the API sends is hidden.
 */
export function renderTheme(out: Output, theme: Theme): string {
  if (!out.tty) return renderRecord(out, theme);
  const style = styleFor(out);
  const facts = [`id ${theme.id}`, theme.isDefault ? 'default theme' : undefined, `updated ${theme.updatedAt}`].filter(Boolean).join(' · ');
  // Each line wrapped to the terminal, as `workflow show` wraps its header.
  const header = [style.bold(sanitize(theme.name)), style.dim(sanitize(facts))].flatMap((line) => wrapLines(line, out.columns)).join('\n');
  const styles = theme.styles as Record<string, unknown>;
  const grouped: [string, string[]][] = Object.entries(THEME_STYLE_GROUPS);
  const known = new Set(grouped.flatMap(([, fields]) => fields));
  const other = Object.keys(styles).filter((key) => !known.has(key));
  if (other.length > 0) grouped.push(['Other', other]);
  const rows: Cell[][] = grouped.flatMap(([group, fields]) =>
    fields.map((field, index) => [
      // On a terminal the group is named once, above its styles; rows for scripts repeat it.
      out.tty && index > 0 ? '' : group,
      field,
      isColour(field) ? colourCell(styles[field], style) : displayStyle(styles[field]),
    ]),
  );
  return `${header}\n\n${renderTable(out, [{ header: 'GROUP' }, { header: 'STYLE' }, { header: 'VALUE' }], rows)}`;
}

/** A known colour style, or one the API added since whose name says it is a colour. */
function isColour(field: string): boolean {
  return isStyleName(field) ? THEME_STYLES[field] === 'colour' : /Colou?r$/.test(field);
}

function displayStyle(value: unknown): string {
  if (value === undefined || value === null) return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** An updated theme, and a line saying how many emails the change reached. */
export function renderUpdatedTheme(out: Output, updated: UpdatedTheme): string {
  if (!out.tty) return renderRecord(out, updated);
  const { affectedEmailCount, ...theme } = updated;
  const reach =
    affectedEmailCount === 0
      ? 'No email was changed.'
      : `${affectedEmailCount === 1 ? '1 email follows' : `${affectedEmailCount} emails follow`} the new styles (styles edited on an email are kept).`;
  return `${renderTheme(out, theme)}\n${reach}\n`;
}
