/** Text views of components: the list, one component with its LMX, and the reach of an update. */

import { sanitize } from '../../base/sanitize.js';
import type { Component, UpdatedComponent } from '../../platform/components/schemas.js';
import type { ListView } from '../../render/list.js';
import type { Output } from '../../render/output.js';
import { styleFor } from '../../render/style.js';
import { renderRecord } from '../../render/table.js';
import { wrapLines } from '../../render/wrap.js';

/** "3 lines, 120 characters": how big a body is, for the list. */
function lmxSize(lmx: string): string {
  const lines = lmx === '' ? 0 : lmx.split('\n').length;
  return `${lines} ${lines === 1 ? 'line' : 'lines'}, ${lmx.length} ${lmx.length === 1 ? 'character' : 'characters'}`;
}

export const componentListView: ListView<Component> = {
  noun: 'components',
  columns: [{ header: 'ID' }, { header: 'NAME', truncate: true }, { header: 'LMX' }],
  row: (component) => [component.id, component.name, lmxSize(component.lmx)],
};

/** The name, id and size of the body; the body itself is what `--lmx` prints. */
export function renderComponent(out: Output, component: Component): string {
  if (!out.tty) return renderRecord(out, component);
  const style = styleFor(out);
  const id = sanitize(component.id);
  const lines = [
    style.bold(sanitize(component.name)),
    `id ${id} · LMX ${lmxSize(component.lmx)}`,
    style.dim(`print the LMX with \`loopsctl components get ${id} --lmx\``),
  ];
  // Each line wrapped to the terminal, as `workflow show` wraps its header.
  return `${lines.flatMap((line) => wrapLines(line, out.columns)).join('\n')}\n`;
}

/**
 * The LMX alone, for a file or an editor: exactly as stored when piped; on a terminal with
 * control characters shown as escapes and a final newline.
 */
export function lmxText(out: Output, lmx: string): string {
  if (!out.tty) return lmx;
  const shown = lmx.split('\n').map(sanitize).join('\n');
  return shown.endsWith('\n') ? shown : `${shown}\n`;
}

export function renderUpdatedComponent(out: Output, updated: UpdatedComponent): string {
  if (!out.tty) return renderRecord(out, updated);
  const { affectedEmailCount, ...component } = updated;
  const reach =
    affectedEmailCount === 0 ? 'No email was changed.' : `${affectedEmailCount === 1 ? '1 email uses' : `${affectedEmailCount} emails use`} the new body.`;
  return `${renderComponent(out, component)}\n${reach}\n`;
}
