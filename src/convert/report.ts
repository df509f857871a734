/** What `content convert` prints: each record written, its variables' mapping, and the list of what to look at. */
import { wrapLines } from '../render/wrap.js';
import { fidelityLine } from './fidelity.js';
import type { Converted } from './model.js';

export function renderConversion(root: string, records: readonly Converted[], width: number): string {
  const lines: string[] = [];
  for (const record of records) {
    lines.push(`${record.source} -> ${root}/${record.path}/ (${record.files.join(', ')})`);
    if (record.fidelity !== undefined) lines.push(`  fidelity: ${fidelityLine(record.fidelity)}`);
    for (const variable of record.variables) lines.push(`  variable ${variable.source} -> ${variable.lmx}: ${variable.reason}`);
    for (const item of record.remediation) {
      lines.push(`  ${item.file}:${item.line}:${item.column} ${item.construct}: ${item.done} (${item.outcome})`);
      // The other places an entry holds for, by line and column where they are in its file.
      if (item.also !== undefined)
        lines.push(`    also at: ${item.also.map((at) => `${at.file === item.file ? '' : `${at.file}:`}${at.line}:${at.column}`).join(', ')}`);
      lines.push(`    to do: ${item.todo}`);
    }
  }
  return `${lines.flatMap((line) => hanging(line, width)).join('\n')}\n`;
}

/** A line wrapped to the terminal's width, the lines it continues on indented two more (`migrate report` prints so too). */
export function hanging(line: string, width: number): string[] {
  if (!Number.isFinite(width)) return [line];
  const indent = /^ */.exec(line)![0];
  const [first = '', ...rest] = wrapLines(line, Math.max(width - 2, 20));
  return [first, ...rest.map((more) => `${indent}  ${more.trimStart()}`)];
}
