/** The lines a change prints, a record each, as a table: what became of it (`content push`, `content diff`, `apply`). */
import type { Output } from './output.js';
import { styleFor } from './style.js';
import { renderTable } from './table.js';

export type LineStatus = 'added' | 'updated' | 'unchanged' | 'gone' | 'created' | 'behind' | 'conflict' | 'refused' | 'skipped';

export function renderLines(out: Output, lines: readonly { status: LineStatus; path: string; note?: string }[]): string {
  if (lines.length === 0) return '';
  const style = styleFor(out);
  const paint: Partial<Record<LineStatus, (text: string) => string>> = {
    conflict: style.red,
    refused: style.red,
    gone: style.yellow,
    behind: style.yellow,
    created: style.green,
    added: style.green,
  };
  return renderTable(
    out,
    [{ header: 'STATUS' }, { header: 'RECORD' }, { header: 'NOTE', prose: true }],
    lines.map((line) => [{ text: line.status, paint: paint[line.status] }, line.path, line.note ?? '']),
  );
}
