/** What `content convert` prints: each record written, its variables' mapping, and the list of what to look at. */
import type { Converted } from './model.js';

export function renderConversion(root: string, records: readonly Converted[]): string {
  const lines: string[] = [];
  for (const record of records) {
    lines.push(`${record.source} -> ${root}/${record.path}/ (${record.files.join(', ')})`);
    for (const variable of record.variables) lines.push(`  variable ${variable.source} -> ${variable.lmx}: ${variable.reason}`);
    for (const item of record.remediation) {
      lines.push(`  ${item.file}:${item.line}:${item.column} ${item.construct}: ${item.done} (${item.outcome})`);
      lines.push(`    to do: ${item.todo}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
